"""window_aggregate's bad arguments are compile errors in the package's shape (macro, argument,
what is allowed, what came), injection attempts included; the Python version raises
ValueError with the same text. The macro calls render on a package-only dbt project whose
column lookups are answered from COLUMNS (tools/dbt_render.Renderer: no engine); one parse, and
every case rendered on its own (the first error would end a batch) in one dbt invocation."""

from __future__ import annotations

import re

import pytest

from temporal_joins.window import window_aggregate
from tools.dbt_render import PACKAGE_ONLY, Renderer

COLUMNS = {
    "labels": [("id", "bigint"), ("label_time", "timestamp"), ("label", "string"), ("txn_amount_sum_7d", "double")],
    "txns": [
        ("id", "bigint"),
        ("txn_ts", "timestamp"),
        ("amount", "decimal(12,2)"),
        ("note", "string"),
        ("tags", "array<string>"),
        ("day", "date"),
    ],
    "spine_map": [("id", "bigint"), ("label_time", "timestamp"), ("attrs", "map<string,int>")],
    "dated": [("id", "bigint"), ("day", "date")],
}
SPARK_TYPES = {
    "bigint": "bigint",
    "timestamp": "timestamp",
    "string": "string",
    "double": "double",
    "decimal(12,2)": "decimal(12,2)",
    "array<string>": "array<string>",
    "date": "date",
    "map<string,int>": "map<string,int>",
}

BASE = dict(
    left={"relation": "s.labels"},
    right={"relation": "s.txns"},
    left_time="label_time",
    right_time="txn_ts",
    by="id",
    windows=["7 days"],
    aggregates={"amount": ["sum"]},
    prefix="x_",
)

# (id, kwargs overrides, argument, substrings of the message)
CASES = [
    ("windows_missing", dict(windows=None), "windows", ["non-empty list of window lengths", "Received: none."]),
    ("windows_empty", dict(windows=[]), "windows", ["non-empty list", "Received: []."]),
    ("windows_zero", dict(windows=["0 days"]), "windows", ["longer than zero", "'0 days'"]),
    ("windows_number_for_timestamps", dict(windows=[7]), "windows", ["interval string", "Received: 7."]),
    ("windows_malformed", dict(windows=["7 fortnights"]), "windows", ["interval string", "'7 fortnights'"]),
    ("windows_injection", dict(windows=["1 day) union select 1 --"]), "windows", ["interval string", "union select"]),
    ("windows_same_suffix", dict(windows=["7 days", "7 day"]), "windows", ["'7 days' and '7 day'", "`..._7d`"]),
    ("windows_too_long", dict(windows=["200000000 days"]), "windows", ["at most '100000000 days'"]),
    ("windows_fraction_of_hours", dict(windows=["1.5 hours"]), "windows", ["only allowed for seconds"]),
    ("aggregates_not_mapping", dict(aggregates=["sum"]), "aggregates", ["a mapping of right columns", "['sum']"]),
    (
        "aggregates_unknown",
        dict(aggregates={"amount": ["median"]}),
        "aggregates",
        ["sum, count, avg, min, max", "'median'"],
    ),
    ("aggregates_unknown_column", dict(aggregates={"nope": ["sum"]}), "aggregates", ["column not found", "'nope'"]),
    ("aggregates_injection", dict(aggregates={"amount) from x; --": ["sum"]}), "aggregates", ["a column name"]),
    ("aggregates_star_sum", dict(aggregates={"*": ["sum"]}), "aggregates", ["'*' takes only count"]),
    (
        "aggregates_sum_of_string",
        dict(aggregates={"note": ["sum"]}),
        "aggregates",
        ["sum and avg of a numeric column", "'note' (string)"],
    ),
    (
        "aggregates_max_of_array",
        dict(aggregates={"tags": ["max"]}),
        "aggregates",
        ["min and max of a numeric, string", "(array<string>)"],
    ),
    ("aggregates_empty_list", dict(aggregates={"amount": []}), "aggregates", ["needs a non-empty list"]),
    ("direction", dict(direction="nearest"), "direction", ["backward, forward", "'nearest'"]),
    ("lower_inclusive", dict(lower_inclusive="no"), "lower_inclusive", ["true, false", "'no'"]),
    ("upper_inclusive", dict(upper_inclusive=1), "upper_inclusive", ["true, false", "Received: 1."]),
    ("strategy", dict(strategy="magic"), "strategy", ["auto, union, broadcast", "'magic'"]),
    ("broadcast_without_by", dict(by=[], strategy="broadcast"), "by", ["one or more key columns"]),
    (
        "prefix_collides",
        dict(prefix="txn_"),
        "prefix",
        ["`txn_amount_sum_7d`", "collides with left column `txn_amount_sum_7d`"],
    ),
    ("prefix_injection", dict(prefix="x; drop"), "prefix", ["letters, digits and underscores"]),
    ("left_time_missing", dict(left_time=None), "left_time", ["required"]),
    ("right_time_unknown", dict(right_time="nope"), "right_time", ["column not found", "'nope'"]),
    ("time_kinds_differ", dict(right_time="day"), "right_time", ["different kinds", "timestamp vs date"]),
    ("by_unknown", dict(by="customer"), "by", ["column not found", "'customer'"]),
    ("left_with_map", dict(left={"relation": "s.spine_map"}), "left", ["map or variant", "`attrs`"]),
    # a CTE `right` is taken; its summed columns' types must then be given
    ("right_cte", dict(right="txns_cte"), "types", ["decimal(12,2)", "'amount'", "'txns_cte'", "cannot be looked up"]),
]


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    """One parse of the package for the module; no engine behind it."""
    return Renderer(PACKAGE_ONLY, columns=COLUMNS, scratch=tmp_path_factory.mktemp("window_errors"))


