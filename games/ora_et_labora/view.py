"""What a seat (or a spectator) sees, and a compact text rendering of it.

Nothing is hidden in Ora et Labora (§1, §5): goods, landscapes, clergy, the settlements in
hand, the building stacks still to come, the landscape stacks and the wheel are open, so
every seat and every spectator sees the same view of the whole state; only `seat` (whom
the view is for) differs.

The grid of `render` writes one token per space (§3.1 columns -2..6, rows top down):
`~~` water, `::` empty coast, `..` empty plains, `^^` empty hillside, `MM` empty mountain
(`''` its lower row: a mountain spans the two rows of its plot), `ff` forest, `mm` moor,
or the building or settlement id standing there, followed by `*` while a clergyman stands
on it.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from games.ora_et_labora import goods as G
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import CATALOG
from games.ora_et_labora.landscape import MOUNTAIN_COL, Landscape
from games.ora_et_labora.state import (
    AVAILABLE,
    PRIOR,
    FreeLandscape,
    NeutralPrior,
    Pending,
    State,
)

LETTERS = ("A", "B", "C", "D")


class BuildingRef(msgspec.Struct, frozen=True, kw_only=True):
    """A building (or settlement) by catalog id, with its printed name."""

    id: str
    name: str


class StackView(msgspec.Struct, frozen=True, kw_only=True):
    """A building stack still to enter the display at its settlement phase (§5.2)."""

    letter: str
    buildings: tuple[str, ...]


class ClergyView(msgspec.Struct, frozen=True, kw_only=True):
    """One clergyman: the prior or a lay brother, in his owner's supply or on (owner, building)."""

    role: Literal["prior", "lay_brother"]
    where: Literal["supply"] | tuple[int, str]


class SpaceView(msgspec.Struct, frozen=True, kw_only=True):
    """One space of a landscape (§3): terrain, forest/moor card, what stands on it ("" if nothing)."""

    col: int
    terrain: str
    card: str = ""
    built: str = ""


class RowView(msgspec.Struct, frozen=True, kw_only=True):
    """The spaces of one landscape row, left to right."""

    row: int
    spaces: tuple[SpaceView, ...]


class OwnerView(msgspec.Struct, frozen=True, kw_only=True):
    """A landscape's owner: a seat, or the solo game's neutral player (`seat` None)."""

    owner: int
    label: str  # "seat 0" ... or "neutral"
    seat: int | None
    goods: dict[str, int]  # non-zero counts, in goods order
    clergy: tuple[ClergyView, ...]  # the prior first
    hand: tuple[str, ...]  # settlements not built yet
    land: tuple[RowView, ...]  # top row first
    districts: tuple[int, ...]  # rows of the districts bought
    coast_plots: tuple[int, ...]  # top rows of the plots bought
    mountain_plots: tuple[int, ...]


class View(msgspec.Struct, frozen=True, kw_only=True):
    """The whole public state, as seen by `seat` (None: a spectator)."""

    game: str = "ora_et_labora"
    seat: int | None
    mode: str
    variant: str
    length: str
    players: int
    phase: str
    round: int
    bonus: bool  # the bonus round (§9)
    final: bool  # the game's last actions are under way
    start: int  # the start player
    acting: int | None  # whose decision it is now (None: nobody's)
    decision: str  # what kind: a pending decision's kind, or "action", "end_action", "settlement", "over"
    queue: tuple[int, ...]  # seats still to act this round, the actor first
    acted: bool  # the actor has taken this action's main action
    letter: str  # the settlement phase under way ("" if none)
    settlers: tuple[int, ...]  # seats still to act in it, the current one first
    pending: tuple[Pending, ...]  # open decisions, the one to take now last
    wheel: dict[str, int]  # each indicator in play: the value it shows (§4)
    wheel_side: str  # "front" or "back"
    rotation: int
    display: tuple[BuildingRef, ...]
    stacks: tuple[StackView, ...]
    districts: tuple[int, ...]  # prices of the district stack, top first
    plots: tuple[int, ...]
    contract: int  # the work-contract price in coins
    wonders: int  # Wonders left in the supply
    owners: tuple[OwnerView, ...]  # seats, then the neutral player in the solo game
    categories: tuple[str, ...] = ()  # the final score, once over
    scores: tuple[tuple[int, ...], ...] = ()


