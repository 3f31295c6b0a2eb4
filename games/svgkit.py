"""Small helpers to write self-contained SVG boards (each game's `svg.py` draws its view).

Pure string building: no fonts, images or scripts are referenced, so a board renders the
same offline, in a browser, a PNG converter or a chat client. Every piece of text goes
through `esc` (card names may hold `&` or `<`); numbers are written with at most one
decimal so that the output is stable byte for byte (golden snapshots compare it).
"""

from __future__ import annotations

from collections.abc import Iterable

NS = "http://www.w3.org/2000/svg"

PALETTE = {
    # card colours (7 Wonders, Duel), seal and seat colours (Arkadia), terrain (Ora et Labora)
    "brown": "#8b5a2b", "grey": "#9e9e9e", "blue": "#2f6fd0", "green": "#2e9e4f", "yellow": "#e7b416",
    "red": "#c8302c", "purple": "#7b3fa0", "wonder": "#c9a227", "white": "#ffffff", "black": "#262626",
    "olive": "#7a8b2a", "silver": "#b8c0c8", "orange": "#e8832a", "violet": "#8f5bd6",
    "water": "#7fb7e6", "coast": "#e9d9a6", "plains": "#b9dc8a", "hillside": "#9cbf6a", "mountain": "#a39a8f",
    "forest": "#2f6b32", "moor": "#7d5a6b", "neutral": "#777777",
}
"""Colour names as the catalogs spell them -> fill colours."""
INK = "#222222"
PAPER = "#fbf8f0"
MUTED = "#6b6b6b"


_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"})


def esc(text: object) -> str:
    """`text` safe inside an XML element or a double-quoted attribute."""
    return str(text).translate(_ESCAPES)


def num(x: float) -> str:
    """A coordinate: an integer when it is one, else one decimal."""
    if type(x) is int:
        return str(x)
    r = round(float(x), 1)
    return str(int(r)) if r.is_integer() else f"{r:.1f}"


def colour(name: str) -> str:
    """The fill of a catalog colour name (unknown names: a neutral grey)."""
    return PALETTE.get(name, "#bbbbbb")


def fit(label: str, width: float, size: float) -> str:
    """`label` shortened with an ellipsis to fit about `width` pixels at font `size`."""
    room = max(1, int(width / (size * 0.56)))
    return label if len(label) <= room else label[: max(1, room - 1)] + "…"


def attrs(**kw: object) -> str:
    """XML attributes from keywords (`_` becomes `-`; None values are left out)."""
    out = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.replace("_", "-") if "_" in k else k
        out.append(f' {name}="{num(v) if type(v) in (int, float) else esc(v)}"')  # type: ignore[arg-type]
    return "".join(out)


def rect(x: float, y: float, w: float, h: float, fill: str, stroke: str | None = INK, rx: float = 3,
         width: float = 1, title: str | None = None, dash: str | None = None) -> str:
    """A rectangle (a card, a cell, a panel); `title` is a tooltip."""
    a = attrs(x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke or "none",
              stroke_width=width if stroke else None, stroke_dasharray=dash)
    return f"<rect{a}><title>{esc(title)}</title></rect>" if title else f"<rect{a}/>"


def text(x: float, y: float, s: object, size: float = 12, anchor: str = "start", fill: str = INK,
         weight: str | None = None) -> str:
    """One line of text, baseline at `y`."""
    a = attrs(x=x, y=y, font_size=size, text_anchor=anchor if anchor != "start" else None, fill=fill,
              font_weight=weight)
    return f"<text{a}>{esc(s)}</text>"


def circle(cx: float, cy: float, r: float, fill: str, stroke: str | None = INK, title: str | None = None) -> str:
    """A disc (a coin, a token, a worker)."""
    a = attrs(cx=cx, cy=cy, r=r, fill=fill, stroke=stroke or "none")
    return f"<circle{a}><title>{esc(title)}</title></circle>" if title else f"<circle{a}/>"


def line(x1: float, y1: float, x2: float, y2: float, stroke: str = INK, width: float = 1) -> str:
    """A straight line."""
    return f"<line{attrs(x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=width)}/>"


def polygon(points: Iterable[tuple[float, float]], fill: str, stroke: str | None = INK) -> str:
    """A closed polygon (a tent, a wheel sector)."""
    pts = " ".join(f"{num(x)},{num(y)}" for x, y in points)
    return f"<polygon{attrs(points=pts, fill=fill, stroke=stroke or 'none')}/>"


def card(x: float, y: float, w: float, h: float, fill: str, label: str, size: float = 11,
         ink: str = "#ffffff", title: str | None = None) -> list[str]:
    """A card: a coloured rounded rectangle with its (shortened) name; the full name is the tooltip."""
    return [rect(x, y, w, h, fill, title=title or label),
            text(x + 4, y + h / 2 + size * 0.36, fit(label, w - 8, size), size=size, fill=ink)]


def ink_on(fill_name: str) -> str:
    """Readable text colour on a catalog colour (dark on the light ones)."""
    return INK if fill_name in ("yellow", "grey", "white", "silver", "wonder", "coast", "plains", "hillside",
                                "water") else "#ffffff"


def document(width: float, height: float, body: Iterable[str], title: str) -> str:
    """The whole SVG: a viewBox (so it scales), a paper background, a <title>, then `body`."""
    head = (f'<svg xmlns="{NS}"{attrs(viewBox=f"0 0 {num(width)} {num(height)}", width=width, height=height)}'
            f' font-family="DejaVu Sans, Verdana, Arial, sans-serif">')
    return "\n".join([head, f"<title>{esc(title)}</title>", rect(0, 0, width, height, PAPER, stroke=None, rx=0),
                      *body, "</svg>"]) + "\n"


def score_table(categories: tuple[str, ...], scores: tuple[tuple[int, ...], ...], x: float, y: float,
                width: float, winners: tuple[int, ...] = (), labels: tuple[str, ...] = (),
                label: str = "Final scores") -> list[str]:
    """A final-score table: a column per category and the total, a row per seat (`labels`,
    default "[i]"), the `winners` in bold. Height: `score_height`."""
    w = (width - 110) / (len(categories) + 1)
    out = [text(x, y + 14, label, size=13, weight="bold")]
    for j, c in enumerate([*categories, "total"]):
        out.append(text(x + 110 + j * w, y + 32, fit(str(c), w - 4, 10), size=10, fill=MUTED))
    for s, row in enumerate(scores):
        ry = y + 50 + s * 17
        bold = "bold" if s in winners else None
        name = labels[s] if s < len(labels) else f"[{s}]"
        out.append(text(x, ry, name + (" winner" if s in winners else ""), size=11, weight=bold))
        for j, val in enumerate([*row, sum(row)]):
            out.append(text(x + 110 + j * w, ry, val, size=11, weight="bold" if j == len(row) else None))
    return out


def score_height(rows: int) -> float:
    """The height `score_table` takes for `rows` seats."""
    return 56 + rows * 17
