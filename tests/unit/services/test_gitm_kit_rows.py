"""`pate gitm check` always prints every row and a summary, whatever the land service answers
(docs/gitm.md "Checking an implementation"): a check that breaks on an answer it did not foresee
fails its own row with the exception's class, and the rows that need the suite's campaign say
what they need and what became of it, opened or not.  The land service here is the reference
store in this process, with one call answered wrongly on purpose."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine
from sqlalchemy.pool import StaticPool

from gitm.v1 import land_pb2
from pate.gitmkit.check import NAMES, OPENED, run, table
from pate.gitmkit.land import Land
from services.gitm_reference.inprocess import InProcessStub, LocalRpcError, memory_store
from services.gitm_reference.store import LandStore

ROWS = [n.split()[0] for n in NAMES]


class _RepeatNotDuplicate(InProcessStub):
    """Opens the campaign, then answers its repeat as a first open."""

    def OpenCampaign(self, r: land_pb2.OpenCampaignRequest, **kw: Any) -> land_pb2.OpenCampaignResponse:  # noqa: N802
        answer = super().OpenCampaign(r, **kw)
        answer.duplicate = False
        return answer


class _OpenRefused(InProcessStub):
    def OpenCampaign(self, r: land_pb2.OpenCampaignRequest, **kw: Any) -> land_pb2.OpenCampaignResponse:  # noqa: N802
        import grpc

        raise LocalRpcError(grpc.StatusCode.INVALID_ARGUMENT, "units[0].city: 'Portsmouth' is not on the map")


class _NoCapabilities(InProcessStub):
    """Answers GetCapabilities with nothing at all, as a broken stub might."""

    def GetCapabilities(self, r: land_pb2.GetCapabilitiesRequest, **kw: Any) -> Any:  # noqa: N802
        return None


def _mapped() -> LandStore:
    """A store whose map holds the suite's city only (so an off-map open is refused)."""
    engine = create_engine("sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False})
    return LandStore(engine, cities=frozenset({"Portsmouth"}))


def _rows(stub: InProcessStub) -> dict[str, Any]:
    rows = run(Land(stub, "kit-rows", "Portsmouth"))
    assert [r.obligation for r in rows] == ROWS  # every row, by number
    return {r.obligation: r for r in rows}


def test_a_repeat_answered_wrongly_says_the_campaign_was_opened() -> None:
    """ "every later row said 'the suite's campaign could not be opened', which was untrue": the
    knock-on names L2 and what it found, and says the campaign was opened."""
    rows = _rows(_RepeatNotDuplicate(memory_store()))
    assert rows[OPENED].detail.startswith("the repeated OpenCampaign answered duplicate false")
    for later in ("L3", "L4", "L22", "L25"):
        detail = rows[later].detail
        assert not rows[later].passed and rows[later].needs == OPENED
        assert detail.startswith(f"not run: needs the campaign opened by {OPENED}; it was opened, but")
        assert "the repeated OpenCampaign answered duplicate false" in detail
        assert "could not be opened" not in detail
    assert rows["L1"].passed  # run before the open


def test_an_open_refused_says_it_could_not_be_opened_and_why() -> None:
    rows = _rows(_OpenRefused(memory_store()))
    assert rows[OPENED].detail == (
        "the OpenCampaign answered INVALID_ARGUMENT: units[0].city: 'Portsmouth' is not on the map"
    )
    assert rows["L9"].detail.startswith(
        "not run: needs the campaign opened by L2, which could not be opened: "
        "the OpenCampaign answered INVALID_ARGUMENT"
    )
    summary = table(list(rows.values())).splitlines()[-1]
    assert summary.endswith(f"failed ({len(ROWS) - 5} of them not run: they need L2)"), summary


def test_a_check_that_breaks_on_an_answer_fails_its_row_only() -> None:
    """ "a row that raises is FAILED with the exception's class and a bounded message, never a
    traceback": GetCapabilities answering nothing breaks L1 (and the edition-3 question of L25)."""
    rows = _rows(_NoCapabilities(memory_store()))
    assert not rows["L1"].passed and not rows["L1"].skipped
    assert rows["L1"].detail.startswith("the check broke on an answer: AttributeError: ")
    assert len(rows["L1"].detail) < 250
    assert rows[OPENED].passed and rows["L8"].passed  # the rows after it ran
    printed = table(list(rows.values()))
    assert "Traceback" not in printed
    assert len([line for line in printed.splitlines() if line.split(" ", 1)[0] in ROWS]) == len(ROWS)


class _EditionThree(InProcessStub):
    """An edition-3 service: its errors carry no details and its refusals no code."""

    def GetCapabilities(self, r: land_pb2.GetCapabilitiesRequest, **kw: Any) -> land_pb2.Capabilities:  # noqa: N802
        answer = super().GetCapabilities(r, **kw)
        answer.edition = 3
        return answer

    def _do(self, method: str, key: str, work: Any) -> Any:
        try:
            answer = super()._do(method, key, work)
        except LocalRpcError as exc:
            raise LocalRpcError(exc.code(), exc.details()) from None
        for refusal in getattr(answer, "refusals", ()):
            refusal.ClearField("code")
        return answer


def test_an_edition_3_service_is_checked_by_its_messages_and_skips_the_details_rows() -> None:
    """docs/gitm.md "Status codes": details and refusal codes are edition 4's; an edition-3
    service keeps today's checks (L21 reads the field's name in the status message)."""
    rows = _rows(_EditionThree(_mapped()))
    assert rows["L21"].passed and rows["L21"].detail.endswith("naming the field in the message")
    for n in ("L29", "L30", "L31"):
        assert rows[n].skipped and rows[n].detail.startswith("skipped: edition 3:"), rows[n]
    assert rows["L4"].passed and rows["L14"].passed


def test_the_edition_4_rows_read_fields_of_the_reference_service() -> None:
    rows = _rows(InProcessStub(_mapped()))
    assert rows["L21"].detail.endswith("naming the field in its BadRequest")
    assert all(rows[n].passed for n in ("L29", "L30", "L31")), [rows[n] for n in ("L29", "L30", "L31")]


def test_rows_that_need_the_edition_name_l1_when_it_cannot_be_read() -> None:
    rows = _rows(_NoCapabilities(memory_store()))
    for n in ("L21", "L29", "L30", "L31"):
        assert rows[n].needs == "L1" and rows[n].detail.startswith("not run: needs L1, which failed: "), rows[
            n
        ]
    assert "they need L1" in table(list(rows.values())).splitlines()[-1]
