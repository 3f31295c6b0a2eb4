"""What a seat (or a spectator) may see, and a text rendering of the board.

Public (§10): the board (lot, tent camps, buildings with their seal tokens, workers), the
castle, its pools and the seal values, the open display, the draw pile's size, the
discard pile, each seat's banners and hand size, the general pool. Behind each screen,
seen only by its seat: the hand, the own and neutral workers held, the seals and the gold.
The draw pile's order is seen by nobody.
"""

from __future__ import annotations

import msgspec

from games.arkadia.board import HEIGHT, WIDTH, lot_cells, square_cells
from games.arkadia.catalog import CATALOG, LETTER, SEALS
from games.arkadia.events import Lot
from games.arkadia.rules import floor_of, step, to_act
from games.arkadia.scoring import result, values
from games.arkadia.state import State, Worker
from games.contract import Result

Cell = tuple[int, int]


class SeatView(msgspec.Struct, frozen=True, kw_only=True):
    """A seat as everybody sees it."""

    seat: int
    colour: str
    banners: int
    hand_size: int
    pool: int  # own workers of this colour still in the general pool


class BuildingView(msgspec.Struct, frozen=True, kw_only=True):
    """A building on the board; `completed` ones carry no seal token any more."""

    id: int
    form: str
    seal: str
    cells: tuple[Cell, ...]
    seat: int
    completed: bool


