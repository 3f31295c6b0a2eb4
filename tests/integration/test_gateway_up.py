"""`tablestream up --gateway`: one command runs the referee, the projector and the HTTP
gateway (a child process); a game opened and played over HTTP is judged, and stopping up
stops the gateway too."""

from __future__ import annotations

import signal
import time

import httpx
import pytest

from tests.integration.support_gateway import GATEWAY_DB, START_S, Deployment, flushed_db, free_port
from tests.integration.support_service import db_url


def test_up_gateway_serves_http_and_stops_with_up(tmp_path) -> None:
    url = flushed_db()
    d = Deployment(url, logs=tmp_path)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    up = d.start("up", "up", "--gateway", "--gateway-port", str(port))
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert up.poll() is None, (tmp_path / "up.out").read_text()
            assert time.monotonic() < deadline, "up --gateway did not serve HTTP in time"
            try:
                if httpx.get(base + "/game-types", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        with httpx.Client(base_url=base, timeout=30) as http:
            made = http.post("/games", json={"game_type": "seven_wonders_duel"})
            assert made.status_code == 201, made.text
            gid, tokens = made.json()["game_id"], made.json()["tokens"]
            seat = http.get(f"/games/{gid}").json()["to_act"][0]
            h = {"Authorization": f"Bearer {tokens[seat]}"}
            move = http.get(f"/games/{gid}/moves", headers=h).json()["moves"][0]["text"]
            out = http.post(f"/games/{gid}/commands", json={"command": move}, headers=h)
            assert out.status_code == 200 and out.json()["status"] == "accepted", out.text
            assert http.get(f"/games/{gid}").json()["seq"] > 1
    finally:
        up.send_signal(signal.SIGTERM)
        assert up.wait(30) == 0, (tmp_path / "up.out").read_text()
    with pytest.raises(httpx.HTTPError):  # the child went with its parent
        httpx.get(base + "/game-types", timeout=2)


def test_up_gateway_port_taken_stops_up(tmp_path) -> None:
    """A gateway that cannot start (its port is taken) stops up with an error, never a
    referee left running without the gateway it was asked for."""
    import socket

    d = Deployment(db_url(GATEWAY_DB), logs=tmp_path)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        up = d.start("up", "up", "--gateway", "--gateway-port", str(s.getsockname()[1]))
        code = up.wait(START_S)
    assert code != 0
    assert "the gateway stopped" in (tmp_path / "up.out").read_text()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_gateway_stopped_by_a_signal_exits_0(tmp_path, sig) -> None:
    """A service manager's stop (SIGTERM) or Ctrl-C (SIGINT) is a clean stop: status 0 and no
    traceback after uvicorn's shutdown (uvicorn re-raises the signal it caught, which ended
    the process by the signal, -15, or with KeyboardInterrupt)."""
    d = Deployment(flushed_db(), logs=tmp_path)
    d.start_gateway()
    gw = d.procs[-1]
    gw.send_signal(sig)
    out = tmp_path / "gateway0.out"
    assert gw.wait(30) == 0, out.read_text()
    assert "Traceback" not in out.read_text(), out.read_text()
