"""Ora et Labora drawn as SVG from the (all public) view: the production wheel with each
indicator in play and the value it shows, the building display, stacks and landscape
prices, then every owner's landscape (terrain, forest and moor cards, the buildings and
settlements standing there, the clergy on them) with their goods and clergy in supply.
"""

from __future__ import annotations

import math

from games import svgkit as K
from games.ora_et_labora.landscape import MOUNTAIN_COL
from games.ora_et_labora.view import OwnerView, View
from games.ora_et_labora.view import _name  # a building's or settlement's printed name

WIDTH = 1000
MARGIN = 16
CELL = 46
COLS = range(-2, MOUNTAIN_COL + 1)
HALF = (WIDTH - 2 * MARGIN) / 2
LINE = 16
CLERGY = ("red", "blue", "green", "yellow", "neutral")
"""The clergy's colour per owner (seats 0-3, then the solo game's neutral player)."""


def _wheel(v: View, cx: float, cy: float, r: float) -> list[str]:
    """The wheel as a disc: one sector per indicator in play, its value on the rim."""
    goods = list(v.wheel)
    out = [K.circle(cx, cy, r + 4, "#e9dfc8")]
    n = max(1, len(goods))
    for i, g in enumerate(goods):
        a0, a1 = 2 * math.pi * i / n - math.pi / 2, 2 * math.pi * (i + 1) / n - math.pi / 2
        pts = [(cx, cy)] + [(cx + r * math.cos(a0 + (a1 - a0) * k / 8), cy + r * math.sin(a0 + (a1 - a0) * k / 8))
                            for k in range(9)]
        out.append(K.polygon(pts, "#f7f1e1" if i % 2 else "#efe3c6", stroke="#8a7a55"))
        mid = (a0 + a1) / 2
        tx, ty = cx + 0.58 * r * math.cos(mid), cy + 0.58 * r * math.sin(mid)
        vx, vy = cx + 0.88 * r * math.cos(mid), cy + 0.88 * r * math.sin(mid)
        out += [K.text(tx, ty + 4, g, size=10, anchor="middle"),
                K.circle(vx, vy, 10, "#ffffff", stroke="#8a7a55"),
                K.text(vx, vy + 4, v.wheel[g], size=10, anchor="middle", weight="bold")]
    out += [K.circle(cx, cy, 18, "#8a7a55"),
            K.text(cx, cy + 4, v.rotation, size=11, anchor="middle", fill="#ffffff", weight="bold"),
            K.text(cx, cy + r + 22, f"production wheel ({v.wheel_side}) · rotation {v.rotation}", size=10,
                   anchor="middle", fill=K.MUTED)]
    return out


def _wrap(x: float, y: float, items: list[str], width: float, size: float = 10) -> tuple[list[str], float]:
    """Items joined by " · " into lines that fit `width`; returns the parts and the height."""
    room = int(width / (size * 0.56))
    lines, cur = [], ""
    for item in items:
        if cur and len(cur) + 3 + len(item) > room:
            lines.append(cur)
            cur = item
        else:
            cur = f"{cur} · {item}" if cur else item
    if cur:
        lines.append(cur)
    return [K.text(x, y + 12 + i * LINE, t, size=size) for i, t in enumerate(lines)], len(lines) * LINE


