"""7 Wonders' determinization (`GameDef.determinize`, for search bots): a state drawn from
one seat's information set, everything the seat may not see drawn anew.

What a seat may not see (view.py, and the secrecy suite's scramble): the other hands (but
the Free City's while the seat decides for it, §12, §15 #16), the other seats' hidden
choices of the turn (an Edifice participation with them) and their Edifice penalty choices
(B6), the cards tucked under the other wonders, the discard pile (unless the seat picks from
it, §11.7), which guilds are in the game (§2.2) and the deals.

How it is drawn, from the seat's knowledge only (so that two states the seat cannot tell
apart give the same samples for the same `rng`):

* The cards of the hidden places (other hands, the Free City's pile, the other stage cards,
  the discard pile) are pooled per Age, in a canonical (sorted) order, shuffled and dealt
  back over the places of that Age: every place keeps its size and the Age of its cards (a
  hand holds the current Age's; a stage card or a discarded card keeps its Age: the seat
  saw in which Age it went there).
* The guilds among them are drawn again, out of the guilds the seat has not seen (their
  number is known: N+2 in the game, §2.2); before Age III the whole Age III deck is drawn
  (N+2 random guilds with it).
* The deals: those of the Ages to come are shuffled anew; those already dealt are written
  out in a canonical order (only their multiset matters now: every dealt card ends in one
  place).
* A pending Halicarnassus decision of another seat was opened because some discarded card
  was eligible (§15 #7): the draw is repeated until one is (with a bounded fallback).
* Another seat's hidden choice becomes a legal command of that seat in the new state (a
  card of its new hand, then an action for it, then a payment, each at random): the Free
  City's after its holder's own, by §12's rules. Another seat's penalty choice is one of its
  (public) options.

Not used: what the seat remembers but the state does not record (the hands it saw pass by,
its own earlier hands, what left a city for the discard pile): a sample is then drawn from a
larger set than the seat's true information set, never a smaller one.
"""

from __future__ import annotations

from functools import lru_cache

from msgspec.structs import replace

from games.contract import Draws, Rejection
from games.seven_wonders.catalog import CATALOG
from games.seven_wonders.edifice import EDIFICE, DiscardOwnCard, LoseVictoryTokens
from games.seven_wonders.edifice_rules import penalty_cards, penalty_token_sets
from games.seven_wonders.events import CardChosen
from games.seven_wonders.evolve import evolve
from games.seven_wonders.payment import info
from games.seven_wonders.rules import decide, legal_commands
from games.seven_wonders.setup import HAND
from games.seven_wonders.state import State
from games.seven_wonders.turn_order import free_city, holder

_AGE = {cid: c.age for cid, c in CATALOG.cards.items()}
_GUILDS = tuple(sorted(CATALOG.guilds))
_IS_GUILD = frozenset(_GUILDS)
_TRIES = 64
"""Draws of the hidden cards before the fallback, for a pending Halicarnassus decision."""


@lru_cache(maxsize=None)
def _deck(age: int, cities: int) -> tuple[str, ...]:
    """The non-guild cards of an Age for that many cities, sorted (one id per copy, §2.1)."""
    return tuple(sorted(CATALOG.deck(age, cities)))


def _rows(cards: list[str] | tuple[str, ...], cities: int) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(cards[HAND * s: HAND * (s + 1)]) for s in range(cities))


@lru_cache(maxsize=None)
def _sorted_rows(age: int, cities: int) -> tuple[tuple[str, ...], ...]:
    """An Age I or II deal written out in canonical order."""
    return _rows(_deck(age, cities), cities)


