"""Reading who calls from a call's metadata (services/platform/security/auth.py) and the session settings."""

from __future__ import annotations

import pytest

from services.platform.config import ConfigError, load_settings
from services.platform.errors import Code, DeskError
from services.platform.security.auth import Credentials, credentials, peer_address, source_of


@pytest.mark.parametrize(
    ("peer", "address"),
    [
        ("ipv4:10.1.2.3:5678", "10.1.2.3"),
        ("ipv6:[2001:db8::1]:443", "2001:db8::1"),
        ("unix:/tmp/s", "unix:/tmp/s"),
    ],
)
def test_the_peer_address_drops_the_port(peer: str, address: str) -> None:
    assert peer_address(peer) == address


def test_x_forwarded_for_counts_only_from_a_trusted_proxy() -> None:
    md = {"x-forwarded-for": "198.51.100.7, 10.0.0.2"}
    trusted = frozenset({"10.0.0.9"})
    assert source_of("ipv4:10.0.0.9:1234", md, trusted) == "198.51.100.7"
    assert source_of("ipv4:203.0.113.66:1234", md, trusted) == "203.0.113.66"  # a guesser cannot pick his key
    assert source_of("ipv4:10.0.0.9:1234", {"x-forwarded-for": "not an address"}, trusted) == "10.0.0.9"


def test_a_trusted_network_covers_front_ends_without_a_fixed_address() -> None:
    """Kubernetes: the web desk's pods get addresses from the pod network (deploy/k8s)."""
    md = {"x-forwarded-for": "198.51.100.7"}
    trusted = load_settings(
        {"PATE_TRUSTED_PROXIES": "10.244.0.0/16, 2001:db8::/64, 192.0.2.1"}
    ).trusted_proxies
    assert trusted == frozenset({"10.244.0.0/16", "2001:db8::/64", "192.0.2.1"})
    assert source_of("ipv4:10.244.3.17:1234", md, trusted) == "198.51.100.7"
    assert source_of("ipv6:[2001:db8::5]:1234", md, trusted) == "198.51.100.7"
    assert source_of("ipv4:192.0.2.1:1234", md, trusted) == "198.51.100.7"
    assert source_of("ipv4:10.245.0.1:1234", md, trusted) == "10.245.0.1"  # outside the network
    assert source_of("ipv6:[::ffff:10.244.3.17]:1234", md, trusted) == "198.51.100.7"  # bound to [::]
    assert source_of("unix:/tmp/s", md, trusted) == "unix:/tmp/s"
    with pytest.raises(ConfigError, match="PATE_TRUSTED_PROXIES"):
        load_settings({"PATE_TRUSTED_PROXIES": "10.244.0.1/16"})  # host bits set: a typo, not a network


def test_a_bearer_token_or_the_old_password_metadata() -> None:
    assert credentials({"authorization": "Bearer abc"}, "s") == Credentials(token="abc", source="s")
    assert credentials({"authorization": "bearer abc"}, "s").token == "abc"
    old = credentials({"x-pate-player": "ann", "x-pate-password": "pw"}, "s")
    assert (old.token, old.player, old.password) == ("", "ann", "pw")


@pytest.mark.parametrize("value", ["Basic YWJj", "Bearer ", "Bearer", "token abc"])
def test_a_malformed_authorization_is_unauthenticated(value: str) -> None:
    with pytest.raises(DeskError) as err:
        credentials({"authorization": value}, "s")
    assert err.value.code == Code.UNAUTHENTICATED and "authorization" in err.value.message


def test_session_settings() -> None:
    s = load_settings({"PATE_SESSION_TTL_SECONDS": "600", "PATE_TRUSTED_PROXIES": "10.0.0.9, ::1"})
    assert s.session_ttl_seconds == 600.0 and s.trusted_proxies == frozenset({"10.0.0.9", "::1"})
    assert load_settings({}).session_ttl_seconds == 12 * 3600
    with pytest.raises(ConfigError, match="PATE_TRUSTED_PROXIES"):
        load_settings({"PATE_TRUSTED_PROXIES": "web-desk"})
    with pytest.raises(ConfigError, match="PATE_SESSION_TTL_SECONDS"):
        load_settings({"PATE_SESSION_TTL_SECONDS": "-1"})
