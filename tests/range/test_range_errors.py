"""range_join's, interval_join's and interval_aggregate's invalid arguments: each is a compile error.

The calls name the range differential's tables (the column lookups need them): this module's `data`
fixture builds them as tests/range/test_range_differential.py's does (tests/helpers/range_cases.py).
"""

from __future__ import annotations

import pytest
from helpers.range_cases import Data

from tools.dbt_render import with_defaults


@pytest.fixture(scope="module")
def data(spark, dbt):
    return Data(spark)


# --------------------------------------------------------------------------- invalid arguments
# Each is a compile error naming the macro and the argument, listing what is allowed and
# echoing what came, like asof_join's; anything spliced into SQL is validated, so an
# injection attempt fails. One dbt invocation per case (the first error ends an invocation).

EVENTS = "tj_range_test.pa_ts"  # created by the data fixture (helpers.range_cases.Data)
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
]


def _compile_error(dbt, macro, kwargs):
    """Compile one call inline (Python literals are Jinja literals); return dbt's message."""
    kwargs = with_defaults({"macro": macro, "kwargs": kwargs})["kwargs"]  # a hive__ flavour has no defaults of its own
    args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
    result = dbt.compile_inline(f"{{{{ temporal_joins.{macro}({args}) }}}}")
    assert not result.success, f"{macro}({args}) compiled although invalid"
    return dbt.failure_message(result)


@pytest.mark.parametrize("macro,kwargs,argument,detail", CASES, ids=[f"{c[0]}-{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_invalid_argument_is_a_compile_error(data, dbt, macro, kwargs, argument, detail):
    message = _compile_error(dbt, macro, kwargs)
    assert f"temporal_joins.{macro.replace('hive__', '')}: invalid argument `{argument}`" in message, message
    assert "Allowed:" in message and "Received:" in message and detail in message, message
