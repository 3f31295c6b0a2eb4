"""Completion conformance (issue #30): for every game and preset, over positions of random
play, every legal command is reached by completing word by word, every complete command
offered is one `decide` accepts, the empty prefix offers the first words, garbage offers
nothing, and a seat's completion does not change when what it may not see changes.

`COMPLETE_GAMES` (default 1) random games per preset; positions are sampled along each.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

import pytest

from games.completion import norm
from games.contract import Completion, GameDef, Rejection, Seed
from games.fold import replay
from games.registry import GAMES
from tests.unit.games.hooks import decide_scramble

CASES = [(g, p) for g in GAMES.values() for p in g.presets]
RUNS = int(os.environ.get("COMPLETE_GAMES", "1"))
EVERY = {"arkadia": 40}
"""Steps between the positions checked (Arkadia's games are long and its language large)."""
GARBAGE = ("xyzzy", "build xyzzy", "zz ", "build  pay pay pay", "é", "12,3 r9")


def positions(game: GameDef, preset: str, seed: int, every: int) -> Iterator[tuple[Any, int]]:
    """(state, a seat to act) at every `every`-th step of one random game, to its end."""
    rng = random.Random(seed)
    state = replay(game, game.setup(game.presets[preset], Seed(seed.to_bytes(8, "big"))))
    step = 0
    while game.result(state) is None and step < 3000:
        seat = rng.choice(game.to_act(state))
        if step % every == 0:
            yield state, seat
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
        step += 1


ALL = 10**6
"""A limit no position reaches: every legal command listed."""
NOTHING = Completion(words=[], commands=[], complete=False, more=False)


def walk(game: GameDef, state: Any, seat: int, text: str) -> None:
    """Type `text` word by word: each word (and each word's first letter) offers it, and
    the whole is a complete command listed when the prefix is the whole."""
    prefix = ""
    for word in norm(text).split():
        got = game.complete(state, seat, prefix)
        assert word in [norm(w) for w in got.words], (text, prefix, got.words)
        assert got.more or text in got.commands, (text, prefix)
        partial = game.complete(state, seat, prefix + word[:1])
        assert word in [norm(w) for w in partial.words], (text, prefix + word[:1])
        prefix += word + " "
    got = game.complete(state, seat, prefix)
    assert got.complete and text in got.commands, (text, got)


def check_position(game: GameDef, state: Any, seat: int, rng: random.Random) -> None:
    legal = game.legal_commands(state, seat)
    top = game.complete(state, seat, "", ALL)
    assert isinstance(top, Completion) and not top.complete and not top.more
    offered = set(top.commands)
    for cmd in legal:  # the whole language contains legal_commands
        assert game.format_command(cmd) in offered, (game.id, game.format_command(cmd))
    assert len(offered) == len(top.commands), "a command is offered twice"
    for text in top.commands:  # nothing illegal is offered
        cmd = game.parse_command(text)
        assert not isinstance(cmd, Rejection), (text, cmd)
        assert game.format_command(cmd) == text
        assert not isinstance(out := game.decide(state, seat, cmd), Rejection), (text, out)
    assert top.words == list(dict.fromkeys(t.split()[0] for t in top.commands))  # the first words
    short = game.complete(state, seat, "")
    assert short.words == top.words and short.commands == top.commands[:50] and short.more == (len(offered) > 50)
    for word in rng.sample(top.words, min(3, len(top.words))):  # each word leads to a legal command
        after = game.complete(state, seat, word + " ")
        assert after.commands and all(norm(t).startswith(norm(word) + " ") or norm(t) == norm(word)
                                      for t in after.commands)
    for junk in GARBAGE:
        assert game.complete(state, seat, junk) == NOTHING, junk
    for text in rng.sample(top.commands, min(3, len(top.commands))):  # cut anywhere, any case, spaces
        cut = "".join(c.upper() if rng.random() < 0.3 else c for c in text[: rng.randrange(len(text) + 1)])
        cut = cut.replace(" ", rng.choice([" ", "  ", " _"[rng.randrange(2)]]))
        got = game.complete(state, seat, cut)
        want = norm(cut)
        assert text in got.commands or got.more, (cut, text)
        assert all(norm(t).startswith(want) for t in got.commands), cut
        assert not want or cut[-1:].isspace() or all(norm(w).startswith(want.split()[-1]) for w in got.words)
    for cmd in rng.sample(list(legal), min(2, len(legal))):
        text = game.format_command(cmd)
        assert game.closest(state, seat, text, 1) == [text]
        first = text.split()[0]
        typo = first[0] + first[2:] + text[len(first):]  # the verb's second letter left out
        assert text in game.closest(state, seat, typo, 3), (typo, game.closest(state, seat, typo, 3))


@pytest.mark.parametrize("game,preset", CASES, ids=lambda x: getattr(x, "id", x))
def test_completion_reaches_every_legal_command_and_offers_only_legal_ones(game: GameDef, preset: str) -> None:
    checked = 0
    for run in range(RUNS):
        rng = random.Random(run)
        for state, seat in positions(game, preset, seed=len(preset) + 100 * run, every=EVERY.get(game.id, 9)):
            check_position(game, state, seat, rng)
            cmds = game.legal_commands(state, seat)
            for cmd in rng.sample(list(cmds), min(3, len(cmds))):
                walk(game, state, seat, game.format_command(cmd))
            others = [s for s in range(game.presets[preset].players) if s not in game.to_act(state)]
            for s in others[:1]:  # a seat that need not act is offered nothing
                assert game.complete(state, s, "") == NOTHING
            checked += 1
    assert checked >= 3


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_completion_reveals_nothing_hidden_from_the_seat(game: GameDef) -> None:
    """The games' scrambles (tests/unit/games/hooks) change only what the seat may not see; the completion
    of the empty prefix, of every first word and of the first two words stays the same."""
    rng = random.Random(3)
    checked = 0
    for preset in list(game.presets)[:4]:
        for state, seat in positions(game, preset, seed=17, every=15 if game.id == "arkadia" else 5):
            other = decide_scramble(game.id)(state, seat, rng)
            top = game.complete(state, seat, "")
            assert game.complete(other, seat, "") == top
            prefixes = {" ".join(t.split()[:k]) + " " for t in top.commands for k in (1, 2)}
            for p in sorted(prefixes):
                assert game.complete(other, seat, p) == game.complete(state, seat, p), p
            assert game.closest(other, seat, "bild", 3) == game.closest(state, seat, "bild", 3)
            checked += 1
    assert checked > 20


def _first(game: GameDef, preset: str, found) -> tuple[Any, int, Any]:
    """The first position of a few random games where `found(state, seat)` is not None."""
    for seed in range(20):
        for state, seat in positions(game, preset, seed=seed, every=1):
            hit = found(state, seat)
            if hit is not None:
                return state, seat, hit
    raise AssertionError("no such position")


def test_seven_wonders_offers_pay_cheapest_and_takes_any_spelling() -> None:
    game = GAMES["seven_wonders"]
    state = replay(game, game.setup(game.presets["3p"], Seed(b"spelling")))
    builds = [c for c in game.legal_commands(state, 0) if type(c).__name__ == "Build" and not c.free]
    assert builds
    for c in builds:
        name = " ".join(game.format_command(c).split()[1:-5])  # build NAME pay left L right R
        got = game.complete(state, 0, f"build {name} ")
        assert f"build {name} pay cheapest" in got.commands and got.words == ["pay"]
        assert game.format_command(c) in got.commands
        assert game.complete(state, 0, f"BUILD {name.lower().replace(' ', '_')}").complete
    assert game.complete(state, 0, "bu").words == ["build"]
    assert not game.complete(state, 0, "build").complete


def test_arkadia_offers_worker_sets_and_exchanges_legal_commands_leaves_out() -> None:
    game = GAMES["arkadia"]

    def two_workers(state, seat):
        legal = {game.format_command(c) for c in game.legal_commands(state, seat)}
        extra = [t for t in game.complete(state, seat, "workers ", ALL).commands if t not in legal]
        return extra or None

    state, seat, extra = _first(game, "3p", two_workers)
    for text in extra:
        assert not isinstance(game.decide(state, seat, game.parse_command(text)), Rejection)
    walk(game, state, seat, extra[-1])

    def partial_exchange(state, seat):
        legal = {game.format_command(c) for c in game.legal_commands(state, seat)}
        got = game.complete(state, seat, "banner exchange ", ALL).commands
        return [t for t in got if t not in legal] or None

    state, seat, extra = _first(game, "2p", partial_exchange)
    walk(game, state, seat, extra[0])
    assert all(not isinstance(game.decide(state, seat, game.parse_command(t)), Rejection) for t in extra)


def test_ora_et_labora_offers_every_count_of_a_conversion() -> None:
    game = GAMES["ora_et_labora"]
    from games.ora_et_labora import goods as G

    def grain(state, seat):
        n = G.count(state.owners[seat].goods, "grain")
        return n if n >= 2 and any(game.format_command(c) == "convert grain" for c in game.legal_commands(state, seat)) else None

    state, seat, n = _first(game, "3p_france", grain)
    got = game.complete(state, seat, "convert grain ")
    assert [f"convert grain {k}" for k in range(2, n + 1)] == [t for t in got.commands if t != "convert grain"]
    assert not game.complete(state, seat, f"convert grain {n + 1}").complete
    walk(game, state, seat, f"convert grain {n}")


@pytest.mark.parametrize("game", GAMES.values(), ids=lambda g: g.id)
def test_a_mistyped_command_gets_the_closest_legal_ones(game: GameDef) -> None:
    preset = next(iter(game.presets))
    state = replay(game, game.setup(game.presets[preset], Seed(b"typo")))
    seat = game.to_act(state)[0]
    legal = [game.format_command(c) for c in game.legal_commands(state, seat)]
    text = legal[-1]
    swapped = text[1] + text[0] + text[2:]  # the first two letters swapped
    near = game.closest(state, seat, swapped.upper(), 3)
    assert near[0] == text and len(near) == min(3, len(legal)) and len(set(near)) == len(near)
    assert set(near) <= set(game.complete(state, seat, "", ALL).commands)
    assert game.closest(state, seat, "", 2) and game.closest(state, seat, "x" * 5000, 1)
    assert game.closest(state, seat, text, 0) == [] and game.closest(state, 99, text, 3) == []
    for stranger in (99, -1, None):  # no seat at the table, the spectator
        assert game.complete(state, stranger, "") == NOTHING and game.closest(state, stranger, text) == []
        assert game.complete(state, stranger, text) == NOTHING