@pytest.fixture(scope="module")
def messages(renderer):
    """The macro's message per case, rendered once (the Python comparison reuses them)."""
    found = renderer.errors(
        [{"id": cid, "macro": "window_aggregate", "kwargs": {**BASE, **overrides}} for cid, overrides, _, _ in CASES]
    )
    assert renderer.queries == [], renderer.queries  # nothing was meant for an engine
    return found


@pytest.mark.parametrize("cid,overrides,argument,details", CASES, ids=[c[0] for c in CASES])
def test_invalid_argument_is_a_compile_error(messages, cid, overrides, argument, details):
    message = messages[cid]
    assert f"temporal_joins.window_aggregate: invalid argument `{argument}`" in message, message
    assert "Allowed:" in message and "Received:" in message, message
    for detail in details:
        assert detail in message, message


def test_the_hive_flavour_checks_the_same(renderer):
    kwargs = {
        **BASE,
        "windows": ["7 days", "7 day"],
        "strategy": "union",
        "direction": "backward",
        "lower_inclusive": False,
        "upper_inclusive": True,
    }
    message = renderer.error({"id": "hive", "macro": "hive__window_aggregate", "kwargs": kwargs})
    assert "temporal_joins.window_aggregate: invalid argument `windows`" in message, message


@pytest.fixture(scope="module")
def frames(spark):
    def frame(name):
        schema = ", ".join(f"`{c}` {SPARK_TYPES[t]}" for c, t in COLUMNS[name])
        return spark.createDataFrame([], schema)

    return {name: frame(name) for name in COLUMNS}


# the macro's message for these equals the Python one (a relation's name is not part of them)
SAME_TEXT = [
    c
    for c in CASES
    if c[0] not in ("left_with_map", "right_cte", "aggregates_unknown_column", "right_time_unknown", "by_unknown")
]


def _python_kwargs(frames, overrides):
    kw = {**BASE, **overrides}
    left = frames[kw.pop("left")["relation"].split(".")[1]]
    right = frames[kw.pop("right")["relation"].split(".")[1]]
    return left, right, kw


@pytest.mark.parametrize("cid,overrides,argument,details", SAME_TEXT, ids=[c[0] for c in SAME_TEXT])
def test_python_raises_the_macros_message(frames, messages, cid, overrides, argument, details):
    left, right, kw = _python_kwargs(frames, overrides)
    with pytest.raises(ValueError) as raised:
        window_aggregate(left, right, **kw)
    macro_message = messages[cid]
    python_message = str(raised.value)
    assert python_message in re.sub(r"\s+", " ", macro_message), (python_message, macro_message)


@pytest.mark.parametrize("cid", ["left_with_map", "aggregates_unknown_column", "by_unknown"])
def test_python_checks_the_dataframes(frames, cid):
    overrides, argument = next((c[1], c[2]) for c in CASES if c[0] == cid)
    left, right, kw = _python_kwargs(frames, overrides)
    with pytest.raises(ValueError, match=rf"temporal_joins.window_aggregate: invalid argument `{argument}`"):
        window_aggregate(left, right, **kw)
