"""The README names the buttons as a player reads them on screen."""

from pathlib import Path

from scorer.app.views import conflict

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_readme_gives_the_conflict_choices_their_button_words() -> None:
    flat = " ".join(README.split())
    for word in (conflict.KEEP_THEIRS, conflict.USE_MINE, conflict.FINISH_MINE,
                 conflict.RECORD_MINE):
        assert f"**{word}" in flat, word
    assert "use yours instead" not in flat.lower()
