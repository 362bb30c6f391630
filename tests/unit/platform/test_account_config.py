"""PATE_ACCOUNT_LINK_BASE: the links of account mail point at the web desk, over http(s) only."""

from __future__ import annotations

import pytest

from services.platform.config import ConfigError, load_settings


def test_the_link_base_is_an_http_url_or_nothing() -> None:
    assert load_settings({}).account_link_base == ""
    given = {"PATE_ACCOUNT_LINK_BASE": "https://desk.example.org/account/"}
    assert load_settings(given).account_link_base == "https://desk.example.org/account"
    for bad in ("javascript:alert(1)", "desk.example.org/account", "ftp://desk.example.org/"):
        with pytest.raises(ConfigError):
            load_settings({"PATE_ACCOUNT_LINK_BASE": bad})
