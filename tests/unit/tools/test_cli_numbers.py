"""Numbers on the command line are checked where argparse reads them: out of range is a one-line
usage error naming the option, never a traceback (a turn of 2**31 overflowed a message's int32)."""

from __future__ import annotations

import pytest

from pate.cli.main import build_parser

CASES = [
    ["reports", "get", "--campaign", "demo", "--turn", "2147483648"],
    ["orders", "submit", "--campaign", "demo", "--turn", "4294967296", "--file", "o.txt"],
    ["campaign", "close", "demo", "--turn", "4294967296"],
    ["campaign", "deadline", "demo", "--turn", "99999999999", "2026-12-24T18:00:00Z"],
    ["turn", "replay", "demo", "-1"],
    ["campaign", "simulate", "--scenario", "training", "--turns", "101", "--out", "/tmp/x"],
]


@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a[:2]))
def test_an_out_of_range_number_is_a_usage_error_naming_the_option(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(argv)
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert "from 0 to 100" in err and "Traceback" not in err
    assert "--turn" in err or "turn" in err.split("error:")[1]


def test_a_number_in_range_is_read() -> None:
    args = build_parser().parse_args(["reports", "get", "--campaign", "demo", "--turn", "15"])
    assert args.turn == 15
