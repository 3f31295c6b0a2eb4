"""7 Wonders (base game, 1st edition), 3-7 players and the 2-player Free City variant: registers GAME."""

from games.contract import GameDef
from games.passing import first_of
from games.seven_wonders.commands import Decline, Discard
from games.seven_wonders.determinize import determinize
from games.seven_wonders.undo import quiet
from games.seven_wonders import catalog, edifice
from games.seven_wonders.completion import candidates
from games.seven_wonders.commands import Command_
from games.seven_wonders.events import Options, SevenWondersEvent
from games.seven_wonders.evolve import evolve
from games.seven_wonders.heuristic import gain
from games.seven_wonders.notation import format_command, parse_command
from games.seven_wonders.rules import decide, legal_commands, to_act
from games.seven_wonders.scoring import facets, result
from games.seven_wonders.setup import PRESETS, RULES_VERSION, Fixture, setup
from games.seven_wonders.state import INITIAL
from games.seven_wonders.upcasters import UPCASTERS
from games.seven_wonders.view import facet_text, render, view, views
from games.seven_wonders.svg import svg

GAME = GameDef(
    id="seven_wonders",
    rules_version=RULES_VERSION,
    commands=Command_,
    events=SevenWondersEvent,
    options_type=Options,
    presets=PRESETS,
    fixture_type=Fixture,
    initial=INITIAL,
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    to_act=to_act,
    view=view,
    views=views,
    result=result,
    facets=facets,
    parse_command=parse_command,
    format_command=format_command,
    render=render,
    svg=svg,
    facet_text=facet_text,
    players=(2, 7),
    upcasters=UPCASTERS,
    candidates=candidates,
    earlier_catalogs={**catalog.EARLIER_HASHES, **edifice.EARLIER_HASHES},
    gain=gain,
    quiet=quiet,
    # On timeout, pass: a discard (the first card of the hand in the game's order, for 3 coins, §4 C),
    # Halicarnassus's decline (§11.7); an Edifice penalty choice has none
    passing=first_of(legal_commands, (Discard, Decline)),
    determinize=determinize,
)
