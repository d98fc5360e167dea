"""The training-set checks, the generic tests max_staleness and min_match_rate (macros/generic_tests/):
their failing rows against a plain-Python oracle on randomized tables of every time kind
(tests/helpers/check_cases.py: ties on the bound, nulls, NaN, infinite and sentinel times, a group that
never matches, null, NaN and -0.0 group values, an empty table), and their argument errors.

Every call renders in one run-operation on the package-only project, the columns answered from the
tables' declared types (no engine is asked). On Spark all calls run as one query (each failing row as
text, tagged by its call); the Hive flavour runs on Hive 2.3's engine in tests/engines/test_hive_differential.py.
The error tests and the Hive flavour's rendering need no JVM.
"""

from __future__ import annotations

import pytest
from helpers import check_cases as cc

from tools.dbt_render import PACKAGE_ONLY, Renderer

COLUMNS = {cc.TABLE: cc.column_types(), cc.EMPTY_TABLE: cc.column_types()}
MODEL = {"relation": cc.TABLE}


@pytest.fixture(scope="module")
def renderer():
    return Renderer(PACKAGE_ONLY, columns=COLUMNS)


def test_checks_match_the_oracle_on_spark(spark, renderer):
    calls = cc.calls()
    by_id = {c.id: c for c in calls}
    data = {cc.TABLE: cc.generate(seed=54), cc.EMPTY_TABLE: []}
    for table, rows in data.items():
        # cached: each call's branch reads the table, whose literal rows would be analysed again for each
        frame = spark.sql(cc.values_sql(rows)).cache()
        frame.count()
        frame.createOrReplaceTempView(table)
    statements = renderer.render([c.render_call() for c in calls])
    previous = spark.conf.get("spark.sql.shuffle.partitions")
    spark.conf.set("spark.sql.shuffle.partitions", "1")  # each call's groups are a few rows: one task per stage
    try:
        rows = spark.sql(cc.batch_sql(statements, by_id)).collect()
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", previous)
    texts = {call_id: [] for call_id in statements}
    for row in rows:
        texts[list(statements)[row.tj_cfg]].append(row.tj_row)
    failures, failing_rows = [], 0
    for call_id, got in texts.items():
        expected = cc.oracle(by_id[call_id], data[by_id[call_id].table])
        failing_rows += len(expected)
        failures += cc.mismatches(by_id[call_id], expected, got)
    assert not failures, "\n".join(failures[:5])
    # the calls fail often enough to check rows, and pass often enough (the empty model's among them)
    assert failing_rows > 40 and sum(not t for t in texts.values()) >= 6


def test_the_hive_flavour_renders_without_sparks_functions(renderer):
    """Hive 2.3 runs the Hive flavour (tests/engines/test_hive_differential.py); here, without a JVM: the two
    flavours differ only in the dialect's fragments (a timestamp's epoch, NaN, floating-point group values)."""
    calls = [c for c in cc.calls() if c.kind in ("double", "timestamp")]
    spark_sql = renderer.render([c.render_call() for c in calls])
    hive_sql = renderer.render([c.render_call("hive__") for c in calls])
    for call in calls:
        assert "unix_micros" not in hive_sql[call.id] and "isnan" not in hive_sql[call.id], call.id
        assert " with " not in f" {hive_sql[call.id].lower()}", call.id  # Hive 2.3 takes no WITH in a subquery
        assert hive_sql[call.id] != spark_sql[call.id], call.id


# ------------------------------------------------------------------ argument errors (no JVM)

