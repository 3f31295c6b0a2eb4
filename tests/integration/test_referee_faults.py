"""The referee under bad input, duplicates, poison commands (toy game, real Redis)."""

from __future__ import annotations

import msgspec

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from services import protocol
from services.client import Client
from tests.support_toygame import Add


async def _raw(c: Client, game_id: str, body: bytes, command_id: str):
    fut = c.expect(command_id)
    await c.send_raw(game_id, {protocol.BODY: body, protocol.ID: command_id.encode(), protocol.TO: c.id.encode()})
    return await fut


async def test_every_bad_input_is_rejected_with_its_code_while_another_game_goes_on(r, toy, referee_factory):
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        gid, tokens, _ = await c.open(toy, preset="2p")
        other, other_tokens, _ = await c.open(toy, preset="2p")
        codes: dict[str, str] = {}

        async def bad(name: str, out) -> None:
            assert isinstance(out, Rejected), (name, out)
            codes[name] = out.code

        seat = 0

        async def progress() -> None:
            nonlocal seat
            out = await c.act(toy, other, seat, other_tokens[seat], "add 1")
            assert isinstance(out, Accepted)
            seat = 1 - seat

        def env(**kw):
            base = dict(game_id=gid, game_type="toy", seat=0, token=tokens[0],
                        command=msgspec.json.encode(Add(amount=1)))
            base.update(kw)
            return c.envelope(**base)

        await bad("unknown game", await c.act(toy, "no-such-game", 0, tokens[0], "add 1"))
        await progress()
        await bad("unknown game type", await c.submit(env(game_type="chess")))
        await bad("unknown seat", await c.act(toy, gid, 7, tokens[0], "add 1"))
        await progress()
        await bad("wrong token", await c.act(toy, gid, 0, "not-a-token", "add 1"))
        await bad("token of another seat", await c.act(toy, gid, 0, tokens[1], "add 1"))
        await bad("token of another game", await c.act(toy, gid, 0, other_tokens[0], "add 1"))
        await progress()
        await bad("out of turn", await c.act(toy, gid, 1, tokens[1], "add 1"))
        await bad("illegal move", await c.act(toy, gid, 0, tokens[0], Add(amount=7)))
        await progress()
        await bad("undecodable bytes", await _raw(c, gid, b"\xff\xfe not json", "raw-1"))
        await bad("wrong types", await c.submit(env(command=b'{"type":"add","amount":"three"}')))
        await bad("unknown command", await c.submit(env(command=b'{"type":"jump","height":3}')))
        await bad("envelope wrong types", await _raw(c, gid, b'{"command_id":"raw-2","game_id":5}', "raw-2"))
        await bad("oversized", await c.submit(env(command=b'{"type":"add","amount":1,"pad":"' + b"x" * 5000 + b'"}')))
        await progress()
        # finish the game, then one more command
        s = 0
        while True:
            out = await c.act(toy, gid, s, tokens[s], "add 3")
            assert isinstance(out, Accepted)
            if len(out.seqs) > 1:
                break
            s = 1 - s
        await bad("game over", await c.act(toy, gid, 1 - s, tokens[1 - s], "add 1"))
        await progress()

    assert codes == {
        "unknown game": "unknown_game", "unknown game type": "unknown_game_type",
        "unknown seat": "unknown_seat", "wrong token": "bad_token", "token of another seat": "bad_token",
        "token of another game": "bad_token", "out of turn": "out_of_turn", "illegal move": "illegal_move",
        "undecodable bytes": "malformed", "wrong types": "malformed", "unknown command": "unknown_command",
        "envelope wrong types": "malformed", "oversized": "oversized", "game over": "game_over",
    }
    # Rejections changed nothing: the bad game's log holds only accepted commands.
    envs = await store.read(gid)
    assert all(e.command_id.startswith(c.id) for e in envs)
    # And every rejection is in the bounded audit stream, without any token in it.
    audit = await r.xrange(keys.rejections(0))
    assert len(audit) == len(codes)
    assert not any(t.encode() in repr(audit).encode() for t in tokens + other_tokens)


async def test_the_same_command_twice_is_applied_once(r, toy, referee_factory):
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        gid, tokens, _ = await c.open(toy, preset="2p")
        e = c.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0], command=b'{"type":"add","amount":2}')
        first = await c.submit(e)
        fut = c.expect(e.command_id)
        await c.send(e)
        again = await fut
        assert isinstance(first, Accepted) and again == first
        # and a rejected command keeps its rejection, even once it would be legal
        bad = c.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0], command=b'{"type":"add","amount":1}')
        r1 = await c.submit(bad)
        assert isinstance(r1, Rejected) and r1.code == "out_of_turn"
        await c.act(toy, gid, 1, tokens[1], "add 1")
        fut = c.expect(bad.command_id)
        await c.send(bad)
        assert await fut == r1
    envs = await store.read(gid)
    assert [x.command_id for x in envs].count(e.command_id) == 1


