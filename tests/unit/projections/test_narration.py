"""Narration of public events (projections/narration.py, games/<game>/narrate.py): every
event type of every game has a sentence, every type random games emit is told in words of
its own (not the fallback), and no sentence names a card the spectator's view does not
show. Random legal games of every game, each command's entry built as the gateway's log
shows it to a spectator: event types, acting seat, the spectator's view as JSON."""

from __future__ import annotations

import importlib
import random
import re

import msgspec
import pytest

from games.arkadia.catalog import CATALOG as ARKADIA
from games.arkadia.view import card_name
from games.contract import Seed
from games.fold import replay
from games.narration import Entry, every_type
from games.ora_et_labora.catalog import CATALOG as ORA
from games.registry import GAMES
from games.seven_wonders.boards import BOARDS
from games.seven_wonders.catalog import CATALOG as SW
from games.seven_wonders_duel.catalog import CATALOG as DUEL
from projections import narration
from projections.narration import NARRATORS, narrate

PRESETS = {"seven_wonders": ["3p", "2p_free_city", "7p", "4p_edifice", "5p_edifice_all_boards"],
           "seven_wonders_duel": ["2p", "2p_first_game", "2p"],
           "arkadia": ["2p", "3p", "4p_random_lot"],
           "ora_et_labora": ["4p_short_france", "1p_ireland"]}
NAMES = {0: "Ada", 1: "Bo", 2: "Cy", 3: "Di", 4: "Ed", 5: "Flo", 6: "Gus"}


def _card_ids() -> dict[str, dict[str, set[str]]]:
    """Per game, each card name a sentence may say -> the ids carrying that name."""
    out: dict[str, dict[str, set[str]]] = {g: {} for g in PRESETS}
    pairs = {"seven_wonders": [(c.name, k) for k, c in [*SW.cards.items(), *BOARDS.items()]],
             "seven_wonders_duel": [(c.name, k) for k, c in [*DUEL.cards.items(), *DUEL.wonders.items(),
                                                               *DUEL.tokens.items()]],
             "arkadia": [(card_name(k), k) for k in ARKADIA.cards],
             "ora_et_labora": [(b.name, k) for k, b in [*ORA.buildings.items(), *ORA.settlements.items()]]}
    for game, items in pairs.items():
        for name, key in items:
            out[game].setdefault(name, set()).add(key)
    return out


CARDS = _card_ids()


def _json(v) -> dict:
    return msgspec.json.decode(msgspec.json.encode(v))


def _strings(v) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(v, str):
        return {v}
    if isinstance(v, dict):
        return set().union(*map(_strings, v.values())) if v else set()
    if isinstance(v, list):
        return set().union(*map(_strings, v)) if v else set()
    return set()


def _entries(game_id: str, preset: str, seed: int):
    """(types, seat, before, after) per command of one random legal game, as a spectator sees it."""
    g = GAMES[game_id]
    opening = g.setup(g.presets[preset], Seed(seed.to_bytes(8, "big")))
    state = replay(g, opening)
    before = None
    after = _json(g.view(state, None))
    yield [type(e).__struct_config__.tag for e in opening], -1, before, after
    rng = random.Random(seed)
    for _ in range(3000):
        if g.result(state) is not None:
            return
        seat = rng.choice(g.to_act(state))
        events = g.decide(state, seat, rng.choice(g.legal_commands(state, seat)))
        for e in events:
            state = g.evolve(state, e)
        before, after = after, _json(g.view(state, None))
        yield [type(e).__struct_config__.tag for e in events], seat, before, after
    raise AssertionError("a random game did not end")


@pytest.mark.parametrize("game_id", sorted(PRESETS))
def test_every_event_type_has_a_sentence(game_id: str) -> None:
    table = importlib.import_module(f"games.{game_id}.narrate").SENTENCES
    assert set(table) == every_type(GAMES[game_id].events)
    assert set(NARRATORS) == set(GAMES)


