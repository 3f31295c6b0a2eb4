"""Shell-level events stored in every game's log, whatever the game.

These tags and fields are the storage format; change them only as the versioning policy
in `events/README.md` allows. Their tags start with "ts." so they can never collide with a
game's own tags, and a reader can route them without knowing the game.
"""

from __future__ import annotations

import msgspec

from events.base import Event

META_PREFIX = "ts."
"""Every shell-level tag starts with this; games never use it."""


class GameOpened(Event, tag="ts.game_opened"):
    """A game was created: what is played, under which rules, and the seed commitment.

    `options` is the game's options Struct exactly as JSON, so this event decodes without
    the game. `seed_commitment` is hex sha256 of the seed bytes, revealed later by
    `SeedRevealed`; `rng` names the versioned generator the deals came from. `fixture` is
    True when the deals were fixed explicitly instead of drawn from the seed.
    """

    game_type: str
    players: int
    options: msgspec.Raw
    preset: str  # "" when the options were not a named preset
    rules_version: int
    seed_commitment: str
    rng: str
    seat_token_hashes: list[str]
    fixture: bool


class SeedRevealed(Event, tag="ts.seed_revealed"):
    """The seed (hex) behind `GameOpened.seed_commitment`, published when the game ends."""

    seed: str


MetaEvent = GameOpened | SeedRevealed


def is_meta(type: str) -> bool:
    """True when an envelope's `type` is a shell-level event rather than a game's own."""
    return type.startswith(META_PREFIX)
