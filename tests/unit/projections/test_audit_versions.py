"""verify (README "CLI": chain, seed commitment vs deals, replay) on logs written under an
earlier rules version: they fold as they were played, and their deals are checked against
the seed whatever version stamp the setup events carry."""

from __future__ import annotations

import hashlib

import msgspec
import pytest

from events.chain import GENESIS, link
from events.codec import META
from events.meta import GameOpened, SeedRevealed
from games import registry
from games.contract import Seed
from games.seven_wonders import catalog as seven_wonders_catalog, edifice as seven_wonders_edifice
from projections.audit import verify
from projections.table import codec

SEED = b"audit-versions-seed-0123456789ab"


def _log(game_id: str, preset: str, version: int, deal_seed: bytes = SEED) -> list:
    """GameOpened and the setup (stamped `version`) as the first command, then the seed."""
    game = registry.get(game_id)
    opts = game.presets[preset]
    opened = GameOpened(game_type=game.id, players=opts.players, options=msgspec.Raw(msgspec.json.encode(opts)),
                        preset=preset, rules_version=version, seed_commitment=hashlib.sha256(SEED).hexdigest(),
                        rng="sha256-ctr/1", seat_token_hashes=["x"] * opts.players, fixture=False)
    setup = [msgspec.structs.replace(e, rules_version=version) if hasattr(e, "rules_version") else e
             for e in game.setup(opts, Seed(deal_seed))]
    prev, envs = GENESIS, []
    for i, (ev, cmd) in enumerate([(opened, "c1"), *((e, "c1") for e in setup), (SeedRevealed(seed=SEED.hex()), "c2")], 1):
        tag, v, data = META.encode(ev) if i == 1 or isinstance(ev, SeedRevealed) else codec(game).encode(ev)
        env = link(prev, game_id="g", game_type=game.id, seq=i, type=tag, v=v, time=i, command_id=cmd, seat=-1, data=data)
        envs.append(env)
        prev = env.hash
    return envs


@pytest.mark.parametrize("game_id,preset", [("seven_wonders", "5p_edifice"), ("seven_wonders_duel", "2p"),
                                            ("arkadia", "3p_random_lot"), ("ora_et_labora", "4p_france")])
def test_a_log_of_an_earlier_rules_version_verifies(game_id: str, preset: str) -> None:
    game = registry.get(game_id)
    assert game.rules_version >= 2  # every game has had a version 1 log out there
    assert verify(game, _log(game_id, preset, game.rules_version)) == []
    assert verify(game, _log(game_id, preset, 1)) == []  # was: "played under rules v1, this code is v…"


def test_a_log_of_a_later_version_or_another_deal_does_not() -> None:
    game = registry.get("seven_wonders_duel")
    later = verify(game, _log("seven_wonders_duel", "2p", game.rules_version + 1))
    assert any("newer than this code" in p for p in later)
    other = verify(game, _log("seven_wonders_duel", "2p", 1, deal_seed=b"another seed"))
    assert other == ["the opening events differ from a fresh setup from the revealed seed"]


def _with_catalog_hash(envs: list, game_id: str, new_hash: str) -> list:
    """The same log with every setup event's catalog_hash replaced, re-chained."""
    game = registry.get(game_id)
    prev, out = GENESIS, []
    for env in envs:
        data = env.data
        payload = msgspec.json.decode(data)
        if isinstance(payload, dict) and "catalog_hash" in payload:
            payload["catalog_hash"] = new_hash
            data = msgspec.json.encode(payload)
        new = link(prev, game_id=env.game_id, game_type=game.id, seq=env.seq, type=env.type, v=env.v,
                   time=env.time, command_id=env.command_id, seat=env.seat, data=data)
        out.append(new)
        prev = new.hash
    return out


@pytest.mark.parametrize("game_id,preset", [("seven_wonders_duel", "2p"), ("arkadia", "3p_random_lot"),
                                            ("ora_et_labora", "4p_france")])
def test_a_game_opened_before_a_documentation_edit_of_its_seeds_verifies(game_id: str, preset: str) -> None:
    # The seeds' `source` fields moved from the rules beside the repository to docs/rules/
    # (2026-12-02): the bytes, so the catalog hash, changed while the data stayed the same. Games opened before
    # recorded the old hash and must still verify; a hash nobody declared must not.
    game = registry.get(game_id)
    assert game.earlier_catalogs, "the hash of the seed files before 2026-12-02 is declared"
    log = _log(game_id, preset, game.rules_version)
    today = {msgspec.json.decode(e.data).get("catalog_hash") for e in log[1:-1]} - {None}
    assert set(game.earlier_catalogs.values()) <= today  # each maps to a hash setup writes today
    for old in game.earlier_catalogs:
        assert verify(game, _with_catalog_hash(log, game_id, old)) == []
    unknown = verify(game, _with_catalog_hash(log, game_id, "0" * 64))
    assert unknown == ["the opening events differ from a fresh setup from the revealed seed"]


def _with_hashes(envs: list, game_id: str, old_of: dict[str, str]) -> list:
    """The same log with each setup event's catalog_hash `h` replaced by `old_of[h]`, re-chained."""
    game = registry.get(game_id)
    prev, out = GENESIS, []
    for env in envs:
        data = env.data
        payload = msgspec.json.decode(data)
        if isinstance(payload, dict) and payload.get("catalog_hash") in old_of:
            payload["catalog_hash"] = old_of[payload["catalog_hash"]]
            data = msgspec.json.encode(payload)
        new = link(prev, game_id=env.game_id, game_type=game.id, seq=env.seq, type=env.type, v=env.v,
                   time=env.time, command_id=env.command_id, seat=env.seat, data=data)
        out.append(new)
        prev = new.hash
    return out


@pytest.mark.parametrize("old_base", list(seven_wonders_catalog.EARLIER_HASHES))
@pytest.mark.parametrize("old_edifice", list(seven_wonders_edifice.EARLIER_HASHES))
def test_a_seven_wonders_game_opened_before_a_documentation_edit_verifies(old_base: str, old_edifice: str) -> None:
    # 7 Wonders records two hashes (GameCreated: cards+wonders; EdificesDrawn: edifice.json),
    # each with its own earlier versions (docs/rules/ in `source`; Q1's mark X -> I).
    game = registry.get("seven_wonders")
    base, edif = seven_wonders_catalog.CATALOG_HASH, seven_wonders_edifice.EDIFICE.hash
    assert {seven_wonders_catalog.EARLIER_HASHES[old_base], seven_wonders_edifice.EARLIER_HASHES[old_edifice]} == {
        base, edif}
    log = _log("seven_wonders", "3p_edifice", game.rules_version)
    assert {msgspec.json.decode(e.data).get("catalog_hash") for e in log[1:-1]} - {None} == {base, edif}
    assert verify(game, _with_hashes(log, "seven_wonders", {base: old_base, edif: old_edifice})) == []
    assert verify(game, _with_hashes(log, "seven_wonders", {base: old_base})) == []
    # an old hash in the wrong event, or one nobody declared, is a different deal
    swapped = verify(game, _with_hashes(log, "seven_wonders", {base: old_edifice}))
    unknown = verify(game, _with_hashes(log, "seven_wonders", {edif: "0" * 64}))
    assert swapped == unknown == ["the opening events differ from a fresh setup from the revealed seed"]
