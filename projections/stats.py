"""Statistics of finished games: one row per game, aggregated per game type on demand.

Rows are a pure function of a finished game's log, stored one per game, so projecting
them twice or rebuilding them from nothing gives the same data; aggregates (win rates by
facet, mean and spread per score category, game length) are computed from the rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import msgspec

from events.meta import SeatPlayer, is_meta
from projections.table import Table, result


class SeatRow(msgspec.Struct, frozen=True, kw_only=True):
    facets: dict[str, str]
    scores: list[int]
    total: int
    rank: int


class GameRow(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One finished game: who played what, scores by category, ranks, length.

    `summary` holds the game's own extra numbers (`GameDef.summary`, e.g. Arkadia's turns
    and how the game ended); omitted when empty, so rows of games without one are
    unchanged. `options` are the game's options as played (every field but those left
    unset), so statistics can be read per setup (`setup`, `select`); rows stored before it
    existed lack it (see `projections.audit`). `seated` names who held each seat, when the
    log records it (`SeatsTaken`): ratings are kept by it (`projections.ratings`).
    """

    game_id: str
    game_type: str
    players: int
    categories: list[str]
    seats: list[SeatRow]
    winners: list[int]
    events: int
    commands: int
    started_ms: int
    ended_ms: int
    summary: dict[str, Any] = {}
    options: dict[str, Any] = {}
    seated: list[SeatPlayer] = []
    resigned: list[int] = []
    """The seats that left the game (resigned, forfeited on a timeout, or abandoned after
    timeouts in a row); a bot played their decisions from then on, and they rank below
    every other seat."""


def row(table: Table, envelopes: Iterable[Any]) -> GameRow | None:
    """The row of a finished game (None while it runs); `envelopes` is its whole log."""
    game = table.game
    res = result(table)
    if res is None:
        return None
    envs = list(envelopes)
    facets = list(game.facets(table.state))
    return GameRow(
        game_id=table.game_id, game_type=game.id, players=len(res.totals),
        categories=list(res.categories),
        seats=[SeatRow(facets=dict(facets[i]) if i < len(facets) else {}, scores=list(res.scores[i]),
                       total=res.totals[i], rank=res.ranks[i]) for i in range(len(res.totals))],
        winners=list(res.winners),
        events=sum(1 for e in envs if not is_meta(e.type)),
        commands=len({e.command_id for e in envs if e.seat >= 0}),
        started_ms=envs[0].time if envs else 0, ended_ms=envs[-1].time if envs else 0,
        summary=_plain(game.summary(table.state)) if game.summary is not None else {},
        options=_options(table), seated=list(table.seated), resigned=list(table.resigned))


def _options(table: Table) -> dict[str, Any]:
    """The options the game was opened with, every field written out (unset ones left out)."""
    if table.opened is None:
        return {}
    opts = msgspec.json.decode(table.opened.options, type=table.game.options_type)
    return msgspec.to_builtins(opts)


def setup(r: GameRow, defaults: dict[str, Any]) -> str:
    """A row's setup in words: the player count and each option that differs from the
    game's default (`defaults`, the default options as builtins), e.g. "5 players,
    edifice" or "4 players, length=short, variant=ireland" (options alphabetically). An
    option left unset counts as false."""
    return setup_text(r.players, r.options, defaults)


def table_setup(table: Table) -> str:
    """The setup a game was opened with, in `setup`'s words ("" before it was opened)."""
    if table.opened is None:
        return ""
    return setup_text(table.opened.players, _options(table), msgspec.to_builtins(table.game.options_type()))


def setup_text(players: int, options: dict[str, Any], defaults: dict[str, Any]) -> str:
    """A setup in words (see `setup`) from a player count and options as builtins."""
    parts = [f"{players} player{'s' if players != 1 else ''}"]
    for k in sorted(set(defaults) | set(options)):
        if k == "players":
            continue
        v, d = options.get(k), defaults.get(k)
        if _same(v, d):
            continue
        parts.append(k if v is True else f"{k}={option_text(v)}")
    return ", ".join(parts)


def _same(a: Any, b: Any) -> bool:
    """Equal option values, an unset option (None) counting as false (but not as 0)."""
    if (a is None or a is False) and (b is None or b is False):
        return True
    return a == b and isinstance(a, bool) == isinstance(b, bool)


def option_text(v: Any) -> str:
    """An option's value as `--option` takes it: a string as it is, anything else as JSON."""
    return msgspec.json.encode(v).decode() if not isinstance(v, str) else v


