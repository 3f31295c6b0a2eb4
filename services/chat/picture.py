"""The board as a picture for chat: a game's SVG board (games/svgkit.py, served by the
gateway's GET /games/{id}/svg) rendered to PNG with CairoSVG, so platforms that show images
(Discord attachments, Slack files, Matrix m.image) get the board drawn, beside its text render.

Bounded: the SVG is refused past MAX_SVG bytes, the PNG is drawn WIDTH pixels wide (the SVG's
viewBox keeps its proportions; the height is capped at MAX_HEIGHT) and dropped past MAX_PNG
bytes (Discord's attachment limit is 8 MiB; boards are far smaller). Rendering is CPU work, so
`render` runs it in a thread; any failure gives None (the caller posts the text only) and is
logged by exception type only (no SVG, no URL, no token)."""

from __future__ import annotations

import asyncio
import logging
import re
import struct

from services.chat.model import Picture

log = logging.getLogger("tablestream.chat.picture")

WIDTH = 1000
MAX_HEIGHT = 4000
MAX_SVG = 2 * 1024 * 1024
MAX_PNG = 4 * 1024 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR; ValueError if `png` is no PNG."""
    if len(png) < 24 or png[:8] != PNG_SIGNATURE or png[12:16] != b"IHDR":
        raise ValueError("not a PNG")
    return struct.unpack(">II", png[16:24])


def _scale(svg: str) -> dict[str, int]:
    """CairoSVG's output size for `svg`: WIDTH wide, unless that would be taller than
    MAX_HEIGHT (then MAX_HEIGHT tall); the other side follows the viewBox's proportions."""
    m = re.search(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"', svg[:4000])
    if m and float(m.group(1)) > 0 and float(m.group(2)) * WIDTH / float(m.group(1)) > MAX_HEIGHT:
        return {"output_height": MAX_HEIGHT}
    return {"output_width": WIDTH}


def to_png(svg: str) -> bytes:
    """`svg` drawn as a PNG (blocking; see `render`). Raises on anything wrong."""
    import cairosvg  # imported on first use: libcairo is needed only when a board is drawn

    if len(svg.encode()) > MAX_SVG:
        raise ValueError("the SVG is too large to draw")
    png = cairosvg.svg2png(bytestring=svg.encode(), unsafe=False, **_scale(svg))
    if len(png) > MAX_PNG:
        raise ValueError("the PNG is too large to post")
    png_size(png)
    return png


async def render(svg: str, alt: str) -> Picture | None:
    """`svg` as a Picture, drawn in a thread; None (logged) if it cannot be drawn."""
    try:
        png = await asyncio.to_thread(to_png, svg)
        w, h = png_size(png)
    except Exception as e:  # a missing libcairo, a bad SVG, too large: the text board still goes
        log.warning("chat: the board picture could not be drawn: %s", type(e).__name__)
        return None
    return Picture(png, w, h, alt[:200])
