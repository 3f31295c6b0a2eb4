"""Shared fixtures for every test layer."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# Fails the run when anything reads a file outside the repository (issue #29; see the module).
pytest_plugins = ("tests.support_outside_reads",)

settings.register_profile("default", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("slow", max_examples=500, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/* from the current engine (review the diff)")
