"""Arkadia (Die Baumeister von Arkadia), 2-4 players: registers GAME."""

from games.arkadia.commands import Command_
from games.arkadia.events import ArkadiaEvent, Options
from games.arkadia.evolve import evolve
from games.arkadia.heuristic import HORIZON, gain, standing
from games.arkadia.notation import format_command, parse_command
from games.arkadia.rules import decide, legal_commands, to_act
from games.arkadia.scoring import facets, result, summary
from games.arkadia.setup import PRESETS, RULES_VERSION, Fixture, setup
from games.arkadia.state import INITIAL
from games.arkadia.upcasters import UPCASTERS
from games.arkadia.view import LEGEND, render, view
from games.contract import GameDef
from games.arkadia.determinize import determinize
from games.arkadia.undo import quiet
from games.arkadia.catalog import EARLIER_HASHES
from games.arkadia.completion import candidates
from games.arkadia.svg import svg

GAME = GameDef(
    id="arkadia",
    rules_version=RULES_VERSION,
    commands=Command_,
    events=ArkadiaEvent,
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
    result=result,
    facets=facets,
    parse_command=parse_command,
    format_command=format_command,
    render=render,
    svg=svg,
    legend=LEGEND,
    players=(2, 4),
    upcasters=UPCASTERS,
    earlier_catalogs=EARLIER_HASHES,
    candidates=candidates,
    summary=summary,
    gain=gain,
    quiet=quiet,
    determinize=determinize,
    standing=standing,
    horizon=HORIZON,
)
