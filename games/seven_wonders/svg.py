"""7 Wonders drawn as SVG from a seat's (or a spectator's) view: one panel per city with its
wonder stages, its cards sorted into columns by colour, coins, shields and conflict tokens;
below, the seat's own hand and choice (only in that seat's view), and the scores at the end.

It draws the view only, so it shows exactly what `render` shows to the same reader.
"""

from __future__ import annotations

from games import svgkit as K
from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG, COLORS
from games.seven_wonders.edifice import EDIFICE
from games.seven_wonders.view import CityView, View

WIDTH = 1000
MARGIN = 16
COL_W = (WIDTH - 2 * MARGIN) / len(COLORS)
CARD_H = 17
STAGE_W = 118


def _card(x: float, y: float, w: float, cid: str) -> list[str]:
    c = CATALOG.cards[cid]
    return K.card(x, y, w, CARD_H, K.colour(c.color), c.name, ink=K.ink_on(c.color), title=f"{c.name} (Age {c.age})")


def _tokens(x: float, y: float, tokens: tuple[int, ...]) -> list[str]:
    out = []
    for i, t in enumerate(tokens):
        fill = K.colour("red") if t > 0 else K.colour("black")
        out += [K.circle(x + i * 20, y, 8, fill, title="victory token" if t > 0 else "defeat token"),
                K.text(x + i * 20, y + 3.5, f"{t:+d}", size=8, anchor="middle", fill="#ffffff")]
    return out


def _city(v: View, c: CityView, y: float) -> tuple[list[str], float]:
    """One city's panel at height `y`; returns its parts and its height."""
    columns = [[cid for cid in c.built if CATALOG.cards[cid].color == col] for col in COLORS]
    rows = max((len(col) for col in columns), default=0)
    h = 78 + max(rows, 1) * (CARD_H + 2) + 6
    board = BOARDS[c.wonder]
    name = "Free City" if c.seat == v.free_city else f"[{c.seat}] {board.name} {c.side}"
    acting = c.seat in v.to_act and not c.chosen
    out = [K.rect(MARGIN - 6, y, WIDTH - 2 * MARGIN + 12, h - 6, "#ffffff", stroke=K.INK if acting else "#cccccc",
                  width=2 if acting else 1, rx=6),
           K.text(MARGIN, y + 20, name, size=15, weight="bold")]
    x = MARGIN + 230
    out += [K.circle(x, y + 15, 10, K.colour("yellow"), title="coins"),
            K.text(x, y + 19, c.coins, size=11, anchor="middle", weight="bold"),
            K.text(x + 16, y + 19, "coins", size=11, fill=K.MUTED)]
    out += [K.rect(x + 62, y + 6, 18, 18, K.colour("red"), title="shields"),
            K.text(x + 71, y + 19, c.shields, size=11, anchor="middle", fill="#ffffff", weight="bold"),
            K.text(x + 86, y + 19, "shields", size=11, fill=K.MUTED)]
    out += _tokens(x + 150, y + 15, c.tokens)
    state = "chosen" if c.chosen else ("to act" if acting else "")
    if c.hand_size or state:
        out.append(K.text(WIDTH - MARGIN, y + 19, f"hand {c.hand_size}" + (f" · {state}" if state else ""),
                          size=11, anchor="end", fill=K.MUTED))
    stages = board.sides[c.side].stages
    for k, st in enumerate(stages):
        sx = MARGIN + k * (STAGE_W + 6)
        done = k < c.stages
        out.append(K.rect(sx, y + 30, STAGE_W, 22, K.colour("wonder") if done else "#f4f0e4",
                          stroke=K.INK if done else K.MUTED, dash=None if done else "4 3",
                          title=f"stage {k + 1}: {st.text or 'cost ' + st.cost}"))
        out.append(K.text(sx + 6, y + 45, f"{'built' if done else 'stage'} {k + 1} · {st.cost}", size=10,
                          fill=K.INK if done else K.MUTED))
    if c.rewards or c.debts or c.joined:
        extra = []
        if c.joined:
            extra.append("pawns: Age " + ", ".join(map(str, c.joined)))
        if c.rewards:
            extra.append("rewards: " + ", ".join(EDIFICE.cards[r].name for r in c.rewards))
        if c.debts:
            extra.append("debts: " + " ".join(map(str, c.debts)))
        out.append(K.text(MARGIN + len(stages) * (STAGE_W + 6) + 8, y + 45, "; ".join(extra), size=10, fill=K.MUTED))
    for i, (col, cards) in enumerate(zip(COLORS, columns)):
        cx = MARGIN + i * COL_W
        out.append(K.text(cx, y + 68, f"{col} {len(cards)}", size=10, fill=K.colour(col), weight="bold"))
        for j, cid in enumerate(cards):
            out += _card(cx, y + 73 + j * (CARD_H + 2), COL_W - 6, cid)
    return out, h


