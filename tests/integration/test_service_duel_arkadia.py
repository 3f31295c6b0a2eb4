"""Whole 7 Wonders Duel, Arkadia and Ora et Labora bot games through the service (issues #4 and #5).

Each game goes the real path: commands XADDed to cmd:{s}, the FastStream referee, the
append script, the feed, the projector. For every game: `verify` (projections.audit)
passes, replay of the log equals the stored views at the end, the result and its
statistics row are stored (Duel: the victory type is a facet and the aggregate counts wins
by it), a rebuild from nothing equals the live projections, and at every log position no
seat's view document nor the spectator's depends on, or contains, what it may not know:

* Duel: face-down cards, the other ages' structures, the cards removed at setup, the
  guilds left in the box, the progress tokens in the box, the draft wonders not yet revealed, and
  The Great Library's 3 tokens except for its chooser;
* Arkadia: the other seats' hands, held workers (own and neutral), seals and gold behind
  their screens, and the order of the draw pile;
* Ora et Labora: nothing is hidden, so every audience's document is the same board.

"Depends on" is checked by scrambling that hidden information (as the unit secrecy tests
`tests/unit/games/test_secrecy.py` does with its hooks) and comparing the whole stored document bytes
(view JSON and text rendering); "contains" by looking for the hidden ids in the JSON.
Rejections sent through the service are checked the same way: their code and message
are those of the same command decided on scrambled states, and name no hidden card.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from events import keys
from events.envelope import Accepted, Rejected
from events.store import EventStore
from games import registry
from games.contract import Rejection
from projections import board, stats
from projections.audit import verify
from projections.table import Table, advance, empty
from services.bots.driver import Played, make_bots, play_game
from services.client import Client
from services.projector.rebuild import all_projections, rebuild
from services.projector.runner import Projector, load_views

duel = registry.get("seven_wonders_duel")
ark = registry.get("arkadia")
oel = registry.get("ora_et_labora")
DUEL_GAMES = int(os.environ.get("TS_DUEL_GAMES", "4"))
ARK_GAMES = int(os.environ.get("TS_ARK_GAMES", "1"))
VICTORIES = {"military", "science", "civilian"}  # games/seven_wonders_duel/events.py Victory


# ---------------------------------------------------------------------------- hidden information
def _duel_scramble(state: Any, seat: int | None, rng: random.Random) -> Any:
    """Another Duel state that differs from `state` only in what `seat` may not see."""
    from games.seven_wonders_duel.catalog import CATALOG
    from games.seven_wonders_duel.state import Pending

    plain = sorted(c for c in CATALOG.cards if CATALOG.cards[c].deck != "guild")
    guilds = sorted(CATALOG.decks["guild"])
    tokens = sorted(CATALOG.tokens)
    structures = []
    for a, cards in enumerate(state.structures, 1):
        if a != state.age or state.phase == "draft":
            structures.append(tuple(rng.choice(plain) for _ in cards))
            continue
        out = list(cards)
        for p, c in enumerate(cards):
            if state.present >> p & 1 and not state.face_up >> p & 1:
                out[p] = rng.choice(guilds if CATALOG.cards[c].deck == "guild" else plain)
        structures.append(tuple(out))
    draft = state.draft
    if state.phase == "draft":
        shown = 4 * (state.picks // 4) + 4
        draft = draft[:shown] + tuple(rng.choice(sorted(CATALOG.wonders)) for _ in draft[shown:])
    pending = state.pending
    if pending is not None and pending.kind == "great_library" and pending.seat != seat:
        pending = Pending(pending.seat, pending.kind, tuple(rng.choice(tokens) for _ in pending.options))
    return replace(state, structures=tuple(structures),
                   removed=tuple(tuple(rng.choice(plain) for _ in r) for r in state.removed),
                   guilds=tuple(rng.choice(guilds) for _ in state.guilds),
                   box_tokens=tuple(rng.choice(tokens) for _ in state.box_tokens), draft=draft, pending=pending)


def _duel_hidden(state: Any, seat: int | None) -> set[str]:
    """The ids `seat` may not know at this point (each id is in exactly one place)."""
    out: set[str] = set()
    for a, cards in enumerate(state.structures, 1):
        if state.phase in ("new", "draft") or a > state.age:
            out |= set(cards)
        elif a == state.age:
            out |= {c for p, c in enumerate(cards) if state.present >> p & 1 and not state.face_up >> p & 1}
    for cards in state.removed:
        out |= set(cards)
    out |= set(state.box_tokens)
    if state.structures:  # the guilds left in the box (`state.guilds` are the 3 in Age III's structure)
        from games.seven_wonders_duel.catalog import CATALOG

        out |= set(CATALOG.decks["guild"]) - set(state.structures[2])
    if state.phase == "draft":
        out |= set(state.draft[4 * (state.picks // 4) + 4:])
    p = state.pending
    if p is not None and p.kind == "great_library" and p.seat == seat:
        out -= set(p.options)
    return out


def _ark_scramble(state: Any, seat: int | None, rng: random.Random) -> Any:
    """Another Arkadia state that differs from `state` only in what `seat` may not see."""
    from games.arkadia.catalog import CATALOG

    every = sorted(CATALOG.cards)
    screens = tuple(
        sc if s == seat else replace(
            sc, hand=tuple(rng.choice(every) for _ in sc.hand), workers=rng.randrange(12),
            neutral=rng.randrange(25), seals=tuple(rng.randrange(30) for _ in range(4)), gold=rng.randrange(200))
        for s, sc in enumerate(state.screens))
    return replace(state, screens=screens, pile=tuple(rng.sample(state.pile, len(state.pile))))


def _ark_hidden(state: Any, seat: int | None) -> set[str]:
    """Card ids `seat` may not see: the other hands and the draw pile."""
    out = set(state.pile)
    for s, sc in enumerate(state.screens):
        if s != seat:
            out |= set(sc.hand)
    return out


SECRETS = {duel.id: (_duel_scramble, _duel_hidden), ark.id: (_ark_scramble, _ark_hidden),
           oel.id: (lambda st, seat, rng: st, lambda st, seat: set())}  # Ora et Labora: nothing hidden


def check_secrecy(game: Any, envs: list[Any]) -> int:
    """At every log position, every stored document is blind to its audience's secrets.

    The positions are those between commands: a command's events land together, and the
    projector only stores documents there (a position inside a command, e.g. Duel's last
    wonder drafted before the age starts, is no state any seat saw).
    """
    scramble, hidden = SECRETS[game.id]
    rng = random.Random(envs[0].game_id)
    table = empty(envs[0].game_id, game)
    checked = 0
    for i, env in enumerate(envs):
        table = advance(table, [env])
        if i + 1 < len(envs) and envs[i + 1].command_id == env.command_id:
            continue
        st = table.state
        for seat in board.seats(table):
            data = board.doc(table, seat)
            text = data.decode()
            leaked = {h for h in hidden(st, seat) if f'"{h}"' in text}
            assert not leaked, f"{game.id} seq {env.seq}: the view of {seat} shows {leaked}"
            other = scramble(st, seat, rng)
            assert board.doc(replace(table, state=other), seat) == data, \
                f"{game.id} seq {env.seq}: the view of {seat} depends on hidden information"
            checked += 1
    return checked


# ---------------------------------------------------------------------------- the service path
async def _project_all(r, store, batch: int = 500) -> Projector:
    p = Projector(r, store, 0, batch=batch, block_ms=10)
    while await p.step(block=False):
        pass
    return p


async def _check_finished(r, store, game, p: Played) -> stats.GameRow:
    """Everything a finished game must have in the service; returns its statistics row."""
    res = game.result(p.table.state)
    assert res is not None and p.rejected == 0, (p.game_id, p.rejected)
    envs = await store.read(p.game_id)
    assert envs[-1].type == "ts.seed_revealed"
    table = advance(empty(p.game_id, game), envs)
    assert table.version == p.table.version and table.seed is not None
    audiences = board.seats(table)
    views = await load_views(r, 0, p.game_id, audiences)
    # replay of the whole log = the stored view documents at the end
    assert views == board.docs(table), f"{p.game_id}: stored views differ from replay"
    assert all(board.decode_doc(v).over for v in views.values() if v is not None)
    data = await r.hget(keys.stats(game.id), p.game_id)
    assert data is not None, f"{p.game_id}: no statistics row"
    assert verify(game, envs, views, data) == []
    row = stats.decode_row(data)
    assert row.game_type == game.id and row.players == table.opened.players
    assert row.winners == list(res.winners) and row.categories == list(res.categories)
    assert [s.total for s in row.seats] == list(res.totals)
    assert check_secrecy(game, envs) >= len({e.command_id for e in envs})
    return row


async def _rebuild_equals_live(r, store, n_games: int) -> None:
    live = await all_projections(r, 1)
    assert any(k.startswith("stats:") for k in live)
    assert await rebuild(r, store, 1) == n_games
    assert await all_projections(r, 1) == live


async def test_duel_bot_games_verify_replay_stats_secrecy_rebuild(r, referee_factory):
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=20) as c:
        played = await asyncio.gather(*(
            play_game(c, store, duel, preset="2p_first_game" if i % 2 else "2p", seed=b"duel%d" % i,
                      bot_kinds=("greedy", "random") if i == 0 else ("random",))
            for i in range(DUEL_GAMES)))
    # one feed entry a batch: every command is cut (the projector finishes them from the log)
    await _project_all(r, store, batch=1)
    rows = [await _check_finished(r, store, duel, p) for p in played]
    # the victory type is a facet of every seat, equal to the game's own
    for p, row in zip(played, rows):
        assert p.table.state.victory in VICTORIES
        assert {s.facets["victory"] for s in row.seats} == {p.table.state.victory}
    # the statistics projection shows wins by victory type
    stored = [stats.decode_row(v) for v in (await r.hgetall(keys.stats(duel.id))).values()]
    assert sorted(x.game_id for x in stored) == sorted(p.game_id for p in played)
    agg = stats.aggregate(stored)
    by_victory = agg["by_facet"]["victory"]
    assert set(by_victory) <= VICTORIES
    for v, cell in by_victory.items():
        won = [row for row in rows if row.seats[0].facets["victory"] == v]
        assert cell["games"] == len(won)
        assert cell["wins"] == sum(len(row.winners) for row in won)
    assert agg["games"] == DUEL_GAMES
    # wins by wonder: each of a seat's four wonders counts on its own (GameDef.set_facets)
    by_wonder = stats.aggregate(stored, set_facets=duel.set_facets)["by_facet"]["wonders"]
    owned = [(w, i in row.winners) for row in rows for i, s in enumerate(row.seats)
             for w in s.facets["wonders"].split(",")]
    # eight wonders drafted a game, one fewer once the seventh is built (§5 "Seven wonders only": the eighth leaves)
    assert 7 * DUEL_GAMES <= len(owned) <= 8 * DUEL_GAMES
    assert sum(c["plays"] for c in by_wonder.values()) == len(owned)
    for w, cell in by_wonder.items():
        assert cell["wins"] == sum(1 for x, won in owned if x == w and won)
        assert cell["games"] == sum(1 for row in rows if any(w in s.facets["wonders"].split(",") for s in row.seats))
    assert await r.xlen(keys.dead(0)) == 0
    await _rebuild_equals_live(r, store, DUEL_GAMES)


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_arkadia_bot_games_verify_replay_stats_secrecy_rebuild(r, referee_factory, players):
    await referee_factory()
    store = EventStore(r)
    async with Client(r, timeout=20) as c:
        played = await asyncio.gather(*(
            play_game(c, store, ark, preset=f"{players}p", seed=b"ark%d" % i,
                      bot_kinds=("greedy", "random") if i == 0 and players == 2 else ("random",))
            for i in range(ARK_GAMES)))
    await _project_all(r, store)
    rows = [await _check_finished(r, store, ark, p) for p in played]
    for p, row in zip(played, rows):
        assert len(row.seats) == players
        assert [s.facets["players"] for s in row.seats] == [str(players)] * players
        assert row.summary.get("end") == p.table.state.reason  # the game's own summary numbers
    agg = stats.aggregate(rows)
    assert agg["games"] == ARK_GAMES and set(agg["categories"]) == set(rows[0].categories)
    assert await r.xlen(keys.dead(0)) == 0
    await _rebuild_equals_live(r, store, ARK_GAMES)


@pytest.mark.parametrize("preset", ["3p_short_france", "1p_ireland", "2p_long_ireland"])
async def test_ora_et_labora_bot_games_verify_replay_stats_rebuild(r, referee_factory, preset):
    """Ora et Labora through the service: a short 3-player game, a solo game (the neutral
    player's decisions are the player's) and a long 2-player game, greedy against random."""
    await referee_factory()
    store = EventStore(r)
    players = oel.presets[preset].players
    async with Client(r, timeout=20) as c:
        p = await play_game(c, store, oel, preset=preset, seed=preset.encode(),
                            bot_kinds=("greedy", "random") if players > 1 else ("greedy",))
    await _project_all(r, store)
    row = await _check_finished(r, store, oel, p)
    assert len(row.seats) == players and {s.facets["mode"] for s in row.seats} == {p.table.state.mode}
    assert [s.facets["order"] for s in row.seats] == [("1st", "2nd", "3rd", "4th")[(s - p.table.state.first) % players]
                                                      for s in range(players)]
    assert row.summary["rounds"] == p.table.state.round
    assert await r.xlen(keys.dead(0)) == 0
    await _rebuild_equals_live(r, store, 1)


# ---------------------------------------------------------------------------- rejections never leak
def _duel_probes(st: Any, seat: int) -> list[Any]:
    """Commands naming hidden cards and tokens (and a few other refused ones)."""
    from games.seven_wonders_duel.catalog import CATALOG

    structure = st.structures[st.age - 1]
    down = [c for p, c in enumerate(structure) if st.present >> p & 1 and not st.face_up >> p & 1]
    removed = [c for r in st.removed for c in r]
    texts = [f"build {CATALOG.name(c)}" for c in down[:3] + removed[:3]]
    texts += [f"discard {CATALOG.name(c)}" for c in down[:1] + removed[:1]]
    mine = st.cities[seat].wonders
    if mine and down:
        texts.append(f"wonder {CATALOG.name(mine[0])} with {CATALOG.name(down[0])}")
    texts += [f"token {CATALOG.name(t)}" for t in st.box_tokens[:2]]
    texts += ["choose start me", f"destroy {CATALOG.name(down[0])}" if down else "destroy Quarry"]
    out = []
    for t in texts:
        cmd = duel.parse_command(t)
        assert not isinstance(cmd, Rejection), (t, cmd)
        out.append(cmd)
    return out


def _ark_probes(st: Any, seat: int) -> list[Any]:
    """Building with cards other seats hold or the pile holds, too many workers, seals, refills."""
    from games.arkadia.catalog import CATALOG
    from games.arkadia.commands import DrawCard, PlaceBuilding, PlaceWorkers, TakeCard, UseBanner

    own = {CATALOG.key(c) for c in st.screens[seat].hand}
    elsewhere = [c for s, sc in enumerate(st.screens) if s != seat for c in sc.hand] + list(st.pile[:6])
    keys_ = sorted({CATALOG.key(c) for c in elsewhere} - own)[:6]
    anchor = next((c.anchor for c in ark.legal_commands(st, seat) if isinstance(c, PlaceBuilding)), (0, 0))
    out: list[Any] = [PlaceBuilding(form=f, seal=s, anchor=anchor, rotation=0) for f, s in keys_]
    cells = tuple((x, 0) for x in range(12))
    out += [PlaceWorkers(building=0, own=cells), PlaceWorkers(building=0, neutral=cells),
            UseBanner(red=29, olive=29, black=29, silver=29), DrawCard(), TakeCard(form=keys_[0][0], seal=keys_[0][1])
            if keys_ else DrawCard()]
    return out


PROBES = {duel.id: _duel_probes, ark.id: _ark_probes}


def _word(ident: str, text: str) -> bool:
    """`ident` occurs in `text` as a whole identifier (`library` is not in `great_library`)."""
    return re.search(rf"(?<!\w){re.escape(ident)}(?!\w)", text) is not None


async def _probe(c: Client, game: Any, gid: str, tokens: list[str], table: Table, rng: random.Random) -> int:
    """Send refused commands as every seat; each outcome must not depend on hidden information."""
    scramble, hidden = SECRETS[game.id]
    st = table.state
    sent = 0
    for seat in range(table.opened.players):
        secret = hidden(st, seat)
        for cmd in PROBES[game.id](st, seat):
            expect = game.decide(st, seat, cmd)
            if not isinstance(expect, Rejection):
                continue  # a probe that happens to be legal: not sent, it would change the game
            out = await c.act(game, gid, seat, tokens[seat], cmd)
            assert isinstance(out, Rejected), out
            sent += 1
            assert (out.code, out.message) == (expect.code, expect.message)
            for _ in range(3):
                again = game.decide(scramble(st, seat, rng), seat, cmd)
                assert isinstance(again, Rejection) and (again.code, again.message) == (out.code, out.message), \
                    f"{game.id}: the rejection of {cmd} to seat {seat} depends on hidden information"
            mentioned = msgspec.json.encode(cmd).decode() + game.format_command(cmd)
            named = {h for h in secret if _word(h, out.message) and not _word(h, mentioned)}
            assert not named, f"{game.id}: the rejection {out.message!r} names hidden {named}"
    return sent


@pytest.mark.parametrize("game_id,preset", [("seven_wonders_duel", "2p"), ("arkadia", "3p")])
async def test_rejections_through_the_service_never_leak(r, referee_factory, game_id, preset):
    game = registry.get(game_id)
    await referee_factory()
    store = EventStore(r)
    rng = random.Random(game_id)
    async with Client(r, timeout=20) as c:
        gid, tokens, out = await c.open(game, preset=preset)
        assert isinstance(out, Accepted)
        table = advance(empty(gid, game), await store.read(gid))
        bots = make_bots(["random"], len(tokens), b"probe")
        probed = step = 0
        while game.result(table.state) is None:
            st = table.state
            started = game_id == ark.id or st.phase == "play"
            if started and step % 15 == 0:
                probed += await _probe(c, game, gid, tokens, table, rng)
                assert (await store.read(gid, after_seq=table.version)) == []  # refused: nothing appended
            for seat in game.to_act(st):
                res = await c.act(game, gid, seat, tokens[seat], bots[seat].choose(game, st, seat))
                assert isinstance(res, Accepted), res
            table = advance(table, await store.read(gid, after_seq=table.version))
            step += 1
    assert probed > 20
    await _project_all(r, store)
    envs = await store.read(gid)
    views = await load_views(r, 0, gid, board.seats(table))
    assert verify(game, envs, views, await r.hget(keys.stats(game.id), gid)) == []
    # rejections are audited on rej:{s}; none of them names a hidden card of the final state
    assert await r.xlen(keys.rejections(0)) >= probed
