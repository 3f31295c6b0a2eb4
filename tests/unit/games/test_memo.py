"""games.memo: bounded memos that free one entry at a time, and the bound on every memo of
the rules (bench/RESULTS.md, 2026-12-01: a memo emptied whole when full paused a command for
4.9 ms every 1.6 s at half load)."""

from __future__ import annotations

import importlib
import pkgutil

import games
from games.memo import MAX_ENTRIES, Memo


def test_a_full_memo_evicts_its_oldest_entry_only() -> None:
    memo: Memo[int, str] = Memo(3)
    for k in range(3):
        assert memo.put(k, str(k)) == str(k)
    memo.put(3, "3")
    assert list(memo.items()) == [(1, "1"), (2, "2"), (3, "3")]
    memo.put(4, "4")
    assert len(memo) == 3 and 1 not in memo and memo.get(2) == "2" and memo.get(4) == "4"


def test_a_lookup_does_not_change_what_goes_first() -> None:
    memo: Memo[str, int] = Memo(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1
    memo.put("c", 3)
    assert "a" not in memo and list(memo) == ["b", "c"]


def _rules_modules() -> list:
    return [importlib.import_module(m.name) for m in pkgutil.walk_packages(games.__path__, "games.")]


def test_no_memo_of_the_rules_is_larger_than_the_bound() -> None:
    """Every bounded lru_cache and Memo under games/ holds at most MAX_ENTRIES: a larger
    dict compacts for longer (2.5 ms at 65,536 entries) in the middle of a command."""
    seen = 0
    for module in _rules_modules():
        for name, value in vars(module).items():
            if isinstance(value, Memo):
                assert value.limit <= MAX_ENTRIES, f"{module.__name__}.{name}: Memo({value.limit})"
                seen += 1
            params = getattr(value, "cache_parameters", None)
            if callable(params) and getattr(value, "__module__", None) == module.__name__:
                size = params()["maxsize"]
                # Unbounded caches (functools.cache) are kept for fixed domains only (Arkadia's
                # footprints of a form): they fill once and never evict.
                assert size is None or size <= MAX_ENTRIES, f"{module.__name__}.{name}: lru_cache({size})"
                seen += 1
    assert seen >= 20  # the payment memos of 7 Wonders and Duel among them
