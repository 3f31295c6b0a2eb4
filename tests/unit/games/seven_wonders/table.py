"""A scenario driver: a fixture arranged so that seats hold chosen cards at chosen turns,
then turns played through `decide` (never by building a State by hand).

    t = Table(boards=["giza", "babylon", "olympia"], sides="A",
              plan={(0, 1): ["baths", "lumber_yard"]})   # seat 0, Age I, turns 1 and 2
    t.turn({0: "build Baths"})                           # other seats discard a spare card
    t.act(1, "discard Tavern")                           # events, or a Rejection

A plan may name a 7th entry for Babylon B (the card kept at the end of turn 6): it is
the other card of the turn-6 hand. `None` in a plan leaves a turn unplanned.
"""

from __future__ import annotations

import msgspec

from games.contract import Rejection
from games.fold import replay
from games.seven_wonders import GAME
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.events import GameEnded, Options, WonderPick
from games.seven_wonders.setup import Fixture
from games.seven_wonders.rules import owing

BOARDS = ("giza", "babylon", "olympia", "rhodes", "ephesus", "alexandria", "halicarnassus")


def _origin(seat: int, turn: int, age: int, n: int) -> int:
    """Which seat's dealt hand reaches `seat` at `turn` of `age` (§3 passing). The 7th
    card (turn 7) is the other card of the turn-6 hand."""
    shift = min(turn, 6) - 1
    return (seat - shift) % n if age in (1, 3) else (seat + shift) % n


def _deal(n: int, age: int, plan: dict[tuple[int, int], list[str]]) -> tuple[tuple[str, ...], ...]:
    want: list[list[str]] = [[] for _ in range(n)]
    used: list[str] = []
    for (seat, a), cards in plan.items():
        if a != age:
            continue
        for turn, card in enumerate(cards, 1):
            if card is None:
                continue
            want[_origin(seat, turn, age, n)].append(card)
            used.append(card)
    deck = sorted(CATALOG.deck(age, n))
    if age == 3:
        guilds = [c for c in used if CATALOG.cards[c].guild]
        deck += guilds + [g for g in sorted(CATALOG.guilds) if g not in guilds][: n + 2 - len(guilds)]
    for c in used:
        assert c in deck, f"age {age}: the {n}-player deck has no (more) {c!r} for the plan"
        deck.remove(c)
    for origin, hand in enumerate(want):
        assert len(hand) <= 7, f"age {age}: the plan puts {len(hand)} cards in seat {origin}'s dealt hand"
        while len(hand) < 7:
            hand.append(deck.pop(0))
    return tuple(tuple(h) for h in want)


class Table:
    """A game in progress, driven turn by turn."""

    def __init__(self, boards: list[str] | None = None, sides: str = "A", plan=None, n: int | None = None,
                 edifices: tuple[str, str, str] | None = None, placeholder_boards: bool = False):
        boards = boards or list(BOARDS[: n or 3])
        self.n = len(boards)
        self.plan = plan or {}
        self.reserved = {c for cards in self.plan.values() for c in cards if c}
        picks = tuple(WonderPick(b, s) for b, s in zip(boards, sides * self.n if len(sides) == 1 else sides))
        fx = Fixture(wonders=picks, deals=tuple(_deal(self.n, a, self.plan) for a in (1, 2, 3)),
                     edifices=edifices or ())
        options = Options(players=self.n, edifice=True) if edifices else Options(players=self.n)
        if placeholder_boards:
            options = msgspec.structs.replace(options, placeholder_boards=True)
        self.events = list(GAME.setup(options, fx))
        self.state = replay(GAME, self.events)

    def city(self, seat: int):
        return self.state.cities[seat]

    def coins(self) -> tuple[int, ...]:
        return tuple(c.coins for c in self.state.cities)

    def act(self, seat: int, text: str):
        """One command in notation; returns the events or the Rejection."""
        cmd = GAME.parse_command(text)
        assert not isinstance(cmd, Rejection), cmd
        out = GAME.decide(self.state, seat, cmd)
        if not isinstance(out, Rejection):
            self.events += out
            for e in out:
                self.state = GAME.evolve(self.state, e)
        return out

    def filler(self, seat: int) -> str:
        """Discard a card nobody planned for."""
        hand = sorted(self.state.hands[seat])
        spare = [c for c in hand if c not in self.reserved] or hand
        return f"discard {spare[0]}"

    def turn(self, moves: dict[int, str] | None = None) -> list:
        """Every seat to act chooses: `moves[seat]` or a filler discard. Returns all events."""
        moves = moves or {}
        out = []
        for seat in GAME.to_act(self.state):
            if self.state.pending is not None or owing(self.state):
                break
            got = self.act(seat, moves.get(seat) or self.filler(seat))
            assert not isinstance(got, Rejection), (seat, moves.get(seat), got)
            out += got
        return out

    def turns(self, k: int) -> None:
        for _ in range(k):
            self.turn()

    def finish_age(self) -> None:
        age = self.state.age
        while self.state.age == age and self.state.phase != "over":
            if owing(self.state):  # a failed edifice's penalties: the first legal way to pay (§5.2)
                for seat in owing(self.state):
                    got = self.act(seat, GAME.format_command(GAME.legal_commands(self.state, seat)[0]))
                    assert not isinstance(got, Rejection), got
            elif self.state.pending is not None:
                seat = self.state.pending.seat
                kind = self.state.pending.kind
                if kind == "edifice_penalty":  # the first legal way to pay (Edifice §5.2)
                    move = GAME.format_command(GAME.legal_commands(self.state, seat)[0])
                else:
                    move = "decline" if kind == "discard_build" else self.filler(seat)
                got = self.act(seat, move)
                assert not isinstance(got, Rejection), got
            else:
                self.turn()

    # --- conveniences (additions; the API above is unchanged) ---------------------

    def play(self, turns: list[dict[int, str]]) -> list:
        """Several turns in a row; returns all their events."""
        out = []
        for moves in turns:
            out += self.turn(moves)
        return out

    def finish(self) -> GameEnded:
        """Play filler turns to the end of the game; the GameEnded event."""
        while self.state.phase != "over":
            self.finish_age()
        return self.ended()

    def ended(self) -> GameEnded:
        return next(e for e in reversed(self.events) if isinstance(e, GameEnded))

    def of(self, kind: type, events: list | None = None) -> list:
        """The events of `kind` (in `events`, default the whole log)."""
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]
