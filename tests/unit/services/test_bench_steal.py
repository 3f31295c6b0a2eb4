"""The bench's steal-time figure (README "Service benchmark"): the share of each CPU's time
the host (hypervisor) took, from two readings of /proc/stat."""

from bench.machine import cpu_ticks, steal_share

BEFORE = """cpu  300 0 60 900 10 0 5 40 0 0
cpu0 100 0 20 400 5 0 2 10 0 0
cpu1 200 0 40 500 5 0 3 30 7 0
intr 12345 0 0
ctxt 999
"""
AFTER = """cpu  500 0 100 1200 10 0 5 100 0 0
cpu0 150 0 30 500 5 0 2 20 0 0
cpu1 350 0 70 700 5 0 3 90 50 0
intr 22345 0 0
"""


def test_ticks_are_read_per_cpu_with_steal_the_eighth_field_and_guest_time_not_counted_twice():
    ticks = cpu_ticks(BEFORE)
    assert ticks == {0: (537, 10), 1: (778, 30)}  # the "cpu" total line and other lines are not CPUs


def test_steal_share_is_stolen_ticks_over_all_ticks_between_the_readings():
    share = steal_share(cpu_ticks(BEFORE), cpu_ticks(AFTER))
    assert share[0] == (20 - 10) / (707 - 537)
    assert share[1] == (90 - 30) / (1218 - 778)


def test_no_reading_gives_no_figure_rather_than_a_made_up_one():
    assert steal_share({}, cpu_ticks(AFTER)) == {}
    assert cpu_ticks("") == {}
    assert cpu_ticks("\n" + BEFORE) == cpu_ticks(BEFORE)  # a blank line is no CPU


def test_this_machine_reads_if_it_is_linux():
    import sys

    ticks = cpu_ticks()
    if sys.platform.startswith("linux"):
        assert ticks and all(total >= stolen >= 0 for total, stolen in ticks.values())
    else:
        assert ticks == {}
