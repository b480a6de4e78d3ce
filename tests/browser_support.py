"""Driving the hand form in headless Chromium."""

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


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
