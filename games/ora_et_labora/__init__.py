"""Ora et Labora (France and Ireland; 1-4 players; short, normal and long games): GAME.

Not registered in `games/registry.py` until the rules engine is complete (README).
"""

from games.contract import GameDef
from games.passing import first_of
from games.ora_et_labora.commands import Decline, EndAction, EndSettlement
from games.ora_et_labora.determinize import determinize
from games.ora_et_labora.undo import quiet
from games.ora_et_labora.catalog import EARLIER_HASHES
from games.ora_et_labora.completion import candidates
from games.ora_et_labora.commands import OraEtLaboraCommand
from games.ora_et_labora.events import OraEtLaboraEvent
from games.ora_et_labora.evolve import evolve
from games.ora_et_labora.heuristic import gain
from games.ora_et_labora.notation import format_command, parse_command
from games.ora_et_labora.rules import decide, legal_commands, to_act
from games.ora_et_labora.scoring import facets, result, summary, standing
from games.ora_et_labora.setup import PRESETS, RULES_VERSION, Fixture, setup
from games.ora_et_labora.state import Options, State
from games.ora_et_labora.upcasters import UPCASTERS
from games.ora_et_labora.view import render, view
from games.ora_et_labora.svg import svg

GAME = GameDef(
    id="ora_et_labora",
    rules_version=RULES_VERSION,
    commands=OraEtLaboraCommand,
    events=OraEtLaboraEvent,
    options_type=Options,
    presets=PRESETS,
    fixture_type=Fixture,
    initial=State(),
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
    players=(1, 4),
    upcasters=UPCASTERS,
    earlier_catalogs=EARLIER_HASHES,
    candidates=candidates,
    summary=summary,
    gain=gain,
    quiet=quiet,
    # On timeout, pass: a decline, the end of an action or of a settlement; a main action has none (§7)
    passing=first_of(legal_commands, (Decline, EndAction, EndSettlement)),
    determinize=determinize,
    standing=standing,
)
