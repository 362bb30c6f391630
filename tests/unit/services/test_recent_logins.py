"""The short memory of successful password checks (services/platform/security/passwords.py)."""

from services.platform.security.passwords import RecentLogins


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_remembered_success_is_known_until_it_expires() -> None:
    clock = Clock()
    recent = RecentLogins(ttl=60, clock=clock)
    recent.remember("c/p", "hash-1", "secret")
    assert recent.known("c/p", "hash-1", "secret")
    clock.now = 61
    assert not recent.known("c/p", "hash-1", "secret")


def test_a_wrong_password_or_a_changed_hash_is_not_known() -> None:
    recent = RecentLogins(ttl=60, clock=Clock())
    recent.remember("c/p", "hash-1", "secret")
    assert not recent.known("c/p", "hash-1", "Secret")
    assert not recent.known("c/p", "hash-2", "secret")  # password was reset
    assert not recent.known("c/q", "hash-1", "secret")


def test_the_memory_stays_bounded() -> None:
    recent = RecentLogins(ttl=60, limit=10, clock=Clock())
    for i in range(25):
        recent.remember(f"c/p{i}", "h", "pw")
    assert len(recent._seen) <= 10
    assert recent.known("c/p24", "h", "pw")
