"""7 Wonders Duel's hooks: coins move only as each event says and the seven-wonder
limit holds, every card of the three structures ends in one place (§3, §5), a military
victory has the pawn at the capital, its refusals, its fuzz language (legal_commands is
its whole language) and its scramble of hidden information. DUEL_GAMES (default 300)
random games per preset, DUEL_SOAK (3000) in the slow soak."""

from __future__ import annotations

import random

from hypothesis import strategies as st
from msgspec.structs import replace

from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.commands import (
    BuildCard,
    BuildFromDiscard,
    BuildWonder,
    ChooseProgressToken,
    ChooseStartPlayer,
    DestroyCard,
    DiscardCard,
    DraftWonder,
)
from games.seven_wonders_duel.events import (
    CardBuilt,
    CardDestroyed,
    CardDiscarded,
    GameEnded,
    WonderBuilt,
    WonderRemoved,
)
from games.seven_wonders_duel.rules import accessible
from games.seven_wonders_duel.state import Pending
from tests.unit.games.hooks import Hooks, knob

CARDS = sorted(CATALOG.cards)
WONDERS = sorted(CATALOG.wonders)
TOKENS = sorted(CATALOG.tokens)
PLAIN = sorted(c for c in CATALOG.cards if CATALOG.cards[c].deck != "guild")
GUILDS = sorted(CATALOG.decks["guild"])


def illegal(state, seat, rng: random.Random, legal):
    """Commands that must be refused now (never in legal_commands)."""
    age = max(state.age, 1)
    reach = set(accessible(age, state.present)) if state.phase == "play" else set()
    structure = state.structures[age - 1]
    hidden = [structure[p] for p in range(20) if state.present >> p & 1 and p not in reach]
    gone = [c for c in CARDS if c not in structure or not state.present >> structure.index(c) & 1]
    for c in (rng.choice(hidden),) if hidden else ():
        yield BuildCard(card=c)
        yield DiscardCard(card=c)
    yield DiscardCard(card=rng.choice(gone))
    yield BuildCard(card="nonsense")
    other = state.cities[1 - seat].wonders + state.cities[1 - seat].built
    if other:
        yield BuildWonder(wonder=rng.choice(other), card=structure[min(reach)] if reach else CARDS[0])
    if state.pending is None:
        yield ChooseProgressToken(token=rng.choice(TOKENS))
        yield ChooseStartPlayer(start="me")
        yield DestroyCard(card=rng.choice(CARDS))
    else:
        yield DiscardCard(card=rng.choice(CARDS))
    if state.phase != "draft":
        yield DraftWonder(wonder=rng.choice(WONDERS))
    yield ("seat", 1 - seat)


def after_event(state, new, e) -> None:
    """Coins move only as the event says; the seven-wonder limit holds."""
    before = [c.coins for c in state.cities]
    after = [c.coins for c in new.cities]
    assert all(c >= 0 for c in after), ("negative coins", e)
    if isinstance(e, (CardBuilt, WonderBuilt)):
        assert after[e.seat] - before[e.seat] == e.gained - e.paid
        assert 0 <= e.to_opponent <= e.paid
    if isinstance(e, CardDiscarded):
        assert e.gained == 2 + sum(1 for c in state.cities[e.seat].cards if CATALOG.cards[c].color == "yellow")
    assert sum(len(c.built) for c in new.cities) <= 7


def at_end(state, events) -> None:
    end = events[-1]
    assert isinstance(end, GameEnded)
    if end.victory == "military":
        assert abs(state.pawn) == 9
    # every card of the three structures ends in exactly one place (§3, §5)
    dealt = sorted(c for s in state.structures for c in s)
    left = [state.structures[state.age - 1][p] for p in range(20) if state.present >> p & 1]
    later = [c for a in range(state.age, 3) for c in state.structures[a]]
    placed = sorted([*state.discard, *left, *later, *(c for city in state.cities for c in (*city.cards, *city.tucked))])
    assert dealt == placed
    removed = [e for e in events if isinstance(e, WonderRemoved)]
    assert len(removed) <= 1 and (not removed or sum(len(c.built) for c in state.cities) == 7)
    assert sum(1 for e in events if isinstance(e, CardDestroyed)) <= 2


def scramble(state, seat, rng: random.Random):
    """Another state that differs from `state` only in what `seat` (None: a spectator) may
    not see: face-down cards (within their back: a guild stays a guild, §15 #24), the
    other ages' structures, the cards removed at setup, the unused guilds, the draft
    wonders not yet revealed, the progress tokens in the box, and The Great Library's
    draw when another seat is choosing."""
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


def decide_scramble(state, seat: int, rng: random.Random):
    """`scramble`, redrawn until no face-down card of this age repeats another of its
    cards (cards are unique; a duplicate would make a revealed card look face-down to the
    lookup by id)."""
    for _ in range(200):
        other = scramble(state, seat, rng)
        now = other.structures[other.age - 1] if other.phase == "play" and other.age else ()
        if len(set(now)) == len(now):
            return other
    raise AssertionError("no consistent scramble found")


names = st.sampled_from(CARDS + WONDERS + TOKENS + ["", "nonsense", "The Pyramids"])
fuzz = st.one_of(
    st.builds(DraftWonder, wonder=names), st.builds(BuildCard, card=names), st.builds(DiscardCard, card=names),
    st.builds(BuildWonder, wonder=names, card=names), st.builds(ChooseProgressToken, token=names),
    st.builds(DestroyCard, card=names), st.builds(BuildFromDiscard, card=names),
    st.builds(ChooseStartPlayer, start=st.sampled_from(["me", "opponent", "later", ""])),
    st.builds(BuildCard, card=st.text(max_size=12)),
)

HOOKS = Hooks(
    games=knob("DUEL_GAMES", 300), soak=knob("DUEL_SOAK", 3000), per_players=False, check_games=10, check_steps=1,
    max_steps=200, fuzz=fuzz, scramble=scramble, illegal=illegal, after_event=after_event, at_end=at_end,
    fuzz_is_legal=True, recheck_legal=True, secrecy_games=6,
    decide_scramble=decide_scramble,
)
