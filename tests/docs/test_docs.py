"""The repository's documents: the README links only to files in the repository, and
the API page describes every operation of the OpenAPI document."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def links(path: Path) -> list[str]:
    return LINK.findall(path.read_text(encoding="utf-8"))


def test_the_readme_links_only_to_files_in_the_repository():
    found = links(ROOT / "README.md")
    assert "docs/api.md" in found and "docs/rules.md" in found
    for target in found:
        assert "://" not in target, target
        assert (ROOT / target).exists(), target
    assert "shared/" not in (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_is_short_and_leads_to_every_document():
    """What a newcomer needs first; the rest is in docs/, each page linked from it."""
    readme = ROOT / "README.md"
    assert readme.stat().st_size <= 10 * 1024
    lines = readme.read_text(encoding="utf-8").splitlines()
    assert lines[3].startswith("make run ") and lines[4].startswith("make test ")
    found = set(links(readme))
    for doc in (ROOT / "docs").glob("*.md"):
        assert f"docs/{doc.name}" in found, doc.name


def test_the_docs_link_only_to_files_beside_them():
    for doc in (ROOT / "docs").glob("*.md"):
        for target in links(doc):
            assert "://" in target or (doc.parent / target).exists(), (doc.name, target)


def test_the_api_page_describes_every_operation(client):
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    for path, item in paths.items():
        for method in item:
            assert f"### `{method.upper()} {path}`" in text, (method, path)
