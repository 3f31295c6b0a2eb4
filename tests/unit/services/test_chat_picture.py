"""The chat `board` picture (services/chat/picture.py): every game's public (spectator) board
drawn as a valid PNG of sane size that is not blank, at the start, middle and end of a seeded
random game; an SVG that cannot be drawn gives no picture (the text board still goes) and a
log line without the SVG; TABLESTREAM_CHAT_PICTURES turns pictures off."""

from __future__ import annotations

import io
import logging
import random

import cairocffi
import pytest

from games.contract import Seed
from games.fold import replay
from games.registry import GAMES
from services.chat import picture
from services.chat.config import from_env
from services.chat.matrix import from_env as matrix_env

CASES = [("seven_wonders", "3p"), ("seven_wonders_duel", "2p"), ("arkadia", "2p"), ("ora_et_labora", "4p_france")]


def _public_svgs(game_id: str, preset: str, seed: int = 3) -> list[str]:
    """The spectator's SVG board at the start, the middle and the end of a seeded random game."""
    game = GAMES[game_id]
    state = replay(game, game.setup(game.presets[preset], Seed(f"png-{seed}".encode())))
    rng = random.Random(seed)
    states = [state]
    while game.result(state) is None:
        seat = rng.choice(game.to_act(state))
        for e in game.decide(state, seat, rng.choice(game.legal_commands(state, seat))):
            state = game.evolve(state, e)
        states.append(state)
    picks = [states[0], states[len(states) // 2], states[-1]]
    return [game.svg(game.view(s, None)) for s in picks]


def _colours(png: bytes) -> int:
    """How many distinct pixel values the PNG has (read back with cairo)."""
    surface = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    data = bytes(surface.get_data())
    return len({data[i:i + 4] for i in range(0, len(data), 4 * 7)})


@pytest.mark.parametrize("game_id,preset", CASES)
def test_every_games_public_board_draws_as_a_sane_png(game_id: str, preset: str) -> None:
    for svg in _public_svgs(game_id, preset):
        png = picture.to_png(svg)
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
        w, h = picture.png_size(png)
        assert (w == picture.WIDTH and 100 <= h <= picture.MAX_HEIGHT) or (h == picture.MAX_HEIGHT and w >= 100), (w, h)
        assert len(png) < picture.MAX_PNG
        assert _colours(png) > 8, "the picture is blank"  # paper alone would be one colour


async def test_render_gives_a_picture_with_its_size() -> None:
    svg = _public_svgs("seven_wonders_duel", "2p")[0]
    pic = await picture.render(svg, "seven_wonders_duel board at position 1")
    assert pic is not None and pic.png[:8] == picture.PNG_SIGNATURE
    assert (pic.width, pic.height) == picture.png_size(pic.png) and pic.alt.startswith("seven_wonders_duel")


@pytest.mark.parametrize("svg", ["<svg", "not xml at all", '<svg xmlns="http://www.w3.org/2000/svg" '
                                 'viewBox="0 0 10 10">' + "<g>" * 10 + "x" * (3 * 1024 * 1024) + "</g>" * 10 + "</svg>"])
async def test_a_board_that_cannot_be_drawn_gives_no_picture_and_a_clean_log(
        svg: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="tablestream.chat.picture"):
        assert await picture.render(svg, "alt") is None
    assert caplog.records and all(svg[:20] not in r.getMessage() for r in caplog.records)


def test_png_size_refuses_what_is_no_png() -> None:
    with pytest.raises(ValueError):
        picture.png_size(b"GIF89a" + b"\0" * 30)


def test_a_tall_board_is_capped_in_height() -> None:
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 1000" width="100" height="1000">'
           '<rect x="0" y="0" width="100" height="1000" fill="#123456"/></svg>')
    w, h = picture.png_size(picture.to_png(svg))
    assert (w, h) == (400, picture.MAX_HEIGHT)


@pytest.mark.parametrize("value,on", [(None, True), ("1", True), ("0", False), ("off", False), ("False", False)])
def test_pictures_knob(value: str | None, on: bool) -> None:
    env = {} if value is None else {"TABLESTREAM_CHAT_PICTURES": value}
    assert from_env(env).pictures is on
    m = {"MATRIX_HOMESERVER": "http://hs", "MATRIX_USER": "@b:hs", "MATRIX_PASSWORD": "pw", **env}
    assert matrix_env(m).pictures is on
