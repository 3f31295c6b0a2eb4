"""The referee's judge without Redis (issue #23): read, authorize, decide and seal commands
of the toy game on cached Tables, as the batch loop would, and check what it returns."""

from __future__ import annotations

import msgspec
import pytest

from events.chain import GENESIS, verify
from events.envelope import Accepted, Rejected
from events.meta import GameOpened, SeatPlayer, SeatsTaken, SeedRevealed
from games.rng import seed_commitment
from projections.table import Table, advance, empty
from services import protocol
from services.client import Client
from services.referee.cache import GameCache
from services.referee.judge import Item, Judge
from tests.integration.support_service import registry
from tests.support_toygame import GAME as TOY
from tests.support_toygame import Add

SEED = bytes(range(32))
TOKENS = ["tok-zero", "tok-one"]


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry().GAMES, TOY.id, TOY)


def entry(command_id: str, kind: str = "act", seat: int = 0, token: str = "tok-zero", command: bytes = b"null",
          game_id: str = "g-1", game_type: str = "toy") -> dict[bytes, bytes]:
    c = Client.__new__(Client)
    c.id = "c-test"
    env = Client.envelope(c, game_id=game_id, game_type=game_type, kind=kind, seat=seat, token=token,
                          command=command, command_id=command_id)
    return protocol.command_fields(env)


def judged(judge: Judge, table: Table | None, fields: dict[bytes, bytes]) -> tuple[Item, object]:
    it = judge.parse(b"1-0", fields)
    got = None if it.outcome is not None else judge.decide(it, table)
    return it, got


def opened() -> tuple[Judge, GameCache, Table, list]:
    cache = GameCache(10)
    cache.secrets["g-1"] = SEED
    judge = Judge(0, 1, 4096, lambda: 1_700_000_000_000, cache)
    req = protocol.OpenRequest(token_hashes=[protocol.token_hash(t) for t in TOKENS], preset="2p")
    it, got = judged(judge, None, entry("c-open", kind="open", seat=-1, token="", command=msgspec.json.encode(req)))
    assert it.outcome is None and got is not None
    envs, table = got
    return judge, cache, table, list(envs)


def test_open_seals_the_opening_on_the_drawn_seed() -> None:
    _, _, table, envs = opened()
    assert envs[0].prev_hash == GENESIS and [e.seq for e in envs] == list(range(1, len(envs) + 1))
    first = msgspec.json.decode(envs[0].data, type=GameOpened)
    assert first.seed_commitment == seed_commitment(SEED) and first.players == 2
    assert verify(envs) == []
    assert table.version == len(envs) and table.last_hash == envs[-1].hash
    assert table == advance(empty("g-1", TOY), envs)  # the table after = the fold of the envelopes


def test_a_legal_command_is_chained_after_the_table_and_the_last_reveals_the_seed() -> None:
    judge, cache, table, log = opened()
    seat = 0
    while True:
        tok = TOKENS[seat]
        it, got = judged(judge, table, entry(f"c-{len(log)}", seat=seat, token=tok,
                                             command=msgspec.json.encode(Add(amount=3))))
        assert it.outcome is None and got is not None, it.outcome
        envs, after = got
        assert envs[0].prev_hash == table.last_hash and envs[0].seq == table.version + 1
        log += envs
        assert after == advance(empty("g-1", TOY), log)
        table = after
        if TOY.result(table.state) is not None:
            break
        seat = 1 - seat
    assert msgspec.json.decode(log[-1].data, type=SeedRevealed).seed == SEED.hex()
    assert cache.tokens["g-1"] == {0: TOKENS[0], 1: TOKENS[1]}  # checked once, remembered
    it, got = judged(judge, table, entry("c-late", seat=1 - seat, token=TOKENS[1 - seat],
                                         command=msgspec.json.encode(Add(amount=1))))
    assert got is None and isinstance(it.outcome, Rejected) and it.outcome.code == "game_over"


