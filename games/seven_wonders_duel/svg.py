"""7 Wonders Duel drawn as SVG from a seat's (or a spectator's) view: the military track with
the pawn and the military tokens left, the progress tokens on the board, the Age's card
structure as laid out (face-down cards show only their back, accessible cards a bold edge),
both cities (coins, progress tokens, wonders built and unbuilt, buildings by colour), the
discard pile, the draft, the decision owed and the scores at the end.

It draws the view only: a face-down card is drawn from its `back`, never from a name.
"""

from __future__ import annotations

from games import svgkit as K
from games.seven_wonders_duel.catalog import CATALOG, COLORS
from games.seven_wonders_duel.scoring import military_points
from games.seven_wonders_duel.view import CityView, View

WIDTH = 1000
MARGIN = 16
SIDE_W = 226  # a city's column
CARD_W, CARD_H, ROW_H = 84, 40, 30  # structure cards overlap by a third (§4)
LINE = 18
_BACK = {"age1": ("#c9853f", "Age I"), "age2": ("#5b8fc9", "Age II"), "age3": ("#7d5aa6", "Age III"),
         "guild": ("#4a2a66", "Guild")}


def _token_coins(position: int) -> int:
    """The coins a military token at `position` takes (the board's military track data)."""
    for t in CATALOG.military["tokens"]:
        lo, hi = t["position_range"]
        if lo <= position <= hi:
            return t["coins"]
    return 0


def _track(v: View, y: float) -> list[str]:
    step = (WIDTH - 2 * MARGIN - 160) / 19
    x0 = MARGIN + 80
    out = [K.text(MARGIN, y + 24, "seat 0", size=12, weight="bold"),
           K.text(WIDTH - MARGIN, y + 24, "seat 1", size=12, anchor="end", weight="bold")]
    for i, pos in enumerate(range(-9, 10)):
        fill = "#f1d6d2" if abs(pos) in (3, 4, 5) else "#e8b3ac" if abs(pos) in (6, 7, 8) else "#f6eeee"
        if abs(pos) == 9:
            fill = "#d9d0c0"
        out.append(K.rect(x0 + i * step, y + 6, step - 2, 26, fill, stroke="#b08080", rx=2))
    for t in v.military_tokens:
        cx = x0 + (t + 9) * step + step / 2
        coins = _token_coins(t)
        out += [K.rect(cx - 15, y + 36, 30, 14, K.colour("red"), rx=3, title=f"military token: {coins} coins"),
                K.text(cx, y + 47, f"-{coins}", size=10, anchor="middle", fill="#ffffff")]
    px = x0 + (v.pawn + 9) * step + step / 2
    out += [K.polygon([(px, y + 8), (px - 9, y + 30), (px + 9, y + 30)], K.colour("red")),
            K.text(px, y + 62, f"pawn {v.pawn:+d}", size=10, anchor="middle", fill=K.MUTED)]
    return out


def _structure(v: View, y: float) -> tuple[list[str], float]:
    if not v.structure:
        return [], 0
    layout = CATALOG.layouts[v.age - 1]
    cx = WIDTH / 2
    out = [K.text(cx, y + 14, f"Age {'I' * v.age} structure · bold edge: accessible", size=12, anchor="middle",
                  fill=K.MUTED)]
    rows = 0
    for s in sorted(v.structure, key=lambda s: (layout[s.position].row, layout[s.position].col)):
        p = layout[s.position]
        rows = max(rows, p.row)
        x, cy = cx + p.col * CARD_W / 2 - CARD_W / 2, y + 22 + (p.row - 1) * ROW_H
        if s.card is None:
            fill, label = _BACK[s.back]
            out += [K.rect(x, cy, CARD_W - 2, CARD_H, fill, stroke=K.INK, width=2 if s.accessible else 0.7,
                           title=f"face down ({label})"),
                    K.text(x + CARD_W / 2 - 1, cy + 15, label, size=10, anchor="middle", fill="#ffffff")]
        else:
            c = CATALOG.cards[s.card]
            out += [K.rect(x, cy, CARD_W - 2, CARD_H, K.colour(c.color), stroke=K.INK,
                           width=2.5 if s.accessible else 0.7, title=c.name),
                    K.text(x + 4, cy + 14, K.fit(c.name, CARD_W - 10, 10), size=10, fill=K.ink_on(c.color))]
    return out, 30 + rows * ROW_H + CARD_H - ROW_H + 4


