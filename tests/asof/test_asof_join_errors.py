"""Bad input is a compile-time error that names the macro, the argument, the allowed values
and the value received, and nothing reaches Spark."""

from __future__ import annotations

import pytest

CALL = "{{{{ temporal_joins.asof_join({args}) }}}}"
REFS = "ref('asof_labels'), ref('asof_features'), "
BASE = REFS + "'label_time', 'feature_time', by='id'"

# (id, arguments, substrings the message must contain)
CASES = [
    (
        "direction",
        BASE + ", direction='sideways'",
        ["asof_join", "`direction`", "backward, forward, nearest", "'sideways'"],
    ),
    ("join_type", BASE + ", join_type='outer'", ["asof_join", "`join_type`", "left, inner", "'outer'"]),
    (
        "strategy",
        BASE + ", strategy='magic'",
        ["asof_join", "`strategy`", "auto, union, exploding, broadcast", "'magic'"],
    ),
    (
        "broadcast_without_by",
        REFS + "'label_time', 'feature_time', strategy='broadcast'",
        ["asof_join", "`by`", "one or more key columns when strategy is broadcast", "Received: []"],
    ),
    (
        "missing_left_time",
        REFS + "right_time='feature_time', by='id'",
        ["asof_join", "`left_time`", "required", "none"],
    ),
    ("missing_right_time", REFS + "'label_time', by='id'", ["asof_join", "`right_time`", "required", "none"]),
    (
        "missing_right",
        "ref('asof_labels'), left_time='label_time', right_time='feature_time'",
        ["asof_join", "`right`", "required"],
    ),
    (
        "allow_exact_matches",
        BASE + ", allow_exact_matches='yes'",
        ["asof_join", "`allow_exact_matches`", "true, false", "'yes'"],
    ),
    (
        "skip_nulls",
        BASE + ", skip_nulls='yes'",
        ["asof_join", "`skip_nulls`", "true, false", "'yes'"],
    ),
    ("tolerance_negative", REFS + "'id', 'id', tolerance=-5", ["`tolerance`", "non-negative number", "-5"]),
    ("tolerance_malformed", BASE + ", tolerance='5 parsecs'", ["`tolerance`", "interval string", "'5 parsecs'"]),
    (
        "tolerance_number_for_timestamp",
        BASE + ", tolerance=5",
        ["`tolerance`", "timestamp time columns", "Received: 5."],
    ),
    (
        "tolerance_interval_for_number",
        REFS + "'id', 'id', tolerance='1 day'",
        ["`tolerance`", "non-negative number", "'1 day'"],
    ),
    (
        "tolerance_fraction_of_hours",
        BASE + ", tolerance='1.5 hours'",
        ["`tolerance`", "only allowed for seconds", "'1.5 hours'"],
    ),
    (
        "tolerance_injection",
        BASE + ", tolerance='1 day); drop table tj_canary.x; --'",
        ["`tolerance`", "interval string", "drop table tj_canary.x"],
    ),
    (
        "unknown_left_time",
        REFS + "'nope', 'feature_time', by='id'",
        ["`left_time`", "column not found", "'nope'", "label_time"],
    ),
    (
        "unknown_right_time",
        REFS + "'label_time', 'nope', by='id'",
        ["`right_time`", "column not found", "'nope'", "feature_time"],
    ),
    (
        "unknown_by",
        REFS + "'label_time', 'feature_time', by=[['id', 'customer']]",
        ["`by`", "column not found", "'customer'"],
    ),
    ("unknown_columns", BASE + ", columns=['value', 'nope']", ["`columns`", "column not found", "'nope'"]),
    ("unknown_order_by", BASE + ", order_by='nope'", ["`order_by`", "column not found", "'nope'"]),
    (
        "time_kinds_differ",
        REFS + "'label_time', 'version', by='id'",
        ["`right_time`", "different kinds", "timestamp", "numeric_integral", "'version'"],
    ),
    (
        "time_not_temporal",
        REFS + "'label', 'feature_time', by='id'",
        ["`left_time`", "numeric, timestamp or date", "'label'"],
    ),
    (
        "prefix_collision",
        BASE + ", columns=['id', 'value']",
        ["`prefix`", "`id`", "collides with left column `id`", "Received: ''"],
    ),
    ("prefix_injection", BASE + ", prefix='x` from y; --'", ["`prefix`", "letters, digits and underscores"]),
    ("by_injection", REFS + "'label_time', 'feature_time', by='id) or (1=1'", ["`by`", "column name", "'id) or (1=1'"]),
    ("by_shape", REFS + "'label_time', 'feature_time', by=[['id', 'id', 'id']]", ["`by`", "[left, right] pairs"]),
]


