"""Secrecy: a seat's view never depends on what it may not see (ARCHITECTURE: hidden
information never leaks). We change every secret and check the view is byte for byte
the same: face-down cards (within their back: a guild stays a guild, §15 #24), the other
ages' structures, the cards removed at setup, the unused guilds, the draft wonders not
yet revealed, the progress tokens in the box, and The Great Library's draw when another
seat is choosing."""

from __future__ import annotations

import random

import msgspec
from msgspec.structs import replace

from games.contract import Seed
from games.fold import replay
from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.events import DecisionOpened
from games.seven_wonders_duel.state import Pending

PLAIN = sorted(c for c in CATALOG.cards if CATALOG.cards[c].deck != "guild")
GUILDS = sorted(CATALOG.decks["guild"])
TOKENS = sorted(CATALOG.tokens)


def _scramble(state, seat: int | None, rng: random.Random):
    """Another state that differs from `state` only in what `seat` may not see."""
    structures = []
    for a, cards in enumerate(state.structures, 1):
        if a != state.age or state.phase == "draft":
            structures.append(tuple(rng.choice(PLAIN) for _ in cards))
            continue
        out = list(cards)
        for p, c in enumerate(cards):
            if state.present >> p & 1 and not state.face_up >> p & 1:
                out[p] = rng.choice(GUILDS if CATALOG.cards[c].deck == "guild" else PLAIN)
        structures.append(tuple(out))
    removed = tuple(tuple(rng.choice(PLAIN) for _ in r) for r in state.removed)
    guilds = tuple(rng.choice(GUILDS) for _ in state.guilds)
    box = tuple(rng.choice(TOKENS) for _ in state.box_tokens)
    draft = state.draft
    if state.phase == "draft":
        shown = 4 * (state.picks // 4) + 4
        draft = draft[:shown] + tuple(rng.choice(sorted(CATALOG.wonders)) for _ in draft[shown:])
    pending = state.pending
    if pending is not None and pending.kind == "great_library" and pending.seat != seat:
        pending = Pending(pending.seat, pending.kind, tuple(rng.choice(TOKENS) for _ in pending.options))
    return replace(state, structures=tuple(structures), removed=removed, guilds=guilds, box_tokens=box, draft=draft,
                   pending=pending)


def test_views_do_not_depend_on_hidden_information() -> None:
    enc = msgspec.json.encode
    checked = 0
    for game in range(12):
        rng = random.Random(game)
        preset = "2p" if game % 2 else "2p_first_game"
        state = replay(GAME, GAME.setup(GAME.presets[preset], Seed(bytes([game]) * 8)))
        while GAME.result(state) is None:
            for who in (None, 0, 1):
                other = _scramble(state, who, rng)
                assert enc(GAME.view(state, who)) == enc(GAME.view(other, who)), (game, who)
                assert GAME.render(GAME.view(state, who)) == GAME.render(GAME.view(other, who))
                checked += 1
            seat = GAME.to_act(state)[0]
            for e in GAME.decide(state, seat, rng.choice(GAME.legal_commands(state, seat))):
                state = GAME.evolve(state, e)
    assert checked > 1000


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
