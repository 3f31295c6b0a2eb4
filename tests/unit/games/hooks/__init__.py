"""Per-game hooks of the shared random-play and secrecy suites (tests/unit/games/
test_random_play.py, test_secrecy.py): only what one game has that the others do not
(its invariants, its commands that must be refused, its fuzz language, its scramble of
hidden information, its game counts and their environment knobs). Every game in
`games.registry` has one module here, named after its id, exporting `HOOKS`."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from games.registry import GAMES


def knob(name: str, default: int) -> int:
    """An integer test knob from the environment (README 'Tests')."""
    return int(os.environ.get(name, str(default)))


def _choice(cmds: list[Any], rng: random.Random) -> Any:
    return rng.choice(cmds)


@dataclass(frozen=True)
class Hooks:
    """One game's part of the shared suites. The suites do everything common to every
    game themselves (see their docstrings); a hook left None checks nothing more."""

    games: int
    """Random games in the default run: per player count when `per_players` (spread over
    that count's presets), else per preset."""
    soak: int
    """Random games of the slow soak (`pytest -m slow`), counted as `games` is."""
    per_players: bool
    check_games: int
    """Every check_games-th game decides every legal command and the refusals..."""
    check_steps: int
    """...at every check_steps-th step."""
    max_steps: int
    """A game not over after this many commands fails."""
    fuzz: Any
    """A Hypothesis strategy of commands of the game's types with any fields."""
    scramble: Callable[[Any, int | None, random.Random], Any]
    """scramble(state, seat, rng): another state that differs only in what `seat` (None:
    a spectator) may not see."""
    decide_scramble: Callable[[Any, int, random.Random], Any] | None = None
    """A scramble `decide` can judge on (the completion and bot tests call decide on it);
    None: `scramble` is one."""
    complete_every: int = 10
    """The secrecy suite compares a seat's completion at every complete_every-th step."""
    secrecy_games: int = 1
    """Random games per preset the secrecy suite checks at every position."""
    seed: Callable[[str, int], bytes] = lambda preset, n: n.to_bytes(8, "big")
    """The setup secret of random game number `n` of `preset`."""
    one_at_a_time: bool = True
    """Exactly one seat acts at every position."""
    choose: Callable[[list[Any], random.Random], Any] = _choice
    """The random player's pick among the legal commands."""
    illegal: Callable[[Any, int, random.Random, list[Any]], Iterable[Any]] | None = None
    """illegal(state, seat, rng, legal commands): commands that must be refused now;
    ("seat", s): the first legal command given by seat s instead must be refused."""
    after_event: Callable[[Any, Any, Any], None] | None = None
    """after_event(before, after, event): books of one event."""
    after_command: Callable[[Any, list[Any]], None] | None = None
    """after_command(state, events so far): invariants after every command."""
    at_end: Callable[[Any, list[Any]], None] | None = None
    """at_end(state, events): invariants of a finished game."""
    over_games: Callable[[str, int, list[Any]], None] | None = None
    """over_games(preset, count, final states): what the games of a preset must show."""
    recheck_legal: bool = False
    """legal_commands is asked twice at every step (cheap for this game) to check it is
    deterministic, not only at the steps checked."""
    fuzz_is_legal: bool = False
    """legal_commands is the whole language: an accepted fuzzed command is among them."""
    fuzz_played: bool | None = None
    """An accepted fuzzed command is always played (True), or that is drawn (None)."""
    prefix_steps: int = 60
    """The longest prefix a Hypothesis example plays."""
    same_views: bool = False
    """Nothing is hidden: every seat and a spectator see the same view (but for its seat)."""


def decide_scramble(game_id: str) -> Callable[[Any, int, random.Random], Any]:
    h = HOOKS[game_id]
    return h.decide_scramble or h.scramble


def hooks(game_id: str) -> Hooks:
    return importlib.import_module(f"{__name__}.{game_id}").HOOKS


HOOKS: dict[str, Hooks] = {g: hooks(g) for g in GAMES}


def games_per_preset(game_id: str, preset: str, count: int) -> int:
    """`count` spread over the presets of `preset`'s player count when the game counts
    per player count (at least one game each), else `count`."""
    game = GAMES[game_id]
    if not HOOKS[game_id].per_players:
        return count
    players = game.presets[preset].players
    same = [p for p in game.presets if game.presets[p].players == players]
    return max(1, -(-count // len(same)))


def seed_base(game_id: str, preset: str, soak: bool) -> int:
    """Distinct random-game numbers per preset: the player count, then the preset's rank
    among the presets of that count (the plain '<n>p' presets come first)."""
    game = GAMES[game_id]
    players = game.presets[preset].players
    rank = [p for p in game.presets if game.presets[p].players == players].index(preset)
    return players * 1_000_000 + rank * 100_000 if soak else players * 100_000 + rank * 10_000


def cases() -> Iterator[tuple[str, str]]:
    """(game id, preset) for every game in the registry and every preset."""
    for g in GAMES.values():
        for p in g.presets:
            yield g.id, p
