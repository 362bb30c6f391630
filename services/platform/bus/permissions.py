"""One NATS user per service, each allowed only the subjects its work needs (docs/security.md).

The table is the one source of the ``authorization`` block of the Kubernetes NATS configuration
(deploy/k8s/base/nats.yaml, checked by a test) and of the configuration the tests run a real
nats-server with, so the rules a deployment enforces are the rules the tests played turns under.

What a service user may do:

- publish events on ``pate.>``. The outbox is one table, relayed by whichever process holds its
  lock, so any process may carry any stage's row; the database, which every service writes, is
  where an event is authored, and NATS cannot narrow that further;
- read the stream's information and create the stream when it is missing, which can lose
  nothing; changing its limits or replicas, purging or deleting it is the operator's
  (``pate stream ensure``, ``pate stream rebuild``), under the ``upkeep`` user;
- create, read, pull from and acknowledge only its own durable consumers;
- receive replies on ``_INBOX.>``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from services.platform.bus import STREAM, SUBJECT_PREFIX

# The durable consumers each service's stages declare (services/<name>/main.py; a test checks
# this table against them).
SERVICE_DURABLES: Mapping[str, tuple[str, ...]] = {
    "orders": ("orders-turns",),
    "resolver": ("resolver", "gitm-bridge", "gitm-bridge-end"),
    "intel": ("intel",),
    "reports": ("reports",),
    "notifier": ("notifier-turns", "notifier-campaigns"),
}
ADMIN_USER = "upkeep"  # the operator's commands and the migration Job: the stream itself
USERS = (*SERVICE_DURABLES, ADMIN_USER)


def durable_subjects(durable: str) -> list[str]:
    """The JetStream API subjects of one durable pull consumer (nats-py's and the server's)."""
    api = f"$JS.API.CONSUMER.%s.{STREAM}.{durable}"
    return [
        api % "INFO",
        api % "CREATE",
        api % "CREATE" + ".>",  # the form with the filter subject (server 2.9 and later)
        api % "DURABLE.CREATE",
        api % "MSG.NEXT",
        f"$JS.ACK.{STREAM}.{durable}.>",
    ]


def publish_allowed(user: str) -> list[str]:
    """The subjects ``user`` may publish to (requests to JetStream's API are publishes)."""
    if user == ADMIN_USER:
        return [f"{SUBJECT_PREFIX}.>", "$JS.API.>", "$JS.ACK.>"]
    allowed = [
        f"{SUBJECT_PREFIX}.>",
        "$JS.API.INFO",
        f"$JS.API.STREAM.INFO.{STREAM}",
        f"$JS.API.STREAM.CREATE.{STREAM}",
    ]
    for durable in SERVICE_DURABLES[user]:
        allowed += durable_subjects(durable)
    return allowed


def authorization_block(password: Callable[[str], str], indent: str = "") -> str:
    """The ``authorization`` block of nats.conf: every user with its permissions.

    ``password(user)`` gives what stands for the user's password in the file: a ``$VARIABLE``
    nats-server takes from its environment in a deployment, a quoted literal in a test."""
    lines = ["authorization {", "  users: ["]
    for user in USERS:
        lines.append(f"    {{ user: {user}, password: {password(user)}, permissions: {{")
        lines.append("      publish: { allow: [")
        lines += [f'        "{subject}"' for subject in publish_allowed(user)]
        lines.append("      ] }")
        lines.append('      subscribe: { allow: ["_INBOX.>"] }')
        lines.append("    } }")
    lines += ["  ]", "}"]
    return "\n".join(indent + line for line in lines)


def password_variable(user: str) -> str:
    """The environment variable that holds ``user``'s password in the NATS pods."""
    return "$PATE_NATS_PASSWORD_" + user.upper()
