"""range_join's, interval_join's and interval_aggregate's invalid arguments: each is a compile error.

The calls name the range differential's tables (tests/helpers/range_cases.py's Data builds them on Spark there);
here their columns are answered from COLUMNS (tools/dbt_render.Renderer over the package's macros: one parse for
the module, no engine, no JVM).
"""

from __future__ import annotations

import pytest

from tools.dbt_render import PACKAGE_ONLY, Renderer

# the columns of the range differential's views (helpers.range_cases.Data) that the cases name: points
# (pa_ts, pb_ts) and intervals (ib_ts) of the timestamp kind
POINTS = [("k", "int"), ("id", "int"), ("t", "timestamp"), ("te", "bigint"), ("u", "bigint")]
COLUMNS = {
    "tj_range_test.pa_ts": POINTS,
    "tj_range_test.pb_ts": POINTS,
    "tj_range_test.ib_ts": [
        ("k", "int"),
        ("id", "int"),
        ("s", "timestamp"),
        ("e", "timestamp"),
        ("se", "bigint"),
        ("ee", "bigint"),
        ("v", "bigint"),
    ],
}


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    """One parse of the package for the module; no engine behind it."""
    return Renderer(PACKAGE_ONLY, columns=COLUMNS, scratch=tmp_path_factory.mktemp("range_errors"))


# --------------------------------------------------------------------------- invalid arguments
# Each is a compile error naming the macro and the argument, listing what is allowed and
# echoing what came, like asof_join's; anything spliced into SQL is validated, so an
# injection attempt fails. Each call renders on its own (the first error would end a batch), all in one
# dbt invocation.

EVENTS = "tj_range_test.pa_ts"  # schema.table names: the renderer looks them up in COLUMNS
INTERVALS = "tj_range_test.ib_ts"

RANGE = dict(
    left=EVENTS, right="tj_range_test.pb_ts", left_time="t", right_time="t", by="k", lower="30 seconds", prefix="r_"
)

CASES = [
    ("range_join", dict(RANGE, lower="1 day); drop table x; --"), "lower", "1 day); drop table x; --"),
    ("range_join", dict(RANGE, bin_size="0 seconds"), "bin_size", "wider than zero"),
    ("range_join", dict(RANGE, bin_size=-5), "bin_size", "-5"),
    ("range_join", dict(RANGE, bin_size=30), "bin_size", "interval string"),  # a number for timestamp columns
    ("range_join", dict(RANGE, join_type="cross"), "join_type", "inner, left, right, full"),
    ("range_join", dict(RANGE, prefix=""), "prefix", "collides"),
    (
        "interval_join",
        dict(left=EVENTS, right=INTERVALS, left_time="t", left_start="t", right_start="s", right_end="e"),
        "left_time",
        "either left_time",
    ),
    (
        "interval_join",
        dict(left="points_cte", right="intervals_cte", left_time="t", right_start="s", right_end="e", columns=["v"]),
        "bin_size",
        "cannot tell",
    ),
    (
        "interval_aggregate",
        dict(
            left=EVENTS,
            right=INTERVALS,
            left_time="t",
            right_start="s",
            right_end="e",
            value="v",
            aggregates=["sum", "median"],
        ),
        "aggregates",
        "sum, count, avg",
    ),
    (
        "interval_aggregate",
        dict(left=EVENTS, right=INTERVALS, left_time="missing", right_start="s", right_end="e", value="v"),
        "left_time",
        "column not found",
    ),
    (
        "interval_join",
        dict(left=EVENTS, right=INTERVALS, left_time="t", right_start="s", right_end="e", open_end="yes"),
        "open_end",
        "true, false",
    ),
    (
        "interval_aggregate",
        dict(left=EVENTS, right=INTERVALS, left_time="t", right_start="s", right_end="e", value="v", open_start=1),
        "open_start",
        "true, false",
    ),
    ("hive__range_join", dict(RANGE, bin_size="0 seconds"), "bin_size", "wider than zero"),  # same checks in Hive
    (
        "hive__interval_join",
        dict(left=EVENTS, right=INTERVALS, left_time="t", right_start="s", right_end="e", bin_size="1.0000001 seconds"),
        "bin_size",
        "6 decimal places",
    ),
    # Hive 2.3 measures the bin with a query while compiling: over a CTE name there is nothing to measure
    (
        "hive__interval_join",
        dict(left="events_cte", right=INTERVALS, left_time="t", right_start="s", right_end="e"),
        "bin_size",
        "nothing to measure it with",
    ),
]


IDS = [f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)]


@pytest.fixture(scope="module")
def messages(renderer) -> dict[str, str]:
    """dbt's message for each case (a hive__ flavour gets the public macro's defaults), each call rendered on its
    own, all in one invocation."""
    found = renderer.errors([{"id": i, "macro": c[0], "kwargs": c[1]} for i, c in zip(IDS, CASES)])
    assert renderer.queries == [], f"a statement was meant for the engine: {renderer.queries}"
    return found


@pytest.mark.parametrize("case_id,macro,kwargs,argument,detail", [(i, *c) for i, c in zip(IDS, CASES)], ids=IDS)
def test_invalid_argument_is_a_compile_error(messages, case_id, macro, kwargs, argument, detail):
    message = messages[case_id]
    assert f"temporal_joins.{macro.replace('hive__', '')}: invalid argument `{argument}`" in message, message
    assert "Allowed:" in message and "Received:" in message and detail in message, message