async def test_the_referee_trims_the_commands_it_has_answered(r, toy, referee_factory):
    """README "Key layout", cmd:{s}: a running referee drops the commands every referee has
    acknowledged (about once a second, with its heartbeat), so the stream does not keep
    every command ever sent; their events, records and outcomes are kept elsewhere."""
    from tests.integration.support_service import eventually

    await referee_factory()
    async with Client(r, timeout=5) as c:
        sent, games = [], []
        for _ in range(4):
            gid, tokens, _ = await c.open(toy, preset="2p")
            games.append(gid)
            for k in range(5):
                e = c.envelope(game_id=gid, game_type="toy", seat=k % 2, token=tokens[k % 2],
                               command=b'{"type":"add","amount":1}')
                assert isinstance(await c.submit(e), Accepted)
                sent.append(e.command_id.encode())

    async def trimmed() -> bool:
        # The last entry delivered is the floor and stays; every other of ours goes.
        return sum(f.get(protocol.ID) in sent for _, f in await r.xrange(keys.cmd(0))) <= 1

    await eventually(trimmed, timeout=10)
    store = EventStore(r)
    for gid in games:  # the logs keep every command's events
        assert sum(e.command_id.encode() in sent for e in await store.read(gid)) == 5


async def test_a_command_id_reused_for_another_command_is_refused_and_answers_nothing_of_it(r, toy, referee_factory):
    """A command id stands for one command (protocol.fingerprint: game, seat, kind, the
    command's bytes). Reused for another command (another game's, another move in the
    same game) it is refused as command_id_reused and changes nothing; the first command's
    resends still get its own answer, accepted or rejected."""
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=5) as c:
        gid, tokens, _ = await c.open(toy, preset="2p")
        other, other_tokens, _ = await c.open(toy, preset="2p")
        e = c.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0], command=b'{"type":"add","amount":2}')
        first = await c.submit(e)
        assert isinstance(first, Accepted)
        before = await store.read(other)
        elsewhere = c.envelope(game_id=other, game_type="toy", seat=0, token=other_tokens[0],
                               command=b'{"type":"add","amount":2}', command_id=e.command_id)
        out = await c.submit(elsewhere)
        assert isinstance(out, Rejected) and out.code == "command_id_reused" and out.game_id == other
        assert await store.read(other) == before  # nothing of the first command, nothing new
        same_game = c.envelope(game_id=gid, game_type="toy", seat=1, token=tokens[1],
                               command=b'{"type":"add","amount":1}', command_id=e.command_id)
        out = await c.submit(same_game)
        assert isinstance(out, Rejected) and out.code == "command_id_reused"
        fut = c.expect(e.command_id)
        await c.send(e)  # the original, resent: its own answer
        assert await fut == first
        # A rejected command's id, reused: refused as reused; the original keeps its rejection.
        bad = c.envelope(game_id=gid, game_type="toy", seat=0, token=tokens[0], command=b'{"type":"add","amount":1}')
        r1 = await c.submit(bad)
        assert isinstance(r1, Rejected) and r1.code == "out_of_turn"
        legal = c.envelope(game_id=gid, game_type="toy", seat=1, token=tokens[1], command=b'{"type":"add","amount":1}',
                           command_id=bad.command_id)
        out = await c.submit(legal)
        assert isinstance(out, Rejected) and out.code == "command_id_reused"
        fut = c.expect(bad.command_id)
        await c.send(bad)
        assert await fut == r1
        assert isinstance(await c.act(toy, gid, 1, tokens[1], "add 1"), Accepted)  # the game goes on
    assert [x.command_id for x in await store.read(gid)].count(e.command_id) == 1


async def test_a_command_that_crashes_decide_goes_to_the_dead_letter_stream(r, toy, referee_factory):
    await referee_factory(max_deliveries=2, claim_idle_ms=200)
    async with Client(r, timeout=10) as c:
        gid, tokens, _ = await c.open(toy, preset="2p")
        poison = c.act(toy, gid, 0, tokens[0], Add(amount=99))
        out = await poison
        assert isinstance(out, Rejected) and out.code == "dead_letter"
        # the referee is still alive and the game goes on
        assert isinstance(await c.act(toy, gid, 0, tokens[0], "add 2"), Accepted)
    dead = await r.xrange(keys.dead(0))
    assert len(dead) == 1
    reason = dead[0][1][b"reason"].decode()
    assert "RuntimeError" in reason and int(dead[0][1][b"deliveries"]) >= 2
    assert await r.xpending(keys.cmd(0), protocol.GROUP) == {"pending": 0, "min": None, "max": None, "consumers": []}


