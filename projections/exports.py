"""Finished games as flat tables (games, seats, scores, commands) and as BG Stats' play
import JSON. Pure: statistics rows and logs in, rows of plain values out; the CLI writes
them as JSON lines, CSV or Parquet (`services/cli/exports.py`).

Every table's columns and their types are in `COLUMNS` (the Parquet schema and the CSV
header both come from it). Only finished games are exported: their seed is revealed and
their whole log is public, so no table can show what a seat was not meant to see.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from events.envelope import Envelope
from games.contract import GameDef
from projections import movetimes
from projections.ratings import player_key
from projections.stats import GameRow, setup

COLUMNS: dict[str, list[tuple[str, str]]] = {
    "games": [("game_id", "str"), ("game_type", "str"), ("players", "int"), ("setup", "str"), ("options", "str"),
              ("winners", "str"), ("events", "int"), ("commands", "int"), ("started_ms", "int"), ("ended_ms", "int"),
              ("duration_ms", "int")],
    "seats": [("game_id", "str"), ("game_type", "str"), ("seat", "int"), ("player", "str"), ("player_name", "str"),
              ("total", "int"), ("rank", "int"), ("won", "bool"), ("facets", "str"), ("decisions", "int"),
              ("think_ms", "int")],
    "scores": [("game_id", "str"), ("game_type", "str"), ("seat", "int"), ("category", "str"), ("points", "int")],
    "commands": [("game_id", "str"), ("game_type", "str"), ("seq", "int"), ("command_id", "str"), ("seat", "int"),
                 ("time_ms", "int"), ("events", "int"), ("event_types", "str"), ("decision_ms", "int")],
}
"""Each table's columns, in order, with their type: str, int (64-bit; `decision_ms` may be
null: a command no decision is timed for), bool. `options` and `facets` are JSON objects
as text; `winners` the winning seats, comma-separated; `player` the rating key
(`kind:id`, "" when the log names no player), `think_ms` the seat's decisions' total."""

_json = msgspec.json.Encoder(order="sorted")


def game_tables(game: GameDef, r: GameRow, envs: Sequence[Envelope]) -> dict[str, list[dict[str, Any]]]:
    """The rows of one finished game in every table; `envs` is its whole log."""
    found = movetimes.decisions(game, r.game_id, envs)
    by_seq = {seq: ms for _, seq, ms in found}
    per_seat = movetimes.by_seat(found)
    defaults = msgspec.to_builtins(game.options_type())
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in COLUMNS}
    out["games"].append({
        "game_id": r.game_id, "game_type": r.game_type, "players": r.players, "setup": setup(r, defaults),
        "options": _json.encode(r.options).decode(), "winners": ",".join(map(str, r.winners)),
        "events": r.events, "commands": r.commands, "started_ms": r.started_ms, "ended_ms": r.ended_ms,
        "duration_ms": r.ended_ms - r.started_ms})
    for i, s in enumerate(r.seats):
        p = r.seated[i] if i < len(r.seated) else None
        t = per_seat[i] if i < len(per_seat) else movetimes.SeatTimes()
        out["seats"].append({
            "game_id": r.game_id, "game_type": r.game_type, "seat": i, "player": player_key(p) if p else "",
            "player_name": p.name if p else "", "total": s.total, "rank": s.rank, "won": i in r.winners,
            "facets": _json.encode(s.facets).decode(), "decisions": t.decisions, "think_ms": t.total_ms})
        for c, v in zip(r.categories, s.scores):
            out["scores"].append({"game_id": r.game_id, "game_type": r.game_type, "seat": i, "category": c, "points": v})
    for cmd in _commands(envs):
        first = cmd[0]
        if first.seat < 0:
            continue
        out["commands"].append({
            "game_id": r.game_id, "game_type": r.game_type, "seq": first.seq, "command_id": first.command_id,
            "seat": first.seat, "time_ms": first.time, "events": len(cmd),
            "event_types": ",".join(e.type for e in cmd), "decision_ms": by_seq.get(first.seq)})
    return out


def _commands(envs: Iterable[Envelope]) -> list[list[Envelope]]:
    out: list[list[Envelope]] = []
    for e in envs:
        if out and out[-1][0].command_id == e.command_id:
            out[-1].append(e)
        else:
            out.append([e])
    return out


def merge(parts: Iterable[dict[str, list[dict[str, Any]]]]) -> dict[str, list[dict[str, Any]]]:
    """Tables of several games, one after the other."""
    out: dict[str, list[dict[str, Any]]] = {name: [] for name in COLUMNS}
    for p in parts:
        for name, rows in p.items():
            out[name] += rows
    return out


# ---------------------------------------------------------------- BG Stats

BGSTATS_GAMES: dict[str, tuple[str, int]] = {
    "seven_wonders": ("7 Wonders", 68448),
    "seven_wonders_duel": ("7 Wonders Duel", 173346),
    "arkadia": ("Arkadia", 25643),
    "ora_et_labora": ("Ora et Labora", 70149),
}
"""Each game type's name and BoardGameGeek id, as BG Stats knows the game."""

_NS = uuid.uuid5(uuid.NAMESPACE_URL, "tablestream")


def _uuid(kind: str, name: str) -> str:
    """A stable id (BG Stats matches records by uuid: a second import of the same plays
    updates them instead of adding copies)."""
    return str(uuid.uuid5(_NS, f"{kind}:{name}")).upper()


def _when(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def bgstats(rows: Iterable[GameRow], role: Any = None) -> dict[str, Any]:
    """BG Stats' play import file for finished games: `games` (one per game type),
    `players` (one per player the logs name; a seat of a game that names none is an
    anonymous "Seat N"), `locations` (Tablestream) and `plays` (one per game, its seats'
    scores, ranks and winners). `role(game_type, facets)`: a seat's role text (its wonder,
    ...), or none."""
    games: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    plays = []
    for r in sorted(rows, key=lambda x: (x.started_ms, x.game_id)):
        name, bgg = BGSTATS_GAMES.get(r.game_type, (r.game_type, 0))
        g = games.setdefault(r.game_type, {"id": len(games) + 1, "uuid": _uuid("game", r.game_type), "name": name,
                                           "bggId": bgg, "bggYear": 0, "highestWins": True, "noPoints": False,
                                           "cooperative": False, "usesTeams": False})
        scores = []
        for i, s in enumerate(r.seats):
            p = r.seated[i] if i < len(r.seated) else None
            key, shown = (player_key(p), p.name) if p else (f"seat:{i}", f"Seat {i + 1}")
            pl = players.setdefault(key, {"id": len(players) + 1, "uuid": _uuid("player", key), "name": shown,
                                          "isAnonymous": p is None})
            scores.append({"playerRefId": pl["id"], "score": str(s.total), "winner": i in r.winners, "rank": s.rank,
                           "seatOrder": i + 1, "startPlayer": False, "newPlayer": False,
                           "role": role(r.game_type, s.facets) if role else ""})
        plays.append({"uuid": _uuid("play", r.game_id), "playDate": _when(r.started_ms),
                      "durationMin": max(0, r.ended_ms - r.started_ms) // 60_000, "gameRefId": g["id"],
                      "locationRefId": 1, "ignored": False, "manualWinner": False, "rounds": 0, "usesTeams": False,
                      "rating": 0, "scoringSetting": 0, "playImages": "[]", "comments": f"Tablestream game {r.game_id}",
                      "playerScores": scores})
    return {"games": list(games.values()), "players": list(players.values()),
            "locations": [{"id": 1, "name": "Tablestream", "uuid": _uuid("location", "tablestream")}], "plays": plays}
