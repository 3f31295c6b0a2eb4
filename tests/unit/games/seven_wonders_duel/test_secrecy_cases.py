"""Secrecy cases of this game beyond the shared suite (tests/unit/games/test_secrecy.py,
which scrambles every hidden part at every position of every preset): what a seat and a
spectator are shown in named positions."""

from __future__ import annotations

import msgspec

from games.contract import Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.events import DecisionOpened


def test_great_library_draw_is_seen_by_its_owner_only_while_choosing() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["2p_first_game"], Seed(b"library")))
    drawn = state.box_tokens[:3]
    state = GAME.evolve(state, DecisionOpened(seat=0, kind="great_library", options=drawn))
    assert GAME.view(state, 0).pending.options == drawn
    for who in (1, None):
        v = GAME.view(state, who)
        assert v.pending.options is None and v.pending.kind == "great_library"
        assert not any(t in msgspec.json.encode(v).decode() for t in state.box_tokens)


def test_spectator_sees_no_face_down_card() -> None:
    state = replay(GAME, GAME.setup(GAME.presets["2p"], Seed(b"spectator")))
    v = GAME.view(state, None)
    assert v.structure == () and len(v.draft) == 4  # the draft: only the 4 revealed wonders
    state = replay(GAME, GAME.setup(GAME.presets["2p_first_game"], Seed(b"spectator")))
    v = GAME.view(state, None)
    down = [s for s in v.structure if s.card is None]
    assert len(down) == 8 and all(s.back == "age1" for s in down)
    text = msgspec.json.encode(v).decode()
    hidden = [state.structures[0][s.position] for s in down] + list(state.removed[0]) + list(state.box_tokens)
    assert not any(f'"{c}"' in text for c in hidden)

