"""Arkadia's determinization (games/arkadia/determinize.py) over random games of 2, 3 and 4
players, at every position and for every seat: the seat is shown the same (view, legal
commands, seats to act); only the other hands and the pile order change, over the same
cards; the sample depends on the seat's view only; random play from a sample reaches the
end with the invariants of tests/unit/games/hooks/arkadia.py; the samples vary."""

from __future__ import annotations

import ast
import inspect
import random
from functools import cache

import msgspec
import pytest
from msgspec.structs import replace

import games.arkadia.determinize as module
from games.arkadia import GAME
from games.arkadia.board import placements
from games.arkadia.catalog import CATALOG
from games.arkadia.determinize import determinize
from games.arkadia.rules import occupancy
from games.contract import Seed
from games.fold import after, replay
from tests.unit.games.hooks.arkadia import HOOKS, after_command, choose

PRESETS = ("2p", "3p", "4p")
GAMES = 2  # random games per preset
enc = msgspec.json.encode


@cache
def positions(preset: str, n: int) -> tuple[tuple[object, tuple], ...]:
    """(state, the events so far) at every position of random game `n` of `preset`, the end included."""
    rng = random.Random(f"determinize/{preset}/{n}")
    events = list(GAME.setup(GAME.presets[preset], Seed(HOOKS.seed(preset, 7_000_000 + n))))
    state = replay(GAME, events)
    out = []
    while GAME.result(state) is None:
        out.append((state, tuple(events)))
        seat = rng.choice(GAME.to_act(state))
        new = GAME.decide(state, seat, choose(GAME.legal_commands(state, seat), rng))
        events.extend(new)
        state = after(GAME, state, new)
        assert len(out) < HOOKS.max_steps
    out.append((state, tuple(events)))
    return tuple(out)


def every_position():
    for preset in PRESETS:
        for n in range(GAMES):
            for step, (state, events) in enumerate(positions(preset, n)):
                yield preset, n, step, state, events


def hidden(state, seat) -> list[str]:
    return sorted([*(c for s, sc in enumerate(state.screens) if s != seat for c in sc.hand), *state.pile])


def blocked(state, seat) -> list[int]:
    """The other seats of the current run of skipped actions (they could lay no card)."""
    last = state.active if state.acted == "skip" else state.active - 1
    return sorted({(last - k) % state.players for k in range(min(state.skips, state.players))} - {seat})


def layable(state, card: str) -> bool:
    occ = occupancy(state).all
    return any(not p.mask & occ and p.ring & occ
               for p in placements(CATALOG.cards[card].form, state.options.mirror_allowed))


def test_the_seat_is_shown_the_same_and_only_hidden_cards_move() -> None:
    checked = skipped = 0
    for preset, n, step, state, events in every_position():
        where = (preset, n, step)
        for seat in (*range(state.players), None):
            new = determinize(state, seat, random.Random(f"{where}/{seat}"))
            assert enc(GAME.view(new, seat)) == enc(GAME.view(state, seat)), (where, seat)
            assert GAME.to_act(new) == GAME.to_act(state), (where, seat)
            if seat is not None:
                assert GAME.legal_commands(new, seat) == GAME.legal_commands(state, seat), (where, seat)
                assert new.screens[seat] == state.screens[seat], (where, seat)
            # everything but the other hands and the pile is kept; those hold the same cards
            assert replace(new, screens=state.screens, pile=state.pile) == state, (where, seat)
            for s, (a, b) in enumerate(zip(new.screens, state.screens)):
                assert replace(a, hand=b.hand) == b and len(a.hand) == len(b.hand), (where, seat, s)
            assert len(new.pile) == len(state.pile)
            assert hidden(new, seat) == hidden(state, seat), (where, seat)
            after_command(new, list(events))
            # a seat that skipped its action could lay none of its cards: in the sample neither
            for s in blocked(state, seat):
                assert not any(layable(state, c) for c in state.screens[s].hand), ("the real hand", where, s)
                assert not any(layable(new, c) for c in new.screens[s].hand), (where, seat, s)
                skipped += 1
            checked += 1
    assert checked > 1000 and skipped > 0, (checked, skipped)


def test_the_sample_depends_on_the_view_only() -> None:
    checked = 0
    for preset, n, step, s1, _ in every_position():
        if step % 4:
            continue
        for seat in range(s1.players):
            others = [determinize(s1, seat, random.Random(j)) for j in range(3)]
            if not s1.skips:  # any arrangement of the hidden cards, not only a sample's
                pool = hidden(s1, seat)
                random.Random(step).shuffle(pool)
                screens = list(s1.screens)
                for s, sc in enumerate(s1.screens):
                    if s != seat:
                        screens[s] = replace(sc, hand=tuple(pool[:len(sc.hand)]))
                        del pool[:len(sc.hand)]
                others.append(replace(s1, screens=tuple(screens), pile=tuple(pool)))
            for s2 in others:
                assert enc(GAME.view(s2, seat)) == enc(GAME.view(s1, seat))
                for k in range(3):
                    a = determinize(s1, seat, random.Random(k))
                    assert a == determinize(s2, seat, random.Random(k)), (preset, n, step, seat, k)
                checked += 1
    assert checked > 300, checked


