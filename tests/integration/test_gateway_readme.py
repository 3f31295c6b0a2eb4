"""README "Play over HTTP": its curl examples run, line by line, against a started gateway
(bash and curl, as a reader would paste them), each answering 2xx."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import httpx

from tests.integration.support_gateway import Deployment, deployment

__all__ = ["deployment"]

README = Path(__file__).resolve().parents[2] / "README.md"


def curl_lines() -> list[str]:
    """The curl commands of the section's first bash block, continuations joined."""
    text = README.read_text()
    section = text[text.index("## Play over HTTP"):]
    block = section[section.index("```bash") + len("```bash"):]
    block = block[:block.index("```")]
    lines = block.replace("\\\n", " ").splitlines()
    return [ln.strip() for ln in lines if ln.strip().startswith("curl ")]


def _run(line: str, base: str, env: dict[str, str]) -> str:
    cmd = line.replace("localhost:8080", base.removeprefix("http://")).replace("curl -s", "curl -sS --fail-with-body", 1)
    p = subprocess.run(["bash", "-c", cmd], env={**os.environ, **env}, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, (line, p.stdout, p.stderr)
    return p.stdout


async def test_the_readme_curl_examples_run(deployment: Deployment) -> None:
    base = deployment.gateways[0]
    lines = curl_lines()
    assert len(lines) >= 10 and any("/commands" in ln for ln in lines)
    env: dict[str, str] = {}
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for line in lines:
            if "/export" in line and "GAME" in env:  # export and verify are for finished games: play it out
                await _finish(http, env)
            out = _run(line, base, env)
            if "-X POST" in line and "/games " in line + " " and "game_type" in line:
                opened = json.loads(out)
                env["GAME"] = opened["game_id"]
                tokens = opened["tokens"]
                to_act = (await http.get(f"/games/{env['GAME']}")).json()["to_act"][0]
                env["TOKEN"] = tokens[to_act]
                env["TOKENS"] = json.dumps(tokens)
                moves = (await http.get(f"/games/{env['GAME']}/moves",
                                        headers={"Authorization": f"Bearer {env['TOKEN']}"})).json()["moves"]
                env["MOVE"] = moves[0]["text"]


async def _finish(http: httpx.AsyncClient, env: dict[str, str]) -> None:
    tokens = json.loads(env["TOKENS"])
    gid = env["GAME"]
    for _ in range(2000):
        summary = (await http.get(f"/games/{gid}")).json()
        if summary["over"]:
            break
        seat = summary["to_act"][0]
        h = {"Authorization": f"Bearer {tokens[seat]}"}
        move = (await http.get(f"/games/{gid}/moves", headers=h)).json()["moves"][0]["text"]
        assert (await http.post(f"/games/{gid}/commands", json={"command": move}, headers=h)).status_code == 200
    assert (await http.get(f"/games/{gid}")).json()["over"]
