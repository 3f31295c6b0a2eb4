"""The dashboard's data: GET /game-types/{type}/dashboard (every chart as JSON) and
GET /game-types/{type}/dashboard/{chart}?format=csv|json (one chart's rows).

Read from the aggregates the projector keeps (services/aggregates.py): the buckets that
match the filters are summed, so a request costs a few hash reads whatever the number of
games. The latency histogram is the referee's (latency:{s}:<type>, summed over shards).
"""

from __future__ import annotations

import asyncio
import csv
import datetime
import io
import re
from typing import Any

import msgspec
from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery

from events import keys
from projections.dashboard import Bucket, Filters, bucket_of, charts, latency_histogram, merge
from projections.ratings import decode_ratings, leaderboard
from services import aggregates, protocol
from services.gateway.catalog import lookup
from services.gateway.context import gw
from services.gateway.errors import ApiError

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MAX_FILTER = 200

MAX_RATINGS = 100
RATINGS_NOTE = ("openskill ratings (Plackett-Luce) of every finished game of this type whose log names its players, "
                "kept by the projector; the filters do not apply to them")


def _real_day(day: str) -> bool:
    """`day` is YYYY-MM-DD and a day of the calendar (2026-13-45 is not)."""
    try:
        return bool(_DAY.match(day)) and datetime.date.fromisoformat(day).isoformat() == day
    except ValueError:
        return False


def _filters(setup: str, since: str, until: str, kind: str) -> Filters:
    for name, day in (("since", since), ("until", until)):
        if day and not _real_day(day):
            raise ApiError("malformed", f"{name} is a day, YYYY-MM-DD")
    if any(len(v) > MAX_FILTER for v in (setup, kind)):
        raise ApiError("malformed", f"a filter is at most {MAX_FILTER} characters")
    return Filters(setup=setup, since=since, until=until, kind=kind)


async def dashboard_data(request: Request, game_type: str, f: Filters) -> dict[str, Any]:
    """Every chart of one game type's dashboard for the games that pass `f`."""
    game = lookup(game_type)
    g = gw(request)
    names = await aggregates.buckets(g.redis, game.id)
    parsed: list[tuple[bytes, Bucket]] = [(n, bucket_of(n)) for n in names]
    picked = [(n, b) for n, b in parsed if f.match(b)]
    unfiltered = f == Filters()
    hashes = await aggregates.counters(g.redis, game.id, [n for n, _ in picked], only=[b"games"] if unfiltered else None)
    per_day: dict[str, int] = {}
    for (_, b), h in zip(picked, hashes):
        n = int(h.get(b"games") or 0)
        if n:
            per_day[b.day] = per_day.get(b.day, 0) + n
    if unfiltered:  # every game: the type's total, one hash
        hashes = [await aggregates.total(g.redis, game.id)]
    pipe = g.redis.pipeline(transaction=False)
    for shard in range(g.settings.shards):
        pipe.hgetall(protocol.latency(shard, game.id))
    hist: dict[bytes, int] = {}
    for h in await pipe.execute():
        for bound, n in h.items():
            hist[bound] = hist.get(bound, 0) + int(n)
    live = [b for _, b in parsed]
    # tens of thousands of counters for a wide filter: summed off the event loop, so the
    # gateway's sockets and commands are not held up meanwhile
    drawn = await asyncio.to_thread(lambda: charts(merge(hashes)))
    ratings, _ = decode_ratings(await g.redis.hgetall(keys.ratings(game.id)))
    return {
        "game_type": game.id,
        "filters": msgspec.to_builtins(f),
        "choices": {"setups": sorted({b.setup for b in live}), "kinds": sorted({k for b in live for k in b.kinds.split(",")}),
                    "days": sorted({b.day for b in live})},
        **drawn,
        "per_day": sorted([d, n] for d, n in per_day.items()),
        "latency": latency_histogram(hist),
        "ratings": leaderboard(ratings)[:MAX_RATINGS],
        "ratings_note": RATINGS_NOTE,
    }


def chart_rows(data: dict[str, Any], chart: str) -> tuple[list[str], list[list[Any]]]:
    """One chart's data as a header and rows (the CSV download)."""
    if chart == "per_day":
        return ["day", "games"], data["per_day"]
    if chart == "win_rate":
        return (["facet", "value", "games", "plays", "wins", "rate", "ci_low", "ci_high"],
                [[f, r["value"], r["games"], r["plays"], r["wins"], r["rate"], r["lo"], r["hi"]]
                 for f, rows in data["win_rate"].items() for r in rows])
    if chart == "categories":
        return ["category", "score", "seats"], [[c, v, n] for c, h in data["categories"].items() for v, n in h]
    if chart == "total":
        return ["total", "seats"], data["total"]
    if chart == "length":
        return ["commands", "games"], data["length"]
    if chart in ("summary", "victory"):
        return ["name", "value", "games"], [[k, v, n] for k, h in data[chart].items() for v, n in h]
    if chart == "latency":
        return ["upper_ms", "commands"], data["latency"]
    if chart == "h2h":
        return (["facet", "value", "against", "meetings", "wins"],
                [[f, a, b, m["meet"][i][j], m["won"][i][j]] for f, m in data["h2h"].items()
                 for i, a in enumerate(m["values"]) for j, b in enumerate(m["values"]) if m["meet"][i][j]])
    if chart == "ratings":
        cols = ["player", "name", "mu", "sigma", "ordinal", "games"]
        return cols, [[r[k] for k in cols] for r in data["ratings"]]
    raise ApiError("not_found", f"no chart {chart[:40]!r}; charts: {', '.join(CHARTS)}")


CHARTS = ("per_day", "win_rate", "categories", "total", "length", "summary", "victory", "latency", "h2h", "ratings")


@get("/game-types/{game_type:str}/dashboard", summary="A game type's dashboard data: every chart, filtered")
async def dashboard(request: Request, game_type: FromPath[str], setup: FromQuery[str] = "", since: FromQuery[str] = "",
                    until: FromQuery[str] = "", kind: FromQuery[str] = "") -> dict[str, Any]:
    return await dashboard_data(request, game_type, _filters(setup, since, until, kind))


@get("/game-types/{game_type:str}/dashboard/{chart:str}", summary="One dashboard chart's data, as CSV or JSON")
async def dashboard_chart(request: Request, game_type: FromPath[str], chart: FromPath[str], format: FromQuery[str] = "csv",
                          setup: FromQuery[str] = "", since: FromQuery[str] = "", until: FromQuery[str] = "",
                          kind: FromQuery[str] = "") -> Response[bytes]:
    if format not in ("csv", "json"):
        raise ApiError("malformed", "format is csv or json")
    if chart not in CHARTS:
        raise ApiError("not_found", f"no chart {chart[:40]!r}; charts: {', '.join(CHARTS)}")
    data = await dashboard_data(request, game_type, _filters(setup, since, until, kind))
    header, rows = chart_rows(data, chart)
    if format == "json":
        return Response(msgspec.json.encode({"columns": header, "rows": rows}), media_type="application/json")
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return Response(out.getvalue().encode(), media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{data["game_type"]}-{chart}.csv"'})


ROUTES = [dashboard, dashboard_chart]