def starts():
    """(state, events, seat): a fifth, half and four fifths into a game of each preset, and
    the first position where another seat's skip constrains its hand."""
    for preset in PRESETS:
        game = positions(preset, 0)
        for i, frac in enumerate((0.2, 0.5, 0.8)):
            state, events = game[int(frac * (len(game) - 1))]
            yield state, events, i % state.players
    for _, _, _, state, events in every_position():
        for seat in range(state.players):
            if GAME.result(state) is None and len(hidden(state, seat)) >= 2 and any(
                    state.screens[s].hand for s in blocked(state, seat)):
                yield state, events, seat
                return


def test_random_play_from_a_sample_reaches_the_end_with_the_invariants() -> None:
    played = 0
    for i, (state, events, seat) in enumerate(starts()):
        rng = random.Random(f"playout/{i}")
        state = determinize(state, seat, rng)
        log = list(events)
        steps = 0
        while GAME.result(state) is None:
            actor = rng.choice(GAME.to_act(state))
            new = GAME.decide(state, actor, rng.choice(GAME.legal_commands(state, actor)))
            assert isinstance(new, list), new
            for e in new:
                state = GAME.evolve(state, e)
            log.extend(new)
            after_command(state, log)
            steps += 1
            assert steps < HOOKS.max_steps
        if HOOKS.at_end is not None:
            HOOKS.at_end(state, log)
        played += 1
    assert played == 10


def test_other_hands_and_the_pile_order_vary() -> None:
    """Whenever two arrangements of the hidden cards give another seat's hand (or the pile)
    two values, 30 samples show two. The catalog's card ids are unique, so two arrangements
    exist when a card of the place can swap with one elsewhere: a blocked seat's (that
    skipped its action) with another card that cannot be laid, any other place's with a card
    of another unblocked place, or with a blocked seat's when some unlayable card is spare."""
    checked = 0
    for preset, n, step, state, _ in every_position():
        if (step % 10 and not state.skips) or GAME.result(state) is not None:
            continue
        for seat in range(state.players):
            samples = [determinize(state, seat, random.Random(k)) for k in range(30)]
            pool = hidden(state, seat)
            assert len(set(pool)) == len(pool)
            stuck = blocked(state, seat)
            dead = [c for c in pool if not layable(state, c)]
            need = sum(len(state.screens[o].hand) for o in stuck)
            free = len(pool) - need  # the cards on unblocked places
            spare = need > 0 and len(dead) > need
            for o in range(state.players):
                h = len(state.screens[o].hand)
                if o == seat:
                    assert len({x.screens[o].hand for x in samples}) == 1
                    continue
                varies = h < len(dead) if o in stuck else h < free or spare
                if h and varies:
                    assert len({tuple(sorted(x.screens[o].hand)) for x in samples}) >= 2, (preset, n, step, seat, o)
                    checked += 1
            if state.pile and (free >= 2 or spare):
                assert len({x.pile for x in samples}) >= 2, (preset, n, step, seat)
                checked += 1
    assert checked > 100, checked


def test_it_is_pure() -> None:
    state, _ = positions("3p", 0)[40]
    random.seed(12345)
    expected = random.random()
    random.seed(12345)
    a = determinize(state, 1, random.Random(7))
    assert random.random() == expected, "the global random state was used"
    assert a == determinize(state, 1, random.Random(7)) and state == positions("3p", 0)[40][0]
    tree = ast.parse(inspect.getsource(module))
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert imported <= {"__future__", "random", "msgspec.structs", "games.arkadia.board", "games.arkadia.catalog",
                        "games.arkadia.rules", "games.arkadia.state"}, imported


@pytest.mark.parametrize("preset", PRESETS)
def test_a_new_game_and_a_finished_one(preset: str) -> None:
    first, last = positions(preset, 1)[0][0], positions(preset, 1)[-1][0]
    assert determinize(GAME.initial, 0, random.Random(0)) == GAME.initial
    for state in (first, last):
        for seat in range(state.players):
            new = determinize(state, seat, random.Random(3))
            assert enc(GAME.view(new, seat)) == enc(GAME.view(state, seat))
            assert hidden(new, seat) == hidden(state, seat)
