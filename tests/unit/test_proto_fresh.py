"""The committed generated code matches proto/ (run `make proto` when this fails)."""

import tempfile
from pathlib import Path

from pate.tools import genproto


def test_generated_code_is_fresh() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        genproto.generate(Path(tmp))
        fresh = genproto.generated_files(Path(tmp))
    committed = genproto.generated_files(genproto.ROOT)
    stale = sorted(k for k in fresh.keys() | committed.keys() if fresh.get(k) != committed.get(k))
    assert not stale, f"stale generated code, run `make proto`: {stale}"