def _name(cid: str) -> str:
    b = CATALOG.buildings.get(cid)
    if b is not None:
        return b.name
    s = CATALOG.settlements.get(cid)
    return s.name if s is not None else cid


def _now(state: State) -> tuple[int | None, str]:
    """Whose decision it is now and of what kind."""
    if state.phase == "over":
        return None, "over"
    if state.pending:
        top = state.pending[-1]
        return top.seat, type(top).__struct_config__.tag  # type: ignore[return-value]
    if state.phase == "settlement":
        return (state.settlers[0], "settlement") if state.settlers else (None, "settlement")
    if state.phase == "actions" and state.queue:
        return state.queue[0], "end_action" if state.acted else "action"
    return None, state.phase


def _land(land: Landscape) -> tuple[RowView, ...]:
    rows: dict[int, list[SpaceView]] = {}
    for s in land.spaces:
        rows.setdefault(s.row, []).append(SpaceView(col=s.col, terrain=s.terrain, card=s.card, built=s.built))
    return tuple(RowView(row=r, spaces=tuple(sorted(rows[r], key=lambda v: v.col))) for r in sorted(rows))


def view(state: State, seat: int | None) -> View:
    """The view of `seat` (None, or not a seat: a spectator); everything is public."""
    mine = seat if seat is not None and 0 <= seat < state.players else None
    acting, decision = _now(state)
    owners = []
    for o, owner in enumerate(state.owners):
        is_seat = o < state.players
        owners.append(OwnerView(
            owner=o,
            label=f"seat {o}" if is_seat else "neutral",
            seat=o if is_seat else None,
            goods=G.as_dict(owner.goods),
            clergy=tuple(ClergyView(role="prior" if i == PRIOR else "lay_brother",
                                    where="supply" if at == AVAILABLE else (at[0], at[1]))
                         for i, at in enumerate(owner.clergy)),
            hand=owner.hand,
            land=_land(owner.land),
            districts=owner.land.districts,
            coast_plots=owner.land.coast_plots,
            mountain_plots=owner.land.mountain_plots,
        ))
    w = state.wheel
    return View(
        seat=mine,
        mode=state.mode,
        variant=state.options.variant,
        length=state.options.length,
        players=state.players,
        phase=state.phase,
        round=state.round,
        bonus=state.bonus,
        final=state.final,
        start=state.start,
        acting=acting,
        decision=decision,
        queue=state.queue,
        acted=state.acted,
        letter=state.letter,
        settlers=state.settlers,
        pending=state.pending,
        wheel={g: w.value(g) for g in W.INDICATORS if w.in_play(g)},
        wheel_side="front" if w.values == W.FRONT else "back",
        rotation=w.rotation,
        display=tuple(BuildingRef(id=b, name=_name(b)) for b in state.display),
        stacks=tuple(StackView(letter=LETTERS[i] if i < len(LETTERS) else str(i), buildings=s)
                     for i, s in enumerate(state.stacks) if s),
        districts=state.districts,
        plots=state.plots,
        contract=state.contract,
        wonders=state.wonders,
        owners=tuple(owners),
        categories=state.categories,
        scores=state.scores,
    )


# -- rendering ----------------------------------------------------------------------------------

_EMPTY = {"water": "~~", "coast": "::", "plains": "..", "hillside": "^^", "mountain": "MM"}
_CARD = {"forest": "ff", "moor": "mm"}
_WIDTH = 100  # wrap long lists (display, stacks) at about this many characters


def _token(s: SpaceView, occupied: bool) -> str:
    if s.built:
        tok = s.built
    elif s.card:
        tok = _CARD.get(s.card, s.card[:2])
    else:
        tok = _EMPTY.get(s.terrain, s.terrain[:2])
    return f"{tok + ('*' if occupied else ''):<4}"


