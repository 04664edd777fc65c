"""Reasons: why a ruling came out as it did, as data and as a sentence."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Reason(BaseModel):
    """One step of a ruling: a stable code, the sentence, and the rules section."""

    model_config = ConfigDict(frozen=True)

    code: str
    text: str
    section: str

    def __str__(self) -> str:
        return self.text
