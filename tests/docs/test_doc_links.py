"""The README and the documents it sends readers to: every link inside the
project leads to a file that exists, at a heading that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "SECURITY.md", ROOT / "CONTRIBUTING.md",
        *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#+\s+(.*)$", re.MULTILINE)


def anchor(heading: str) -> str:
    """A heading's anchor as code hosts make it: lower case, punctuation dropped,
    spaces to hyphens."""
    words = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return words.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(h) for h in HEADING.findall(path.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("doc", DOCS, ids=[str(d.relative_to(ROOT)) for d in DOCS])
def test_links_inside_the_project_lead_somewhere(doc: Path) -> None:
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://")):
            continue
        file, _, fragment = target.partition("#")
        path = (doc.parent / file).resolve() if file else doc
        assert path.is_file(), f"{doc.name}: {target} leads nowhere"
        if fragment:
            assert fragment in anchors(path), f"{doc.name}: no heading for {target}"


def test_readme_installs_uv_with_its_own_installer() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "curl -LsSf https://astral.sh/uv/install.sh | sh" in readme
    assert "irm https://astral.sh/uv/install.ps1 | iex" in readme  # Windows
    assert "pip install uv" not in readme  # refused by externally managed Pythons
    assert "uv run tarabish\n" in readme and "uv run pytest\n" in readme
