"""The dashboard's aggregates: what one finished game adds to its game type's counters, and
the dashboard's data read back from summed counters.

A game's contribution is a bucket (its setup, the day it ended, the kinds of its players)
and integer counters (games, facet plays and wins, score histograms, length, head-to-head).
The projector adds a contribution when it writes a game's statistics row and takes the old
one away when the row changes or goes (services/aggregates.py), so the dashboard reads a few
hashes, never the logs nor every row. Filters pick buckets; counters of the picked buckets
are summed (`merge`) and shaped into charts (`charts`). Pure: no I/O.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from projections.stats import GameRow, setup

SEP = "\t"
"""Joins the parts of a counter's name (facet values never hold a tab)."""

UNRECORDED = "unrecorded"
"""The players' kind of a game whose row does not say who played (its log names no players)."""


class Bucket(msgspec.Struct, frozen=True, array_like=True):
    """The filterable dimensions of a game: setup in words, day ended (UTC, YYYY-MM-DD), players' kinds."""

    setup: str
    day: str
    kinds: str


def kinds(row: GameRow) -> str:
    """The kinds of a game's players, sorted and joined by "," ("bot:greedy,bot:random",
    "chat,identity"): a bot's kind with its bot kind, from who the log says held each seat
    (`GameRow.seated`); `UNRECORDED` when the log names no players."""
    found = sorted({f"bot:{p.id}" if p.kind == "bot" else p.kind for p in row.seated})
    return ",".join(found) if found else UNRECORDED


def _players(row: GameRow) -> list[str]:
    """Each seat's player as the dashboard names it (its shown name, else `kind:id`); none
    when the log names no players."""
    if len(row.seated) != len(row.seats):
        return []
    return [p.name or f"{p.kind}:{p.id}" for p in row.seated]


def day(ms: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ms / 1000))


def _values(name: str, whole: str, set_facets: frozenset[str]) -> tuple[str, ...]:
    return tuple(whole.split(",")) if name in set_facets and whole else (whole,)


def contribution(row: GameRow, defaults: Mapping[str, Any], set_facets: frozenset[str] = frozenset()
                 ) -> tuple[Bucket, dict[str, int]]:
    """The bucket of a finished game and the counters it adds there.

    Counter names: `games`; `f|facet|value|games|plays|wins` (as `stats.aggregate` counts
    them, the seat facet included); `c|category|score` and `t|total` (seats per score);
    `l|commands` (games per length); `s|key|value` (games per summary value);
    `h|facet|a|b|meet|won` (seats with value a that met, and beat, a seat with value b).
    When the log names the players (`seated`), `player` counts as a facet too (win rate and
    head-to-head per player);
    `v|facet` (games whose seats differ in that facet: a facet never counted there is the
    whole game's, e.g. Duel's victory type)."""
    out: dict[str, int] = {"games": 1}

    get = out.get

    def add(k: str) -> None:  # k: the parts joined by SEP, "\t", written into f-strings (~200 a game)
        out[k] = get(k, 0) + 1

    seen: set[tuple[str, str]] = set()
    players = _players(row)
    facets = [{**s.facets, "player": players[i]} if players else dict(s.facets) for i, s in enumerate(row.seats)]
    for i, s in enumerate(row.seats):
        won = i in row.winners
        for name, whole in facets[i].items():
            for value in _values(name, whole, set_facets):
                if (name, value) not in seen:
                    seen.add((name, value))
                    add(f"f\t{name}\t{value}\tgames")
                add(f"f\t{name}\t{value}\tplays")
                if won:
                    add(f"f\t{name}\t{value}\twins")
        for c, v in zip(row.categories, s.scores):
            add(f"c\t{c}\t{v}")
        add(f"t\t{s.total}")
    add(f"l\t{row.commands}")
    for name in sorted({n for f in facets for n in f}):
        if len({f.get(name) for f in facets}) > 1:
            add(f"v\t{name}")  # the facet varies between this game's seats
    for k, v in row.summary.items():
        add(f"s\t{k}\t{v}")
    for i, a in enumerate(row.seats):
        for j, b in enumerate(row.seats):
            if i == j:
                continue
            for name, whole in facets[i].items():
                other = facets[j].get(name)
                if name == "players" or name in set_facets or other is None or other == whole:
                    continue
                add(f"h\t{name}\t{whole}\t{other}\tmeet")
                if a.rank < b.rank:
                    add(f"h\t{name}\t{whole}\t{other}\twon")
    bucket = Bucket(setup=setup(row, dict(defaults)) if row.options or not defaults else f"{setup(row, {})}",
                    day=day(row.ended_ms), kinds=kinds(row))
    return bucket, out


_enc = msgspec.json.Encoder()


def encode_contribution(bucket: Bucket, counters: Mapping[str, int]) -> bytes:
    """The stored form of a contribution (read back by the Lua in services/aggregates.py:
    `b` the bucket's name, `i` the counters)."""
    return _enc.encode({"b": bucket_name(bucket), "i": dict(sorted(counters.items()))})


def bucket_name(bucket: Bucket) -> str:
    return _enc.encode(bucket).decode()


def bucket_of(name: str | bytes) -> Bucket:
    return msgspec.json.decode(name, type=Bucket)


