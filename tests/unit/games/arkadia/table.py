"""A scenario driver for Arkadia: a fixture with chosen hands, positions built by real
commands through `decide` (only the turn order is forced, by recording a `TurnEnded` that
hands the turn to the seat the scenario names), and plain facts for what the reference's
diagrams show without a history (a lone worker, castle pieces, seals held).

    t = Table(players=3, hands={0: ["residential_house red"]})
    t.do(0, "build residential_house red 10,5 r0")   # then draws and ends the turn
    t.act(2, "workers 0 own 11,6")                     # events, or a Rejection
"""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.catalog import CATALOG, SEALS
from games.arkadia.events import (
    BuildingCompleted,
    CastlePiecePlaced,
    FloorCompleted,
    Lot,
    Options,
    TurnEnded,
    WorkersPlaced,
)
from games.arkadia.rules import step
from games.arkadia.setup import Fixture
from games.contract import Rejection
from games.fold import replay

DEFAULT_LOT = Lot(x=6, y=4, orientation="landscape")


def card_ids(keys: list[str], used: set[str]) -> list[str]:
    """'farm red' -> an unused card id of that form and seal."""
    out = []
    for k in keys:
        form, seal = k.rsplit(" ", 1)
        cid = next(c for c in sorted(CATALOG.cards) if CATALOG.key(c) == (form, seal) and c not in used)
        used.add(cid)
        out.append(cid)
    return out


def fixture(players: int, hands: dict[int, list[str]] | None = None, display: list[str] | None = None,
            pile: list[str] | None = None, lot: Lot = DEFAULT_LOT, start: int = 0) -> Fixture:
    """Hands, display and the top of the pile named by 'form seal'; the rest filled in id order."""
    used: set[str] = set()
    want = {s: card_ids(k, used) for s, k in (hands or {}).items()}
    disp = card_ids(display or [], used)
    top = card_ids(pile or [], used)
    rest = [c for c in sorted(CATALOG.cards) if c not in used]
    hs = []
    for s in range(players):
        h = want.get(s, [])
        while len(h) < CATALOG.hand_size:
            h.append(rest.pop(0))
        hs.append(tuple(h))
    while len(disp) < CATALOG.display_size:
        disp.append(rest.pop(0))
    return Fixture(hands=tuple(hs), display=tuple(disp), pile=tuple(top + rest), lot=lot, start=start)


class Table:
    """A game in progress, driven command by command."""

    def __init__(self, players: int = 3, lot: Lot = DEFAULT_LOT, start: int = 0, mirror: bool = False, **deal):
        self.options = Options(players=players, lot="default", mirror_allowed=mirror)
        self.fixture = fixture(players, lot=lot, start=start, **deal)
        self.events = list(GAME.setup(self.options, self.fixture))
        self.state = replay(GAME, self.events)

    # --- facts ---------------------------------------------------------------------

    def given(self, *events) -> None:
        """Record facts as they are (a diagram's position, seals held, castle pieces)."""
        for e in events:
            self.events.append(e)
            self.state = GAME.evolve(self.state, e)

    def turn_to(self, seat: int) -> None:
        """Hand the turn to `seat` (a recorded TurnEnded), unless it is already its fresh turn."""
        if self.state.active != seat or self.state.acted:
            self.given(TurnEnded(seat=self.state.active, next=seat))

    def worker(self, seat: int, x: int, y: int) -> None:
        """An own worker of `seat` standing on (x, y), as in the reference's diagrams."""
        self.given(WorkersPlaced(seat=seat, building=0, own=((x, y),), neutral=()))

    def castle(self, *pieces: tuple[str, int]) -> None:
        """Castle pieces placed (colour, square) on the floor being built, with the leftover
        moves when a floor fills, as facts."""
        for colour, square in pieces:
            f = min(len(s) for s in self.state.castle) + 1
            self.given(CastlePiecePlaced(seat=0, colour=colour, square=square, floor=f))
            if all(len(s) >= f for s in self.state.castle) and f < 3:
                pool = self.state.pools[f - 1]
                self.given(FloorCompleted(floor=f, leftovers=tuple(c for c, k in zip(SEALS, pool) for _ in range(k))))
        if self.state.owed < 0:  # pieces no completion owed: start the active seat's turn afresh
            self.given(TurnEnded(seat=self.state.active, next=self.state.active))

    def fill_floor(self, floor: int, count: int = 10) -> None:
        """Place `count` pieces on `floor`, squares in index order, colours round-robin from the pool."""
        squares = [i for i, s in enumerate(self.state.castle) if len(s) == floor - 1][:count]
        for sq in squares:
            pool = self.state.pools[floor - 1]
            colour = max(SEALS, key=lambda c: pool[SEALS.index(c)])
            self.castle((colour, sq))

    def seals(self, seat: int, building: int, **counts: int) -> None:
        """Seat `seat` received seals of building `building`'s family (a completion fact)."""
        b = self.state.buildings[building]
        pay = [0] * self.state.players
        pay[seat] = counts.get(b.seal, 0)
        self.given(BuildingCompleted(building=building, seal=b.seal, payouts=tuple(pay), token=-1, piece=False))

    # --- commands --------------------------------------------------------------------

    def act(self, seat: int, text: str):
        """One command in notation from `seat`; returns its events or the Rejection."""
        cmd = GAME.parse_command(text)
        assert not isinstance(cmd, Rejection), cmd
        out = GAME.decide(self.state, seat, cmd)
        if not isinstance(out, Rejection):
            self.events += out
            for e in out:
                self.state = GAME.evolve(self.state, e)
        return out

    def ok(self, seat: int, text: str) -> list:
        out = self.act(seat, text)
        assert not isinstance(out, Rejection), (text, out)
        return out

    def do(self, seat: int, text: str, finish: bool = True) -> list:
        """Give `seat` the turn, play `text` (it must be accepted) and, unless castle pieces
        are owed, finish the turn: draw from the pile (or take an open card), then end."""
        self.turn_to(seat)
        out = self.ok(seat, text)
        if finish:
            out += self.finish()
        return out

    def finish(self) -> list:
        out = []
        seat = self.state.active
        while self.state.phase == "play" and self.state.active == seat and self.state.acted:
            st = step(self.state)
            if st == "castle":
                break
            if st == "refill":
                out += self.ok(seat, "draw" if self.state.pile else GAME.format_command(
                    GAME.legal_commands(self.state, seat)[0]))
            elif st == "banner":
                out += self.ok(seat, "end")
            else:
                break
        return out

    def of(self, kind: type, events: list | None = None) -> list:
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]

    def screen(self, seat: int):
        return self.state.screens[seat]
