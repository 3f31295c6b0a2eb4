"""The determinization (games/seven_wonders_duel/determinize.py) over random games of both
presets, at every position (the draft included) and for both seats: the seat is shown the
same view, legal commands and seats to act; the result depends on the seat's view and the
rng only (determinizing a determinized state with the same rng gives the same state); the
hidden multisets and their constraints are kept; random play from a determinized state
runs to the end with the hooks' invariants; and every hidden place with two candidates or
more takes at least two values over 30 samples, each one of its candidates, and every
candidate of a group of places (an Age's face-down places of one back, a later structure,
removed cards, unrevealed draft wonders, the box, the Library's draw) shows up in one."""

from __future__ import annotations

import random
from functools import lru_cache

import msgspec
import pytest

from games.contract import Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.determinize import determinize
from games.seven_wonders_duel.events import DecisionOpened
from games.seven_wonders_duel.state import State
from tests.unit.games.hooks.seven_wonders_duel import after_event, at_end

PRESETS = ("2p", "2p_first_game")
GAMES = 4  # random games per preset
SEATS = (0, 1)
GUILDS = frozenset(CATALOG.decks["guild"])
DECKS = tuple(frozenset(CATALOG.decks[f"age{a}"]) for a in (1, 2, 3))
WONDERS = frozenset(CATALOG.wonders)
TOKENS = frozenset(CATALOG.tokens)
enc = msgspec.json.encode


def play(state: State, rng: random.Random, until=None) -> tuple[State, list]:
    """Random legal play from `state` to the end (or until `until(state)`), each event's
    books checked; the final state and the events applied."""
    events: list = []
    for _ in range(300):
        if GAME.result(state) is not None or (until is not None and until(state)):
            return state, events
        seat = GAME.to_act(state)[0]
        for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
            new = GAME.evolve(state, e)
            after_event(state, new, e)
            state = new
            events.append(e)
    raise AssertionError("the game did not end")


def library(state: State, seat: int) -> State:
    """`state` with The Great Library's draw open for `seat` (the first 3 of the box)."""
    return GAME.evolve(state, DecisionOpened(seat=seat, kind="great_library", options=state.box_tokens[:3]))


@lru_cache(maxsize=None)
def positions(preset: str) -> tuple[State, ...]:
    """Every position of GAMES random games of `preset`, then a few with The Great Library's
    draw open (for the seat to act, or for the other)."""
    out: list[State] = []
    for n in range(GAMES):
        rng = random.Random(f"determinize/{preset}/{n}")
        state = replay(GAME, GAME.setup(GAME.presets[preset], Seed(f"determinize/{n}".encode())))
        while GAME.result(state) is None:
            out.append(state)
            state, _ = play(state, rng, until=lambda s, before=state: s is not before)
        out.append(state)  # over
    plain = [s for s in out if s.phase == "play" and s.pending is None and s.box_tokens]
    out += [library(s, s.current if i % 2 else 1 - s.current) for i, s in enumerate(plain[::12])]
    return tuple(out)


def hidden_places(state: State, seat: int) -> dict[tuple, frozenset[str]]:
    """Every place `seat` may not see -> what it could hold, from the seat's view alone
    (and the catalog): ("structure", age, position), ("removed", age, i), ("draft", i),
    ("box", i), ("library", i)."""
    v = GAME.view(state, seat)
    seen = {c for city in v.cities for c in (*city.cards, *city.tucked)} | set(v.discard)
    seen |= {s.card for s in v.structure if s.card is not None}
    places: dict[tuple, frozenset[str]] = {}
    age = 0 if v.phase == "draft" else v.age
    for a in (1, 2, 3):
        deck = DECKS[a - 1]
        for i in range(3):
            places["removed", a, i] = deck if a > age else deck - seen
        if a == age:
            for s in v.structure:
                if s.card is None:
                    places["structure", a, s.position] = (GUILDS if s.back == "guild" else deck) - seen
        elif a > age:
            for p in range(20):
                places["structure", a, p] = deck | GUILDS if a == 3 else deck
    if v.phase == "draft":
        revealed = set(v.draft) | {w for city in v.cities for w in city.wonders}
        for i in range(len(revealed), 8):
            places["draft", i] = WONDERS - revealed
    box = TOKENS - set(v.board_tokens) - {t for city in v.cities for t in city.tokens}
    mine = v.pending is not None and v.pending.kind == "great_library" and v.pending.options is not None
    drawn = len(v.pending.options) if mine else 0
    for i in range(drawn, v.box_size):
        places["box", i] = box - set(v.pending.options) if mine else box
    if v.pending is not None and v.pending.kind == "great_library" and not mine:
        for i in range(min(3, v.box_size)):
            places["library", i] = box
    return places


def at(state: State, place: tuple) -> str:
    kind, *where = place
    if kind == "structure":
        return state.structures[where[0] - 1][where[1]]
    if kind == "removed":
        return state.removed[where[0] - 1][where[1]]
    if kind == "draft":
        return state.draft[where[0]]
    if kind == "box":
        return state.box_tokens[where[0]]
    assert state.pending is not None
    return state.pending.options[where[0]]


