"""Setup for every mode (§5, §13): the one random outcome is the start player.

Everything else is laid out by the rules: the buildings the mode uses (§5.2), the display
and the A-D stacks, the landscape stacks (turned over in the solo game), the wheel side,
each heartland (§3.1), clergy, starting goods and settlements. All of it is written into
`GameSetUp`, followed by the first round's start (rotation, §6).
"""

from __future__ import annotations

import msgspec

from games.contract import Seed
from games.opening import check_players, check_start, fixture_of, start_seat
from games.ora_et_labora import goods as G
from games.ora_et_labora import landscape as L
from games.ora_et_labora import wheel as W
from games.ora_et_labora.catalog import CATALOG, CATALOG_HASH
from games.ora_et_labora.events import GameSetUp
from games.ora_et_labora.state import AVAILABLE, Options, Owner
from games.rng import RNG_NAME

RULES_VERSION = 4
LETTERS = ("A", "B", "C", "D")

PRESETS: dict[str, Options] = {}
for _v in ("france", "ireland"):
    PRESETS.update({
        f"4p_{_v}": Options(players=4, variant=_v),
        f"3p_{_v}": Options(players=3, variant=_v),
        f"4p_short_{_v}": Options(players=4, variant=_v, length="short"),
        f"3p_short_{_v}": Options(players=3, variant=_v, length="short"),
        f"2p_{_v}": Options(players=2, variant=_v),
        f"2p_long_{_v}": Options(players=2, variant=_v, length="long"),
        f"1p_{_v}": Options(players=1, variant=_v),
    })


class Fixture(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The random outcome of setup, fixed: the start player (§5.1 step 6)."""

    start: int = 0


def mode_of(options: Options) -> str:
    """The catalog mode of these options, or ValueError saying why there is none (§5.3, §13)."""
    n, length = options.players, options.length
    check_players("Ora et Labora", n, 1, 4)
    if options.variant not in ("france", "ireland"):
        raise ValueError(f"the variant is france or ireland, not {options.variant!r}")
    if length == "short" and n not in (3, 4):
        raise ValueError("the short game is for 3 or 4 players (§13.3)")
    if length == "long" and n != 2:
        raise ValueError("the long game is the long 2-player game (§13.2)")
    if options.quarry_removed and not (length == "short" and n == 4 and options.variant == "france"):
        raise ValueError("only the short 4-player France game may remove the C-Quarry (§5.2)")
    if n == 1:
        return "solo"
    if n == 2:
        return "two_player_long" if length == "long" else "two_player"
    name = {3: "three_player", 4: "four_player"}[n]
    return f"{name}_short" if length == "short" else name


def _selection(options: Options, mode: str) -> list[str]:
    return CATALOG.selection(mode, options.variant, optional_removed=options.quarry_removed)


def layout(options: Options, start: int) -> GameSetUp:
    """The GameSetUp of these options with `start` as start player."""
    mode = mode_of(options)
    m = CATALOG.modes[mode]
    used = _selection(options, mode)
    phase = {b: CATALOG.buildings[b].phase for b in used}
    outside = set(m.selection.outside_display)
    display = tuple(b for b in used if phase[b] == "start" and b not in outside)
    stacks = tuple(tuple(b for b in used if phase[b] == letter) for letter in LETTERS)
    lands = CATALOG.game.landscapes
    solo = mode == "solo"
    districts = tuple(lands.districts.costs_solo_top_to_bottom if solo else lands.districts.costs_top_to_bottom)
    plots = tuple(lands.plots.costs_solo_top_to_bottom if solo else lands.plots.costs_top_to_bottom)
    clergy = (AVAILABLE,) * (m.clergy.prior + m.clergy.lay_brothers)
    hand = tuple(CATALOG.starting_settlements)
    short = options.length == "short"
    owners = [Owner(goods=G.holding(m.starting_goods), land=L.heartland(short=short), clergy=clergy, hand=hand)
              for _ in range(options.players)]
    if solo:  # the neutral player (§13.4): no cards, the Builders' Market, clergy, nothing else
        owners.append(Owner(goods=G.EMPTY, land=L.heartland(neutral=True), clergy=clergy))
    return GameSetUp(options=options, mode=mode, start=start, display=display, stacks=stacks, districts=districts,
                     plots=plots, wheel=W.new(m.wheel), owners=tuple(owners), rules_version=RULES_VERSION,
                     catalog_hash=CATALOG_HASH, rng=RNG_NAME)


def deal(options: Options, seed: bytes) -> Fixture:
    """The fixture a seed gives: a random start player (§5.1 step 6)."""
    return Fixture(start=start_seat(seed, options.players))


def check_fixture(options: Options, fx: Fixture) -> None:
    """Raise ValueError unless the start player is a seat of the table."""
    check_start(fx.start, options.players)


def setup(options: Options, source: Seed | Fixture) -> list:
    """The opening events: GameSetUp, then the first round's start (§6)."""
    from games.ora_et_labora.rules import first_round  # rules import this module

    fx = fixture_of(options, source, deal, check_fixture)
    opening = layout(options, fx.start)
    return [opening, *first_round(opening)]
