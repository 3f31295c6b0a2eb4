"""The cyclic garbage collector's policy for long-running service processes.

What a process builds before it serves (modules, the games' catalogs, its app) lives as
long as the process: frozen into the permanent generation, a full collection no longer
walks it. Full collections are also made rarer than Python's default, because each still
walks what the process keeps while it serves (cached games, payment tables, sockets): one
took 17-50 ms in the gateway and 30-50 ms in the referee here, and made their latency's
p99 (bench/RESULTS.md)."""

from __future__ import annotations

import gc

FULL_GC_EVERY = 100
"""Young-generation passes between full passes of the cyclic GC (Python's default: 10)."""


def freeze_startup(collect: bool = False) -> None:
    """Freeze everything allocated so far (after a full collection if `collect`, so that
    no garbage is frozen with it) and make full collections `FULL_GC_EVERY` rarer."""
    if collect:
        gc.collect()
    gc.freeze()
    gen0, gen1, _ = gc.get_threshold()
    gc.set_threshold(gen0, gen1, FULL_GC_EVERY)