def _city(v: View, c: CityView, x: float, y: float) -> tuple[list[str], float]:
    """One city as a column of lines at (x, y); returns its parts and height."""
    acting = c.seat in v.to_act
    out = [K.text(x, y + 16, f"[{c.seat}] seat {c.seat}" + (" · to act" if acting else ""), size=14, weight="bold"),
           K.circle(x + 10, y + 34, 10, K.colour("yellow"), title="coins"),
           K.text(x + 10, y + 38, c.coins, size=11, anchor="middle", weight="bold"),
           K.text(x + 26, y + 38, f"coins · military {military_points(v.pawn, c.seat)} VP", size=11, fill=K.MUTED)]
    ly = y + 52
    for tid in c.tokens:
        out += [K.circle(x + 8, ly + 8, 7, K.colour("green"), title="progress token"),
                K.text(x + 20, ly + 12, CATALOG.name(tid), size=10)]
        ly += LINE
    for wid, built in [(w, True) for w in c.built] + [(w, False) for w in c.wonders]:
        name = CATALOG.name(wid)
        out += [K.rect(x, ly, SIDE_W - 6, LINE - 2, K.colour("wonder") if built else "#f4f0e4",
                       stroke=K.INK if built else K.MUTED, dash=None if built else "4 3", title=name),
                K.text(x + 4, ly + 12, K.fit(("built: " if built else "wonder: ") + name, SIDE_W - 14, 10), size=10)]
        ly += LINE
    for col in COLORS:
        for cid in (cid for cid in c.cards if CATALOG.cards[cid].color == col):
            out += K.card(x, ly, SIDE_W - 6, LINE - 2, K.colour(col), CATALOG.name(cid), size=10, ink=K.ink_on(col))
            ly += LINE
    return out, ly - y


def _chips(label: str, ids: tuple[str, ...], y: float, fill: str = "#e6e1d3") -> tuple[list[str], float]:
    """A labelled wrapped row of named chips (discard pile, draft, options)."""
    out = [K.text(MARGIN, y + 14, label, size=12, weight="bold")]
    w, per = 160, 6
    for i, item in enumerate(ids):
        x, cy = MARGIN + (i % per) * w, y + 20 + (i // per) * LINE
        col = CATALOG.cards[item].color if item in CATALOG.cards else None
        out += K.card(x, cy, w - 6, LINE - 2, K.colour(col) if col else fill, CATALOG.name(item), size=10,
                      ink=K.ink_on(col) if col else K.INK)
    return out, 24 + max(1, -(-len(ids) // per)) * LINE


def svg(v: View) -> str:
    """The board of view `v` as a self-contained SVG document."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    stage = {"draft": "wonder draft", "over": "game over"}.get(v.phase, f"Age {'I' * v.age}")
    title = f"7 Wonders Duel · {stage} · {who}"
    body = [K.text(MARGIN, 28, title, size=18, weight="bold")]
    body += _track(v, 36)
    y = 120.0
    body.append(K.text(MARGIN, y, "Progress tokens:", size=12, weight="bold"))
    for i, tid in enumerate(v.board_tokens):
        tx = MARGIN + 130 + i * 160
        body += [K.circle(tx, y - 4, 8, K.colour("green"), title="progress token"),
                 K.text(tx + 12, y, K.fit(CATALOG.name(tid), 130, 10), size=10)]
    y += 14
    parts, sh = _structure(v, y)
    body += parts
    left, lh = _city(v, v.cities[0], MARGIN, y)
    right, rh = _city(v, v.cities[1], WIDTH - MARGIN - SIDE_W, y)
    body += left + right
    y += max(sh, lh, rh) + 12
    rows = [("Discard pile", v.discard), ("Wonders to draft", v.draft)]
    if v.pending is not None:
        rows.append((f"Seat {v.pending.seat} decides: {v.pending.kind.replace('_', ' ')}", v.pending.options or ()))
    for label, ids in rows:
        if ids or label.startswith("Seat"):
            parts, h = _chips(label, ids, y)
            body += parts
            y += h
    if v.result is not None:
        body.append(K.text(MARGIN, y + 16, f"{v.victory} victory · winner(s): "
                           + ", ".join(f"seat {w}" for w in v.result.winners), size=13, weight="bold"))
        y += 22
        body += K.score_table(v.result.categories, v.result.scores, MARGIN, y, WIDTH - 2 * MARGIN,
                              v.result.winners)
        y += K.score_height(len(v.result.scores))
    return K.document(WIDTH, y + MARGIN, body, title)
