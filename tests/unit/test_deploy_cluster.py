"""deploy/ for a Redis Cluster (README "Redis Cluster"): the compose file parses, names the
six Redis nodes, the cluster-create one-shot and Tablestream's processes, and every process
runs a `tablestream` verb and options that exist; the systemd units run such verbs too. (No
docker here: the redis.conf itself is started by tests/integration/test_deploy_cluster_conf.py.)
"""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import typer.main
import yaml

from services.cli.__main__ import app
from services.cli.admin import shard_ranges
from services.config import cluster_nodes

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
COMPOSE = DEPLOY / "cluster" / "compose.yaml"
REDIS = [f"redis-{n}" for n in range(1, 7)]


def _check_cli(argv: list[str]) -> None:
    """`argv` (tablestream VERB --options...) names a verb and options the CLI has."""
    assert argv[0].endswith("tablestream"), argv
    cli = typer.main.get_command(app)
    verb = cli.commands[argv[1]]  # type: ignore[attr-defined]
    known = {opt for p in verb.params for opt in (*p.opts, *p.secondary_opts)}
    for arg in argv[2:]:
        if arg.startswith("--"):
            assert arg in known, (argv, arg)


def test_compose_names_the_cluster_and_the_processes() -> None:
    doc = yaml.safe_load(COMPOSE.read_text())
    services = doc["services"]
    assert set(services) == {*REDIS, "cluster-create", "referee-1", "referee-2", "projector-1", "projector-2",
                             "gateway"}
    for name in REDIS:
        assert services[name]["command"][:2] == ["redis-server", "/etc/tablestream/redis-cluster.conf"]
        assert any(v.startswith("./redis-cluster.conf:") for v in services[name]["volumes"])
        assert f"{name}:/data" in services[name]["volumes"] and name in doc["volumes"]
    create = services["cluster-create"]
    assert set(create["depends_on"]) == set(REDIS)
    assert "redis-cli --cluster create" in create["command"][0] and "--cluster-replicas 1" in create["command"][0]
    consumers = set()
    for name in ("referee-1", "referee-2", "projector-1", "projector-2", "gateway"):
        svc = services[name]
        _check_cli(svc["command"])
        assert svc["depends_on"]["cluster-create"]["condition"] == "service_completed_successfully"
        env = svc["environment"]
        nodes, _, _ = cluster_nodes(env["REDIS_URL"])
        assert sorted(h for h, _ in nodes) == REDIS  # the seed nodes are the compose services
        assert env["SHARDS"] == "16" and int(env["TABLESTREAM_WAIT_REPLICAS"]) == 1
        consumers.add(env.get("TABLESTREAM_CONSUMER"))
    assert {"referee-1", "referee-2", "projector-1", "projector-2"} <= consumers  # stable, distinct names
    projected: list[int] = []  # the projectors' shard ranges cover every shard once
    for name in ("projector-1", "projector-2"):
        argv = services[name]["command"]
        projected += shard_ranges(argv[argv.index("--projector-shards") + 1], 16)
    assert sorted(projected) == list(range(16))
    dockerfile = (DEPLOY / "cluster" / "Dockerfile").read_text()
    for line in dockerfile.splitlines():
        if line.startswith("COPY "):
            for src in line.split()[1:-1]:
                assert (DEPLOY.parent / src).exists(), src


def test_systemd_units_run_existing_verbs() -> None:
    units = sorted((DEPLOY / "systemd").glob("*.service"))
    assert {u.name for u in units} == {"tablestream-referee@.service", "tablestream-projector.service",
                                      "tablestream-gateway@.service", "redis-cluster@.service"}
    env = dict(line.split("=", 1) for line in (DEPLOY / "systemd" / "tablestream.env").read_text().splitlines()
               if line and not line.startswith("#"))
    assert cluster_nodes(env["REDIS_URL"])[0] and env["SHARDS"] == "16"
    for unit in units:
        cp = configparser.ConfigParser(strict=False, interpolation=None)
        cp.optionxform = str  # type: ignore[assignment,method-assign]
        cp.read_string(unit.read_text())
        argv = shlex.split(cp["Service"]["ExecStart"].replace("%i", "8000"))
        if unit.name.startswith("tablestream-"):
            assert cp["Service"]["EnvironmentFile"] == "/etc/tablestream/tablestream.env"
            _check_cli(argv)
        else:
            assert argv[0].endswith("deploy/start-redis.sh")
            assert "REDIS_CONF=/etc/tablestream/redis-cluster.conf" in cp["Service"]["Environment"]
        assert cp["Install"]["WantedBy"] == "multi-user.target"
