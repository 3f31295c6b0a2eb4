"""Arkadia drawn as SVG from a seat's (or a spectator's) view: the grid with its tent camps,
the castle lot (its squares in their printed seal colour, the pieces stacked on them, the
courtyard), the buildings in their builder's colour with their seal token, and the workers;
beside it the seal values, the castle pools, the open cards, the seats, and behind the
screen (hand, workers, seals, gold) only in that seat's own view.
"""

from __future__ import annotations

from games import svgkit as K
from games.arkadia.board import HEIGHT, WIDTH as COLS, lot_cells
from games.arkadia.catalog import CATALOG, SEALS
from games.arkadia.view import View, card_name

WIDTH = 1000
MARGIN = 16
CELL = 38
PANEL_X = MARGIN + COLS * CELL + 24
LINE = 18


def _seat_fill(owner: int) -> str:
    return K.colour(CATALOG.colours[owner]) if 0 <= owner < len(CATALOG.colours) else K.colour("neutral")


def _grid(v: View, y0: float) -> list[str]:
    def at(cell: tuple[int, int]) -> tuple[float, float]:
        return MARGIN + cell[0] * CELL, y0 + cell[1] * CELL

    out = []
    for gy in range(HEIGHT):
        for gx in range(COLS):
            x, y = at((gx, gy))
            out.append(K.rect(x, y, CELL, CELL, "#eef3e2", stroke="#c9d3b5", rx=0, width=0.6))
    for c in v.tents:
        x, y = at(c)
        out.append(K.polygon([(x + CELL / 2, y + 6), (x + 6, y + CELL - 6), (x + CELL - 6, y + CELL - 6)],
                             "#d8c7a0", stroke="#8a7a55"))
    if v.phase != "new":
        for c in lot_cells(v.lot.x, v.lot.y, v.lot.orientation):
            x, y = at(c)
            out.append(K.rect(x, y, CELL, CELL, "#cfc8bb", stroke="#8d8578", rx=0, title="castle courtyard"))
        for i, c in enumerate(v.squares):
            x, y = at(c)
            printed = v.printed[i]
            stack = v.castle[i]
            out.append(K.rect(x + 2, y + 2, CELL - 4, CELL - 4, "#ece6da", stroke=K.colour(printed) if printed
                              else K.MUTED, width=3, rx=2, title=f"castle square {i}: printed "
                              f"{printed or 'no colour'}, pieces {', '.join(stack) or 'none'}"))
            for k, piece in enumerate(stack):
                out.append(K.rect(x + 7 + k * 4, y + CELL - 13 - k * 6, CELL - 18, 8, K.colour(piece),
                                  stroke=K.INK, rx=1, width=0.6))
    for b in v.buildings:
        fill = _seat_fill(b.seat)
        for c in b.cells:
            x, y = at(c)
            out.append(K.rect(x + 1, y + 1, CELL - 2, CELL - 2, fill, stroke=K.INK, rx=2, width=0.8,
                              title=f"building {b.id} ({b.form}) of seat {b.seat}"
                              + (", completed" if b.completed else f", seal {b.seal}")))
        x, y = at(b.cells[0])
        out.append(K.text(x + 4, y + 13, b.id, size=10, fill=K.INK, weight="bold"))
        if not b.completed:
            out.append(K.circle(x + CELL - 10, y + CELL - 10, 6, K.colour(b.seal), title=f"seal token {b.seal}"))
    for w in v.workers:
        x, y = at(w.cell)
        who = "neutral worker" if w.owner < 0 else f"worker of seat {w.owner}"
        out.append(K.circle(x + CELL / 2, y + CELL / 2, 10, _seat_fill(w.owner), title=who))
        out.append(K.text(x + CELL / 2, y + CELL / 2 + 4, "n" if w.owner < 0 else w.owner, size=10, anchor="middle",
                          fill=K.INK))
    for gx in range(COLS):
        out.append(K.text(MARGIN + gx * CELL + CELL / 2, y0 - 4, gx, size=9, anchor="middle", fill=K.MUTED))
    return out


def _seals(x: float, y: float, label: str, vec: tuple[int, ...]) -> list[str]:
    out = [K.text(x, y + 12, label, size=11)]
    for k, (seal, n) in enumerate(zip(SEALS, vec)):
        cx = x + 120 + k * 52
        out += [K.circle(cx, y + 8, 7, K.colour(seal), title=seal), K.text(cx + 10, y + 12, n, size=11)]
    return out


def _cards(x: float, y: float, label: str, ids: tuple[str, ...]) -> tuple[list[str], float]:
    out = [K.text(x, y + 12, label, size=11, weight="bold")]
    w, per = 108, 3
    for i, cid in enumerate(ids):
        seal = CATALOG.cards[cid].seal
        out += K.card(x + (i % per) * w, y + 18 + (i // per) * LINE, w - 4, LINE - 2, K.colour(seal), card_name(cid),
                      size=10, ink=K.ink_on(seal))
    return out, 22 + max(1, -(-len(ids) // per)) * LINE


def _panel(v: View, y: float) -> tuple[list[str], float]:
    x = PANEL_X
    out = _seals(x, y, "seal values", v.values)
    y += LINE + 4
    out.append(K.text(x, y + 12, f"building floor {v.floor}", size=11))
    y += LINE
    for f, pool in enumerate(v.pools, 1):
        out += _seals(x, y, f"floor-{f} pool", pool)
        y += LINE
    parts, h = _cards(x, y + 6, f"open cards · draw pile {v.deck}", v.display)
    out += parts
    y += h + 10
    for s in v.seats:
        mark = " · to act" if s.seat in v.to_act else ""
        out += [K.circle(x + 8, y + 8, 7, K.colour(s.colour)),
                K.text(x + 20, y + 12, f"[{s.seat}] {s.colour}: banners {s.banners}, hand {s.hand_size}, "
                       f"pool {s.pool}{mark}", size=11, weight="bold" if mark else None)]
        y += LINE
    out.append(K.text(x, y + 12, f"neutral pool {v.pool_neutral} · discard {len(v.discard)}", size=11,
                      fill=K.MUTED))
    y += LINE
    if v.hand is not None:
        parts, h = _cards(x, y + 6, "your hand", v.hand)
        out += parts
        y += h + 6
        out.append(K.text(x, y + 12, f"behind your screen: workers {v.workers_held}, neutral {v.neutral_held}, "
                          f"gold {v.gold}", size=11))
        y += LINE
        out += _seals(x, y, "your seals", v.seals or (0, 0, 0, 0))
        y += LINE
    return out, y


def svg(v: View) -> str:
    """The board of view `v` as a self-contained SVG document."""
    who = "spectator" if v.seat is None else f"seat {v.seat} ({CATALOG.colours[v.seat]})"
    state = "game over" if v.phase == "over" else f"seat {v.active} to act: {v.step}"
    title = f"Arkadia · {v.players} players · turn {v.turn + 1} · {who} · {state}"
    if v.final_turns is not None and v.phase != "over":
        title += f" · final round, {v.final_turns} turn(s) left"
    body = [K.text(MARGIN, 28, title, size=16, weight="bold")]
    body += _grid(v, 56)
    parts, py = _panel(v, 46)
    body += parts
    y = max(56 + HEIGHT * CELL, py) + 10
    if v.result is not None:
        body += K.score_table(v.result.categories, v.result.scores, MARGIN, y, WIDTH - 2 * MARGIN,
                              v.result.winners, label="Final gold")
        y += K.score_height(len(v.result.scores))
    return K.document(WIDTH, y + MARGIN, body, title)
