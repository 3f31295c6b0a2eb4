"""Secrecy cases of this game beyond the shared suite (tests/unit/games/test_secrecy.py,
which scrambles every hidden part at every position of every preset): what a seat and a
spectator are shown in named positions."""

from __future__ import annotations

import msgspec

from games.contract import Seed
from games.fold import replay
from games.ora_et_labora import GAME


def test_the_view_shows_every_owner_s_goods_and_hand() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["4p_ireland"], Seed(b"open")))
    view = msgspec.to_builtins(GAME.view(state, 0))
    text = msgspec.json.encode(view).decode()
    assert len(view["owners"]) == 4
    assert all("S4" in o["hand"] for o in view["owners"])
    assert text.count("livestock") >= 4
    rendered = GAME.render(GAME.view(state, None))
    assert rendered.count("hand S1 S2 S3 S4") == 4 and rendered.count("H3") == 4

