"""The intel tests share the hand-built world of the rule cases."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "cases" / "intel"))
