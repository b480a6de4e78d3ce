"""Write the tables of docs/rules.md from the engine: every profile's values and what
each setting means, between the markers below, so that the page cannot drift from
``ledger.engine.rules.PROFILES`` (tests/docs/test_rules_doc.py checks it).

    python scripts/rules_doc.py          # rewrite the tables in docs/rules.md
    python scripts/rules_doc.py --check  # exit 1 when they differ from the engine
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger.engine.rules import PROFILE_TITLES, PROFILES, SETTING_HELP  # noqa: E402

DOC = ROOT / "docs" / "rules.md"
BEGIN = "<!-- BEGIN tables written by scripts/rules_doc.py from the engine: do not edit -->"
END = "<!-- END tables -->"


def value_text(value: object) -> str:
    """A setting's JSON value as the table shows it: ``3 / 8``, ``—``, ``4 hands``."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return " / ".join(str(v) for v in value)
    if isinstance(value, dict):  # a match length
        ((unit, count),) = value.items()
        return f"{count} {unit if count != 1 else unit.rstrip('s')}"
    return str(value)


def tables() -> str:
    """The markdown between the markers."""
    profiles = {pid: rules.to_json() for pid, rules in PROFILES.items()}
    settings = [name for name in next(iter(profiles.values())) if name != "profile"]
    lines = [
        BEGIN,
        "",
        "### Every profile's values",
        "",
        "| setting | " + " | ".join(f"`{pid}`" for pid in profiles) + " |",
        "|---" * (len(profiles) + 1) + "|",
        "| title | " + " | ".join(PROFILE_TITLES[pid] for pid in profiles) + " |",
    ]
    for name in settings:
        cells = (value_text(values[name]) for values in profiles.values())
        lines.append(f"| `{name}` | " + " | ".join(cells) + " |")
    lines += [
        "",
        "### What each setting means",
        "",
        "| setting | meaning |",
        "|---|---|",
    ]
    lines += [f"| `{name}` | {SETTING_HELP[name]} |" for name in settings]
    lines += ["", END]
    return "\n".join(lines)


def rewritten(text: str) -> str:
    """``text`` with the part between the markers replaced by ``tables()``."""
    start, end = text.index(BEGIN), text.index(END) + len(END)
    return text[:start] + tables() + text[end:]


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    fresh = rewritten(text)
    if "--check" in argv:
        if fresh != text:
            print(f"{DOC} differs from the engine: run python scripts/rules_doc.py")
            return 1
        return 0
    DOC.write_text(fresh, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
