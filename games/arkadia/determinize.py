"""Arkadia's determinization (for search bots): a state drawn from a seat's information set.

`determinize(state, seat, rng)` returns a state `seat` cannot tell from `state` (the same
view, legal commands and seats to act) in which the cards it cannot see are dealt anew.

Drawn anew (hidden, §10): the hands of the other seats and the order of the draw pile.
Those cards, and only those, are the pool: every card that is neither in the seat's own
hand, nor open on the display, nor on the board (the discard pile is the board's cards).
The pool is put in a canonical order (sorted card ids: ids are unique in the catalog, and
sorting handles a deck with copies just as well, equal ids being interchangeable) before it
is shuffled with `rng`, then dealt back: each other seat in seat order keeps its hand size,
the rest is the pile (its length kept). So the result depends on the seat's view and
`rng` only, never on how the hidden cards actually lie.

One more public fact constrains the hands: a seat that skipped its action (`ActionSkipped`,
announced to everybody, §8 [R]) could lay none of its cards. In the current run of
consecutive skips (`state.skips`, the last turns) the board has not changed (only an action
changes it, and an action ends the run) and the skipped seats' hands neither (they took no
card), so each of them holds only cards whose form has no legal placement on the board now.
Their hands are dealt from those cards of the pool first; the rest is shuffled over the
other places. This keeps the sample inside the information set (a world the log allows).

Kept as they are (hidden in the views, but not secret to a player with perfect memory,
§10: every payout and exchange is performed openly): each screen's workers held (they also
follow from the board and the pool: 12 = held + on the board + in the pool), neutral
workers held (taken from tent camps by public building placements, placed publicly), seals
(payouts and tokens of public completions, minus public exchanges), gold (public exchanges)
and the banners (public). The turn's bookkeeping (`skips`, `trigger`, `final_turns`, ...)
follows from the public log too.

Not used (the state does not record it): which cards another seat took from the open
display and still holds. A player with perfect memory knows them; this determinization
samples the somewhat larger set of worlds the current view allows.

Pure: no I/O, no clock, no global random state; only `rng` draws.
"""

from __future__ import annotations

from msgspec.structs import replace

from games.arkadia.board import placements
from games.arkadia.catalog import CATALOG
from games.arkadia.rules import occupancy
from games.arkadia.state import State
from games.contract import Draws


def determinize(state: State, seat: int, rng: Draws) -> State:
    """A state of `seat`'s information set: the other hands and the pile order drawn anew
    (the other seats' hands, when `seat` is no seat at the table: a spectator's sample)."""
    screens = state.screens
    n = len(screens)
    if not n:
        return state
    others = [s for s in range(n) if s != seat and screens[s].hand]
    pool: list[str] = [c for s in others for c in screens[s].hand]
    pool.extend(state.pile)
    if len(pool) < 2:
        return state
    pool.sort()
    skipped = _skipped(state, seat) if state.skips else ()
    blocked = [s for s in others if s in skipped]
    if blocked:
        deal = _constrained(state, blocked, pool, rng)
    else:
        rng.shuffle(pool)
        deal = pool
    out = list(screens)
    i = 0
    for s in blocked:
        k = len(screens[s].hand)
        out[s] = replace(screens[s], hand=tuple(deal[i:i + k]))
        i += k
    for s in others:
        if s not in skipped:
            k = len(screens[s].hand)
            out[s] = replace(screens[s], hand=tuple(deal[i:i + k]))
            i += k
    return replace(state, screens=tuple(out), pile=tuple(deal[i:]))


def _skipped(state: State, seat: int) -> tuple[int, ...]:
    """The seats of the current run of consecutive skipped actions (the last `skips` turns,
    the active seat's own when it has skipped), but `seat`."""
    n = state.players
    last = state.active if state.acted == "skip" else state.active - 1
    return tuple({(last - k) % n for k in range(min(state.skips, n))} - {seat})


def _constrained(state: State, blocked: list[int], pool: list[str], rng: Draws) -> list[str]:
    """The pool dealt with the blocked seats' hands first, from the cards that cannot be laid
    on the board now, uniformly; then everything else shuffled. Falls back to a plain shuffle
    when the state is not one the rules reach (too few such cards)."""
    occ = occupancy(state).all
    mirror = state.options.mirror_allowed
    layable: dict[str, bool] = {}
    dead: list[str] = []
    live: list[str] = []
    for c in pool:
        form = CATALOG.cards[c].form
        ok = layable.get(form)
        if ok is None:
            ok = layable[form] = any(not p.mask & occ and p.ring & occ for p in placements(form, mirror))
        (live if ok else dead).append(c)
    need = sum(len(state.screens[s].hand) for s in blocked)
    if len(dead) < need:
        rng.shuffle(pool)
        return pool
    rng.shuffle(dead)
    rest = dead[need:] + live
    rng.shuffle(rest)
    return dead[:need] + rest
