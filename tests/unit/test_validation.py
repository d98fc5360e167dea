"""The Python API's argument checks (temporal_joins._validation), without Spark: the same
parsing and the same error shape as the macros' shared core (macros/_validation.sql)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from temporal_joins import _validation as v


def _message(fn, *args):
    with pytest.raises(ValueError) as info:
        fn(*args)
    return str(info.value)


def test_error_shape_names_macro_argument_allowed_and_received():
    assert _message(v.choice, "asof_join", "direction", "sideways", ("backward", "forward", "nearest")) == (
        "temporal_joins.asof_join: invalid argument `direction`. Allowed: backward, forward, nearest. "
        "Received: 'sideways'."
    )
    assert _message(v.common_time_kind, "asof_join", "label_ts", "string", "t", "bigint").endswith(
        "Received: 'label_ts' (string)."
    )


@pytest.mark.parametrize(
    "by,pairs",
    [
        (None, []),
        ("id", [("id", "id")]),
        (["a", "b"], [("a", "a"), ("b", "b")]),
        ([["u", "c"]], [("u", "c")]),
        ({"u": "c"}, [("u", "c")]),
    ],
)
def test_by_forms(by, pairs):
    assert v.by_pairs("asof_join", by) == pairs


@pytest.mark.parametrize("bad", ["a;b", ["ok", "1bad"], [["a"]], 3])
def test_by_rejects_non_identifiers(bad):
    assert "invalid argument `by`" in _message(v.by_pairs, "asof_join", bad)


@pytest.mark.parametrize(
    "value,kind,units",
    [
        (2.5, "numeric", Decimal("2.5")),
        (3, "numeric_integral", Decimal(3)),
        ("90 seconds", "timestamp", Decimal(90_000_000)),
        ("interval 1 hour", "timestamp", Decimal(3_600_000_000)),
        ("1.5 seconds", "timestamp", Decimal(1_500_000)),
        ("2 weeks", "date", Decimal(14)),
        (dt.timedelta(milliseconds=3), "timestamp", Decimal(3000)),
        (None, "date", None),
    ],
)
def test_distance_in_join_units(value, kind, units):
    assert v.distance("asof_join", "tolerance", value, kind) == units


@pytest.mark.parametrize(
    "value,kind,detail",
    [
        (-1, "numeric", "a non-negative number"),
        ("1 day); drop table x; --", "timestamp", "an interval string"),
        ("1.5 days", "timestamp", "fractions are only allowed for seconds"),
        ("3 hours", "date", "date columns take whole days or weeks"),
        (True, "numeric", "a non-negative number"),
    ],
)
def test_distance_rejects(value, kind, detail):
    assert detail in _message(v.distance, "asof_join", "tolerance", value, kind)


@pytest.mark.parametrize(
    "type_name,kind",
    [
        ("bigint", "numeric_integral"),
        ("int", "numeric_integral"),
        ("double", "numeric"),
        ("decimal(10,2)", "numeric"),
        ("timestamp", "timestamp"),
        ("timestamp_ntz", "timestamp"),
        ("date", "date"),
        ("string", "other"),
    ],
)
def test_time_kinds(type_name, kind):
    assert v.time_kind(type_name) == kind


def test_right_output_columns_default_order_and_collision():
    out = v.right_output_columns("asof_join", ["id", "t"], ["id", "ft", "x"], [("id", "id")], "f_", None, ["ft"])
    assert out == [("ft", "f_ft"), ("x", "f_x")]
    message = _message(v.right_output_columns, "asof_join", ["id", "x"], ["id", "x"], [("id", "id")], "", None, [])
    assert "right column `x` would be output as `x`, which collides with left column `x`" in message


@pytest.mark.parametrize("value,kind", [(-3, "numeric"), ("-7 days", "timestamp")])
def test_a_negative_tolerance_says_direction_picks_the_side(value, kind):
    message = _message(v.distance, "asof_join", "tolerance", value, kind)
    assert "a tolerance is non-negative; `direction` says on which side of left_time to look" in message


# skip_nulls (temporal_joins.asof.spec._skip_nulls, the macro's _asof_skip_nulls): true, false or a list of the right
# columns brought but right_time and the keys; the same messages as tests/asof/test_asof_join_errors.py's
SKIP_COLUMNS = [("feature_time", "f_feature_time"), ("id", "f_id"), ("value", "f_value"), ("note", "f_note")]
SKIP_ALLOWED = "true, false or a list of the right columns it brings but right_time and the keys: `value`, `note`"


@pytest.mark.parametrize(
    "value,expected",
    [(True, (True, None)), (False, (False, None)), ([], (False, ())), (["NOTE", "note"], (True, ("note",)))],
)
def test_skip_nulls_forms(value, expected):
    from temporal_joins.asof.spec import _skip_nulls

    assert _skip_nulls("asof_join", value, SKIP_COLUMNS, "feature_time", [("id", "id")]) == expected


@pytest.mark.parametrize(
    "value,message",
    [
        ("yes", f"invalid argument `skip_nulls`. Allowed: {SKIP_ALLOWED}. Received: 'yes'."),
        (
            ["value", "feature_time"],
            f"invalid argument `skip_nulls`: 'feature_time' is right_time. Allowed: {SKIP_ALLOWED}. "
            "Received: ['value', 'feature_time'].",
        ),
        (["ID"], f"invalid argument `skip_nulls`: 'ID' is a key. Allowed: {SKIP_ALLOWED}. Received: ['ID']."),
        (
            ["version"],
            "invalid argument `skip_nulls`: 'version' is not a right column it brings (see `columns`). "
            f"Allowed: {SKIP_ALLOWED}. Received: ['version'].",
        ),
    ],
)
def test_skip_nulls_rejects(value, message):
    from temporal_joins.asof.spec import _skip_nulls

    got = _message(_skip_nulls, "asof_join", value, SKIP_COLUMNS, "feature_time", [("id", "id")])
    assert got == "temporal_joins.asof_join: " + message


def test_skip_nulls_list_skips_only_the_listed_columns():
    """skipped(): the indexes of the columns that take their own latest non-null value."""
    from pyspark.sql import types as T

    from temporal_joins.asof.spec import AsofSpec

    spec = AsofSpec(
        by=(("id", "id"),),
        left_time="t",
        right_time="feature_time",
        left_type=T.TimestampType(),
        right_type=T.TimestampType(),
        kind="timestamp",
        direction="backward",
        allow_exact_matches=True,
        tolerance=None,
        join_type="left",
        left_columns=("id", "t"),
        right_columns=tuple(SKIP_COLUMNS),
        order_by=(),
        engine="auto",
    )
    assert spec.skipped() == []
    assert AsofSpec(**{**spec.__dict__, "skip_nulls": True}).skipped() == [2, 3]
    assert AsofSpec(**{**spec.__dict__, "skip_nulls": True, "skip_columns": ("note",)}).skipped() == [3]


def test_union_engine_refuses_more_than_30_null_flags_beside_a_skip_nulls_list():
    """The macro's limit (tests/asof/test_asof_join_errors.py, skip_nulls_list_union_too_wide): the flags of the
    columns outside the list fit one int. Raised before the engine reads the DataFrame."""
    from pyspark.sql import types as T

    from temporal_joins.asof.spec import AsofSpec
    from temporal_joins.asof.union import entry_plans

    spec = AsofSpec(
        by=(("id", "id"),),
        left_time="t",
        right_time="feature_time",
        left_type=T.TimestampType(),
        right_type=T.TimestampType(),
        kind="timestamp",
        direction="backward",
        allow_exact_matches=True,
        tolerance=None,
        join_type="left",
        left_columns=("id", "t"),
        right_columns=(("feature_time", "feature_time"), *((f"c{j}", f"c{j}") for j in range(32))),
        order_by=(),
        engine="union",
        skip_nulls=True,
        skip_columns=("c0",),
    )
    with pytest.raises(ValueError) as info:
        entry_plans([(None, spec)], [], 0)
    assert str(info.value) == (
        "temporal_joins.asof_join: invalid argument `skip_nulls`: 31 such columns. Allowed: at most 30 right columns"
        " that may be null outside the list when the engine is union (their null flags fit one int); engine arrow or"
        " broadcast, or more columns in the list. Received: ['c0']."
    )


def test_null_safe_keys_forms_and_errors():
    """null_safe_keys as the macro's _asof_null_safe reads it: per `by` pair whether it compares null-safe, and the
    same message for a name that is no left key (tests/asof/test_asof_join_errors.py holds the macro's)."""
    from temporal_joins.asof.spec import _null_safe

    pairs = (("id", "id"), ("Region", "area"))
    assert _null_safe("asof_join", pairs, False) == (False, False)
    assert _null_safe("asof_join", pairs, True) == (True, True)
    assert _null_safe("asof_join", pairs, ["region"]) == (False, True)
    assert _null_safe("asof_join", pairs, "id") == (True, False)
    assert _message(_null_safe, "asof_join", (("id", "id"),), ["id", "label"]) == (
        "temporal_joins.asof_join: invalid argument `null_safe_keys`: `label` is not a left key of `by`. "
        "Allowed: true, false, or a list of left key names of `by` (id). Received: 'label'."
    )
    assert "Received: 1." in _message(_null_safe, "asof_join", pairs, 1)