@pytest.mark.parametrize("fields,code", [
    (dict(seat=1, token="tok-zero"), "bad_token"),
    (dict(seat=5), "unknown_seat"),
    (dict(game_id="g-2"), "unknown_game"),
    (dict(game_type="chess"), "unknown_game_type"),
    (dict(seat=1, token="tok-one"), "out_of_turn"),
    (dict(command=b'{"type":"add","amount":7}'), "illegal_move"),
    (dict(command=b'{"type":"jump"}'), "unknown_command"),
    (dict(command=b'{"type":"add","amount":"x"}'), "malformed"),
    (dict(command=b"[" * 40 + b"]" * 40), "malformed"),
    (dict(command=b'{"type":"add","amount":1180591620717411303424}'), "illegal_move"),
    (dict(game_id="g 1"), "malformed"),
    (dict(kind="close"), "malformed"),
])
def test_refusals(fields: dict, code: str) -> None:
    judge, _, table, _ = opened()
    base = dict(command=msgspec.json.encode(Add(amount=1)))
    base.update(fields)
    it, got = judged(judge, table if base.get("game_id", "g-1") == "g-1" else None, entry("c-x", **base))
    assert got is None and isinstance(it.outcome, Rejected), it.outcome
    assert it.outcome.code == code and it.outcome.command_id == "c-x"
    assert not isinstance(it.outcome, Accepted)


def test_an_unreadable_entry_is_refused_with_the_fingerprint_of_its_bytes() -> None:
    judge = Judge(0, 1, 4096, lambda: 0, GameCache(10))
    fields = {protocol.BODY: b"[" * 1000, protocol.ID: b"c-9", protocol.TO: b"c-test"}
    it = judge.parse(b"1-0", fields)
    assert isinstance(it.outcome, Rejected) and it.outcome.code == "malformed"
    assert (it.command_id, it.reply_to, it.fp) == ("c-9", "c-test", protocol.entry_fingerprint(fields))
    other = Judge(1, 2, 4096, lambda: 0, GameCache(10)).parse(b"1-0", entry("c-1", game_id="g-1"))
    assert isinstance(other.outcome, Rejected) and other.outcome.code == "wrong_shard"


def _open_with(seats: list) -> tuple[Item, object]:
    cache = GameCache(10)
    cache.secrets["g-1"] = SEED
    judge = Judge(0, 1, 4096, lambda: 1_700_000_000_000, cache)
    req = protocol.OpenRequest(token_hashes=[protocol.token_hash(t) for t in TOKENS], preset="2p", seats=seats)
    return judged(judge, None, entry("c-open", kind="open", seat=-1, token="", command=msgspec.json.encode(req)))


def test_an_open_request_naming_its_players_logs_who_sits_where_after_the_opening() -> None:
    players = [SeatPlayer(kind="identity", id="id-1", name="Ada"), SeatPlayer(kind="bot", id="greedy", name="greedy bot")]
    it, got = _open_with(players)
    assert it.outcome is None and got is not None
    envs, table = got
    assert [e.type for e in envs[:2]] == ["ts.game_opened", "ts.seats_taken"] and envs[1].seat == -1
    assert msgspec.json.decode(envs[1].data, type=SeatsTaken).seats == players
    assert table.seated == tuple(players) and table == advance(empty("g-1", TOY), envs)
    _, _, _, unnamed = opened()  # without names, nothing more is logged than before
    assert "ts.seats_taken" not in [e.type for e in unnamed] and len(unnamed) == len(envs) - 1


@pytest.mark.parametrize("seats", [[SeatPlayer(kind="bot", id="greedy", name="g")],  # one name for two seats
                                   [SeatPlayer(kind="robot", id="x", name="x")] * 2,  # no such kind
                                   [SeatPlayer(kind="name", id="", name="")] * 2,  # no id
                                   [SeatPlayer(kind="name", id="x" * 101, name="x")] * 2])
def test_an_open_request_with_bad_players_is_refused_and_logs_nothing(seats: list) -> None:
    it, got = _open_with(seats)
    assert got is None and isinstance(it.outcome, Rejected) and it.outcome.code == "bad_options"
