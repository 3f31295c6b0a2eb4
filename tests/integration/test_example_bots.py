"""The example bots of examples/ over a real gateway: the Node.js bot (seat 0) and the
Python bot (seat 1) play a whole 7 Wonders Duel against each other as subprocesses, each
given the gateway's URL and the game id on its command line and its seat token in its
environment. Both must exit 0 and the game must be over and verify. A missing `ws` module
is installed first (`npm ci --prefix examples/node-bot`, as .ci/run does), so README's test
command works on a fresh clone; a missing `node` or a failed install fails the test."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "node-bot"
PYTHON_BOT = ROOT / "examples" / "python-bot" / "bot.py"
GAME_S = 600.0  # a whole game, two cold processes, on a loaded 2-core machine


def _bot(argv: list[str], base: str, token: str, log: Path) -> subprocess.Popen:
    env = {**os.environ, "GATEWAY_URL": base, "SEAT_TOKEN": token, "BOT_SEED": "7",
           "BOT_TIMEOUT_S": str(GAME_S)}
    return subprocess.Popen(argv, env=env, stdout=open(log, "w"), stderr=subprocess.STDOUT, cwd=ROOT)


def _wait(procs: dict[str, tuple[subprocess.Popen, Path]]) -> None:
    deadline = time.monotonic() + GAME_S + 30
    try:
        for name, (p, log) in procs.items():
            try:
                code = p.wait(max(1.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise AssertionError(f"the {name} bot did not finish: {log.read_text()}") from None
            assert code == 0, f"the {name} bot exited with {code}: {log.read_text()}"
    finally:
        for p, _ in procs.values():
            if p.poll() is None:
                p.kill()
                p.wait()


async def test_node_bot_plays_a_whole_duel_against_the_python_bot(deployment: Deployment, tmp_path: Path) -> None:
    node = shutil.which("node")
    assert node is not None, "node (Node.js 20) is needed for the example bot's test"
    if not (NODE_BOT / "node_modules" / "ws" / "package.json").is_file():
        npm = shutil.which("npm")
        assert npm is not None, "npm is needed to install the Node bot's ws module"
        done = subprocess.run([npm, "ci", "--prefix", str(NODE_BOT), "--no-audit", "--no-fund"],
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"npm ci --prefix examples/node-bot failed: {done.stderr[-2000:]}"
    assert (NODE_BOT / "node_modules" / "ws" / "package.json").is_file(), \
        "the Node bot's ws module is missing: npm ci --prefix examples/node-bot"
    base = deployment.gateways[0]
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        made = (await http.post("/games", json={"game_type": "seven_wonders_duel"})).json()
        gid, tokens = made["game_id"], made["tokens"]
        procs = {
            "node": (_bot([node, str(NODE_BOT / "bot.js"), gid], base, tokens[0], tmp_path / "node.out"),
                     tmp_path / "node.out"),
            "python": (_bot([sys.executable, str(PYTHON_BOT), gid], base, tokens[1], tmp_path / "python.out"),
                       tmp_path / "python.out"),
        }
        await asyncio.to_thread(_wait, procs)
        summary = (await http.get(f"/games/{gid}")).json()
        assert summary["over"] and summary["to_act"] == []
        log = (await http.get(f"/games/{gid}/log", params={"limit": 200})).json()
        seats = {e["seat"] for e in log["entries"]}
        assert {0, 1} <= seats, f"both bots sent commands: {seats}"
        for name, (_, out) in procs.items():
            text = out.read_text()
            assert tokens[0] not in text and tokens[1] not in text, f"the {name} bot printed a token"
        deadline = asyncio.get_running_loop().time() + 30
        while True:  # the audit, once the projector has written every view
            verdict = (await http.get(f"/games/{gid}/verify")).json()
            if verdict["ok"] and verdict["findings"] == []:
                break
            assert asyncio.get_running_loop().time() < deadline, verdict
            await asyncio.sleep(0.2)
