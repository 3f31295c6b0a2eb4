"""7 Wonders Duel's determinization (`GameDef.determinize`, for search bots): a state drawn
from a seat's information set.

Everything the seat may not see (view.py; the secrecy suite's scramble) is pooled and
dealt anew over the places it could occupy, each pool sorted first so the result depends
on the seat's view and the `rng` only, never on where the hidden items really were:

* each Age's cards: the face-down places of the current structure (by their back: a
  guild back holds a guild, an Age back a card of that Age, §15 #24), every place of a
  later structure, and the 3 cards removed at setup (§3 step 8); the cards of a past Age
  and the taken or face-up cards of the current one stay where they are (the seat saw
  them). Age III: its cards and the guilds (the 3 dealt and the 4 unused) are two
  pools; a later Age III structure takes as many guilds as it holds (3) anywhere among
  its 20 places, as setup deals it;
* the draft wonders not yet revealed: any of the wonders outside the revealed rounds
  (§3 step 7; 12 wonders, 8 drafted);
* the order of the progress tokens in the box (The Great Library draws its first 3,
  §12); while another seat chooses among the Library's 3, which 3 they are (the first 3
  of the new order); while this seat chooses, its 3 stay first and the others follow.

Pure: the only randomness is `rng` (a `random.Random`; games/ may not import `random`,
so it is typed by the one method used).
"""

from __future__ import annotations

from msgspec.structs import replace

from games.contract import Draws
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.state import Pending, State
from games.seven_wonders_duel.structure import bits


_WONDERS = tuple(sorted(CATALOG.wonders))
_GUILDS = CATALOG.decks["guild"]  # sorted
_IS_GUILD = frozenset(_GUILDS)
_ROUND = 4  # wonders revealed per draft round (§3 step 7)


def _shuffled(rng: Draws, items: list[str]) -> list[str]:
    """`items` in their canonical (sorted) order, then shuffled by `rng`."""
    items.sort()
    rng.shuffle(items)
    return items


def determinize(state: State, seat: int, rng: Draws) -> State:
    """A state `seat` cannot tell from `state` (same view, legal commands and seats to
    act), everything hidden from it drawn anew from `rng` (see the module docstring)."""
    phase = state.phase
    if phase == "new" or not state.structures:
        return state
    age = 0 if phase == "draft" else state.age
    structures = list(state.structures)
    removed = list(state.removed)
    guilds = state.guilds
    for a in (1, 2, 3):
        i = a - 1
        if a < age:  # every card of a past Age was seen: only the removed ones' order is unknown
            removed[i] = tuple(_shuffled(rng, list(removed[i])))
            continue
        cards = list(structures[i])
        if a == age:  # the face-down places, each keeping its back
            plain_at, guild_at = [], []
            for p in bits(state.present & ~state.face_up):
                (guild_at if cards[p] in _IS_GUILD else plain_at).append(p)
            plain = _shuffled(rng, [cards[p] for p in plain_at] + list(removed[i]))
            for p, c in zip(plain_at, plain):
                cards[p] = c
            removed[i] = tuple(plain[len(plain_at):])
            if a == 3:
                hidden = [cards[p] for p in guild_at] + [g for g in _GUILDS if g not in cards]  # + the unused
                for p, g in zip(guild_at, _shuffled(rng, hidden)):
                    cards[p] = g
                guilds = tuple(_shuffled(rng, [c for c in cards if c in _IS_GUILD]))
        else:  # a later Age: its structure and removed cards (and, Age III, the guilds) anew
            places = len(cards)
            plain = _shuffled(rng, [c for c in cards if c not in _IS_GUILD] + list(removed[i]))
            if a == 3:
                inside = sum(1 for c in cards if c in _IS_GUILD)  # the guilds dealt into Age III (3)
                guilds = tuple(_shuffled(rng, list(_GUILDS))[:inside])  # the 3 dealt and the 4 unused: any of the 7
                cards = _shuffled(rng, plain[: places - inside] + list(guilds))
                removed[i] = tuple(plain[places - inside:])
            else:
                cards = plain[:places]
                removed[i] = tuple(plain[places:])
        structures[i] = tuple(cards)

    draft = state.draft
    if phase == "draft":  # the wonders of the rounds not revealed yet
        shown = _ROUND * (state.picks // _ROUND) + _ROUND
        if shown < len(draft):
            seen = draft[:shown]
            pool = _shuffled(rng, [w for w in _WONDERS if w not in seen])
            draft = seen + tuple(pool[: len(draft) - shown])

    box = state.box_tokens
    pending = state.pending
    if pending is not None and pending.kind == "great_library":
        if pending.seat == seat:  # its 3 are seen, and first in the box
            box = pending.options + tuple(_shuffled(rng, [t for t in box if t not in pending.options]))
        else:  # which 3 were drawn is hidden as well
            box = tuple(_shuffled(rng, list(box)))
            pending = Pending(pending.seat, pending.kind, box[: len(pending.options)])
    elif box:
        box = tuple(_shuffled(rng, list(box)))

    return replace(state, structures=tuple(structures), removed=tuple(removed), guilds=guilds, draft=draft,
                   box_tokens=box, pending=pending)