def check_consistent(state: State, new: State) -> None:
    """The hidden multisets and their constraints hold in `new`, and what is not hidden
    from anybody is `state`'s."""
    for a in (1, 2, 3):
        dealt = (*new.structures[a - 1], *new.removed[a - 1])
        assert len(new.structures[a - 1]) == 20 and len(new.removed[a - 1]) == 3
        assert len(set(dealt)) == 23 and set(new.removed[a - 1]) <= DECKS[a - 1]
        assert set(dealt) <= DECKS[a - 1] | (GUILDS if a == 3 else frozenset())
    assert sorted(new.guilds) == sorted(c for c in new.structures[2] if c in GUILDS) and len(new.guilds) == 3
    assert len(set(new.draft)) == len(new.draft) == 8 and set(new.draft) <= WONDERS
    assert sorted(new.box_tokens) == sorted(state.box_tokens)
    if new.pending is not None and new.pending.kind == "great_library":
        assert new.pending.options == new.box_tokens[: len(new.pending.options)]
    same = ("phase", "age", "present", "face_up", "current", "cities", "pawn", "board_tokens", "discard", "picks")
    assert all(getattr(new, f) == getattr(state, f) for f in same)


@pytest.mark.parametrize("preset", PRESETS)
def test_the_seat_is_shown_what_it_was_shown(preset: str) -> None:
    checked = 0
    for n, state in enumerate(positions(preset)):
        for seat in SEATS:
            view, legal, to_act = enc(GAME.view(state, seat)), GAME.legal_commands(state, seat), GAME.to_act(state)
            for k in range(2):
                new = determinize(state, seat, random.Random(f"{n}/{seat}/{k}"))
                assert enc(GAME.view(new, seat)) == view, (preset, n, seat)
                assert GAME.legal_commands(new, seat) == legal, (preset, n, seat)
                assert GAME.to_act(new) == to_act, (preset, n, seat)
                check_consistent(state, new)
                places = hidden_places(state, seat)
                for a in (1, 2, 3):  # the places nobody hides from the seat are left as they are
                    for p in range(20):
                        if ("structure", a, p) not in places:
                            assert new.structures[a - 1][p] == state.structures[a - 1][p], (preset, n, seat, a, p)
                for place, candidates in places.items():
                    assert at(new, place) in candidates, (preset, n, seat, place)
                checked += 1
    assert checked > 400, checked


@pytest.mark.parametrize("preset", PRESETS)
def test_the_draw_depends_on_the_view_only(preset: str) -> None:
    """s2 = determinize(s1, seat, Random(j)) has s1's view; determinize(s1, seat, Random(k))
    == determinize(s2, seat, Random(k)): where the hidden items were does not matter."""
    differ = 0
    for n, state in enumerate(positions(preset)):
        for seat in SEATS:
            other = determinize(state, seat, random.Random(f"j/{n}/{seat}"))
            differ += other != state
            for k in range(2):
                a = determinize(state, seat, random.Random(f"k/{n}/{seat}/{k}"))
                b = determinize(other, seat, random.Random(f"k/{n}/{seat}/{k}"))
                assert a == b, (preset, n, seat, k)
    assert differ > 100, differ


@pytest.mark.parametrize("preset", PRESETS)
def test_random_play_from_a_determinized_state_reaches_the_end(preset: str) -> None:
    states = positions(preset)
    picks = states[:: max(1, len(states) // 8)]  # spread over the game, the draft included
    phases = set()
    for n, state in enumerate(picks):
        for seat in SEATS:
            rng = random.Random(f"playout/{preset}/{n}/{seat}")
            start = determinize(state, seat, rng)
            end, events = play(start, rng)
            assert GAME.result(end) is not None
            if events:
                at_end(end, events)
            phases.add(state.phase)
    assert "play" in phases and (preset != "2p" or "draft" in phases), phases


def _sample_positions(preset: str) -> list[State]:
    """A position of the draft's first round (2p), one of each Age, a science or start
    decision if any, and The Great Library's draw."""
    states = positions(preset)
    picked = [s for s in states if s.phase == "draft" and s.picks == 1][:1]
    for a in (1, 2, 3):
        in_age = [s for s in states if s.phase == "play" and s.age == a and s.pending is None]
        picked.append(in_age[len(in_age) // 2])
    picked += [s for s in states if s.pending is not None and s.pending.kind == "choose_start"][:1]
    picked += [s for s in states if s.pending is not None and s.pending.kind == "great_library"][:2]
    return picked


@pytest.mark.parametrize("preset", PRESETS)
def test_every_hidden_place_is_drawn_anew(preset: str) -> None:
    kinds = set()
    for n, state in enumerate(_sample_positions(preset)):
        for seat in SEATS:
            places = hidden_places(state, seat)
            rng = random.Random(f"coverage/{preset}/{n}/{seat}")
            samples = [determinize(state, seat, rng) for _ in range(30)]
            groups: dict[tuple, set[str]] = {}
            for place, candidates in places.items():
                values = {at(s, place) for s in samples}
                assert values <= candidates, (preset, n, seat, place)
                if len(candidates) >= 2:
                    assert len(values) >= 2, (preset, n, seat, place, values)
                    kind = place[0] if place[0] != "structure" else ("structure", place[1] > state.age)
                    kinds.add(kind)
                groups.setdefault((place[:-1], candidates), set()).update(values)
            for (group, candidates), values in groups.items():  # each pool is drawn from whole
                slots = sum(1 for p, c in places.items() if p[:-1] == group and c == candidates)
                if len(candidates) * (1 - slots / len(candidates)) ** len(samples) < 1e-4:  # a miss: unlikely
                    assert values == candidates, (preset, n, seat, group, candidates - values)
                    kinds.add(("whole", group[0], group[1] if len(group) > 1 else None))
    want = {"removed", "box", "library", ("structure", False), ("structure", True), ("whole", "structure", 3)}
    want |= {("whole", "library", None)}
    assert want | ({"draft", ("whole", "draft", None)} if preset == "2p" else set()) <= kinds, kinds
