"""A tiny but complete game for testing the shell without 7 Wonders.

"Race to N": seats take turns adding 1-3 to a shared counter; whoever brings it to the
target (default 10) wins. Each seat is dealt a secret token (1-9) at setup, shown only to
its owner until the game ends, so view redaction can be tested. Pure, like every game.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from msgspec.structs import replace

from events.base import Command, Event
from games.contract import GameDef, Rejection, Result, Seed
from games.rng import Rng


class Add(Command, tag="add"):
    """Add `amount` (1-3) to the counter."""

    amount: int


class Dealt(Event, tag="toy.dealt"):
    """Every seat's secret token, dealt at setup (hidden from other seats)."""

    version: ClassVar[int] = 1
    secrets: list[int]


class Added(Event, tag="toy.added"):
    """A seat added to the counter."""

    version: ClassVar[int] = 1
    seat: int
    amount: int
    total: int


class Won(Event, tag="toy.won"):
    """The counter reached the target."""

    version: ClassVar[int] = 1
    seat: int


Commands = Add
Events = Dealt | Added | Won


class Options(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 2
    target: int = 10


class Fixture(msgspec.Struct, frozen=True, kw_only=True):
    secrets: list[int]


class State(msgspec.Struct, frozen=True, kw_only=True):
    players: int = 0
    target: int = 10
    secrets: tuple[int, ...] = ()
    total: int = 0
    turn: int = 0
    winner: int | None = None
    moves: int = 0


class View(msgspec.Struct, frozen=True, kw_only=True):
    seat: int | None
    total: int
    target: int
    to_act: list[int]
    secrets: list[int | None]
    winner: int | None


INITIAL = State()


def setup(options: Options, source: Seed | Fixture) -> list[Any]:
    if isinstance(source, Fixture):
        secrets = list(source.secrets)
    else:
        rng = Rng(source.value, "deal")
        secrets = [1 + rng.below(9) for _ in range(options.players)]
    return [Dealt(secrets=secrets)]


def evolve(state: State, event: Any) -> State:
    match event:
        case Dealt(secrets=s):
            return replace(state, players=len(s), secrets=tuple(s))
        case Added(seat=seat, total=total):
            return replace(state, total=total, turn=(seat + 1) % state.players, moves=state.moves + 1)
        case Won(seat=seat):
            return replace(state, winner=seat)
    raise AssertionError(f"unknown event {event!r}")


def to_act(state: State) -> tuple[int, ...]:
    if state.winner is not None or state.players == 0:
        return ()
    return (state.turn,)


def decide(state: State, seat: int, cmd: Any) -> list[Any] | Rejection:
    if state.winner is not None:
        return Rejection("game_over", "the game is over")
    if seat != state.turn:
        return Rejection("out_of_turn", f"it is seat {state.turn}'s turn")
    if isinstance(cmd, Add) and cmd.amount == 99:
        raise RuntimeError("a deliberate bug, for dead-letter tests")
    if not isinstance(cmd, Add) or not 1 <= cmd.amount <= 3:
        return Rejection("illegal_move", "add 1, 2 or 3")
    total = state.total + cmd.amount
    out: list[Any] = [Added(seat=seat, amount=cmd.amount, total=total)]
    if total >= state.target:
        out.append(Won(seat=seat))
    return out


def legal_commands(state: State, seat: int) -> list[Any]:
    if seat not in to_act(state):
        return []
    return [Add(amount=a) for a in (1, 2, 3)]


def view(state: State, seat: int | None) -> View:
    over = state.winner is not None
    return View(
        seat=seat,
        total=state.total,
        target=state.target,
        to_act=list(to_act(state)),
        secrets=[s if over or i == seat else None for i, s in enumerate(state.secrets)],
        winner=state.winner,
    )


def result(state: State) -> Result | None:
    if state.winner is None:
        return None
    scores = tuple((1 if i == state.winner else 0, s) for i, s in enumerate(state.secrets))
    totals = tuple(a * 100 + b for a, b in scores)
    ranks = tuple(1 + sum(1 for t in totals if t > mine) for mine in totals)
    return Result(
        categories=("win", "secret"),
        scores=scores,
        totals=totals,
        ranks=ranks,
        winners=tuple(i for i, r in enumerate(ranks) if r == 1),
    )


def facets(state: State) -> list[dict[str, str]]:
    return [{"seat": str(i), "players": str(state.players)} for i in range(state.players)]


def parse_command(text: str) -> Any:
    parts = text.split()
    if len(parts) == 2 and parts[0] == "add" and parts[1].isdigit():
        return Add(amount=int(parts[1]))
    return Rejection("bad_notation", "write: add N")


def format_command(cmd: Any) -> str:
    return f"add {cmd.amount}"


def render(v: View) -> str:
    mine = "" if v.seat is None else f" secret={v.secrets[v.seat]}"
    return f"total {v.total}/{v.target} to_act={v.to_act} winner={v.winner}{mine}"


def summary(state: State) -> dict[str, Any]:
    return {"moves": state.moves}


GAME = GameDef(
    id="toy",
    rules_version=1,
    commands=Commands,
    events=Events,
    options_type=Options,
    presets={"2p": Options(players=2), "3p": Options(players=3)},
    fixture_type=Fixture,
    initial=INITIAL,
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_act=to_act,
    view=view,
    result=result,
    facets=facets,
    parse_command=parse_command,
    format_command=format_command,
    render=render,
    players=(2, 4),
    upcasters={},
    summary=summary,
)
