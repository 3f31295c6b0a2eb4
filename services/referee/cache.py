"""The referee's game-state cache: recent games' Tables, their seeds and checked tokens.

A cached Table is tentative until the batch that left it lands. When a game's Table is
dropped because the log was not what it assumed, the game's generation goes up (every
game's when the epoch does), and every decision stamped with the dropped state's
(epoch, generation) is taken again instead of being sent: a version number alone could
match a different history. `drops` counts the drops: unchanged, no decision is stale.
Pure: filled from logs the referee reads through `events.store`.
"""

from __future__ import annotations

from collections import OrderedDict

from projections.table import Table


class GameCache:
    """Tables by game id (least recently remembered evicted beyond `size`), with the seeds
    of games being played, the seat tokens already checked (game → seat → token) and the
    ids found archived when last loaded (no log, a tombstone: `archived`)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.secrets: dict[str, bytes] = {}
        self.tokens: dict[str, dict[int, str]] = {}
        self.archived: set[str] = set()
        self._gen: dict[str, int] = {}
        self.epoch = 0
        self.drops = 0

    def get(self, game_id: str) -> Table | None:
        return self.tables.get(game_id)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self.tables

    def stamp(self, game_id: str) -> tuple[int, int]:
        """The (epoch, generation) of the game's cached state now."""
        return self.epoch, self._gen.get(game_id, 0)

    def remember(self, game_id: str, table: Table) -> None:
        self.tables[game_id] = table
        self.tables.move_to_end(game_id)
        while len(self.tables) > self.size:
            old, _ = self.tables.popitem(last=False)
            self.secrets.pop(old, None)
            self.tokens.pop(old, None)

    def loaded(self, game_id: str, archived: bool) -> None:
        """Note whether a game loaded without a log is archived. A game with no cached
        Table is loaded again by every batch that names it, so this set only needs the
        current batches' games: it is emptied when it outgrows the cache."""
        if archived:
            if len(self.archived) >= self.size:
                self.archived.clear()
            self.archived.add(game_id)
        else:
            self.archived.discard(game_id)

    def forget(self, game_id: str) -> None:
        """Drop a game's cached state: decisions taken on it become stale."""
        self.tables.pop(game_id, None)
        self._gen[game_id] = self._gen.get(game_id, 0) + 1
        self.drops += 1

    def forget_all(self) -> None:
        self.tables.clear()
        self.epoch += 1
        self.drops += 1
