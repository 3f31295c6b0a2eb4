"""Architect banners and exchanges: docs/rules/arkadia.md §5.3, §12.4 (worked example), §13 #16, #17, #20."""

from __future__ import annotations

from games.arkadia import GAME
from games.arkadia.commands import EndTurn, UseBanner
from games.arkadia.events import BannerUsed, TurnEnded

from .table import Table


def example_12_4() -> Table:
    """§12.4: the castle of §12.3 (red 1, olive 3, black 3, silver 3); orange (seat 1) holds
    5 red, 4 olive, 2 silver (from three completed houses) and has just put a worker next
    to a black house on 10,7-11,7."""
    t = Table(players=2, hands={0: ["residential_house red", "residential_house olive",
                                    "residential_house silver", "residential_house black"]})
    t.do(0, "build residential_house red 10,4 r0")
    t.do(0, "build residential_house olive 10,6 r0")
    t.do(0, "build residential_house silver 12,4 r1")
    t.do(0, "build residential_house black 10,7 r0")
    t.castle(("olive", 9), ("olive", 0), ("black", 1), ("silver", 4))
    t.seals(1, 0, red=5)
    t.seals(1, 1, olive=4)
    t.seals(1, 2, silver=2)
    t.turn_to(1)
    t.ok(1, "workers 3 own 10,8")
    return t


def test_12_4_exchange_at_the_visible_values() -> None:
    t = example_12_4()
    assert t.screen(1).seals == (5, 4, 0, 2)
    out = t.ok(1, "banner exchange 4 olive 2 silver")
    (used,) = t.of(BannerUsed, out)
    assert used.values == (1, 3, 3, 3) and used.exchanged == (0, 4, 0, 2) and used.gold == 18
    sc = t.screen(1)
    assert sc.gold == 18 and sc.seals == (5, 0, 0, 0)  # he keeps the 5 red seals
    assert sc.banners == 3 and used.workers == 2 and sc.workers == 3 - 1 + 2
    assert t.state.pool[1] == 8 - 2
    assert t.of(TurnEnded, out)  # the banner ends the turn (§13 #17: one per turn)
    assert t.act(1, "banner").code == "not_your_turn"


def test_a_banner_just_for_the_workers() -> None:
    t = example_12_4()
    (used,) = t.of(BannerUsed, t.ok(1, "banner"))
    assert used.gold == 0 and used.exchanged == (0, 0, 0, 0) and used.workers == 2


def test_exchange_rejections() -> None:
    t = example_12_4()
    assert t.act(1, "banner exchange 6 red").code == "not_enough_seals"
    assert t.act(1, "banner exchange 1 black").code == "not_enough_seals"
    assert GAME.decide(t.state, 1, UseBanner(red=-1)).code == "bad_exchange"


def test_no_banner_before_the_action() -> None:
    """§5: the banner is part 2, after the mandatory action; no exchange without a banner (§13 #16)."""
    t = example_12_4()
    t.ok(1, "end")
    t.turn_to(1)
    assert t.act(1, "banner").code == "action_required"
    assert t.act(1, "end").code == "action_required"


def test_legal_banner_choices() -> None:
    t = example_12_4()
    cmds = GAME.legal_commands(t.state, 1)
    assert cmds == [UseBanner(), UseBanner(red=5), UseBanner(olive=4), UseBanner(silver=2),
                    UseBanner(red=5, olive=4, silver=2), EndTurn()]


def test_four_banners_then_none() -> None:
    t = example_12_4()
    t.ok(1, "banner")
    for cell in ("11,8", "9,7"):
        t.turn_to(1)
        t.ok(1, f"workers 3 own {cell}")
        t.ok(1, "banner")
    t.turn_to(1)
    t.ok(1, "workers 3 own 12,7")  # closes the black house
    t.ok(1, "castle black 2")
    t.ok(1, "banner")
    assert t.screen(1).banners == 0 and t.screen(1).workers == 3 + 8 - 4
    t.turn_to(1)
    assert t.act(1, "banner").code == "action_required"
    build = next(c for c in GAME.legal_commands(t.state, 1) if c.__class__.__name__ == "PlaceBuilding")
    t.ok(1, GAME.format_command(build))
    out = t.ok(1, "draw")
    assert t.of(TurnEnded, out)  # no banner left: nothing more to decide, the turn ends by itself


def test_exchange_values_are_those_after_this_turns_castle_pieces() -> None:
    """§13 #20 [I]: complete a building, place a piece that raises its family, then exchange
    at the new value."""
    t = example_12_4()
    t.ok(1, "banner")  # 2 more workers
    t.turn_to(1)
    t.ok(1, "workers 3 own 11,8 9,7 12,7")  # closes the black house: 4 workers + token
    assert t.screen(1).seals == (5, 4, 5, 2)
    t.ok(1, "castle black 5")  # on a printed red square: black 4, red 0
    (used,) = t.of(BannerUsed, t.ok(1, "banner exchange 5 black"))
    assert used.values == (0, 3, 4, 3) and used.gold == 20
