"""The shapes the field limits are made of (limits.py, account_limits.py): the bounds of the
game's numbers, the patterns of ids and names, and the rules several fields share."""

from __future__ import annotations

import re

from pate.datafiles import MAX_SCENARIO_CHARS
from services.platform.security.field_rules import Many, Moment, Number, Text

MAX_TURN = 100  # campaigns have at most 100 turns (rule 3.1 says 15)
MAX_SCENARIO_TOML_CHARS = MAX_SCENARIO_CHARS  # 1 MiB; nested at most MAX_SCENARIO_NESTING (32) deep
MAX_ORDERS_TEXT_CHARS = 256 * 1024
MAX_TURN_SECONDS = 366 * 24 * 3600  # a turn lasts at most a (leap) year; fits a 32-bit column
MAX_AMOUNT = 1_000_000  # stores, supplies, crews: far above any fleet's
MAX_SEED = 2**63 - 1  # a campaign seed: a uint64 field kept within a signed 64-bit column

CAMPAIGN_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
PLAYER_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
SCENARIO_NAME = re.compile(r"[a-z0-9_]{1,64}")
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,32}")  # ship, unit and admin-order targets
WORD = re.compile(r"[A-Za-z_]{1,32}")  # enumerated words (engage, leeward, ...)
SEA_AREA = re.compile(r"[A-Za-z]{1,8}")
REQUEST_ID = re.compile(r"[!-~]{1,100}")  # printable ASCII, no spaces
TRACE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
EMAIL = re.compile(r"[^\s@<>,;]{1,64}@[^\s@<>,;]{1,189}")  # the outer bound; account_store checks more
TIME_ZONE = re.compile(r"[A-Za-z][A-Za-z0-9_+/-]{0,63}")  # the shape of an IANA name; the list decides
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")  # a mailed link's token (43 characters)
SESSION_ID = re.compile(r"[0-9a-f]{16}")
ASK_ID = re.compile(r"[0-9a-f]{16}")  # a lobby ask (docs/lobby.md)
RULE_SET = re.compile(r"[a-z0-9_-]{1,64}")
PAGE_TOKEN = re.compile(r"[0-9]{1,5}")
SOLO_SCENARIO = re.compile(r"[a-z0-9_-]{1,40}")  # a shipped scenario's file name (services/orders/solo.py)
API_TOKEN_ID = re.compile(r"(pate_at_)?[0-9a-f]{12}")


Rule = Text | Number | Many | Moment

CAMPAIGN_RULE = Text(40, CAMPAIGN_ID, required=True, what="a campaign id ([a-z0-9][a-z0-9-]{0,39})")
NEW_CAMPAIGN_RULE = CAMPAIGN_RULE
PLAYER_RULE = Text(64, PLAYER_ID, what="a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})")
TURN_RULE = Number(0, MAX_TURN)
TOKEN_RULE = Text(32, TOKEN, what="an id of letters, digits, '_' and '-'")
WORD_RULE = Text(32, WORD, what="a word of letters and '_'")
PLACE_RULE = Text(64)  # a port's name: any printable text
AMOUNT_RULE = Number(0, MAX_AMOUNT)
SEAT_RULE = Text(64, PLAYER_ID, required=True, what="a player id ([A-Za-z0-9][A-Za-z0-9_.-]{0,63})")
EMAIL_RULE = Text(254, EMAIL, required=True, what="an email address")
GIVEN_PASSWORD_RULE = Text(1024, required=True)
NEW_PASSWORD_RULE = Text(1024, required=True, min_chars=10)  # account_store.MIN_PASSWORD_LENGTH
LINK_RULE = Text(100, LINK_TOKEN, required=True, what="the token of a mailed link")