@pytest.mark.parametrize("game_id", sorted(PRESETS))
def test_random_games_are_told_without_naming_hidden_cards(game_id: str) -> None:
    table = importlib.import_module(f"games.{game_id}.narrate").SENTENCES
    names = sorted(CARDS[game_id], key=len, reverse=True)
    told_types: set[str] = set()
    sentences = named = 0
    for i, preset in enumerate(PRESETS[game_id]):
        for types, seat, before, after in _entries(game_id, preset, 1000 + i):
            told = narrate(game_id, types, seat, before, after, NAMES)
            entry = Entry(tuple(types), seat, before, after, NAMES)
            for t in types:
                own = table[t](entry)
                assert own and all(s.endswith(".") and "{" not in s for s in own), (t, own)
                assert set(own) <= set(told), (t, own, told)
            told_types.update(types)
            shown = _strings(after) | (_strings(before) if before is not None else set())
            for s in told:
                sentences += 1
                for name in names:
                    if re.search(rf"\b{re.escape(name)}\b", s):
                        named += 1
                        assert CARDS[game_id][name] & shown, (preset, s, name)
                        s = s.replace(name, "")
    assert sentences > 100 and named > 10, (sentences, named)
    assert len(told_types) >= len(table) // 2, told_types  # most types occur in random games


def test_seven_wonders_reveal_names_builds_and_hides_discards() -> None:
    """At a reveal each city's new building is named; a discard and a wonder stage are not."""
    for types, seat, before, after in _entries("seven_wonders", "3p", 7):
        if "turn_resolved" not in types:
            if "card_chosen" in types and "turn_resolved" not in types:
                told = narrate("seven_wonders", types, seat, before, after, NAMES)
                assert told == [f"{NAMES[seat]} has chosen a card."], told
            continue
        told = narrate("seven_wonders", types, seat, before, after, NAMES)
        assert told[:2] == [f"{NAMES[seat]} has chosen a card.", "The cards are revealed."], told
        for old, new in zip(before["cities"], after["cities"]):
            who = NAMES[new["seat"]]
            mine = [s for s in told if s.startswith(who + " ") and "chosen" not in s]
            assert len(mine) == 1, (who, told)
            gained = [c for c in new["built"] if c not in old["built"]]
            if gained:
                assert mine == [f"{who} built the {SW.cards[gained[0]].name}."]
            elif new["stages"] > old["stages"]:
                assert mine == [f"{who} built a wonder stage."]
            else:
                assert mine == [f"{who} discarded a card."]


def test_the_shells_events_are_told_too() -> None:
    from events import meta

    tags = {c.__struct_config__.tag for c in vars(meta).values()
            if isinstance(c, type) and issubclass(c, msgspec.Struct) and str(c.__struct_config__.tag).startswith("ts.")}
    assert {"ts.game_opened", "ts.seed_revealed"} <= tags <= set(narration.SHELL), tags
    after = _json(GAMES["arkadia"].view(replay(GAMES["arkadia"], GAMES["arkadia"].setup(
        GAMES["arkadia"].presets["2p"], Seed(b"12345678"))), None))
    assert narrate("arkadia", ["ts.game_opened"], -1, None, after, NAMES) == []
    told = narrate("arkadia", ["turn_ended", "game_ended", "ts.seed_revealed"], 0, after, after, NAMES)
    assert told[-1] == narration.SHELL["ts.seed_revealed"] and len(told) == 3, told


def test_a_timeout_is_told_with_the_seat_that_ran_out_of_time() -> None:
    after = _json(GAMES["arkadia"].view(replay(GAMES["arkadia"], GAMES["arkadia"].setup(
        GAMES["arkadia"].presets["2p"], Seed(b"12345678"))), None))
    assert narrate("arkadia", ["ts.clock_set"], -1, None, after, NAMES) == []
    told = narrate("arkadia", ["ts.timed_out", "turn_ended"], 1, after, after, NAMES)
    assert told[-1] == f"{NAMES[1]}'s time ran out: a bot made this move.", told
    assert narrate("arkadia", ["ts.seat_resigned"], 0, after, after, NAMES) == [
        f"{NAMES[0]} left the game: a bot plays on for them."]
    assert narrate("arkadia", ["ts.undone"], 1, after, after, NAMES) == [f"{NAMES[1]} took back their last command."]
    assert narrate("arkadia", ["ts.undo_allowed"], -1, None, after, NAMES) == []