def _cards_row(label: str, ids: tuple[str, ...], y: float) -> tuple[list[str], float]:
    """A labelled row of cards, wrapped at the board's width."""
    per = 7
    out = [K.text(MARGIN, y + 14, label, size=13, weight="bold")]
    for i, cid in enumerate(ids):
        out += _card(MARGIN + (i % per) * COL_W, y + 20 + (i // per) * (CARD_H + 3), COL_W - 6, cid)
    return out, 26 + max(1, -(-len(ids) // per)) * (CARD_H + 3)


def _notes(v: View) -> list[str]:
    """The decisions owed by the reader, in `render`'s words."""
    notes = []
    if v.holder is not None and v.holder == v.seat:
        notes.append("You hold the Free City card: choose your card, then one for the Free City")
    if v.pending == "seventh_card":
        notes.append("You may play the Free City's last card (Babylon)" if v.pending_city is not None
                     else "You may play your last card (Babylon)")
    if v.pending == "edifice_penalty":
        notes.append("The edifice failed: give up a card of its colour, or return victory tokens")
    if v.penalty_choice:
        notes.append(f"Your penalty choice: {v.penalty_choice} (paid once every penalised city has chosen)")
    return notes


def svg(v: View) -> str:
    """The board of view `v` as a self-contained SVG document."""
    who = "spectator" if v.seat is None else f"seat {v.seat}"
    stage = "game over" if v.phase == "over" else f"Age {'I' * v.age} · turn {v.turn}"
    title = f"7 Wonders · {v.players} players · {stage} · {who}"
    body = [K.text(MARGIN, 28, title, size=18, weight="bold"),
            K.text(WIDTH - MARGIN, 28, f"discard pile {v.discard_size}", size=12, anchor="end", fill=K.MUTED)]
    y = 44.0
    for c in v.cities:
        parts, h = _city(v, c, y)
        body += parts
        y += h
    if v.edifices:
        eds = ", ".join(f"Age {a}: {EDIFICE.cards[e].name} ({f'{p} pawns left' if st == 'project' else st})"
                        for a, (e, p, st) in enumerate(zip(v.edifices.cards, v.edifices.pawns, v.edifices.status), 1))
        body.append(K.text(MARGIN, y + 14, "Edifices: " + eds, size=11))
        y += 24
    sections = [("Your hand", v.hand), ("Discard pile (build one for free)", v.discard)]
    for label, ids in sections:
        if ids is not None:
            parts, h = _cards_row(label, ids, y)
            body += parts
            y += h
    for label, play in (("Your choice", v.choice), ("Free City's choice", v.free_city_choice)):
        if play is not None:
            body.append(K.text(MARGIN, y + 14, f"{label}: {play.action} {CATALOG.cards[play.card].name}", size=12))
            y += 22
    for note in _notes(v):
        body.append(K.text(MARGIN, y + 14, note, size=12))
        y += 22
    if v.result is not None:
        body += K.score_table(v.result.categories, v.result.scores, MARGIN, y, WIDTH - 2 * MARGIN,
                              v.result.winners)
        y += K.score_height(len(v.result.scores))
    return K.document(WIDTH, y + MARGIN, body, title)