def parse_option(text: str) -> tuple[str, Any]:
    """`KEY=VALUE` as given to `stats --option`: VALUE as JSON when it reads as JSON
    (true, 3, [6,4]), else as a string. Raises ValueError without `=`."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise ValueError(f"expected KEY=VALUE, got {text!r}")
    try:
        return key, msgspec.json.decode(value)
    except msgspec.DecodeError:
        return key, value


def select(rows: Iterable[GameRow], players: int | None = None,
           options: Iterable[tuple[str, Any]] = ()) -> list[GameRow]:
    """The rows of one setup: `players` seats (any when None) and each option equal to
    the value given (an option left unset matches false). Rows stored before rows carried
    their options match no option filter."""
    wanted = list(options)
    return [r for r in rows
            if (players is None or r.players == players)
            and all((r.options and _same(r.options.get(k), v)) for k, v in wanted)]


def _plain(summary: Any) -> dict[str, Any]:
    """The game's summary as JSON-safe scalars (numbers and strings), keys sorted."""
    out: dict[str, Any] = {}
    for k in sorted(summary):
        v = summary[k]
        out[str(k)] = v if isinstance(v, (bool, int, float, str)) else str(v)
    return out


_enc = msgspec.json.Encoder()
_dec = msgspec.json.Decoder(GameRow)


def encode_row(r: GameRow) -> bytes:
    return _enc.encode(r)


def decode_row(data: bytes) -> GameRow:
    return _dec.decode(data)


def _mean_sd(xs: list[float]) -> tuple[float, float]:
    if not xs:
        return 0.0, 0.0
    m = sum(xs) / len(xs)
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / len(xs))


def aggregate(rows: Iterable[GameRow], defaults: dict[str, Any] | None = None,
              set_facets: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Games, wins and plays by each facet value, mean/spread per category, game length.

    A facet value's `games` counts the games in which some seat had it, `plays` the seats
    that had it, `wins` those of them that won: for a facet of the whole game (Duel's
    victory type) `wins` counts the games won that way (a shared win counts each winner).
    `summary` aggregates the games' own extra numbers (mean/spread) and labels (counts).
    `setups` counts the games of each setup (`setup`, given the game's default options
    `defaults`): means over several setups mix them, and `select` picks one. A facet in
    `set_facets` holds a set ("a,b,c"): each member counts as a value (`GameDef.set_facets`).
    """
    rows = sorted(rows, key=lambda r: r.game_id)
    by_facet: dict[str, dict[str, dict[str, int]]] = {}
    cats: dict[str, list[float]] = {}
    totals: list[float] = []
    numbers: dict[str, list[float]] = {}
    labels: dict[str, dict[str, int]] = {}
    for r in rows:
        seen: set[tuple[str, str]] = set()
        for i, s in enumerate(r.seats):
            for name, whole in s.facets.items():
                if name in ("seat",):
                    continue
                for value in (whole.split(",") if name in set_facets and whole else (whole,)):
                    cell = by_facet.setdefault(name, {}).setdefault(value, {"games": 0, "plays": 0, "wins": 0})
                    if (name, value) not in seen:
                        seen.add((name, value))
                        cell["games"] += 1
                    cell["plays"] += 1
                    cell["wins"] += 1 if i in r.winners else 0
            for c, v in zip(r.categories, s.scores):
                cats.setdefault(c, []).append(v)
            totals.append(s.total)
        for k, v in r.summary.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                numbers.setdefault(k, []).append(float(v))
            else:
                label = labels.setdefault(k, {})
                label[str(v)] = label.get(str(v), 0) + 1
    setups: dict[str, int] = {}
    for r in rows:
        label = setup(r, defaults or {}) if r.options or not defaults else f"{setup(r, {})} (options not recorded)"
        setups[label] = setups.get(label, 0) + 1
    lengths = [float(r.events) for r in rows]
    commands = [float(r.commands) for r in rows]
    return {
        "games": len(rows),
        "setups": dict(sorted(setups.items())),
        "by_facet": by_facet,
        "categories": {c: dict(zip(("mean", "sd"), _mean_sd(v))) for c, v in cats.items()},
        "total": dict(zip(("mean", "sd"), _mean_sd(totals))),
        "length_events": dict(zip(("mean", "sd"), _mean_sd(lengths))),
        "length_commands": dict(zip(("mean", "sd"), _mean_sd(commands))),
        "summary": {**{k: dict(zip(("mean", "sd"), _mean_sd(v))) for k, v in sorted(numbers.items())},
                    **{k: dict(sorted(v.items())) for k, v in sorted(labels.items())}},
    }


def latency_summary(hist: dict[bytes, int] | dict[bytes, bytes]) -> dict[str, float]:
    """p50/p99 (ms, bucket upper bounds) of the referee's publish-to-outcome histogram
    (field: a bucket's upper bound in µs; value: commands counted in it)."""
    buckets = sorted((int(k), int(v)) for k, v in hist.items())
    total = sum(v for _, v in buckets)
    out: dict[str, float] = {"commands": float(total)}
    for name, q in (("p50_ms", 0.5), ("p99_ms", 0.99)):
        acc = 0
        for bound, v in buckets:
            acc += v
            if acc >= q * total:
                out[name] = bound / 1000
                break
    return out
