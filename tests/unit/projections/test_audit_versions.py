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
