"""Driving the hand form in headless Chromium."""


def choose(page, field_id: str, value: str) -> None:
    """Tap the big radio button of ``field_id`` with ``value`` (its label is the button)."""
    page.locator(f'#{field_id} input[value="{value}"] + span').click()


def fill_checker(page, rows, profile: str = "sparkai") -> None:
    """Choose the profile, type each row's name, seen and maal as one number, and let
    the first row finish by sequences."""
    page.select_option("#rules-profile", profile)
    page.wait_for_selector(f"#rules-profile option[value={profile}][selected]", state="attached")
    for i, (name, seen, maal) in enumerate(rows):
        page.fill(f"#players-{i}-name", name)
        choose(page, f"players-{i}-seen", seen)
        page.locator(f'#player-{i} .mode-input[value="number"] + span').click()
        page.fill(f"#players-{i}-maal", str(maal))
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")


def use_maal_mode(page, row: int, mode: str) -> int:
    """Enter row ``row``'s maal as ``mode`` (counts, cards, number): the choice is under
    the row's "More", opened first if it is closed. Returns the taps it took."""
    if page.locator(f'#player-{row} .mode-input[value="{mode}"]').is_checked():
        return 0
    taps = 0
    more = page.locator(f"#player-{row} details.more")
    if not more.evaluate("d => d.open"):
        more.locator("summary").click()
        taps += 1
    page.locator(f'#player-{row} .mode-input[value="{mode}"] + span').click()
    return taps + 1
