"""Resigning with a chosen bot kind and a host abandoning a seat (issue #28), without Redis:
the judge's `resign` and `abandon` kinds, `ts.host_named` from the open, the bot kind the
timer's timeouts then play the seat with, and every refusal (a wrong host token, no host, a
seat gone already, an unknown bot kind, a gone seat's own command)."""

from __future__ import annotations

import msgspec

from events.meta import HostNamed, SeatResigned
from games.seven_wonders_duel import GAME as DUEL
from projections.table import advance, decode, empty
from services import protocol
from services.bots.policies import BOTS
from services.referee.cache import GameCache
from services.referee.judge import NO_HOST, Judge
from tests.unit.services.test_judge import entry, judged

T0 = 1_700_000_000_000
HOST = "host-token-1"


def _open(host: str | None = HOST, host_hash: str | None = None):
    cache = GameCache(10)
    cache.secrets["g-1"] = bytes(range(32))
    judge = Judge(0, 1, 4096, lambda: T0, cache)
    tokens = ["tok-0", "tok-1"]
    req = protocol.OpenRequest(token_hashes=[protocol.token_hash(t) for t in tokens], preset="2p",
                               host_hash=host_hash if host_hash is not None else
                               (protocol.token_hash(host) if host else ""))
    it, got = judged(judge, None, entry("c-open", kind="open", seat=-1, token="", game_type=DUEL.id,
                                        command=msgspec.json.encode(req)))
    return judge, tokens, it, got


def _send(judge, table, kind: str, seat: int, token: str, n: int, body: object = None):
    command = b"null" if body is None else msgspec.json.encode(body)
    return judged(judge, table, entry(f"c-{n}", kind=kind, seat=seat, token=token, game_type=DUEL.id, command=command))


def test_the_host_abandons_a_seat_to_the_bot_kind_it_names() -> None:
    judge, tokens, it, got = _open()
    assert it.outcome is None and got is not None
    log, table = list(got[0]), got[1]
    assert HostNamed(token_hash=protocol.token_hash(HOST)) in [decode(DUEL, e) for e in log]
    assert table.host == protocol.token_hash(HOST)
    it, bad = _send(judge, table, "abandon", 1, tokens[1], 1)  # a seat's token is not the host's
    assert bad is None and it.outcome.code == "bad_token"
    it, bad = _send(judge, table, "abandon", 1, HOST, 2, {"bot": "clever"})
    assert bad is None and it.outcome.code == "bad_options"
    it, done = _send(judge, table, "abandon", 1, HOST, 3, {"bot": "greedy"})
    assert it.outcome is None and done is not None
    log += done[0]
    table = done[1]
    assert [decode(DUEL, e) for e in done[0]] == [SeatResigned(seat=1, reason="host", bot="greedy")]
    assert table.resigned == (1,) and table.clock is not None and table.clock.resigned[1] == "greedy"
    assert table == advance(empty("g-1", DUEL), log)
    it, again = _send(judge, table, "abandon", 1, HOST, 4)
    assert again is None and it.outcome.code == "already_resigned"
    # the seat's player is gone: its own commands are refused, the greedy bot plays its turns
    if 1 in DUEL.to_act(table.state):
        cmd = DUEL.legal_commands(table.state, 1)[0]
        it, refused = _send(judge, table, "act", 1, tokens[1], 5, cmd)
        assert refused is None and it.outcome.code == "already_resigned"
    else:
        cmd = DUEL.legal_commands(table.state, 0)[0]
        it, moved = _send(judge, table, "act", 0, tokens[0], 5, cmd)
        log += moved[0]
        table = moved[1]
    assert 1 in DUEL.to_act(table.state)
    body = protocol.TimeoutRequest(deadline=table.clock.deadline(1))
    it, timed = _send(judge, table, "timeout", 1, "", 6, body)
    assert it.outcome is None and timed is not None
    bot = BOTS["greedy"](b"timeout/g-1/%d" % table.version, 1)
    want = DUEL.decide(table.state, 1, bot.choose(DUEL, table.state, 1))
    assert [decode(DUEL, e) for e in timed[0]][:len(want)] == list(want)


def test_a_seat_resigns_to_the_bot_kind_it_names() -> None:
    judge, tokens, it, got = _open(host=None)
    table = got[1]
    assert table.host == ""
    it, bad = _send(judge, table, "resign", 0, tokens[0], 1, {"bot": "nobody"})
    assert bad is None and it.outcome.code == "bad_options"
    it, bad = _send(judge, table, "resign", 0, tokens[0], 2, {"bots": "greedy"})
    assert bad is None and it.outcome.code == "malformed"
    it, done = _send(judge, table, "resign", 0, tokens[0], 3, {"bot": "greedy"})
    assert [decode(DUEL, e) for e in done[0]] == [SeatResigned(seat=0, reason="resigned", bot="greedy")]
    it, plain = _send(judge, table, "resign", 1, tokens[1], 4)
    assert [decode(DUEL, e) for e in plain[0]] == [SeatResigned(seat=1, reason="resigned", bot="random")]


def test_no_host_no_abandon_and_a_bad_host_hash_is_refused_at_open() -> None:
    judge, tokens, it, got = _open(host=None)
    it, bad = _send(judge, got[1], "abandon", 0, HOST, 1)
    assert bad is None and it.outcome.code == NO_HOST
    _, _, it, got = _open(host_hash="Z" * 64)
    assert got is None and it.outcome.code == "malformed"
