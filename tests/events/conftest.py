"""The club night tests share the rules tests' Hypothesis strategies."""

from __future__ import annotations

import sys
from pathlib import Path

RULES_TESTS = str(Path(__file__).resolve().parents[1] / "rules")
if RULES_TESTS not in sys.path:
    sys.path.insert(0, RULES_TESTS)