STALE = dict(model=MODEL, left_time="lt_timestamp", right_time="rt_timestamp", bound="1 day")
RATE = dict(model=MODEL, right_time="rt_timestamp", min_rate=0.5)
# (id, macro, arguments, substrings the message must hold)
ERRORS = [
    ("bound_missing", "max_staleness", dict(STALE, bound=None), ["max_staleness", "`bound`", "required", "'7 days'"]),
    ("bound_number_for_timestamps", "max_staleness", dict(STALE, bound=7), ["`bound`", "interval string", "7"]),
    ("bound_unit", "max_staleness", dict(STALE, bound="7 months"), ["`bound`", "'7 months'"]),
    ("bound_negative", "max_staleness", dict(STALE, bound="-1 day"), ["`bound`", "non-negative", "'-1 day'"]),
    (
        "bound_string_for_numbers",
        "max_staleness",
        dict(STALE, left_time="lt_bigint", right_time="rt_bigint", bound="1 day"),
        ["`bound`", "a non-negative number for numeric time columns", "'1 day'"],
    ),
    (
        "bound_hours_for_dates",
        "max_staleness",
        dict(STALE, left_time="lt_date", right_time="rt_date", bound="36 hours"),
        ["`bound`", "whole days or weeks"],
    ),
    ("max_share_above_1", "max_staleness", dict(STALE, max_share=1.5), ["`max_share`", "from 0 to 1", "1.5"]),
    ("max_share_negative", "max_staleness", dict(STALE, max_share=-0.1), ["`max_share`", "from 0 to 1", "-0.1"]),
    ("max_share_text", "max_staleness", dict(STALE, max_share="ten"), ["`max_share`", "'ten'"]),
    ("max_share_bool", "max_staleness", dict(STALE, max_share=True), ["`max_share`", "True"]),
    (
        "left_time_missing_column",
        "max_staleness",
        dict(STALE, left_time="label_time"),
        ["max_staleness", "`left_time`", "columns of `model` (seg, grp, fkey, lt_int, rt_int", "'label_time'"],
    ),
    ("right_time_required", "max_staleness", dict(STALE, right_time=None), ["`right_time`", "required"]),
    (
        "left_time_not_a_time",
        "max_staleness",
        dict(STALE, left_time="seg"),
        ["`left_time`", "a numeric, timestamp or date column", "'seg'", "(string)"],
    ),
    (
        "times_of_two_kinds",
        "max_staleness",
        dict(STALE, right_time="grp"),
        ["`right_time`", "time columns of different kinds (timestamp vs numeric_integral)"],
    ),
    ("group_by_missing", "max_staleness", dict(STALE, group_by="segment"), ["`group_by`", "'segment'", "not found"]),
    ("group_by_not_a_name", "max_staleness", dict(STALE, group_by="seg; drop"), ["`group_by`", "'seg; drop'"]),
    ("min_rate_above_1", "min_match_rate", dict(RATE, min_rate=2), ["min_match_rate", "`min_rate`", "from 0 to 1"]),
    ("min_rate_nan", "min_match_rate", dict(RATE, min_rate=float("nan")), ["`min_rate`", "'NaN'"]),
    ("min_rate_missing", "min_match_rate", dict(RATE, min_rate=None), ["`min_rate`", "required", "from 0 to 1"]),
    (
        "matched_column_missing",
        "min_match_rate",
        dict(RATE, right_time="feature_time"),
        ["min_match_rate", "`right_time`", "'feature_time'", "not found"],
    ),
    (
        "group_by_shadows_an_output",
        "min_match_rate",
        dict(RATE, model={"relation": "tj_checks_outputs"}, group_by="shortfall"),
        ["`group_by`", "failing rows", "'shortfall'"],
    ),
]


def test_bad_arguments_are_clear_compile_errors():
    columns = COLUMNS | {"tj_checks_outputs": [("shortfall", "int"), ("rt_timestamp", "timestamp")]}
    renderer = Renderer(PACKAGE_ONLY, columns=columns)
    calls = [
        {"id": f"{flavour}{case}", "macro": f"{flavour}test_{macro}", "kwargs": kwargs}
        for case, macro, kwargs, _ in ERRORS
        for flavour in ("", "hive__")
    ]
    messages = renderer.errors(calls)
    assert not renderer.queries
    for case, _, _, needles in ERRORS:
        for flavour in ("", "hive__"):
            message = messages[f"{flavour}{case}"]
            missing = [n for n in needles if n not in message]
            assert not missing, (case, missing, message)
            assert message.count("temporal_joins.") >= 1 and "Traceback" not in message


def test_yaml_text_shares_and_the_bounds_inclusive_ends_render():
    """YAML reads 1e-5 as text: a share in that form is a number. A share of 1 and a bound of 0 are allowed."""
    calls = [
        {"id": "text", "macro": "test_max_staleness", "kwargs": dict(STALE, max_share="1e-5")},
        {"id": "ends", "macro": "test_min_match_rate", "kwargs": dict(RATE, min_rate=1)},
        {"id": "zero", "macro": "test_max_staleness", "kwargs": dict(STALE, bound="0 seconds", max_share=1)},
    ]
    sql = Renderer(PACKAGE_ONLY, columns=COLUMNS).render(calls)
    assert "cast('0.00001' as decimal(6,5))" in sql["text"]
    assert "cast('1' as decimal(1,0))" in sql["ends"]
    assert "tj_staleness > 0 then" in sql["zero"]
