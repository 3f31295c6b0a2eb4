"""The hot paths build events with `replace` on a prototype: the same values and the same
stored bytes as calling the event class."""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from games.seven_wonders_duel import resolution, rules
from games.seven_wonders_duel.events import (
    CardBuilt,
    CardDiscarded,
    CardsRevealed,
    PawnMoved,
    SevenWondersDuelEvent,
    WonderBuilt,
    WonderDrafted,
)

CASES = [
    (rules._CARD_BUILT, CardBuilt, {"seat": 1, "card": "baths", "position": 7, "via": "chain"}),
    (rules._CARD_BUILT, CardBuilt, {"seat": 0, "card": "quarry", "position": 3, "via": "cost", "paid": 3,
                                    "to_opponent": 2, "gained": 1}),
    (rules._CARD_DISCARDED, CardDiscarded, {"seat": 1, "card": "baths", "position": 2, "gained": 3}),
    (rules._WONDER_BUILT, WonderBuilt, {"seat": 0, "wonder": "the_pyramids", "card": "baths", "position": 5,
                                        "paid": 4, "extra_turn": True}),
    (rules._CARDS_REVEALED, CardsRevealed, {"age": 2, "positions": (3, 4), "cards": ("baths", "quarry")}),
    (resolution._PAWN_MOVED, PawnMoved, {"seat": 1, "shields": 2, "position": -2}),
    (resolution._PAWN_MOVED, PawnMoved, {"seat": 0, "shields": 3, "position": 4, "tokens": (3,), "lost": 2}),
    (rules._WONDER_DRAFTED, WonderDrafted, {"seat": 1, "wonder": "the_colossus"}),
]


def test_a_prototype_with_every_required_field_replaced_is_the_constructed_event() -> None:
    enc = msgspec.json.Encoder()
    dec = msgspec.json.Decoder(SevenWondersDuelEvent)
    for proto, cls, fields in CASES:
        made = replace(proto, **fields)
        assert type(made) is cls
        assert made == cls(**fields)
        assert enc.encode(made) == enc.encode(cls(**fields))
        assert dec.decode(enc.encode(made)) == made
