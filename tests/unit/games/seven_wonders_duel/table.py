"""A scenario driver for 7 Wonders Duel: a fixture that puts chosen cards at chosen
positions (§4), then commands played through `decide` in notation (never by building a
State by hand).

    t = Table(ages={1: {19: "garrison", 18: "quarry"}})   # first-game wonders, seat 0 starts
    t.act(0, "build Garrison")                             # events, or a Rejection
    t.play("discard Quarry")                               # whoever is to act; must succeed

`wonders=(four for seat 0, four for seat 1)` drafts them through commands instead of the
first-game deal. Unplaced positions get the rest of the age deck in sorted order; the
three cards left over are the ones removed at setup.
"""

from __future__ import annotations

from games.contract import Rejection
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.events import Options
from games.seven_wonders_duel.setup import Fixture

TOKENS = ("agriculture", "architecture", "economy", "law", "masonry")
BOX = ("mathematics", "philosophy", "strategy", "theology", "urbanism")


def _structure(age: int, placed: dict[int, str], guilds: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    deck = sorted(CATALOG.decks[f"age{age}"]) + (sorted(guilds) if age == 3 else [])
    for c in placed.values():
        assert c in deck, f"age {age} has no card {c!r} (or it is placed twice)"
        deck.remove(c)
    if age == 3:  # keep the guilds in the structure: remove plain Age III cards
        spare = [c for c in deck if c not in guilds]
        removed = spare[-3:]
        deck = [c for c in deck if c not in removed]
    else:
        removed = deck[-3:]
        deck = deck[:-3]
    cards = [placed.get(p) for p in range(20)]
    rest = iter(deck)
    out = tuple(c if c is not None else next(rest) for c in cards)
    return out, tuple(removed)


class Table:
    """A game in progress, driven command by command."""

    def __init__(self, ages: dict[int, dict[int, str]] | None = None, first: int = 0,
                 wonders: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
                 tokens: tuple[str, ...] = TOKENS, box: tuple[str, ...] | None = None,
                 guilds: tuple[str, ...] = ("builders_guild", "magistrates_guild", "merchants_guild")):
        ages = ages or {}
        if box is None:
            box = BOX if tokens == TOKENS else tuple(sorted(set(CATALOG.tokens) - set(tokens)))
        placed_guilds = tuple(c for c in ages.get(3, {}).values() if CATALOG.cards[c].deck == "guild")
        guilds = tuple(dict.fromkeys(placed_guilds + tuple(g for g in guilds if g not in placed_guilds)))[:3]
        built = [_structure(a, ages.get(a, {}), guilds) for a in (1, 2, 3)]
        draft: tuple[str, ...] = tuple(CATALOG.wonders)[:8]
        if wonders is not None:
            a, b = wonders
            draft = (a[0], b[0], b[1], a[1], b[2], a[2], a[3], b[3])  # §3 pick order, P1 = seat `first`
        fx = Fixture(first=first, draft=draft, board_tokens=tokens, box_tokens=box,
                     structures=tuple(s for s, _ in built), removed=tuple(r for _, r in built), guilds=guilds)
        options = Options(wonders="draft" if wonders is not None else "first_game")
        self.events = list(GAME.setup(options, fx))
        self.state = replay(GAME, self.events)
        if wonders is not None:
            mine = {first: list(wonders[0]), 1 - first: list(wonders[1])}
            from games.seven_wonders_duel.rules import offered

            while self.state.phase == "draft":
                seat = GAME.to_act(self.state)[0]
                self.play(f"draft {next(w for w in mine[seat] if w in offered(self.state))}")

    @property
    def seat(self) -> int:
        return GAME.to_act(self.state)[0]

    def city(self, seat: int):
        return self.state.cities[seat]

    def coins(self) -> tuple[int, int]:
        return (self.state.cities[0].coins, self.state.cities[1].coins)

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

    def play(self, *texts: str) -> list:
        """Commands by whoever is to act; each must be accepted. Returns all events."""
        out = []
        for text in texts:
            got = self.act(self.seat, text)
            assert not isinstance(got, Rejection), (text, got)
            out += got
        return out

    def accessible(self) -> list[str]:
        from games.seven_wonders_duel.rules import accessible

        s = self.state
        return [s.structures[s.age - 1][p] for p in accessible(s.age, s.present)]

    def filler(self, avoid: tuple[str, ...] = ()) -> str:
        """Discard an accessible card (sorted), avoiding `avoid` when possible."""
        cards = self.accessible()
        spare = [c for c in cards if c not in avoid] or cards
        return f"discard {spare[0]}"

    def finish_age(self, start: str = "me", avoid: tuple[str, ...] = ()) -> None:
        """Discard until the age ends, then answer the start choice (§9)."""
        age = self.state.age
        while self.state.age == age and self.state.phase == "play":
            p = self.state.pending
            if p is None:
                self.play(self.filler(avoid))
            elif p.kind == "choose_start":
                self.play(f"choose start {start}")
            else:
                cmd = GAME.legal_commands(self.state, p.seat)[0]
                self.play(GAME.format_command(cmd))

    def of(self, kind: type, events: list | None = None) -> list:
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]
