"""The production wheel (§4): rotation counter, indicator positions, production, the joker.

State model of §4.2: a rotation counter R and, per indicator, its board position s; the
indicator shows `values[(R - s) mod 13]`. Positions are a tuple in `INDICATORS` order, with
`ABSENT` for an indicator not in play (grapes and stone before they enter, grapes in
Ireland, grapes and stone in the solo game, and any indicator removed in the solo game).
"""

from __future__ import annotations

import msgspec

from games.ora_et_labora.catalog import CATALOG

SPACES = CATALOG.game.production_wheel.spaces  # 13
FRONT: tuple[int, ...] = tuple(CATALOG.game.production_wheel.front_values)
BACK: tuple[int, ...] = tuple(CATALOG.game.production_wheel.back_values)
INDICATORS: tuple[str, ...] = tuple(CATALOG.game.components.goods_indicators)
"""wood, peat, grain, livestock, clay, coin, joker, grapes, stone (§1)."""
SLOT: dict[str, int] = {g: i for i, g in enumerate(INDICATORS)}
JOKER = "joker"
ABSENT = -1
START = ("wood", "peat", "grain", "livestock", "clay", "coin", "joker")
"""The seven indicators placed at value 0 at setup (§4.2)."""
LATE = ("grapes", "stone")
"""The indicators that enter later (§5.3); never in the solo game."""


class Wheel(msgspec.Struct, frozen=True, kw_only=True):
    """The wheel's side (its 13 values), rotations so far, and each indicator's position."""

    values: tuple[int, ...] = FRONT
    rotation: int = 0
    positions: tuple[int, ...] = tuple(0 if g in START else ABSENT for g in INDICATORS)

    def in_play(self, good: str) -> bool:
        return self.positions[SLOT[good]] != ABSENT

    def value(self, good: str) -> int:
        """What the indicator of `good` shows now; 0 if it is not in play."""
        s = self.positions[SLOT[good]]
        return 0 if s == ABSENT else self.values[(self.rotation - s) % SPACES]


def new(side: str = "front") -> Wheel:
    """The wheel at setup: the seven indicators at 0 (§4.2), on its `side` (§4.1)."""
    return Wheel(values=FRONT if side == "front" else BACK)


def rotate(w: Wheel, *, remove_at_top: bool = False) -> Wheel:
    """One step of the wheel (§4.2): every indicator showing 10 is pushed along and still
    shows 10, or, in the solo game (`remove_at_top`), is removed from the game."""
    top = SPACES - 1  # the index of 10
    positions = []
    for s in w.positions:
        if s != ABSENT and (w.rotation - s) % SPACES == top:
            s = ABSENT if remove_at_top else (s + 1) % SPACES
        positions.append(s)
    return Wheel(values=w.values, rotation=w.rotation + 1, positions=tuple(positions))


def enter(w: Wheel, good: str) -> Wheel:
    """Place a late indicator at value 0 (§4.2, §15 #2: right after its round's rotation)."""
    positions = list(w.positions)
    positions[SLOT[good]] = w.rotation % SPACES
    return Wheel(values=w.values, rotation=w.rotation, positions=tuple(positions))


def produce(w: Wheel, good: str, joker: bool) -> tuple[int, Wheel]:
    """Take the value of `good` (or of the joker, §4.3) and move the indicator used to 0.

    The joker may stand in for a good whose indicator is not in play (§4.3); the caller
    checks that the indicator used is in play (`can_produce`)."""
    used = JOKER if joker else good
    amount = w.value(used)
    positions = list(w.positions)
    positions[SLOT[used]] = w.rotation % SPACES
    return amount, Wheel(values=w.values, rotation=w.rotation, positions=tuple(positions))


def can_produce(w: Wheel, good: str, joker: bool) -> str:
    """Why `good` cannot be produced this way now, or ""."""
    used = JOKER if joker else good
    if not w.in_play(used):
        if used == JOKER:
            return "the joker has been removed from the game"
        return f"the {good} indicator is not in play; use the joker"
    return ""
