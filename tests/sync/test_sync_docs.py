"""docs/SYNC.md names every message, change kind, refusal and error the code has."""

from __future__ import annotations

import typing
from pathlib import Path

from scorer.sync import messages

DOC = (Path(__file__).resolve().parents[2] / "docs" / "SYNC.md").read_text(encoding="utf-8")


def _tags(union: object, field: str) -> list[str]:
    models = typing.get_args(typing.get_args(union)[0])
    return [model.model_fields[field].default for model in models]


def test_every_message_and_kind_is_written_down() -> None:
    tags = (_tags(messages.ClientMessage, "type") + _tags(messages.ServerMessage, "type")
            + _tags(messages.Kind, "kind"))
    assert len(tags) == 21
    missing = [tag for tag in tags if f"`{tag}`" not in DOC]
    assert not missing, f"docs/SYNC.md does not name {missing}"


def test_every_refusal_and_error_is_written_down() -> None:
    names = [r.value for r in messages.Reason] + [p.value for p in messages.Problem]
    missing = [name for name in names if f"`{name}`" not in DOC]
    assert not missing, f"docs/SYNC.md does not name {missing}"
