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