async def _hand_fed(r, referee_factory):
    """A store, the stream's own referee started, and a second Referee of shard 0 that only
    the test feeds (`handle_batch`): its cache is what the test makes stale."""
    from services.referee.referee import Referee
    from tests.integration.support_service import settings

    store = EventStore(r)
    await store.ensure_group(keys.cmd(0), protocol.GROUP)
    await referee_factory()  # the other referee, serving the stream
    return store, Referee(r, store, settings(), 0)


def _entry(c: Client, gid: str, tokens: list[str], seat: int, amount: int) -> tuple[bytes, dict[bytes, bytes]]:
    """A cmd:{s} entry of seat `seat` adding `amount` to the toy game `gid`."""
    env = c.envelope(game_id=gid, game_type="toy", seat=seat, token=tokens[seat],
                     command=b'{"type":"add","amount":%d}' % amount)
    return b"0-1", protocol.command_fields(env)


async def test_a_decision_taken_on_a_state_that_did_not_land_is_taken_again(r, toy, referee_factory):
    """Pipelined batches: batch N+1 is decided on the state batch N would leave. When N does
    not land (another referee moved the game on), N+1 must be decided again even if the
    log's length happens to be the version it expected: else its events would describe a
    history that never happened and break the hash chain."""
    from projections.audit import verify
    from projections.table import advance, empty
    store, mine = await _hand_fed(r, referee_factory)
    async with Client(r, timeout=5) as c:
        gid, tokens, _ = await c.open(toy, preset="2p")

        def entry(seat: int, amount: int) -> tuple[bytes, dict[bytes, bytes]]:
            return _entry(c, gid, tokens, seat, amount)

        (probe,) = await mine.handle_batch([entry(1, 1)])  # caches the game at version 2
        assert isinstance(probe.outcome, Rejected) and probe.outcome.code == "out_of_turn"
        assert isinstance(await c.act(toy, gid, 0, tokens[0], "add 1"), Accepted)  # the other referee: v3
        # Decided on the stale cache: seat 0 adds 2 (will conflict), then seat 1 adds 1 on
        # top of that tentative state, expecting version 3 — the log's length by then.
        (a,) = await mine.handle_batch([entry(0, 2)], wait=False)
        (b,) = await mine.handle_batch([entry(1, 1)], wait=False)
        await mine.drain()
    assert isinstance(a.outcome, Rejected) and a.outcome.code == "out_of_turn"
    assert isinstance(b.outcome, Accepted) and b.outcome.seqs == [4]
    envs = await store.read(gid)
    assert verify(toy, envs) == []
    state = advance(empty(gid, toy), envs).state
    assert (state.total, state.moves) == (2, 2)  # 1 (the other referee) + 1 (seat 1), nothing else


async def test_a_cached_state_whose_last_entries_were_replaced_is_decided_again_on_the_log(r, toy, referee_factory):
    """After a failover, entries a referee wrote to the lost master (never told) can be
    replaced by others at the same seqs on the promoted replica: the log is as long as the
    referee's cached state but ends with another entry. The append script finds that the
    command's events do not chain; the referee used to refuse the legal command
    (`broken_log`, seen in test_cluster_failover). Now it decides it again on the log."""
    from events.chain import link
    from projections.audit import verify
    from projections.table import advance, empty
    store, mine = await _hand_fed(r, referee_factory)
    async with Client(r, timeout=5) as c:
        gid, tokens, _ = await c.open(toy, preset="2p")

        def entry(seat: int, amount: int) -> tuple[bytes, dict[bytes, bytes]]:
            return _entry(c, gid, tokens, seat, amount)

        (first,) = await mine.handle_batch([entry(0, 1)])  # landed at seq 3; cached by `mine`
        assert isinstance(first.outcome, Accepted) and first.outcome.seqs == [3]
        # The master that held seq 3 is lost; another command's seq 3 takes its place.
        log = await store.read(gid)
        entries = await r.xrange(keys.log(0, gid))
        await r.xdel(keys.log(0, gid), entries[-1][0])
        other = link(log[1].hash, game_id=gid, game_type="toy", seq=3, type=log[2].type, v=log[2].v,
                     time=log[2].time + 1, command_id="c-other", seat=0, data=log[2].data)
        assert other.hash != log[2].hash
        assert (await store.append(gid, expected=2, command_id="c-other", envelopes=[other])).status == "ok"
        (second,) = await mine.handle_batch([entry(1, 1)])
    assert isinstance(second.outcome, Accepted) and second.outcome.seqs == [4], second.outcome
    envs = await store.read(gid)
    assert verify(toy, envs) == [] and envs[2].hash == other.hash
    assert advance(empty(gid, toy), envs).state.moves == 2
