"""`stats --ratings` and `stats --move-times`: the players' ratings and the seats' thinking
times of a game type, as tables or JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table as RichTable

from events import keys
from games.contract import GameDef
from projections import movetimes
from projections.ratings import decode_ratings, leaderboard
from projections.stats import decode_row, select
from services.cli.shared import FAILED, Exit, console, print_json, runtime
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


async def show_move_times(settings: Settings, game: GameDef, as_json: bool, players: int | None = None,
                          wanted: list[tuple[str, Any]] | None = None, archive: Path | None = None) -> None:
    """How long each seat took per decision, over the finished games of the type (those the
    `stats` filters pick), from the times the projectors keep (`keys.move_times`), and with
    `archive` those of the folder's games (timed from their files; a game both archived and
    in Redis counts once)."""
    async with runtime(settings) as rt:
        stored = {g.decode(): v for g, v in (await rt.redis.hgetall(keys.move_times(game.id))).items()}
        rows = {g.decode(): decode_row(v) for g, v in (await rt.redis.hgetall(keys.stats(game.id))).items()} \
            if players is not None or wanted else {}
    if archive is not None:
        from services.archive import archived_move_times, archived_rows

        try:
            stored = {**archived_move_times(archive, game), **stored}
            if players is not None or wanted:
                rows = {**archived_rows(archive, game.id), **rows}
        except ValueError as e:
            raise Exit(FAILED, str(e)) from None
    if players is not None or wanted:
        chosen = {r.game_id for r in select(list(rows.values()), players, wanted or [])}
        stored = {g: v for g, v in stored.items() if g in chosen}
    agg = movetimes.aggregate(movetimes.decode(v) for _, v in sorted(stored.items()))
    if as_json:
        print_json({"game_type": game.id, **agg})
        return
    if not agg["games"]:
        console.print(f"{game.id}: no finished game with move times yet", highlight=False)
        return
    t = RichTable(title=f"{game.id}: time per decision over {agg['games']} game{'' if agg['games'] == 1 else 's'} (ms)")
    for name, justify in (("seat", "left"), ("decisions", "right"), ("mean", "right"), ("p50", "right"),
                          ("p90", "right"), ("max", "right")):
        t.add_column(name, justify=justify)  # type: ignore[arg-type]
    for label, m in [*((f"seat {s}", m) for s, m in agg["seats"].items()), ("all", agg["all"])]:
        t.add_row(label, str(m["decisions"]), f"{m['mean_ms']:.0f}", f"≤{m['p50_ms']}", f"≤{m['p90_ms']}",
                  str(m["max_ms"]), style="bold" if label == "all" else None)
    console.print(t)
    console.print("p50 and p90 are histogram bucket bounds (powers of two); a decision runs from the moment "
                  "the seat could act to its command's log time.", style="dim", highlight=False)