@pytest.fixture(scope="module")
def canary(spark, seeded):
    spark.sql("create database if not exists tj_canary")
    spark.sql("create table if not exists tj_canary.x (a int) using parquet")
    return seeded


@pytest.mark.parametrize("case_id,args,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_argument_is_a_compile_error(canary, spark, case_id, args, expected):
    result = canary.compile_inline(CALL.format(args=args))
    assert not result.success, f"{case_id}: compiled although invalid"
    message = canary.failure_message(result)
    for part in expected:
        assert part in message, f"{case_id}: {part!r} not in message:\n{message}"
    assert spark.catalog.tableExists("tj_canary.x"), "an injected statement ran"


@pytest.mark.parametrize("relation", ["asof_labels; drop table tj_canary.x", "a.b.c.d", "no_schema_here.asof_labels"])
def test_bad_relation_name_is_a_compile_error(canary, spark, relation):
    sql = (
        "{{ temporal_joins.asof_join('"
        + relation
        + "', ref('asof_features'), 'label_time', 'feature_time', by='id') }}"
    )
    result = canary.compile_inline(sql)
    assert not result.success
    message = canary.failure_message(result)
    assert "`left`" in message and relation in message, message
    assert spark.catalog.tableExists("tj_canary.x")


def test_cte_input_requires_columns(canary):
    sql = (
        "with f as (select * from {{ ref('asof_features') }}) "
        "{{ temporal_joins.asof_join(ref('asof_labels'), 'f', 'label_time', 'feature_time', by='id') }}"
    )
    result = canary.compile_inline(sql)
    assert not result.success
    message = canary.failure_message(result)
    assert "`columns`" in message and "CTE" in message, message


def test_valid_call_compiles(canary):
    """The error tests above fail for their argument, not because the call shape is wrong."""
    result = canary.compile_inline(CALL.format(args=BASE + ", tolerance='interval 2 hours', prefix='f_'"))
    assert result.success, canary.failure_message(result)
    sql = result.result.results[0].node.compiled_code
    assert "INTERVAL '2' HOUR" in sql and "`f_value`" in sql


def test_hive_flavour_needs_introspectable_left(canary):
    """HiveQL cannot expand a struct with .*, so a CTE left side is refused for the Hive flavour."""
    sql = (
        "with l as (select * from {{ ref('asof_labels') }}) "
        "{{ temporal_joins.hive__asof_join('l', ref('asof_features'), 'label_time', 'feature_time', 'id', "
        "'backward', true, none, 'left', none, '', none, 'union', false) }}"
    )
    result = canary.compile_inline(sql)
    assert not result.success
    message = canary.failure_message(result)
    assert "`left`" in message and "Hive flavour" in message and "'l'" in message, message


def test_a_model_name_without_ref_is_pointed_at_ref(canary):
    """A one-part name that is no CTE of the model but names a seed: the message says to use ref()."""
    result = canary.compile_inline(
        "{{ temporal_joins.asof_join('asof_labels', ref('asof_features'), 'label_time', 'feature_time', by='id') }}"
    )
    assert not result.success
    message = canary.failure_message(result)
    assert "`left`" in message and "no CTE of this model is named `asof_labels`" in message, message
    assert "pass ref('asof_labels')" in message, message
    # the same name defined as a CTE of the model is a CTE, and compiles
    cte = canary.compile_inline(
        "with asof_labels as (select * from {{ ref('asof_labels') }}) "
        "{{ temporal_joins.asof_join('asof_labels', ref('asof_features'), 'label_time', 'feature_time', by='id') }}"
    )
    assert cte.success, canary.failure_message(cte)


def test_a_negative_distance_names_the_other_side(canary):
    result = canary.compile_inline(
        "{{ temporal_joins.range_join(ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time', "
        "by='id', lower='-30 seconds') }}"
    )
    message = canary.failure_message(result)
    assert not result.success and "`lower`" in message, message
    assert "distances are non-negative; `lower` reaches before left_time, use `upper` for after it" in message
