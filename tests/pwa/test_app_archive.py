"""What the built site's app.zip holds: bytecode only for the app and its wheels (the
phone's first visit must not grow as the app does: issue 40), wheels' metadata cut to
what importlib.metadata reads, and their licences kept."""

from __future__ import annotations

import zipfile
from pathlib import Path

from scorer.store.validation import rules_fingerprint, scoring_fingerprint
from scorer.webbuild.site import APP_ARCHIVE, FINGERPRINTED_FILES

REPO = Path(__file__).resolve().parents[2]


def test_the_app_archive_ships_bytecode_and_licences_not_sources(built_site: Path) -> None:
    with zipfile.ZipFile(built_site / APP_ARCHIVE) as zf:
        names = zf.namelist()
        metadata = {n: zf.read(n) for n in names if n.endswith(".dist-info/METADATA")}
    sources = [n for n in names if n.endswith(".py") and n != "main.py"
               and not n.startswith("rules/") and n not in FINGERPRINTED_FILES]
    assert not sources, f"sources beside their bytecode: {sources[:5]}"
    assert {"main.py", "scorer/browser/start.pyc", "rules/replay.pyc",
            "pydantic/main.pyc"} <= set(names)
    assert not [n for n in names if n.endswith("/RECORD") or "/sboms/" in n]
    assert not [n for n in names if n.startswith(("pydantic/mypy", "pydantic/experimental/"))]
    assert any("dist-info/licenses/" in n or n.endswith("/LICENSE") for n in names)
    pydantic = next(v for k, v in metadata.items() if k.startswith("pydantic-2"))
    assert pydantic.startswith(b"Metadata-Version:") and b"\nVersion: 2." in pydantic
    assert len(pydantic) < 8_000  # its changelog (140 KB) is left out


def test_the_phone_reads_the_fingerprints_the_server_reads(built_site: Path) -> None:
    """A phone hashes the rules engine and the change functions from its archive: they
    must be the server's bytes (no docstring left out), or every phone would be told to
    update, for ever."""
    with zipfile.ZipFile(built_site / APP_ARCHIVE) as zf:
        assert rules_fingerprint(zipfile.Path(zf, "rules/")) == scoring_fingerprint()
        for name in FINGERPRINTED_FILES:
            assert zf.read(name) == (REPO / name).read_bytes(), name
