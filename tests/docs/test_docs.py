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