def determinize(state: State, seat: int, rng: Draws) -> State:
    """A state `seat` cannot tell from `state` (same view, legal commands, seats to act),
    everything else drawn anew from `rng` out of what it could be."""
    if state.phase == "new" or not state.cities:
        return state
    n = len(state.cities)
    fc = free_city(state)
    pending = state.pending
    own = pending is not None and pending.seat == seat
    sees_fc_hand = own and fc is not None and pending.city == fc  # type: ignore[union-attr]
    sees_discard = own and pending.kind == "discard_build"  # type: ignore[union-attr]
    sees_fc_choice = fc is not None and state.phase == "choose" and holder(state) == seat

    hands = [list(h) for h in state.hands]
    stages = [list(c.stage_cards) for c in state.cities]
    discard = list(state.discard)
    hidden_hand = [s != seat and not (s == fc and sees_fc_hand) for s in range(n)]
    places = [hands[s] for s in range(n) if hidden_hand[s]]
    places += [stages[s] for s in range(n) if s != seat]
    if not sees_discard:
        places.append(discard)

    # the hidden slots per Age, in a canonical order, and the cards they hold
    slots: dict[int, list[tuple[list[str], int]]] = {1: [], 2: [], 3: []}
    pools: dict[int, list[str]] = {1: [], 2: [], 3: []}
    hidden_guilds = 0
    for place in places:
        for i, cid in enumerate(place):
            a = _AGE[cid]
            slots[a].append((place, i))
            if cid in _IS_GUILD:
                hidden_guilds += 1
            else:
                pools[a].append(cid)
    seen_guilds = set()
    if state.age >= 3:
        visible = [c for city in state.cities for c in city.built]
        visible += [c for s in range(n) if not hidden_hand[s] for c in state.hands[s]]
        visible += state.cities[seat].stage_cards if 0 <= seat < n else ()
        visible += state.discard if sees_discard else ()
        seen_guilds = {c for c in visible if c in _IS_GUILD}
    drawn = rng.sample([g for g in _GUILDS if g not in seen_guilds], hidden_guilds) if hidden_guilds else []
    pools[3] += drawn
    for a in (1, 2, 3):
        pools[a].sort()

    def deal_hidden() -> None:
        for a in (1, 2, 3):
            pool = pools[a][:]
            rng.shuffle(pool)
            for (place, i), cid in zip(slots[a], pool):
                place[i] = cid

    deal_hidden()
    if pending is not None and pending.kind == "discard_build" and not sees_discard:
        # the decision was opened: some discarded card was eligible (§15 #7)
        city = pending.seat if pending.city is None else pending.city
        names = info(state.cities[city]).names
        tries = 1
        while all(CATALOG.cards[c].name in names for c in discard):
            if tries == _TRIES:
                _swap_in_eligible(state, city, slots, discard, rng)
                break
            deal_hidden()
            tries += 1

    # the deals: the Ages dealt, canonical; the Ages to come, shuffled anew
    deals = []
    for a in (1, 2, 3):
        if a < 3 and a <= state.age:
            deals.append(_sorted_rows(a, n))
        elif a == 3 and state.age >= 3:
            deals.append(_rows(sorted((*_deck(3, n), *seen_guilds, *drawn)), n))
        else:
            deck = list(_deck(a, n))
            if a == 3:
                deck += rng.sample(_GUILDS, n + 2)
            rng.shuffle(deck)
            deals.append(_rows(deck, n))

    new = replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        cities=tuple(c if s == seat else replace(c, stage_cards=tuple(stages[s])) for s, c in enumerate(state.cities)),
        discard=tuple(discard),
        deals=tuple(deals),
    )
    if any(p is not None for p in state.chosen):
        new = _choose_again(new, state, seat, fc, sees_fc_choice, rng)
    if state.picks:
        new = replace(new, picks=tuple(p if p[0] == seat else _pick(state, p[0], rng) for p in state.picks))
    return new


def _swap_in_eligible(state: State, city: int, slots: dict[int, list[tuple[list[str], int]]], discard: list[str],
                      rng: Draws) -> None:
    """The fallback of the draw for a pending Halicarnassus decision: a hidden card the city
    may build (drawn at random) trades places with a discarded card of its Age (at random)."""
    names = info(state.cities[city]).names
    candidates = [(place, i) for a in (1, 2, 3) if any(p is discard for p, _ in slots[a])
                  for place, i in slots[a] if place is not discard and CATALOG.cards[place[i]].name not in names]
    if not candidates:  # never: the state's own pile held such a card
        return
    place, i = rng.choice(candidates)
    j = rng.choice([k for p, k in slots[_AGE[place[i]]] if p is discard])
    place[i], discard[j] = discard[j], place[i]


def _choose_again(new: State, state: State, seat: int, fc: int | None, sees_fc_choice: bool,
                  rng: Draws) -> State:
    """Every hidden choice of the turn made again: a legal command of its seat on the new
    hands (a card, then an action for it, then a payment), the Free City's after its
    holder's own (§12)."""
    chosen = list(state.chosen)
    redo = [s for s, p in enumerate(chosen) if p is not None and s != seat and not (s == fc and sees_fc_choice)]
    if not redo:
        return new
    for s in redo:
        chosen[s] = None
    tmp = replace(new, chosen=tuple(chosen))
    for s in redo:  # the Free City (city 2) comes after its holder (seat 0 or 1)
        if s == fc:  # which cards the Free City may play depends on its whole hand (§12)
            actor, probe = holder(state), tmp
            cmds = legal_commands(probe, actor)
            card = rng.choice(sorted({c.card for c in cmds}))  # type: ignore[union-attr]
            of_card = [c for c in cmds if c.card == card]  # type: ignore[union-attr]
        else:  # a card first, then the commands of that card alone (a hand of one)
            hand = tmp.hands[s]
            key = rng.choice(sorted({CATALOG.key[c] for c in hand}))
            actor, probe = s, replace(tmp, hands=_at(tmp.hands, s, (next(c for c in hand if CATALOG.key[c] == key),)))
            of_card = legal_commands(probe, actor)
        kinds = sorted({_kind(c) for c in of_card})
        kind = rng.choice(kinds)
        cmd = rng.choice([c for c in of_card if _kind(c) == kind])
        events = decide(probe, actor, cmd)
        assert not isinstance(events, Rejection) and isinstance(events[0], CardChosen), events
        tmp = evolve(tmp, events[0])
    return tmp


def _kind(cmd: object) -> tuple[str, bool]:
    """What a command does with its card: build (paid or Olympia's free build), stage, discard."""
    return type(cmd).__name__, getattr(cmd, "free", False)


def _at(values: tuple, i: int, value: object) -> tuple:
    return values[:i] + (value,) + values[i + 1:]


def _pick(state: State, seat: int, rng: Draws) -> tuple[int, str | None, tuple[int, ...]]:
    """Another seat's hidden penalty choice (B6) drawn again among its options (§5.2)."""
    pen = EDIFICE.cards[state.edifices[state.age - 1]].penalty
    city = state.cities[seat]
    if isinstance(pen, DiscardOwnCard):
        return seat, rng.choice(penalty_cards(city, pen.colour)), ()
    assert isinstance(pen, LoseVictoryTokens)
    return seat, None, rng.choice(penalty_token_sets(city, pen.count))
