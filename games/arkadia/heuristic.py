"""`gain` for greedy bots: what a command brings its seat at once, judged from what it sees.

`rules.gain` runs `decide` and folds its events; its `value` is the change of the seat's
gold plus its seals at the castle's current values (§7.2). To judge only from what the
seat may see (§10), it runs here on the seat's picture of the game: the state with every
other screen emptied (hand, workers and neutral workers held, seals, gold; the banners
and the hand sizes are public) and the draw pile's order forgotten (every card in it
replaced by one fixed card). Nothing of the seat's own value depends on those, so the
value is the true one, and it cannot change when a hidden thing changes.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.arkadia.catalog import CATALOG
from games.arkadia.commands import Command_
from games.arkadia.rules import gain as rules_gain
from games.arkadia.rules import wealth
from games.arkadia.state import Screen, State
from games.contract import Rejection

_UNKNOWN = min(CATALOG.cards)
"""The card written where the seat sees only a card back."""


def seen_by(state: State, seat: int) -> State:
    """The state as `seat` knows it: other screens hold nothing, the pile is card backs."""
    screens = tuple(
        sc if s == seat else Screen(hand=(_UNKNOWN,) * len(sc.hand), banners=sc.banners)
        for s, sc in enumerate(state.screens)
    )
    return replace(state, screens=screens, pile=(_UNKNOWN,) * len(state.pile))


def gain(state: State, seat: int, cmd: Command_) -> int:
    """The change of `seat`'s gold plus seals at the current values (`rules.gain`), on
    the state as that seat knows it; 0 for a command it may not give now."""
    if state.phase != "play" or seat != state.active:
        return 0
    got = rules_gain(seen_by(state, seat), seat, cmd)
    return 0 if isinstance(got, Rejection) else got.value


HORIZON = 30
"""Commands a search playout makes before `standing` judges it (GameDef.horizon)."""


def standing(state: State) -> tuple[int, ...]:
    """Each seat's score if the game ended now (§8): its gold plus its seals at the castle's
    current values (`rules.wealth`), for search bots that cut a playout short."""
    return tuple(wealth(state, s) for s in range(state.players))
