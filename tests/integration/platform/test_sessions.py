"""Sessions in the shared database (services/platform/security/sessions.py, auth.py):
expiry, revocation, binding to campaign and player, pruning."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, func, select

from pate.core.codec import canonical_json
from services.platform.errors import Code, DeskError
from services.platform.security import sessions
from services.platform.security.auth import Authenticator, Credentials
from services.platform.security.passwords import hash_password
from services.platform.store import repository as repo
from services.platform.store import tables

pytestmark = pytest.mark.integration

FAST = PasswordHasher(time_cost=1, memory_cost=64, parallelism=1)  # tests only


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def _campaign(engine: Engine, campaign: str, players: dict[str, str]) -> None:
    with engine.begin() as conn:
        repo.insert_campaign(conn, repo.CampaignRow(campaign, campaign, "inline", 1, 15, 1, "OPEN", None, 0))
        repo.insert_players(
            conn,
            campaign,
            [
                {
                    "id": pid,
                    "name": pid,
                    "state": "BR",
                    "roles_json": canonical_json(["commander"]),
                    "password_hash": hash_password(pw, hasher=FAST),
                }
                for pid, pw in players.items()
            ],
        )


@pytest.fixture
def auth(engine: Engine) -> Authenticator:
    _campaign(engine, "one", {"ann": "ann-secret", "bob": "bob-secret"})
    _campaign(engine, "two", {"ann": "ann-other"})
    return Authenticator(engine, session_ttl=3600, hasher=FAST, clock=Clock())


def _refused(fn: object) -> Code:
    with pytest.raises(DeskError) as err:
        fn()  # type: ignore[operator]
    return err.value.code


def test_a_token_is_random_and_stored_only_as_its_hash(auth: Authenticator, engine: Engine) -> None:
    t1, s1, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    t2, _, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    assert t1 != t2 and len(t1) >= 43
    with engine.connect() as conn:
        stored = [r.token_sha256 for r in conn.execute(select(tables.sessions)).all()]
    assert t1 not in stored and sessions.token_digest(t1) in stored
    assert s1.expires_at == auth.clock() + timedelta(seconds=3600)


def test_a_session_expires_after_its_ttl(auth: Authenticator) -> None:
    token, _, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    clock = auth.clock
    assert isinstance(clock, Clock)
    clock.now += timedelta(seconds=3599)
    assert auth.caller("one", Credentials(token=token)).id == "ann"
    clock.now += timedelta(seconds=1)
    assert _refused(lambda: auth.caller("one", Credentials(token=token))) == Code.UNAUTHENTICATED


def test_logout_and_revocation(auth: Authenticator) -> None:
    a, _, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    b, _, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    c, _, _ = auth.login("one", "bob", "bob-secret", "10.0.0.1")
    assert auth.logout(a) == 1
    assert _refused(lambda: auth.caller("one", Credentials(token=a))) == Code.UNAUTHENTICATED
    assert _refused(lambda: auth.logout(a)) == Code.UNAUTHENTICATED  # twice: already gone
    assert auth.caller("one", Credentials(token=b)).id == "ann"
    assert auth.revoke_player("one", "ann") == 1
    assert _refused(lambda: auth.caller("one", Credentials(token=b))) == Code.UNAUTHENTICATED
    assert auth.caller("one", Credentials(token=c)).id == "bob"  # another player's session is untouched


def test_a_session_is_bound_to_its_campaign_and_player(auth: Authenticator) -> None:
    token, _, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    # the same player id in another campaign is another account
    assert _refused(lambda: auth.caller("two", Credentials(token=token))) == Code.UNAUTHENTICATED
    assert (
        _refused(lambda: auth.caller("one", Credentials(token=token, player="bob"))) == Code.UNAUTHENTICATED
    )
    assert auth.caller("one", Credentials(token=token, player="ann")).id == "ann"
    assert _refused(lambda: auth.login("two", "ann", "ann-secret", "10.0.0.1")) == Code.UNAUTHENTICATED


@pytest.mark.parametrize("token", ["", "x", "A" * 43, "A" * 101, "\x00" * 43, "é" * 43])
def test_unknown_or_garbled_tokens_are_unauthenticated(auth: Authenticator, token: str) -> None:
    code = _refused(lambda: auth.caller("one", Credentials(token=token or "-", player="ann")))
    assert code == Code.UNAUTHENTICATED


def test_expired_and_long_revoked_sessions_are_pruned_at_login(auth: Authenticator, engine: Engine) -> None:
    clock = auth.clock
    assert isinstance(clock, Clock)
    old, _, _ = auth.login("one", "ann", "ann-secret", "10.0.0.1")
    auth.logout(old)
    auth.login("one", "bob", "bob-secret", "10.0.0.1")
    clock.now += timedelta(days=2)
    auth.login("one", "ann", "ann-secret", "10.0.0.1")
    with engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(tables.sessions)).scalar_one() == 1


def test_calls_with_a_token_make_no_password_check(engine: Engine) -> None:
    """The argon2 check leaves the hot path: one per login, none per call."""
    checks = []

    class Counting(PasswordHasher):
        def verify(self, hash: str | bytes, password: str | bytes) -> bool:
            checks.append(1)
            return super().verify(hash, password)

    _campaign(engine, "hot", {"ann": "ann-secret"})
    auth = Authenticator(engine, hasher=Counting(time_cost=1, memory_cost=64, parallelism=1), clock=Clock())
    token, _, _ = auth.login("hot", "ann", "ann-secret", "10.0.0.1")
    for _ in range(50):
        assert auth.caller("hot", Credentials(token=token)).id == "ann"
    assert len(checks) == 1
