"""The NWOL nations and their states (rule 1.4), read from ``data/nations.toml``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pate.core.world.diplomacy import State
from pate.core.world.fields import Problems, Table

CODE = re.compile(r"[A-Z]{2}")
NWOL_NATIONS = 13  # rule 1.4: "one of the thirteen NWOL nations"


class NationKind(StrEnum):
    MAJOR = "major"
    MINOR = "minor"
    FRAGMENTED = "fragmented"
    NEUTRAL = "neutral"  # outside NWOL: holds ports, never has players


@dataclass(frozen=True, slots=True)
class Nation:
    code: str
    name: str
    kind: NationKind
    states: tuple[str, ...]  # state codes, the first is the nation's main state

    @property
    def nwol(self) -> bool:
        return self.kind is not NationKind.NEUTRAL


@dataclass(frozen=True, slots=True)
class Nations:
    nations: dict[str, Nation]
    states: dict[str, State]

    def nation_of(self, state: str) -> str | None:
        s = self.states.get(state)
        return s.nation if s else None


def parse_nations(raw: Mapping[str, Any]) -> Nations:
    """Raises :class:`~pate.core.world.fields.DataError` listing every problem."""
    problems = Problems()
    top = Table(raw, "", problems)
    top.check_keys(("nations",))
    nations: dict[str, Nation] = {}
    states: dict[str, State] = {}
    for code, t in top.tables("nations", required=True):
        t.check_keys(("name", "kind", "states"))
        if not CODE.fullmatch(code):
            problems.add(t.path, "a nation code is two capital letters")
        name = t.str_("name")
        kind = t.str_("kind", choices=[k.value for k in NationKind])
        codes: list[str] = []
        st = t.table("states", required=True)
        if st is not None:
            for s_code in list(st.data):
                s_name = st.str_(s_code)
                if not CODE.fullmatch(s_code):
                    problems.add(st.where(s_code), "a state code is two capital letters (rule 2.2)")
                elif s_code in states:
                    problems.add(st.where(s_code), f"state already belongs to {states[s_code].nation}")
                elif s_name:
                    states[s_code] = State(code=s_code, nation=code, name=s_name)
                    codes.append(s_code)
            if not codes:
                problems.add(st.path, "a nation needs at least one state")
        if name and kind and codes:
            nations[code] = Nation(code=code, name=name, kind=NationKind(kind), states=tuple(codes))
    count = sum(1 for n in nations.values() if n.nwol)
    if not problems and count != NWOL_NATIONS:
        problems.add("nations", f"{count} NWOL nations, rule 1.4 has {NWOL_NATIONS}")
    problems.raise_if_any()
    return Nations(nations=nations, states=states)
