"""Science and progress tokens: §8, §14 example 4, §15 #11-13."""

from __future__ import annotations

from games.seven_wonders_duel import GAME
from games.seven_wonders_duel.catalog import CATALOG
from games.seven_wonders_duel.events import DecisionOpened, GameEnded, ProgressTokenTaken
from games.seven_wonders_duel.resolution import construction_effects

from .table import Table

SPEC = CATALOG.spec


def _effects(t: Table, seat: int, card: str, symbols: tuple[str, ...]) -> list:
    out: list = []
    construction_effects(t.state, seat, SPEC[card], symbols, 7, out)
    return out


def test_example_4_pair_takes_law_then_academy_wins() -> None:
    """§14 example 4: School pairs the wheel -> Law; Laboratory: 5 symbols; Academy: 6 -> win."""
    t = Table(tokens=("law", "agriculture", "theology", "economy", "masonry"))
    have = ("wheel", "quill", "mortar")
    (opened,) = _effects(t, 0, "school", have)
    assert isinstance(opened, DecisionOpened) and opened.kind == "progress_token"
    assert opened.options == tuple(sorted(("law", "agriculture", "theology", "economy", "masonry")))
    t.state = GAME.evolve(t.state, opened)
    assert GAME.to_act(t.state) == (0,)
    out = t.play("token Law")
    assert isinstance(out[0], ProgressTokenTaken) and out[0].token == "law"
    assert _effects(t, 0, "laboratory", have + ("wheel",)) == []  # 5 different, no pair
    (won,) = _effects(t, 0, "academy", have + ("wheel", "plumb"))
    assert isinstance(won, GameEnded) and won.victory == "science" and won.winners == (0,)


def test_law_never_forms_a_pair() -> None:
    """§15 #12: Law counts toward 6 different symbols only."""
    t = Table()
    assert _effects(t, 0, "workshop", ("wheel",)) == []


def test_pair_with_an_empty_board_gives_nothing() -> None:
    """§15 #11."""
    t = Table()
    for tok in t.state.board_tokens:
        t.state = GAME.evolve(t.state, ProgressTokenTaken(seat=1, token=tok, source="board"))
    assert _effects(t, 0, "school", ("wheel",)) == []


def test_six_different_symbols_without_law() -> None:
    t = Table()
    (won,) = _effects(t, 1, "observatory", ("wheel", "quill", "mortar", "plumb", "sundial"))
    assert won.victory == "science" and won.winners == (1,)


def test_only_offered_tokens_may_be_taken() -> None:
    t = Table(tokens=("law", "agriculture", "theology", "economy", "masonry"))
    (opened,) = _effects(t, 0, "school", ("wheel",))
    t.state = GAME.evolve(t.state, opened)
    assert t.act(0, "token Philosophy").code == "option_not_offered"
    assert t.act(0, "discard Altar").code == "decision_pending"
    assert t.act(1, "token Law").code == "not_your_turn"
    assert GAME.view(t.state, 1).pending.options is None