def _land(v: View, o: OwnerView, x: float, y: float,
          occupied: dict[tuple[int, str], tuple[str, OwnerView]]) -> tuple[list[str], float]:
    """`o`'s landscape, goods and clergy at (x, y); returns the parts and the height."""
    mark = (" · start" if o.seat == v.start else "") + (" · to act" if o.owner == v.acting else "")
    out = [K.circle(x + 6, y + 9, 6, K.colour(CLERGY[min(o.owner, len(CLERGY) - 1)])),
           K.text(x + 16, y + 14, f"[{o.label}]{mark}", size=13, weight="bold")]
    cells = {(r.row, s.col): s for r in o.land for s in r.spaces}
    rows = sorted({r for r, _ in cells})
    top = rows[0] if rows else 0
    gy = y + 22
    mountains = set(o.mountain_plots)
    for (row, col), s in sorted(cells.items()):
        cx, cy = x + (col - COLS[0]) * CELL, gy + (row - top) * CELL
        h = 2 * CELL if col == MOUNTAIN_COL and row in mountains else CELL
        fill = K.colour(s.card or s.terrain)
        out.append(K.rect(cx, cy, CELL - 2, h - 2, fill, stroke="#6d6d5d", rx=2, width=0.6,
                          title=f"{s.terrain}" + (f", {s.card}" if s.card else "")))
        if s.built:
            out += [K.rect(cx + 3, cy + 3, CELL - 8, CELL - 8, "#fffaf0", stroke=K.INK, rx=3, title=_name(s.built)),
                    K.text(cx + CELL / 2 - 1, cy + 17, s.built, size=10, anchor="middle", weight="bold"),
                    K.text(cx + CELL / 2 - 1, cy + 30, K.fit(_name(s.built), CELL - 10, 7), size=7, anchor="middle")]
            who = occupied.get((o.owner, s.built))
            if who is not None:
                role, by = who
                out.append(K.circle(cx + CELL - 10, cy + CELL - 10, 6 if role == "prior" else 4.5,
                                    K.colour(CLERGY[min(by.owner, len(CLERGY) - 1)]),
                                    title=f"{role.replace('_', ' ')} of {by.label}"))
        elif s.card:
            out.append(K.text(cx + CELL / 2 - 1, cy + CELL / 2 + 3, s.card, size=9, anchor="middle", fill="#ffffff"))
    height = 22 + len(rows) * CELL + 4 if rows else 26
    goods = [f"{g} {n}" for g, n in o.goods.items()] or ["no goods"]
    supply = sum(1 for c in o.clergy if c.where == "supply")
    extras = [f"clergy in supply {supply}/{len(o.clergy)}"] + ([f"settlements to build {' '.join(o.hand)}"]
                                                                if o.hand else [])
    parts, h = _wrap(x, y + height, goods + extras, HALF - 12)
    return out + parts, height + h + 10


def svg(v: View) -> str:
    """The board of view `v` as a self-contained SVG document."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    head = f"Ora et Labora · {v.mode} ({v.variant}) · round {v.round}"
    if v.bonus:
        head += " · bonus round"
    if v.phase == "over":
        head += " · game over"
    elif v.acting is not None:
        actor = f"seat {v.acting}" if v.acting < v.players else "neutral"
        head += f" · {actor} to act: " + (f"settlement {v.letter}" if v.decision == "settlement"
                                           else v.decision.replace("_", " "))
    title = f"{head} · {who}"
    body = [K.text(MARGIN, 28, title, size=16, weight="bold")]
    body += _wheel(v, MARGIN + 110, 150, 100)
    x = MARGIN + 250
    body.append(K.text(x, 58, "Buildings on display", size=12, weight="bold"))
    parts, h = _wrap(x, 62, [f"{b.id} {b.name}" for b in v.display] or ["-"], WIDTH - MARGIN - x)
    body += parts
    y = 66 + h
    facts = [f"stack {s.letter}: {len(s.buildings)} buildings" for s in v.stacks]
    facts += [f"districts {' '.join(map(str, v.districts)) or '-'}", f"plots {' '.join(map(str, v.plots)) or '-'}",
              f"work contract {v.contract}", f"wonders {v.wonders}", f"start seat {v.start}"]
    parts, h = _wrap(x, y, facts, WIDTH - MARGIN - x, size=11)
    body += parts
    y = max(y + h, 290) + 8
    occupied = {c.where: (c.role, o) for o in v.owners for c in o.clergy if c.where != "supply"}
    for i in range(0, len(v.owners), 2):
        heights = []
        for j, o in enumerate(v.owners[i:i + 2]):
            parts, h = _land(v, o, MARGIN + j * HALF, y, occupied)  # type: ignore[arg-type]
            body += parts
            heights.append(h)
        y += max(heights)
    if v.scores:
        labels = tuple(o.label for o in v.owners)
        body += K.score_table(v.categories, v.scores, MARGIN, y, WIDTH - 2 * MARGIN, labels=labels)
        y += K.score_height(len(v.scores))
    return K.document(WIDTH, y + MARGIN, body, title)
