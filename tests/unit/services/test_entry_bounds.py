"""The bounds a cmd:{s} entry is checked against before anything decodes it (#22 item 1)."""

from __future__ import annotations

import msgspec
import pytest

from events.envelope import CommandEnvelope
from services import protocol


def test_depth_counts_brackets_outside_strings_only() -> None:
    assert protocol.depth(b'{"a":[1,[2]]}') == 3
    assert protocol.depth(b'{"a":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"[[["}') == 1
    assert protocol.depth(b"[" * 1000) == 1000  # unbalanced: still counted
    fields = {protocol.BODY: b'{"command":{"note":"' + b"[" * 200 + b'"}}'}
    assert protocol.entry_problem(fields, 4096) is None
    deep = {protocol.BODY: b"[" * 33 + b"]" * 33}
    assert protocol.entry_problem(deep, 4096) == ("malformed", "a command may nest at most 32 levels deep")
    assert protocol.entry_problem({protocol.BODY: b"[" * 32 + b"]" * 32}, 4096) is None


def test_entry_size_and_field_count() -> None:
    assert protocol.entry_problem({protocol.BODY: b"x" * 4097}, 4096)[0] == "oversized"  # type: ignore[index]
    assert protocol.entry_problem({b"f%d" % i: b"" for i in range(9)}, 4096)[0] == "malformed"  # type: ignore[index]
    assert protocol.entry_problem({protocol.ID: b"x"}, 4096) == ("malformed", "the command entry has no body")


@pytest.mark.parametrize("game_id,ok", [
    ("seven_wonders_duel-0a1b2c3d4e", True), ("g", True), ("A.b-c_9", True), ("x" * 100, True),
    ("x" * 101, False), ("", False), ("-g", False), ("g 1", False), ("g{0}", False), ("g\n", False),
    ("jeu-é", False), ("g/1", False)])
def test_game_id_syntax(game_id: str, ok: bool) -> None:
    assert protocol.valid_game_id(game_id) is ok


def test_names_are_printable_ascii_without_braces() -> None:
    assert protocol.name_field(b"c-0f3a-17") == "c-0f3a-17"
    for bad in (b"", b"a b", b"{x}", b"\xff", b"x" * 129, None):
        assert protocol.name_field(bad) == ""


def test_envelope_integers_are_bounded_when_decoded() -> None:
    dec = msgspec.json.Decoder(CommandEnvelope)
    base = b'"command_id":"c","game_id":"g","game_type":"t"'
    assert dec.decode(b"{" + base + b',"seat":255}').seat == 255
    for bad in (b'"seat":256', b'"seat":-2', b'"seat":1180591620717411303424', b'"sent_us":-1',
                b'"sent_us":99999999999999999999999'):
        with pytest.raises(msgspec.ValidationError):
            dec.decode(b"{" + base + b"," + bad + b"}")
    env = dec.decode(b"{" + base + b"}")
    assert protocol.envelope_problem(env) is None
    for field, value in [("command_id", ""), ("command_id", "a b"), ("game_id", "g{1}"), ("reply_to", "r\n"),
                         ("game_type", "t" * 129), ("token", "\u00e9")]:
        problem = protocol.envelope_problem(msgspec.structs.replace(env, **{field: value}))
        assert problem is not None and field.split("_")[0] in problem
