"""Every board the rules may meet: the base catalog's seven, and the Edifice box's Ur and
Carthage, built from the placeholder (P) rows of seeds/seven_wonders/edifice.json. The two
are dealt only with the option `placeholder_boards` (Ur with Edifice only): the reference
(Edifice §0, §12.2) could not confirm their printed costs and effects.
"""

from __future__ import annotations

from games.seven_wonders.catalog import CATALOG, Side, Stage, Wonder
from games.seven_wonders.edifice import EDIFICE


def _board(w) -> Wonder:
    sides = {}
    for s, side in w.sides.items():
        stages = tuple(
            Stage(cost=st.cost, effects=tuple(st.options[0]) if len(st.options) == 1 else (),
                  options=tuple(tuple(o) for o in st.options) if len(st.options) > 1 else (), text="", ref=st.ref)
            for st in side.stages
        )
        sides[s] = Side(starting_resource=w.starting_resource, stages=stages)
    return Wonder(id=w.id, name=w.name.split(" (")[0], full_name=w.name, starting_resource=w.starting_resource,
                  ref=w.ref, confirmation=w.confirmation, sides=sides)


EXTRA: dict[str, Wonder] = {w.id: _board(w) for w in EDIFICE.data.wonders}
BOARDS: dict[str, Wonder] = {**CATALOG.wonders, **EXTRA}
"""Board id -> board, base and placeholder boards alike."""


def stage(city_wonder: str, side: str, k: int, option: int = 0):
    """The effects of stage `k` (0-based) of a board, with the alternative `option` (1-based)
    picked where the stage offers a choice."""
    st = BOARDS[city_wonder].sides[side].stages[k]
    return st.options[option - 1] if st.options else st.effects