def grid(o: OwnerView, occupied: set[tuple[int, str]]) -> list[str]:
    """`o`'s landscape as text: a column header, then one line per row (tokens: module doc)."""
    cells = {(r.row, s.col): s for r in o.land for s in r.spaces}
    if not cells:
        return []
    cols = range(min(c for _, c in cells), max(c for _, c in cells) + 1)
    rows = range(min(r for r, _ in cells), max(r for r, _ in cells) + 1)
    below = {top + 1 for top in o.mountain_plots}  # the lower row of each mountain
    out = ["      " + " ".join(f"{c:<4}" for c in cols).rstrip()]
    for r in rows:
        toks = []
        for c in cols:
            s = cells.get((r, c))
            if s is not None:
                toks.append(_token(s, (o.owner, s.built) in occupied))
            elif c == MOUNTAIN_COL and r in below:
                toks.append("''  ")
            else:
                toks.append("    ")
        out.append(f"  {r:>3} " + " ".join(toks).rstrip())
    return out


def _wrap(head: str, items: list[str], sep: str = ", ") -> list[str]:
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item if i == 0 else sep + item
        if len(line) + len(piece) > _WIDTH and line.strip() != head.strip():
            lines.append(line.rstrip(" ,"))
            line = " " * len(head) + item
        else:
            line += piece
    lines.append(line)
    return lines


def _goods(goods: dict[str, int]) -> str:
    return " ".join(f"{g} {n}" for g, n in goods.items()) or "nothing"


def _clergy(c: ClergyView) -> str:
    who = "prior" if c.role == "prior" else "brother"
    return f"{who} supply" if c.where == "supply" else f"{who} {c.where[0]}:{c.where[1]}"


def _who(v: View, o: int | None) -> str:
    if o is None:
        return "nobody"
    return f"seat {o}" if o < v.players else "neutral"


def _about(p: Pending) -> str:
    """What a pending decision is about, in a few words."""
    building = getattr(p, "building", None)
    if isinstance(building, tuple):
        return f" {building[0]}:{building[1]}"
    if isinstance(building, str):
        return f" {building}"
    if isinstance(p, NeutralPrior):
        return " " + " ".join(p.buildings)
    if isinstance(p, FreeLandscape):
        return " " + " ".join(p.kinds)
    return ""


def render(v: View) -> str:
    """The game as text for a terminal or a chat message (monospace)."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    head = f"Ora et Labora · {v.mode} ({v.variant}) · round {v.round}"
    if v.bonus:
        head += " · bonus round"
    if v.final:
        head += " · final actions"
    if v.phase == "over":
        head += " · game over"
    elif v.acting is not None:
        what = f"settlement phase {v.letter}" if v.decision == "settlement" else v.decision.replace("_", " ")
        if v.pending:
            what += _about(v.pending[-1])
        head += f" · {_who(v, v.acting)} to act: {what}"
    lines = [head + f" · start seat {v.start} · view of {who}"]
    wheel = " ".join(f"{g} {n}" for g, n in v.wheel.items())
    lines.append(f"wheel ({v.wheel_side}, rotation {v.rotation}): {wheel}")
    lines += _wrap("display: ", [f"{b.id} {b.name}" for b in v.display] or ["-"])
    for s in v.stacks:
        lines += _wrap(f"stack {s.letter}: ", list(s.buildings) or ["-"], " ")
    lines.append(f"districts {' '.join(map(str, v.districts)) or '-'} · plots {' '.join(map(str, v.plots)) or '-'}"
                 f" · contract {v.contract} · wonders {v.wonders}")
    occupied = {c.where for o in v.owners for c in o.clergy if c.where != "supply"}
    for o in v.owners:
        marks = (" · start" if o.seat == v.start else "") + (" · to act" if o.owner == v.acting else "")
        lines.append(f"[{o.label}{marks}] {_goods(o.goods)}")
        clergy = ", ".join(_clergy(c) for c in o.clergy)
        hand = f" · hand {' '.join(o.hand)}" if o.hand else ""
        lines.append(f"    clergy {clergy}{hand}")
        lines += grid(o, occupied)  # type: ignore[arg-type]
    if v.scores:
        lines.append(f"final ({' '.join(v.categories)}):")
        for s, row in enumerate(v.scores):
            lines.append(f"  [{_who(v, s)}] {' '.join(map(str, row))} = {sum(row)}")
    return "\n".join(lines)
