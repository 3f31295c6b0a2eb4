"""`services.forked.split`: contiguous parts, none smaller than MIN_PART, at most `jobs`."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from services import forked


@given(st.integers(0, 400), st.integers(1, 9))
def test_split_keeps_the_order_and_gives_each_part_enough(n: int, jobs: int) -> None:
    items = list(range(n))
    parts = forked.split(items, jobs)
    assert [x for p in parts for x in p] == items
    assert 1 <= len(parts) <= jobs
    if len(parts) > 1:
        assert min(map(len, parts)) >= forked.MIN_PART
        assert max(map(len, parts)) - min(map(len, parts)) <= 1
