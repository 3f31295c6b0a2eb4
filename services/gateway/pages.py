"""The gateway's pages: the dashboard (/dashboard) and the replay viewer (/replay), plain
HTML and JavaScript from services/gateway/static/, and the chart library's JavaScript
(plotly.js as the installed `plotly` wheel ships it), so the pages work with no network.

The board of a position is drawn by the game's `svg` (GET /games/{id}/svg?at=SEQ, for the
same viewer and position as /view); a game without one is shown by its text render, which
every view document carries.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from litestar import Request, Response, get
from litestar.params import FromPath, FromQuery
from litestar.response import File

from services.gateway import auth
from services.gateway.catalog import lookup
from services.gateway.context import gw
from services.gateway.errors import ApiError
from services.gateway.history import at_position, check_at
from services.gateway.tables import hashes

STATIC = Path(__file__).with_name("static")
PAGES = {"dashboard.html", "replay.html", "dashboard.js", "replay.js", "pages.css"}
"""The files served from STATIC: a fixed list, so no path from a request reaches the disk."""
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
CACHE = {"Cache-Control": "no-cache"}
SECURITY = {"Content-Security-Policy": "default-src 'self'; img-src 'self' blob: data:; style-src 'self' 'unsafe-inline'; "
            "connect-src 'self' ws: wss:; script-src 'self'", "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer"}


def plotly_js() -> Path:
    """plotly.min.js as the installed plotly package ships it (found without importing plotly)."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        raise ApiError("not_found", "the plotly package is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "package_data" / "plotly.min.js"


def _file(name: str) -> Response[bytes]:
    path = STATIC / name
    return Response(path.read_bytes(), media_type=TYPES[path.suffix], headers={**CACHE, **SECURITY})


@get("/dashboard", summary="The dashboard page (charts per game type)", include_in_schema=False)
async def dashboard_page() -> Response[bytes]:
    return _file("dashboard.html")


@get("/replay", summary="The replay viewer page (?game=ID)", include_in_schema=False)
async def replay_page() -> Response[bytes]:
    return _file("replay.html")


@get("/static/{name:str}", summary="The pages' scripts and style", include_in_schema=False)
async def static_file(name: FromPath[str]) -> Response[bytes]:
    if name not in PAGES:
        raise ApiError("not_found", f"no static file {name[:64]!r}")
    return _file(name)


@get("/static/plotly.min.js", summary="plotly.js, from the installed plotly package", include_in_schema=False)
async def plotly() -> File:
    return File(plotly_js(), content_disposition_type="inline", media_type="text/javascript; charset=utf-8",
                headers={"Cache-Control": "max-age=86400"})


@get("/games/{game_id:str}/svg", summary="The board as an SVG picture, for the same viewer and ?at= as /view",
     media_type="image/svg+xml")
async def game_svg(request: Request, game_id: FromPath[str], at: FromQuery[int | None] = None) -> Response[bytes]:
    check_at(at)
    g = gw(request)
    t = await g.tables.get(game_id)
    seat = auth.optional_seat(request, hashes(t), game_id)
    draw = getattr(t.game, "svg", None)
    if draw is None:
        raise ApiError("not_found", f"{t.game.id} has no SVG board yet: its view documents carry the text render",
                       game_id=game_id)
    if at is not None:
        t = at_position(t, await g.store.read(game_id), at)
    return Response(draw(t.game.view(t.state, seat)).encode(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"})


@get("/game-types/{game_type:str}/board", summary="How the pages draw this game type's board: svg or text")
async def board_kind(game_type: FromPath[str]) -> dict[str, str]:
    return {"game_type": game_type, "board": "svg" if getattr(lookup(game_type), "svg", None) is not None else "text"}


ROUTES = [dashboard_page, replay_page, plotly, static_file, game_svg, board_kind]