class Filters(msgspec.Struct, frozen=True, kw_only=True):
    """Which games the dashboard shows: a setup, days from/to (inclusive), a players' kind
    (a bucket matches when one of its kinds is it, or is of it: "bot" matches "bot:random");
    empty: any."""

    setup: str = ""
    since: str = ""
    until: str = ""
    kind: str = ""

    def match(self, b: Bucket) -> bool:
        return ((not self.setup or b.setup == self.setup) and (not self.since or b.day >= self.since)
                and (not self.until or b.day <= self.until)
                and (not self.kind or any(k == self.kind or k.startswith(self.kind + ":") for k in b.kinds.split(","))))


def merge(hashes: Iterable[Mapping[bytes | str, bytes | str | int]]) -> dict[str, int]:
    """Counters of several buckets summed (names decoded once, at the end)."""
    out: dict[bytes | str, int] = {}
    get = out.get
    for h in hashes:
        for k, v in h.items():
            out[k] = get(k, 0) + int(v)
    merged: dict[str, int] = {}
    for k, n in out.items():
        name = k.decode() if isinstance(k, bytes) else k
        merged[name] = merged.get(name, 0) + n
    return merged


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of a proportion wins/n; (0, 1) for n = 0."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def _num(text: str) -> int | float | str:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def _hist(pairs: Iterable[tuple[str, int]]) -> list[list[Any]]:
    """[[value, count], ...] sorted by value (numbers numerically)."""
    return sorted(([_num(v), n] for v, n in pairs if n), key=lambda p: (isinstance(p[0], str), p[0]))


def charts(c: Mapping[str, int]) -> dict[str, Any]:
    """The dashboard's charts from summed counters: `games`; `win_rate` per facet (value,
    games, plays, wins, rate and its Wilson interval); `categories` and `total` (score
    histograms); `length` (commands); `summary` (games per value of each summary entry);
    `victory` (games per value of each facet of the whole game but the player count, e.g.
    Duel's victory type: such a facet's win rate says nothing);
    `h2h` per facet (values, and for each pair the meetings and wins of row over column)."""
    facets: dict[str, dict[str, dict[str, int]]] = {}
    cats: dict[str, dict[str, int]] = {}
    summary: dict[str, dict[str, int]] = {}
    h2h: dict[str, dict[tuple[str, str], dict[str, int]]] = {}
    total: dict[str, int] = {}
    length: dict[str, int] = {}
    varies: set[str] = set()
    for k, n in c.items():
        p = k.split(SEP)
        if p[0] == "f" and len(p) == 4:
            facets.setdefault(p[1], {}).setdefault(p[2], {})[p[3]] = n
        elif p[0] == "c" and len(p) == 3:
            cats.setdefault(p[1], {})[p[2]] = n
        elif p[0] == "t" and len(p) == 2:
            total[p[1]] = n
        elif p[0] == "l" and len(p) == 2:
            length[p[1]] = n
        elif p[0] == "s" and len(p) == 3:
            summary.setdefault(p[1], {})[p[2]] = n
        elif p[0] == "v" and len(p) == 2:
            varies.add(p[1])
        elif p[0] == "h" and len(p) == 5:
            h2h.setdefault(p[1], {}).setdefault((p[2], p[3]), {})[p[4]] = n
    win_rate: dict[str, list[dict[str, Any]]] = {}
    for name, values in sorted(facets.items()):
        rows = []
        for value, cell in values.items():
            plays, wins = cell.get("plays", 0), cell.get("wins", 0)
            if not plays:
                continue
            lo, hi = wilson(wins, plays)
            rows.append({"value": value, "games": cell.get("games", 0), "plays": plays, "wins": wins,
                         "rate": wins / plays, "lo": lo, "hi": hi})
        win_rate[name] = sorted(rows, key=lambda r: (isinstance(_num(r["value"]), str), _num(r["value"])))
    whole_facets = {k for k in win_rate if k not in varies and k != "players"}
    matrices: dict[str, dict[str, Any]] = {}
    for name, pairs in sorted(h2h.items()):
        values = sorted({v for pair in pairs for v in pair}, key=lambda v: (isinstance(_num(v), str), _num(v)))
        meet = [[pairs.get((a, b), {}).get("meet", 0) for b in values] for a in values]
        won = [[pairs.get((a, b), {}).get("won", 0) for b in values] for a in values]
        if any(any(r) for r in meet):
            matrices[name] = {"values": values, "meet": meet, "won": won}
    return {
        "games": c.get("games", 0),
        "win_rate": {k: v for k, v in win_rate.items() if k not in whole_facets},
        "categories": {k: _hist(v.items()) for k, v in sorted(cats.items())},
        "total": _hist(total.items()),
        "length": _hist(length.items()),
        "summary": {k: _hist(v.items()) for k, v in sorted(summary.items())},
        "victory": {k: [[r["value"], r["games"]] for r in win_rate[k]] for k in sorted(whole_facets) if k in win_rate},
        "h2h": matrices,
    }


def latency_histogram(hist: Mapping[bytes, int] | Mapping[bytes, bytes]) -> list[list[float]]:
    """The referee's latency histogram (field: a bucket's upper bound in µs) as [[upper
    bound in ms, commands], ...] sorted by bound."""
    return [[int(k) / 1000, int(v)] for k, v in sorted(hist.items(), key=lambda kv: int(kv[0])) if int(v)]
