"""decide, legal_commands and to_act for Arkadia (they share their predicates), and `gain`,
the immediate profit of a command for greedy bots.

References (§) are to docs/rules/arkadia.md. A turn (§5, §11.1) is: the mandatory
action (lay a building or place workers; skipped automatically when impossible, §8 [R]),
its completions and payouts (resolved inside the same decision), one castle piece per
completed building (a command each), the hand refill after a building, then the optional
banner or the end of the turn. Ending a turn runs every automatic step up to the next
decision: the next seat's skip when it cannot act, the final exchange (§8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, get_args

import msgspec

from games.arkadia.board import (
    TENTS,
    bit,
    cells_of,
    footprint,
    lot_cells,
    mask,
    on_grid,
    placements,
    ring,
)
from games.arkadia.catalog import CATALOG, SEALS
from games.arkadia.commands import (
    Command_,
    DrawCard,
    EndTurn,
    PlaceBuilding,
    PlaceCastlePiece,
    PlaceWorkers,
    TakeCard,
    UseBanner,
)
from games.arkadia.events import (
    ActionSkipped,
    ArkadiaEvent,
    BannerUsed,
    BuildingCompleted,
    BuildingPlaced,
    CardTaken,
    CastlePiecePlaced,
    FinalRoundStarted,
    FloorCompleted,
    GameEnded,
    TurnEnded,
    WorkersPlaced,
)
from games.arkadia.evolve import evolve
from games.arkadia.scoring import CATEGORIES, final_scores, values
from games.arkadia.state import State, Worker
from games.contract import Decided, Rejection, guarded

Cell = tuple[int, int]


# --- the board as masks ---------------------------------------------------------------


class Occupancy(NamedTuple):
    """Occupied cells by kind (§3): the lot, building tiles, workers, and all of them."""

    lot: int
    buildings: int
    workers: int
    all: int


def occupancy(state: State, extra_workers: tuple[Worker, ...] = ()) -> Occupancy:
    lot = mask(lot_cells(state.lot.x, state.lot.y, state.lot.orientation))
    b = 0
    for x in state.buildings:
        b |= mask(x.cells)
    w = 0
    for wk in (*state.workers, *extra_workers):
        w |= bit(*wk.cell)
    return Occupancy(lot, b, w, lot | b | w)


def floor_of(state: State) -> int:
    """The floor being built: the lowest one not yet full (§7.1)."""
    return min(len(s) for s in state.castle) + 1


def free_squares(state: State) -> tuple[int, ...]:
    """Castle squares that take a piece on the floor being built (§7.1)."""
    f = floor_of(state)
    return tuple(i for i, s in enumerate(state.castle) if len(s) == f - 1)


# --- whose turn, which step ------------------------------------------------------------


def step(state: State) -> str:
    """Where the active seat's turn stands: "action", "castle" (pieces owed), "refill"
    (after a building, hand below 4, cards left), "banner" (optional), or "end" (nothing
    left to decide; never a resting state). "new" and "over" outside the game."""
    if state.phase != "play":
        return state.phase
    if not state.acted:
        return "action"
    if state.owed > 0:
        return "castle"
    sc = state.screens[state.active]
    if state.acted == "build" and len(sc.hand) < CATALOG.hand_size and (state.display or state.pile):
        return "refill"
    if sc.banners > 0:
        return "banner"
    return "end"


def to_act(state: State) -> tuple[int, ...]:
    """The active seat while the game runs (Arkadia has no simultaneous choices)."""
    return (state.active,) if state.phase == "play" else ()


# --- decide ---------------------------------------------------------------------------


def _rules(state: State, seat: int, cmd: Command_) -> list[ArkadiaEvent] | Rejection:
    """Validate `cmd` from `seat` (the active seat; the contract checked it) and say what happens."""
    when, handler = _DECIDE[type(cmd)]
    refusal = when(step(state))
    return refusal if refusal is not None else handler(state, seat, cmd)


decide = guarded(_rules, to_act)


def _out_of_order(st: str) -> Rejection:
    if st == "action":
        return Rejection("action_required", "first lay a building or place workers (§5)")
    if st == "castle":
        return Rejection("castle_piece_owed", "first place the castle pieces you owe (§7.1)")
    return Rejection("refill_owed", "first refill your hand from the display or the pile (§5.1 step 7)")


# When in a turn (its `step`) each command may come: None, or the refusal.


def _in_action(st: str) -> Rejection | None:
    return None if st == "action" else Rejection("action_taken", "you have already taken your action this turn (§5)")


def _in_castle(st: str) -> Rejection | None:
    return None if st == "castle" else Rejection("no_castle_piece_owed", "no castle piece is owed now (§7.1)")


def _in_refill(st: str) -> Rejection | None:
    if st in ("action", "castle"):
        return _out_of_order(st)
    return None if st == "refill" else Rejection("no_refill_owed", "your hand needs no refill now (§5.1 step 7)")


def _after_refill(st: str) -> Rejection | None:
    return _out_of_order(st) if st in ("action", "castle", "refill") else None


def find_card(hand: tuple[str, ...], form: str, seal: str) -> str | None:
    """A card of `hand` with this form and seal (such cards are interchangeable)."""
    for cid in hand:
        if CATALOG.key(cid) == (form, seal):
            return cid
    return None


def _place_building(state: State, seat: int, cmd: PlaceBuilding) -> list[ArkadiaEvent] | Rejection:
    if cmd.form not in CATALOG.forms:
        return Rejection("unknown_form", f"there is no building form {cmd.form!r}")
    if cmd.seal not in SEALS:
        return Rejection("unknown_seal", f"there is no seal colour {cmd.seal!r}; use one of {', '.join(SEALS)}")
    card = find_card(state.screens[seat].hand, cmd.form, cmd.seal)
    if card is None:
        return Rejection("card_not_in_hand", f"you hold no {cmd.seal} {CATALOG.forms[cmd.form].name} card")
    limit = 8 if state.options.mirror_allowed else 4
    if not isinstance(cmd.rotation, int) or not 0 <= cmd.rotation < limit:
        return Rejection("bad_rotation", f"rotation must be 0..{limit - 1} (§2.1)")
    x, y = cmd.anchor
    cells = footprint(cmd.form, cmd.rotation, x, y)
    if cells is None:
        return Rejection("off_grid", f"the {cmd.form} at {x},{y} r{cmd.rotation} leaves the grid (§5.1)")
    occ = occupancy(state)
    m = mask(cells)
    if m & occ.lot:
        return Rejection("on_castle_lot", "a building may not cover the castle lot (§5.1)")
    if m & occ.buildings:
        return Rejection("cell_occupied", "a building may not cover another building (§5.1)")
    if m & occ.workers:
        return Rejection("cell_occupied", "a building may not cover a worker (§5.1)")
    if not ring(cells) & occ.all:
        return Rejection("not_adjacent", "a new building must touch a building, the castle lot or a worker "
                                         "orthogonally (§5.1)")
    tents = (m & TENTS).bit_count()
    placed = BuildingPlaced(
        seat=seat, building=len(state.buildings), card=card, form=cmd.form, seal=cmd.seal,
        rotation=CATALOG.canonical[cmd.form][cmd.rotation], anchor=(x, y), cells=cells, tents=tents,
        neutral=min(tents, state.pool_neutral),
    )
    after = evolve(state, placed)
    return _advance(state, [placed, *_completions(after, seat, occ.all | m)])


def _place_workers(state: State, seat: int, cmd: PlaceWorkers) -> list[ArkadiaEvent] | Rejection:
    if not 0 <= cmd.building < len(state.buildings):
        return Rejection("unknown_building", f"there is no building {cmd.building} on the board (§5.2)")
    target = state.buildings[cmd.building]
    if target.completed:
        return Rejection("building_completed", f"building {cmd.building} is completed (§5.2)")
    cells = (*cmd.own, *cmd.neutral)
    if not cells:
        return Rejection("no_workers", "place at least one worker (§5.2)")
    if len(set(cells)) != len(cells):
        return Rejection("duplicate_cell", "two workers cannot share a cell")
    occ = occupancy(state)
    near = ring(target.cells)
    for x, y in cells:
        if not on_grid(x, y):
            return Rejection("off_grid", f"{x},{y} is not on the grid")
        b = bit(x, y)
        if b & occ.lot:
            return Rejection("on_castle_lot", f"{x},{y} is on the castle lot")
        if b & occ.all:
            return Rejection("cell_occupied", f"{x},{y} is not vacant (§5.2)")
        if not b & near:
            return Rejection("not_adjacent_to_building", f"{x},{y} does not touch building {cmd.building} (§5.2)")
    sc = state.screens[seat]
    if len(cmd.own) > sc.workers:
        return Rejection("not_enough_workers", f"you have {sc.workers} own workers behind your screen")
    if len(cmd.neutral) > sc.neutral:
        return Rejection("not_enough_neutral_workers", f"you have {sc.neutral} neutral workers behind your screen")
    key = lambda c: (c[1], c[0])  # noqa: E731 - reading order
    placed = WorkersPlaced(seat=seat, building=cmd.building, own=tuple(sorted(cmd.own, key=key)),
                           neutral=tuple(sorted(cmd.neutral, key=key)))
    after = evolve(state, placed)
    extra = mask(cells)
    return _advance(state, [placed, *_completions(after, seat, occ.all | extra)])


def _completions(state: State, seat: int, occupied: int) -> list[BuildingCompleted]:
    """Every unfinished building now enclosed (§6), by building number: payouts per seat
    (one seal per player worker next to it; neutral workers earn nothing), the token to the
    active seat, and a castle piece owed while pieces remain (§13 #14)."""
    out = []
    left = CATALOG.pieces_total - sum(len(s) for s in state.castle) - state.owed
    for b in state.buildings:
        if b.completed:
            continue
        r = ring(b.cells)
        if r & ~occupied:
            continue
        pay = [0] * state.players
        for w in state.workers:
            if w.owner >= 0 and bit(*w.cell) & r:
                pay[w.owner] += 1
        out.append(BuildingCompleted(building=b.id, seal=b.seal, payouts=tuple(pay), token=seat, piece=left > 0))
        left -= 1
    return out


def _place_castle_piece(state: State, seat: int, cmd: PlaceCastlePiece) -> list[ArkadiaEvent] | Rejection:
    if cmd.colour not in SEALS:
        return Rejection("unknown_colour", f"there is no castle piece colour {cmd.colour!r}")
    if not 0 <= cmd.square < len(state.castle):
        return Rejection("unknown_square", f"castle squares are numbered 0..{len(state.castle) - 1}")
    f = floor_of(state)
    if state.pools[f - 1][SEALS.index(cmd.colour)] <= 0:
        return Rejection("piece_not_in_pool", f"the floor-{f} pool has no {cmd.colour} piece (§7.1)")
    if len(state.castle[cmd.square]) != f - 1:
        return Rejection("square_not_free", f"castle square {cmd.square} takes no floor-{f} piece now (§7.1)")
    events: list[ArkadiaEvent] = [CastlePiecePlaced(seat=seat, colour=cmd.colour, square=cmd.square, floor=f)]
    after = evolve(state, events[0])
    if f < len(state.pools) and all(len(s) >= f for s in after.castle):
        pool = after.pools[f - 1]
        events.append(FloorCompleted(floor=f, leftovers=tuple(c for c, k in zip(SEALS, pool) for _ in range(k))))
        if f == len(state.pools) - 1:  # the second floor: the end begins (§8)
            events.append(FinalRoundStarted(seat=seat, turns=state.players + 1))
    return _advance(state, events)


def _take_card(state: State, seat: int, cmd: TakeCard) -> list[ArkadiaEvent] | Rejection:
    card = find_card(state.display, cmd.form, cmd.seal)
    if card is None:
        return Rejection("card_not_in_display", f"no open card is a {cmd.seal} {cmd.form}")
    revealed = state.pile[0] if state.pile else None
    return _advance(state, [CardTaken(seat=seat, card=card, source="display", revealed=revealed)])


def _draw_card(state: State, seat: int, cmd: DrawCard) -> list[ArkadiaEvent] | Rejection:
    if not state.pile:
        return Rejection("deck_empty", "the draw pile is empty (§5.1 step 7)")
    return _advance(state, [CardTaken(seat=seat, card=state.pile[0], source="deck")])


def _use_banner(state: State, seat: int, cmd: UseBanner) -> list[ArkadiaEvent] | Rejection:
    sc = state.screens[seat]
    if sc.banners <= 0:
        return Rejection("no_banner_left", "you have no architect banner left (§5.3)")
    counts = (cmd.red, cmd.olive, cmd.black, cmd.silver)
    if any(not isinstance(k, int) or k < 0 for k in counts):
        return Rejection("bad_exchange", "exchange counts are whole numbers from 0 up")
    if any(k > held for k, held in zip(counts, sc.seals)):
        return Rejection("not_enough_seals", "you cannot exchange more seals than you hold (§5.3)")
    vals = values(state.castle)
    gold = sum(k * v for k, v in zip(counts, vals))
    used = BannerUsed(seat=seat, workers=min(CATALOG.banner_workers, state.pool[seat]), exchanged=counts,  # type: ignore[arg-type]
                      values=vals, gold=gold)
    return _advance(state, [used], end=True)


# --- the end of a turn -----------------------------------------------------------------


def can_act(state: State, seat: int) -> bool:
    """Has `seat` a legal mandatory action (§5.1, §5.2)? A building still unfinished always
    has a vacant neighbour, so workers behind the screen suffice for action B."""
    sc = state.screens[seat]
    if sc.workers + sc.neutral > 0 and any(not b.completed for b in state.buildings):
        return True
    occ = occupancy(state).all
    for form in sorted({CATALOG.cards[c].form for c in sc.hand}):
        for p in placements(form, state.options.mirror_allowed):
            if not p.mask & occ and p.ring & occ:
                return True
    return False


def _end_turn(state: State, seat: int, cmd: EndTurn) -> list[ArkadiaEvent]:
    return _advance(state, [], end=True)


_DECIDE: dict[type, tuple[Callable[[str], Rejection | None], Callable[[State, int, Any], list[ArkadiaEvent] | Rejection]]] = {
    PlaceBuilding: (_in_action, _place_building), PlaceWorkers: (_in_action, _place_workers),
    PlaceCastlePiece: (_in_castle, _place_castle_piece),
    TakeCard: (_in_refill, _take_card), DrawCard: (_in_refill, _draw_card),
    UseBanner: (_after_refill, _use_banner), EndTurn: (_after_refill, _end_turn),
}
"""Per command type: when in the turn it may come, and its handler (one dispatch style in every game)."""
assert set(_DECIDE) == set(get_args(Command_)), "every command needs its handler"


def _advance(state: State, events: list[ArkadiaEvent], end: bool = False) -> Decided:
    """Apply `events`, then run the automatic steps until a seat must decide: end the turn
    when nothing is left to decide (or when `end`), skip a seat without a legal action,
    and run the final exchange after the last turn of the final round or a full round of
    skips (§8). With the state after each event (the contract's `Decided`)."""
    out: list[ArkadiaEvent] = []
    states: list[State] = []

    def push(e: ArkadiaEvent) -> None:
        nonlocal state
        state = evolve(state, e)
        out.append(e)
        states.append(state)

    for e in events:
        push(e)

    while True:
        if not end and step(state) != "end":
            return Decided(out, state, states)
        end = False
        push(TurnEnded(seat=state.active, next=(state.active + 1) % state.players))
        if state.trigger >= 0 and state.final_turns <= 0:
            push(_game_ended(state, "castle"))
            return Decided(out, state, states)
        if state.skips >= state.players:
            push(_game_ended(state, "stalemate"))
            return Decided(out, state, states)
        if not can_act(state, state.active):
            push(ActionSkipped(seat=state.active))


def _game_ended(state: State, reason: str) -> GameEnded:
    vals = values(state.castle)
    seals = tuple(sc.seals for sc in state.screens)
    return GameEnded(reason=reason, values=vals, exchanged=seals, categories=CATEGORIES,  # type: ignore[arg-type]
                     scores=final_scores(tuple(sc.gold for sc in state.screens), seals, vals))


# --- legal commands --------------------------------------------------------------------


def legal_commands(state: State, seat: int) -> list[Command_]:
    """Every legal command of `seat` now, in a deterministic order.

    Action: every distinct footprint of every card key of the hand (canonical rotation,
    then anchor in reading order), then canonical worker placements per building (each
    single worker, own or neutral, on each vacant neighbour; and, when the workers behind
    the screen suffice, filling every vacant neighbour own-first and neutral-first).
    `decide` accepts any other valid worker combination too. Castle: every colour of the
    floor's pool on every free square. Refill: each distinct open card, then the pile.
    Banner: without an exchange, each family exchanged whole, everything; or end the turn.
    """
    if state.phase != "play" or seat != state.active:
        return []
    st = step(state)
    sc = state.screens[seat]
    out: list[Command_] = []
    if st == "action":
        occ = occupancy(state)
        keys = sorted({CATALOG.key(c) for c in sc.hand}, key=lambda k: (k[0], SEALS.index(k[1])))
        for form, seal in keys:
            for p in placements(form, state.options.mirror_allowed):
                if not p.mask & occ.all and p.ring & occ.all:
                    out.append(PlaceBuilding(form=form, seal=seal, anchor=p.anchor, rotation=p.rotation))
        if sc.workers + sc.neutral > 0:
            for b in state.buildings:
                if not b.completed:
                    out.extend(_worker_choices(b.id, ring(b.cells) & ~occ.all, sc.workers, sc.neutral))
    elif st == "castle":
        f = floor_of(state)
        squares = free_squares(state)
        for c, k in zip(SEALS, state.pools[f - 1]):
            if k > 0:
                out.extend(PlaceCastlePiece(colour=c, square=s) for s in squares)
    elif st == "refill":
        keys = sorted({CATALOG.key(c) for c in state.display}, key=lambda k: (k[0], SEALS.index(k[1])))
        out.extend(TakeCard(form=f, seal=s) for f, s in keys)
        if state.pile:
            out.append(DrawCard())
    elif st == "banner":
        seen: list[tuple[int, ...]] = [(0, 0, 0, 0)]
        for i, k in enumerate(sc.seals):
            if k > 0:
                seen.append(tuple(k if j == i else 0 for j in range(4)))
        if tuple(sc.seals) not in seen:
            seen.append(tuple(sc.seals))
        out.extend(UseBanner(red=a, olive=b, black=c, silver=d) for a, b, c, d in seen)
        out.append(EndTurn())
    return out


def _worker_choices(building: int, vacant: int, own: int, neutral: int) -> list[PlaceWorkers]:
    cells = cells_of(vacant)
    out: list[PlaceWorkers] = []
    for c in cells:
        if own:
            out.append(PlaceWorkers(building=building, own=(c,)))
        if neutral:
            out.append(PlaceWorkers(building=building, neutral=(c,)))
    k = len(cells)
    if k >= 2 and own + neutral >= k:
        a = min(own, k)
        own_first = PlaceWorkers(building=building, own=cells[:a], neutral=cells[a:])
        b = min(neutral, k)
        neutral_first = PlaceWorkers(building=building, own=cells[b:], neutral=cells[:b])
        out.append(own_first)
        if neutral_first != own_first:
            out.append(neutral_first)
    return out


# --- the greedy bot's heuristic --------------------------------------------------------


class Gain(msgspec.Struct, frozen=True, kw_only=True):
    """What a command brings the acting seat at once: buildings it completes, seals it
    receives per family (workers and tokens), gold from an exchange, workers it takes
    (tent camps, banner), and `value`, the change of its gold plus its seals at the
    castle's values (so a castle piece that raises its families counts too)."""

    completed: int
    seals: tuple[int, int, int, int]
    gold: int
    workers: int
    value: int


def wealth(state: State, seat: int) -> int:
    """Gold plus every seal held at the current castle values (§7.2)."""
    sc = state.screens[seat]
    return sc.gold + sum(k * v for k, v in zip(sc.seals, values(state.castle)))


def gain(state: State, seat: int, cmd: Command_) -> Gain | Rejection:
    """The immediate profit of `cmd` for `seat` (pure: runs decide and folds its events)."""
    out = decide(state, seat, cmd)
    if isinstance(out, Rejection):
        return out
    completed = gold = workers = 0
    seals = [0, 0, 0, 0]
    after = state
    for e in out:
        if isinstance(e, BuildingCompleted):
            got = e.payouts[seat] + (1 if e.token == seat else 0)
            seals[SEALS.index(e.seal)] += got
            completed += 1 if e.token == seat else 0
        elif isinstance(e, BuildingPlaced) and e.seat == seat:
            workers += e.neutral
        elif isinstance(e, BannerUsed) and e.seat == seat:
            gold += e.gold
            workers += e.workers
        if not isinstance(e, GameEnded):
            after = evolve(after, e)
    return Gain(completed=completed, seals=tuple(seals), gold=gold, workers=workers,  # type: ignore[arg-type]
                value=wealth(after, seat) - wealth(state, seat))
