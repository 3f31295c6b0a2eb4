"""`positions.text_frame` against websockets' own framing: the bytes the gateway writes to
every socket of a viewer are the frame websockets would write for that text message."""

from __future__ import annotations

import pytest
from websockets.frames import Frame, Opcode

from services.gateway.positions import text_frame


@pytest.mark.parametrize("n", [0, 1, 125, 126, 127, 4096, 65535, 65536, 200_000])
def test_text_frame_is_websockets_unmasked_text_frame(n: int) -> None:
    payload = (b'{"type":"view","seq":1,"doc":"' + b"x" * n)[:n]  # n bytes: each length encoding
    assert len(payload) == n
    assert text_frame(payload) == Frame(Opcode.TEXT, payload).serialize(mask=False)
