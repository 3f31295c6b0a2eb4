"""`stats --ratings` and `stats --move-times`: the players' ratings and the seats' thinking
times of a game type, as tables or JSON."""

from __future__ import annotations

from rich.table import Table as RichTable

from events import keys
from games.contract import GameDef
from projections.ratings import decode_ratings, leaderboard
from services.cli.shared import console, print_json, runtime
from services.config import Settings


async def show_ratings(settings: Settings, game: GameDef, as_json: bool) -> None:
    """The ratings leaderboard the projectors keep (`keys.ratings`), best ordinal first."""
    async with runtime(settings) as rt:
        ratings, at = decode_ratings(await rt.redis.hgetall(keys.ratings(game.id)))
    board = leaderboard(ratings)
    if as_json:
        print_json({"game_type": game.id, "games_rated": at.games, "players": board})
        return
    if not board:
        console.print(f"{game.id}: no rated game yet (games whose log names their players: lobbies, chat, "
                      "`play`)", highlight=False)
        return
    t = RichTable(title=f"{game.id}: ratings over {at.games} game{'' if at.games == 1 else 's'} (openskill)")
    for name, justify in (("#", "right"), ("player", "left"), ("name", "left"), ("mu", "right"),
                          ("sigma", "right"), ("ordinal", "right"), ("games", "right")):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    for i, p in enumerate(board, 1):
        t.add_row(str(i), str(p["player"]), str(p["name"]), f"{p['mu']:.2f}", f"{p['sigma']:.2f}",
                  f"{p['ordinal']:.2f}", str(p["games"]))
    console.print(t)
