"""What a seat (or a spectator) may see, and a compact text rendering of it.

Public (§5 B, §8): both cities (buildings, built and unbuilt wonders, tucked cards,
coins, progress tokens), the pawn and the military tokens left, the board's progress
tokens, the discard pile, the face-up cards of the current structure, and who owes what
decision. Never shown: face-down cards (only their back: "age1".."age3" or "guild",
§15 #24), the other structures, the cards removed at setup, the unused guilds, the draft
wonders not yet revealed, and the progress tokens in the box, except the 3 drawn by
The Great Library, to their owner only, while choosing (§12).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from games.contract import Result
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.rules import accessible, offered, to_act
from games.seven_wonders_duel.scoring import military_points, result
from games.seven_wonders_duel.state import State
from games.words import count


class CityView(msgspec.Struct, frozen=True, kw_only=True):
    """A city as everybody sees it."""

    seat: int
    coins: int
    cards: tuple[str, ...]
    wonders: tuple[str, ...]  # unbuilt
    built: tuple[str, ...]
    tucked: tuple[str, ...]
    tokens: tuple[str, ...]


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """One position of the current structure that still holds a card (§4)."""

    position: int
    card: str | None  # None while face down
    back: str  # "age1" / "age2" / "age3" / "guild"
    accessible: bool


class PendingView(msgspec.Struct, frozen=True, kw_only=True):
    """An open decision: its owner sees the options; others see its kind only."""

    seat: int
    kind: str
    options: tuple[str, ...] | None = None


class View(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's view of the game (`seat` None: a spectator)."""

    game: str = "seven_wonders_duel"
    seat: int | None
    phase: str
    first: int
    age: int
    to_act: tuple[int, ...]
    cities: tuple[CityView, ...]
    pawn: int
    military_tokens: tuple[int, ...]
    board_tokens: tuple[str, ...]
    box_size: int
    discard: tuple[str, ...]
    structure: tuple[Slot, ...]
    draft: tuple[str, ...] = ()  # the revealed wonders still to take
    pending: PendingView | None = None
    wonders_out: tuple[str, ...] = ()
    victory: str | None = None
    result: Result | None = None


def view(state: State, seat: int | None) -> View:
    """The view of `seat` (None = spectator); it never contains a hidden card or token."""
    return _seat_view(state, seat, _public(state))


def views(state: State, seats: Sequence[int | None]) -> list[View]:
    """`[view(state, s) for s in seats]`, the part every audience shares (structure, cities,
    the result) built once: what the projector writes at every step."""
    public = _public(state)
    return [_seat_view(state, s, public) for s in seats]


def _seat_view(state: State, seat: int | None, public: View) -> View:
    """`public` (the spectator's view) as `seat` sees it: its seat, and the options of a
    decision it owes (the only part of a view that is not everybody's)."""
    mine = seat if seat in (0, 1) else None
    p = state.pending
    if mine is None or p is None or p.seat != mine:
        return public if mine is None else msgspec.structs.replace(public, seat=mine)
    return msgspec.structs.replace(public, seat=mine, pending=PendingView(seat=p.seat, kind=p.kind, options=p.options))


def _public(state: State) -> View:
    slots: list[Slot] = []
    if state.phase in ("play", "over") and state.age:
        structure = state.structures[state.age - 1]
        reach = accessible(state.age, state.present)
        for p in range(20):
            if state.present >> p & 1:
                card = structure[p]
                up = bool(state.face_up >> p & 1)
                back = "guild" if CATALOG.cards[card].deck == "guild" else f"age{state.age}"
                slots.append(Slot(position=p, card=card if up else None, back=back, accessible=p in reach))
    pending = None
    if state.pending is not None:
        pending = PendingView(seat=state.pending.seat, kind=state.pending.kind, options=None)
    cities = tuple(
        CityView(seat=i, coins=c.coins, cards=c.cards, wonders=c.wonders, built=c.built, tucked=c.tucked,
                 tokens=c.tokens)
        for i, c in enumerate(state.cities)
    )
    return View(
        seat=None, phase=state.phase, first=state.first, age=state.age, to_act=to_act(state), cities=cities,
        pawn=state.pawn, military_tokens=state.military_tokens, board_tokens=state.board_tokens,
        box_size=len(state.box_tokens), discard=state.discard, structure=tuple(slots),
        draft=tuple(offered(state)) if state.phase == "draft" else (), pending=pending,
        wonders_out=state.wonders_out, victory=state.victory, result=result(state),
    )


def facet_text(facet: str, value: str) -> str:
    """A statistics facet's value in `render`'s words: a wonder (one member of the
    "wonders" facet) by its name ("the_appian_way" -> "The Appian Way")."""
    if facet == "wonders" and value in CATALOG.wonders:
        return CATALOG.name(value)
    return value


def _names(ids: tuple[str, ...]) -> str:
    return ", ".join(CATALOG.name(i) for i in ids) or "-"


_ROMAN = {1: "I", 2: "II", 3: "III"}


def render(v: View) -> str:
    """A few lines for a terminal or a chat message."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    stage = {"draft": "wonder draft", "over": "game over"}.get(v.phase, f"Age {_ROMAN.get(v.age, v.age)}")
    lines = [f"7 Wonders Duel · {stage} · {who} · to act: {', '.join(map(str, v.to_act)) or '-'}"]
    track = ["·"] * 19
    track[v.pawn + 9] = "●"
    lines.append(f"military [seat 0] {''.join(track)} [seat 1]  pawn {v.pawn:+d}, "
                 f"tokens left {list(v.military_tokens)}")
    for c in v.cities:
        lines.append(f"[{c.seat}] {count(c.coins, 'coin')} · tokens {_names(c.tokens)} · military VP "
                     f"{military_points(v.pawn, c.seat)}")
        lines.append(f"    buildings: {_names(c.cards)}")
        lines.append(f"    wonders built: {_names(c.built)} · unbuilt: {_names(c.wonders)}")
    lines.append(f"progress tokens on the board: {_names(v.board_tokens)}")
    if v.draft:
        lines.append(f"wonders to draft: {_names(v.draft)}")
    if v.structure:
        rows = []
        for s in v.structure:
            name = CATALOG.name(s.card) if s.card else f"?{s.back}"
            rows.append(f"{s.position}:{name}{'*' if s.accessible else ''}")
        lines.append("structure (* accessible): " + " | ".join(rows))
    lines.append(f"discard pile: {_names(v.discard)}")
    if v.pending is not None:
        opts = f": {_names(v.pending.options)}" if v.pending.options is not None else ""
        lines.append(f"seat {v.pending.seat} decides ({v.pending.kind}){opts}")
    if v.result is not None:
        lines.append(f"{v.victory} victory · winners {list(v.result.winners)}")
        lines.append("scores (" + " ".join(v.result.categories) + "):")
        for s, (row, tot) in enumerate(zip(v.result.scores, v.result.totals)):
            lines.append(f"  [{s}] {' '.join(str(x) for x in row)} = {tot}")
    return "\n".join(lines)
