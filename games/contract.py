"""The game contract: everything the shell, projections and tests may know about a game.

Every game folder builds one `GameDef` and registers it in `games.registry`. The names
of the fields are fixed for every game (ARCHITECTURE.md, "The game contract").
`GameDef.complete` and `GameDef.closest` (games/completion.py) answer for every game what a
partial or mistyped command may become, from its `candidates`, `decide` and notation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from events.envelope import Seat


class Rejection(msgspec.Struct, frozen=True):
    """A refused command: a stable snake_case `code` and a message a player understands."""

    code: str
    message: str


class Seed(msgspec.Struct, frozen=True):
    """The secret from which setup draws every random outcome (committed by the shell)."""

    value: bytes


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """Final scores by category and the ranking after the game's tie-breakers.

    `scores[seat][i]` is the score of `categories[i]`; `totals[seat]` is their sum;
    `ranks[seat]` is 1 for the winner(s), equal ranks mean a shared place;
    `winners` lists every seat ranked 1 (several only when the tie-breakers leave a tie).
    """

    categories: tuple[str, ...]
    scores: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[Seat, ...]
    tiebreak: tuple[int, ...] = ()  # the values the tie-breaker compared, per seat


class Completion(msgspec.Struct, frozen=True):
    """What may follow a partial command of one seat now (`GameDef.complete`).

    `words`: the words that may stand at the cursor (after a space: the next word; else
    the words the last, partial word may become), in the game's order, each once.
    Every word leads to at least one command `decide` accepts.
    `commands`: the complete legal commands (canonical notation) the prefix leads to, in
    the game's order, at most the asked limit; `more`: there are others beyond it.
    `complete`: the prefix as typed is itself a command `decide` accepts now.
    """

    words: list[str]
    commands: list[str]
    complete: bool
    more: bool = False


class Decided(list):  # type: ignore[type-arg]
    """The events `decide` returns, with the states after them when decide has folded them
    itself (a game folds its own events to see what follows them: the end of a turn, the
    next decision). The shell takes these instead of folding the same events a second time
    (games.fold.after; a clock's or undo's fold, which needs the state after each event,
    in projections.table.advance); a plain list of events says "fold them". `states[i]` is
    exactly the fold of events[:i + 1] on the state decided on, and `state` the fold of
    them all: the contract tests check both."""

    __slots__ = ("state", "states")

    def __init__(self, events: Iterable[Any], state: Any, states: Sequence[Any]) -> None:
        super().__init__(events)
        self.state = state
        self.states = states


class Draws(Protocol):
    """What a determinization draws with (`GameDef.determinize`): a `random.Random` the
    caller seeds (games import no RNG of their own: tests/unit/games/test_purity.py)."""

    def shuffle(self, x: list[Any], /) -> None: ...

    def choice(self, seq: Sequence[Any], /) -> Any: ...

    def sample(self, population: Sequence[Any], k: int) -> list[Any]: ...

    def randrange(self, stop: int, /) -> int: ...


Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
Decide = Callable[[Any, Seat, Any], Sequence[Any] | Rejection]

GAME_OVER = Rejection("game_over", "the game is over")
NOT_STARTED = Rejection("not_started", "the game has not been set up")


def not_your_turn(seat: Seat, acting: tuple[Seat, ...]) -> Rejection:
    """The refusal of a seat with nothing to decide now, naming who acts (every view shows it)."""
    if not acting:
        who = "nobody acts now"
    elif len(acting) == 1:
        who = f"it is seat {acting[0]}'s turn"
    else:
        who = f"seats {', '.join(map(str, acting))} are to act"
    return Rejection("not_your_turn", f"seat {seat} has nothing to decide now: {who}")


def guarded(rules: Decide, to_act: Callable[[Any], tuple[Seat, ...]],
            waiting: Callable[[Any, Seat, tuple[Seat, ...]], Rejection] | None = None) -> Decide:
    """A game's `decide`: the guards every game shares, checked here once, then `rules`.

    In this order: the game is over (`game_over`), not set up (`not_started`), the seat is
    not at the table (`unknown_seat`), the seat is not among `to_act(state)` (`waiting`'s
    refusal if the game has its own, else `not_your_turn`). So `rules(state, seat, cmd)`
    judges only a started, unfinished game for a seat that is to act, and keeps to the
    checks of its own game. The game's State has `phase` ("new" before setup, "over" once
    the game has ended) and `players` (the seats are 0..players-1).
    """

    def decide(state: Any, seat: Seat, cmd: Any) -> Sequence[Any] | Rejection:
        phase = state.phase
        if phase == "over":
            return GAME_OVER
        if phase == "new":
            return NOT_STARTED
        players = state.players
        if not isinstance(seat, int) or not 0 <= seat < players:
            return Rejection("unknown_seat", f"there is no seat {seat} in a {players}-player game")
        acting = to_act(state)
        if seat not in acting:
            return not_your_turn(seat, acting) if waiting is None else waiting(state, seat, acting)
        return rules(state, seat, cmd)

    decide.__doc__ = rules.__doc__
    decide.__wrapped__ = rules  # type: ignore[attr-defined]
    return decide


@dataclass(frozen=True, slots=True)
class GameDef:
    """One game. The docstrings of the fields are the contract every game fulfils."""

    id: str
    """snake_case id: folder, registry key, Envelope.game_type, key names and statistics."""
    rules_version: int
    """Bumped on any behaviour change of decide/evolve/result."""
    commands: Any
    """The Command union (`A | B | ...`)."""
    events: Any
    """The Event union."""
    options_type: type
    """The options Struct; every options Struct has a `players` field."""
    presets: Mapping[str, Any]
    """Named option sets, e.g. "3p", "5p_side_a"."""
    fixture_type: type
    """The Struct that fixes every random outcome of setup explicitly."""
    initial: Any
    """The state before the first event; replay = reduce(evolve, events, initial)."""
    setup: Callable[[Any, Any], Sequence[Any]]
    """setup(options, Seed | fixture) -> opening events, every random outcome written out."""
    decide: Decide
    """decide(state, seat, command) -> events, or a Rejection. Pure and total. A game builds
    it with `guarded` (the shared guards, then the game's own rules). The events may come
    as `Decided`, carrying the state after them, when decide folded them already."""
    evolve: Callable[[Any, Any], Any]
    """evolve(state, event) -> state. Applies recorded facts; no validation."""
    legal_commands: Callable[[Any, Seat], Sequence[Any]]
    """Every legal command of `seat` now, in a deterministic order."""
    to_act: Callable[[Any], tuple[Seat, ...]]
    """The seats that must act now (several at once for simultaneous choices)."""
    view: Callable[[Any, Seat | None], Any]
    """What `seat` may see (`None`: a spectator). Never the state itself."""
    result: Callable[[Any], Result | None]
    """Scores and ranking once the game is over, else None."""
    facets: Callable[[Any], Sequence[Mapping[str, str]]]
    """Statistics dimensions per seat (e.g. wonder, side, seat, players)."""
    parse_command: Callable[[str], Any | Rejection]
    """The compact text notation -> a Command (or a Rejection saying what is wrong)."""
    format_command: Callable[[Any], str]
    """A Command -> its text notation; parse_command(format_command(c)) == c."""
    render: Callable[[Any], str]
    """A view -> a compact text rendering for a terminal or a chat message."""
    players: tuple[int, int]
    """The smallest and largest player counts."""
    upcasters: Mapping[tuple[str, int], Upcaster]
    """(event tag, from version) -> raw-dict upcaster to the next version."""
    summary: Callable[[Any], Mapping[str, Any]] | None = None
    """Optional extra numbers for statistics of a finished game (e.g. game length)."""
    set_facets: frozenset[str] = frozenset()
    """Facets whose value is a set, written as its members sorted and joined by ","
    (Duel's four wonders of a seat): statistics count each member as a value of its own."""
    earlier_catalogs: Mapping[str, str] = field(default_factory=dict)
    """Catalog hashes that games opened under earlier versions of the seed files recorded,
    mapped to today's hash, for files whose rules data is unchanged (only documentation
    fields such as `source` or `ref` were edited): `verify` compares an old game's opening
    with a fresh setup as if it carried today's hash. A data change gets no entry."""
    gain: Callable[[Any, Seat, Any], int] | None = None
    """gain(state, seat, command) -> how much `command` improves `seat`'s standing right
    away, judged only from what that seat may see (its view): used by greedy bots; None
    for games without one."""
    facet_text: Callable[[str, str], str] | None = None
    """facet_text(facet, value) -> the words a text shows for a facet's value, the ones the
    game's views use (7 Wonders' wonder "alexandria" is "Alexandria"); None: values are
    shown as they are. Statistics and JSON keep the values themselves."""
    legend: str = ""
    """What the symbols of `render`'s text mean, for a reader to ask for (`view --legend`);
    "" when the text is plain words."""
    candidates: Callable[[Any, Seat], Iterable[Any]] | None = None
    """candidates(state, seat) -> the commands of the notation's language `seat` might give
    now, a superset of `legal_commands` (every payment, rotation, count, ... the notation
    can name; unchecked: completion keeps those `decide` accepts). It reads only what the
    seat may see. None: `legal_commands` is already the whole language."""
    views: Callable[[Any, Sequence[Seat | None]], Sequence[Any]] | None = None
    """views(state, seats) -> `[view(state, s) for s in seats]`, equal item for item, the
    work every audience shares done once (the projector writes every audience's view at
    each step); None: `view` seat by seat."""
    svg: Callable[[Any], str] | None = None
    """svg(view) -> the board drawn as a self-contained SVG document (a viewBox, no external
    fonts, images or scripts): the same view `render` takes, so it shows exactly what that
    reader may see. Built with games/svgkit.py; None for games without a drawn board."""

    quiet: Callable[[Any, Any], bool] | None = None
    """quiet(state, event) -> True when `event`, applied to `state`, reveals nothing hidden
    to anyone and draws nothing (no card turned or drawn, no hand shown, no random outcome
    known): a command whose events are all quiet may be taken back in a game opened with
    undo (projections/undo.py). None: the game has no undo."""

    passing: Callable[[Any, Seat], Any | None] | None = None
    """passing(state, seat) -> the command a seat whose time ran out makes under a clock's
    on_timeout "pass" (the least a decision allows: a discard, a decline), one of
    `legal_commands`; None where this decision has none (the clock's bot plays it). None:
    the game has no passing move at all."""

    determinize: Callable[[Any, Seat, Any], Any] | None = None
    """determinize(state, seat, rng) -> a state `seat` cannot tell from `state` (the same view,
    legal commands and seats to act), everything it may not see drawn anew from `rng` (a
    random.Random) out of what it could be: a sample of the seat's information set, for
    search bots (services/bots/mcts.py). Its distribution depends on the seat's view only.
    None: the game has no search bot."""

    standing: Callable[[Any], Sequence[int]] | None = None
    """standing(state) -> each seat's points if the game were scored now: how a search bot
    judges a playout it cuts short (services/bots/mcts.py). None: playouts run to the end."""
    horizon: int = 0
    """Commands a search bot's random playout makes before `standing` judges it, for a game
    whose standing tells the outcome well long before its end (its playouts are long and
    slow); 0: playouts run to the end (up to the bot's own cap)."""

    def complete(self, state: Any, seat: Seat, prefix: str, limit: int = 50) -> Completion:
        """The next words and (up to `limit`) complete legal commands a partial command
        leads to, for `seat` now (games/completion.py)."""
        from games import completion  # it imports this module

        return completion.complete(self, state, seat, prefix, limit)

    def closest(self, state: Any, seat: Seat, text: str, n: int = 3) -> list[str]:
        """The `n` legal commands nearest to a mistyped `text` (edit distance)."""
        from games import completion

        return completion.closest(self, state, seat, text, n)
