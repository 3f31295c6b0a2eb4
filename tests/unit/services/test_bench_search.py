"""bench.search's intervals: the Wilson interval of a win share and the paired interval of
the solo rows' per-deal score differences (figures in README's strength table)."""

from __future__ import annotations

import math
import statistics

from bench.search import paired, wilson


def test_the_paired_interval_is_the_mean_difference_give_or_take_two_standard_errors() -> None:
    diffs = [5.0, -9.0, 12.0, -6.0, 7.0, 9.0, -8.0, 4.0]
    mean, lo, hi = paired(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    assert mean == statistics.mean(diffs) == 1.75
    assert math.isclose(hi - mean, 1.96 * se) and math.isclose(mean - lo, 1.96 * se)
    assert lo < 0 < mean < hi  # eight deals this spread do not show a difference
    many = diffs * 50  # the same spread over 400 deals does
    assert 0 < paired(many)[1] < paired(many)[0] == mean
    assert paired([3.0]) == (3.0, 3.0, 3.0)


def test_the_wilson_interval_holds_the_share_and_stays_within_0_and_1() -> None:
    lo, hi = wilson(150, 200)
    assert 0.68 < lo < 0.75 < hi < 0.81
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
