"""7 Wonders Duel (base game), 2 players: registers GAME."""

from games.contract import GameDef
from games.passing import first_of
from games.seven_wonders_duel.commands import DiscardCard
from games.seven_wonders_duel.determinize import determinize
from games.seven_wonders_duel.undo import quiet
from games.seven_wonders_duel.catalog import EARLIER_HASHES
from games.seven_wonders_duel.commands import Command_
from games.seven_wonders_duel.events import Options, SevenWondersDuelEvent
from games.seven_wonders_duel.evolve import evolve
from games.seven_wonders_duel.heuristic import gain
from games.seven_wonders_duel.notation import format_command, parse_command
from games.seven_wonders_duel.rules import decide, legal_commands, to_act
from games.seven_wonders_duel.scoring import facets, result
from games.seven_wonders_duel.setup import PRESETS, RULES_VERSION, Fixture, setup
from games.seven_wonders_duel.state import INITIAL
from games.seven_wonders_duel.upcasters import UPCASTERS
from games.seven_wonders_duel.view import facet_text, render, view, views
from games.seven_wonders_duel.svg import svg

GAME = GameDef(
    id="seven_wonders_duel",
    rules_version=RULES_VERSION,
    commands=Command_,
    events=SevenWondersDuelEvent,
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
    set_facets=frozenset({"wonders"}),
    parse_command=parse_command,
    format_command=format_command,
    render=render,
    svg=svg,
    facet_text=facet_text,
    players=(2, 2),
    upcasters=UPCASTERS,
    earlier_catalogs=EARLIER_HASHES,
    gain=gain,
    quiet=quiet,
    # On timeout, pass: a discard for coins (the first accessible card, §5 B); the draft and the
    # other decisions have none
    passing=first_of(legal_commands, (DiscardCard,)),
    determinize=determinize,
)
