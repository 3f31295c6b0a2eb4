"""Issue #22 item 2 (client part): command ids and client ids are unguessable."""

from __future__ import annotations

import re

from services.client import Client


def test_command_ids_are_random_per_command_and_client_ids_per_client() -> None:
    a, b = Client(None, shards=1), Client(None, shards=1)  # type: ignore[arg-type]
    assert re.fullmatch(r"c-[0-9a-f]{32}", a.id) and a.id != b.id  # 128 random bits per client
    ids = [a.next_id() for _ in range(5000)]
    assert len(set(ids)) == len(ids)
    suffixes = [i.removeprefix(f"{a.id}-") for i in ids]
    assert all(re.fullmatch(r"[0-9a-f]{32}", s) for s in suffixes)  # 128 random bits per command
    # No order to exploit: consecutive ids share no counter (the old ids were <client>-1, -2, ...).
    assert not any(s.isdigit() for s in suffixes)
    assert len({s[:4] for s in suffixes}) > 2000


def test_a_given_client_id_is_kept() -> None:
    c = Client(None, shards=1, client_id="bot-7")  # type: ignore[arg-type]
    assert c.id == "bot-7" and c.next_id().startswith("bot-7-")