class View(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view of the game (`seat` None: a spectator)."""

    game: str = "arkadia"
    seat: int | None
    players: int
    phase: str
    step: str
    active: int
    to_act: tuple[int, ...]
    turn: int
    lot: Lot
    squares: tuple[Cell, ...]
    tents: tuple[Cell, ...]
    buildings: tuple[BuildingView, ...]
    workers: tuple[Worker, ...]
    castle: tuple[tuple[str, ...], ...]
    printed: tuple[str | None, ...]
    values: tuple[int, int, int, int]
    floor: int
    pools: tuple[tuple[int, int, int, int], ...]
    pool_neutral: int
    display: tuple[str, ...]
    deck: int
    discard: tuple[str, ...]
    seats: tuple[SeatView, ...]
    owed: int
    final_turns: int | None
    hand: tuple[str, ...] | None = None
    workers_held: int | None = None
    neutral_held: int | None = None
    seals: tuple[int, int, int, int] | None = None
    gold: int | None = None
    result: Result | None = None


def view(state: State, seat: int | None) -> View:
    """The view of `seat` (None = spectator); it never holds another seat's secrets."""
    mine = seat is not None and 0 <= seat < state.players
    sc = state.screens[seat] if mine and state.screens else None  # type: ignore[index]
    lot = state.lot
    return View(
        seat=seat if mine else None,
        players=state.players,
        phase=state.phase,
        step=step(state),
        active=state.active,
        to_act=to_act(state),
        turn=state.turn,
        lot=lot,
        squares=square_cells(lot.x, lot.y, lot.orientation) if state.phase != "new" else (),
        tents=CATALOG.tents,
        buildings=tuple(BuildingView(id=b.id, form=b.form, seal=b.seal, cells=b.cells, seat=b.seat,
                                     completed=b.completed) for b in state.buildings),
        workers=state.workers,
        castle=state.castle,
        printed=CATALOG.printed,
        values=values(state.castle) if state.castle else (0, 0, 0, 0),
        floor=min(floor_of(state), len(state.pools)) if state.castle else 0,
        pools=state.pools,
        pool_neutral=state.pool_neutral,
        display=state.display,
        deck=len(state.pile),
        discard=state.discard,
        seats=tuple(SeatView(seat=i, colour=CATALOG.colours[i], banners=s.banners, hand_size=len(s.hand),
                             pool=state.pool[i]) for i, s in enumerate(state.screens)),
        owed=state.owed,
        final_turns=state.final_turns if state.trigger >= 0 else None,
        hand=tuple(sorted(sc.hand, key=_card_order)) if sc is not None else None,
        workers_held=sc.workers if sc is not None else None,
        neutral_held=sc.neutral if sc is not None else None,
        seals=sc.seals if sc is not None else None,
        gold=sc.gold if sc is not None else None,
        result=result(state),
    )


def _card_order(cid: str) -> tuple[str, int, str]:
    c = CATALOG.cards[cid]
    return c.form, SEALS.index(c.seal), cid


def card_name(cid: str) -> str:
    """'c09' -> 'farm red' (form id and seal, as the notation writes them)."""
    c = CATALOG.cards[cid]
    return f"{c.form} {c.seal}"


def _cards(ids: tuple[str, ...]) -> str:
    return ", ".join(card_name(c) for c in ids) or "-"


def _vec(v: tuple[int, ...]) -> str:
    return " ".join(f"{c} {k}" for c, k in zip(SEALS, v))


LEGEND = """\
board, 3 characters a square (columns across, rows down):
   .   a vacant square            ^   a vacant tent camp
  07r  building 7, its seal token red (r red, o olive, b black, s silver)
  07+  building 7, completed
  (1)  a worker of seat 1         (n)  a neutral worker
  #r0  a castle square printed red, 0 pieces on it (-: printed with no colour)
  #O2  a castle square with 2 pieces, an olive one on top (capital: top piece)
  ###  the castle's courtyard
seal values: what a seal of each colour is worth now (the castle squares
showing its colour); building floor: the castle floor being built;
floor-N pool: the castle pieces of each colour left for floor N;
open cards: the building cards on display (form and seal)"""
"""What the symbols of `render`'s text mean (`tablestream view --legend`)."""


def grid(v: View) -> list[str]:
    """The board as text, 3 characters per cell (legend in README.md):
    ` . ` vacant, ` ^ ` vacant tent camp, `07r` building 7 with its red token (`07+` completed),
    `(1)` a worker of seat 1, `(n)` a neutral worker, `#r0` castle square showing red with 0
    pieces (`#O2`: 2 pieces, olive on top; `#-0` unmarked), `###` the courtyard."""
    cells: dict[Cell, str] = {}
    for c in v.tents:
        cells[c] = " ^ "
    if v.phase != "new":
        for c in lot_cells(v.lot.x, v.lot.y, v.lot.orientation):
            cells[c] = "###"
        for i, c in enumerate(v.squares):
            stack = v.castle[i]
            top = LETTER[stack[-1]].upper() if stack else (LETTER[v.printed[i]] if v.printed[i] else "-")
            cells[c] = f"#{top}{len(stack)}"
    for b in v.buildings:
        mark = "+" if b.completed else LETTER[b.seal]
        for c in b.cells:
            cells[c] = f"{b.id:02d}{mark}"
    for w in v.workers:
        cells[w.cell] = f"({'n' if w.owner < 0 else w.owner})"
    head = "    " + "".join(f"{x:^3}" for x in range(WIDTH))
    rows = [head]
    for y in range(HEIGHT):
        rows.append(f"{y:>3} " + "".join(cells.get((x, y), " . ") for x in range(WIDTH)))
    return rows


def render(v: View) -> str:
    """The board and the game around it, for a terminal or a chat message (monospace)."""
    who = "spectator" if v.seat is None else f"seat {v.seat} ({CATALOG.colours[v.seat]})"
    lines = [f"Arkadia · {v.players} players · turn {v.turn + 1} · {who}"]
    if v.phase == "over":
        lines[0] += " · game over"
    else:
        lines[0] += f" · seat {v.active} to act: {v.step}"
        if v.owed:
            lines[0] += f" ({v.owed} castle piece{'s' if v.owed > 1 else ''} owed)"
    if v.final_turns is not None and v.phase != "over":
        lines.append(f"final round: {v.final_turns} turn(s) left")
    lines += grid(v)
    lines.append(f"seal values: {_vec(v.values)} · building floor {v.floor}")
    for f, pool in enumerate(v.pools, 1):
        lines.append(f"  floor-{f} pool: {_vec(pool)}")
    lines.append(f"open cards: {_cards(v.display)} · draw pile {v.deck} · neutral pool {v.pool_neutral}")
    for s in v.seats:
        mark = " <" if s.seat in v.to_act else ""
        lines.append(f"[{s.seat}] {s.colour}: banners {s.banners}, hand {s.hand_size}, "
                     f"pool workers {s.pool}{mark}")
    if v.hand is not None:
        lines.append(f"your hand: {_cards(v.hand)}")
        lines.append(f"behind your screen: workers {v.workers_held}, neutral {v.neutral_held}, "
                     f"seals {_vec(v.seals or (0, 0, 0, 0))}, gold {v.gold}")
    if v.result is not None:
        lines.append(f"final ({' '.join(v.result.categories)}):")
        for s, (row, tot) in enumerate(zip(v.result.scores, v.result.totals)):
            win = " winner" if s in v.result.winners else ""
            lines.append(f"  [{s}] {' '.join(str(x) for x in row)} = {tot} gold{win}")
    return "\n".join(lines)
