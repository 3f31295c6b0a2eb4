"""Board view documents: what each seat, and a spectator, sees after a log prefix.

A document is built from `game.view` only, so hidden information is exactly what the
game's view redacts; `seq` says which log prefix it shows, so replay can reproduce it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from projections import clock as clocks
from projections import undo as undos
from projections.table import Table


class ViewDoc(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """The stored view of one seat (None: spectator) at log position `seq`; `clock` (public:
    `projections.clock.public`) only for a game with a time control, absent otherwise;
    `undo`, only in a game opened with undo: the seats that may take back a command now
    (public: what makes a command quiet is in every view, `projections.undo`)."""

    game_id: str
    game_type: str
    seq: int
    seat: int | None
    over: bool
    view: msgspec.Raw
    text: str
    clock: dict[str, Any] | None = None
    undo: list[int] | None = None


_enc = msgspec.json.Encoder()
_doc_decoder = msgspec.json.Decoder(ViewDoc)


def seats(table: Table) -> list[int | None]:
    """Every audience of a game: its seats, then the spectator (None)."""
    players = table.opened.players if table.opened is not None else 0
    return [*range(players), None]


def doc(table: Table, seat: int | None, over: bool | None = None, v: Any = None) -> bytes:
    """The JSON view document of `seat` for this table (`over`: whether the game is over,
    and `v`: the seat's view, if the caller knows them already)."""
    game = table.game
    if v is None:
        v = game.view(table.state, seat)
    return _enc.encode(ViewDoc(
        game_id=table.game_id, game_type=game.id, seq=table.version, seat=seat,
        over=game.result(table.state) is not None if over is None else over,
        view=msgspec.Raw(_enc.encode(v)), text=game.render(v),
        clock=None if table.clock is None else clocks.public(table.clock),
        undo=None if table.undo is None else undos.seats(table.undo)))


def docs(table: Table) -> dict[int | None, bytes]:
    """Every audience's document (the views from `GameDef.views` where the game has it)."""
    game, audiences = table.game, seats(table)
    over = game.result(table.state) is not None
    if game.views is None:
        return {s: doc(table, s, over) for s in audiences}
    return {s: doc(table, s, over, v) for s, v in zip(audiences, game.views(table.state, audiences), strict=True)}


def decode_doc(data: bytes) -> ViewDoc:
    return _doc_decoder.decode(data)


def same_view(stored: bytes, fresh: bytes) -> bool:
    """Whether a stored document shows what a fresh one shows: every field byte for byte
    (the structured `view` included) but `text`, which is derived from `view` by the game's
    `render` and may read better in a later version ("1 coin" for "1 coins") without the
    view having changed; a document written before such a change still verifies."""
    if stored == fresh:
        return True
    a, b = decode_doc(stored), decode_doc(fresh)
    return msgspec.structs.replace(a, text="") == msgspec.structs.replace(b, text="")
