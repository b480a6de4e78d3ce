"""docs/rules.md shows every profile's values as the engine has them."""

import importlib.util
import re
from pathlib import Path

from ledger.engine import PROFILES
from ledger.engine.rules import SETTING_HELP

ROOT = Path(__file__).resolve().parents[2]


def load_generator():
    spec = importlib.util.spec_from_file_location("rules_doc", ROOT / "scripts" / "rules_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rules_page_has_the_engines_tables():
    generator = load_generator()
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert generator.tables() in text, "run: python scripts/rules_doc.py"


def test_the_tables_hold_every_profile_and_setting():
    """Read back from the page itself, independently of the generator's code."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    values, meanings = text.split("### What each setting means")
    header = next(line for line in values.splitlines() if line.startswith("| setting | `"))
    assert re.findall(r"`(\w+)`", header) == list(PROFILES)
    rows = {
        m.group(1): [c.strip() for c in m.group(2).split("|")]
        for m in re.finditer(r"^\| `(\w+)` \| (.+) \|$", values, re.M)
    }
    settings = set(PROFILES["sparkai"].to_json()) - {"profile"}
    assert set(rows) == settings
    assert all(len(cells) == len(PROFILES) for cells in rows.values())
    for name in settings:
        assert f"| `{name}` | {SETTING_HELP[name]} |" in meanings
    assert rows["tiplu"][list(PROFILES).index("everestbuzz")] == "3 / 7 / 12"
    assert rows["unseen_maal"][list(PROFILES).index("gamerules")] == "keep"
    assert rows["match_length"][0] == "4 hands"


def test_the_rules_page_links_the_choices():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "](rule-choices.md)" in text
    assert (ROOT / "docs" / "rule-choices.md").exists()
