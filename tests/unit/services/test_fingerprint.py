"""Command fingerprints do not depend on how a command's JSON is laid out (#22 item 8).

For every game and preset, over random positions: a legal command and the command got by
formatting it as text and parsing the text back have the same fingerprint (Ora et Labora's
parser gave 884 of 27,685 legal commands another key order, so a client resending the
parsed text was answered `command_id_reused`). And the layout of the JSON (key order,
blanks) never changes a fingerprint, while the command's content does.
"""

from __future__ import annotations

import random

import msgspec
import pytest

from events.envelope import CommandEnvelope
from games.contract import GameDef, Seed
from games.fold import replay
from games.registry import GAMES
from services import protocol

CASES = [(g, p) for g in GAMES.values() for p in g.presets]


def _fp(game: GameDef, command: bytes, seat: int = 0) -> str:
    return protocol.fingerprint(CommandEnvelope(command_id="c-1", game_id="g-1", game_type=game.id, seat=seat,
                                                command=msgspec.Raw(command)))


@pytest.mark.parametrize("game,preset", CASES, ids=lambda x: getattr(x, "id", x))
def test_parse_of_format_has_the_commands_fingerprint(game: GameDef, preset: str) -> None:
    rng = random.Random(f"{game.id}/{preset}")
    state = replay(game, list(game.setup(game.presets[preset], Seed(rng.randbytes(8)))))
    checked = 0
    for step in range(5000):
        if game.result(state) is not None:
            break
        seat = rng.choice(game.to_act(state))
        cmds = game.legal_commands(state, seat)
        if step % 3 == 0:
            for cmd in rng.sample(cmds, min(len(cmds), 40)):
                again = game.parse_command(game.format_command(cmd))
                assert _fp(game, msgspec.json.encode(again), seat) == _fp(game, msgspec.json.encode(cmd), seat), cmd
                checked += 1
        for e in game.decide(state, seat, rng.choice(cmds)):  # type: ignore[union-attr]
            state = game.evolve(state, e)
    assert checked > 50


def test_the_layout_of_the_json_does_not_count_its_content_does() -> None:
    game = next(iter(GAMES.values()))
    a = _fp(game, b'{"type":"build","card":"x","pay":{"b":1,"a":[2,{"z":1,"y":2}]}}')
    assert a == _fp(game, b'{ "pay" : {"a":[2,{"y":2,"z":1}],"b":1}, "card":"x", "type":"build" }')
    assert a != _fp(game, b'{"type":"build","card":"x","pay":{"b":1,"a":[{"z":1,"y":2},2]}}')
    assert a != _fp(game, b'{"type":"build","card":"x","pay":{"b":1,"a":[2,{"z":1,"y":2}]}}', seat=1)
    # Bytes that are not JSON: only those very bytes have their fingerprint.
    assert _fp(game, b"{not json") == _fp(game, b"{not json") != _fp(game, b"{not json ")
