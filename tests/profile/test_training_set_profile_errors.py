"""training_set_profile's bad input: a compile-time error naming the macro, the argument, the allowed values and
the value received (rendered without an engine, tools/dbt_render.Renderer, as tests/asof/test_asof_join_errors.py
does), and the Python twin's same message from a DataFrame's schema (temporal_joins.profile.build_entries: no
JVM). No Spark."""

from __future__ import annotations

import re

import pytest
from pyspark.sql import types as T

from temporal_joins.profile import build_entries
from tools.dbt_render import PACKAGE_ONLY, Renderer

MODEL = "s.training_set"
COLUMNS = {
    MODEL: [
        ("id", "bigint"),
        ("label_time", "timestamp"),
        ("plan_time", "timestamp"),
        ("f_time", "timestamp"),
        ("tick", "bigint"),
        ("label", "string"),
    ]
}
TYPES = {"bigint": T.LongType(), "timestamp": T.TimestampType(), "string": T.StringType()}
SCHEMA = T.StructType([T.StructField(name, TYPES[t]) for name, t in COLUMNS[MODEL]])
BASE = dict(left_time="label_time", entries=["plan_time", {"right_time": "f_time", "name": "features"}])

# (id, arguments, substrings the message must contain)
CASES = [
    ("missing_left_time", dict(entries=["plan_time"]), ["`left_time`", "required", "none"]),
    ("unknown_left_time", dict(BASE, left_time="nope"), ["`left_time`", "column not found", "'nope'"]),
    (
        "left_time_not_a_time",
        dict(BASE, left_time="label"),
        ["`left_time`", "a numeric, timestamp or date column", "'label' (string)"],
    ),
    ("no_entries", dict(left_time="label_time"), ["`entries`", "a non-empty list of entries", "none"]),
    ("empty_entries", dict(BASE, entries=[]), ["`entries`", "a non-empty list", "Received: []"]),
    ("entries_a_string", dict(BASE, entries="plan_time"), ["`entries`", "a non-empty list", "'plan_time'"]),
    ("entry_not_a_mapping", dict(BASE, entries=[3]), ["`entries[0]`", "`right_time` and an optional `name`", "3"]),
    (
        "entry_unknown_key",
        dict(BASE, entries=[{"right_time": "plan_time", "tolerance": 3}]),
        ["`entries[0]`", "unknown key", "right_time, name", "'tolerance'"],
    ),
    ("entry_without_right_time", dict(BASE, entries=[{"name": "x"}]), ["`entries[0].right_time`", "required"]),
    (
        "unknown_right_time",
        dict(BASE, entries=["plan_time", "nope"]),
        ["`entries[1].right_time`", "column not found", "'nope'"],
    ),
    (
        "right_time_of_another_kind",
        dict(BASE, entries=["tick"]),
        ["`entries[0].right_time`", "time columns of different kinds (timestamp vs numeric_integral)", "'tick'"],
    ),
    (
        "right_time_injection",
        dict(BASE, entries=["plan_time` from x; --"]),
        ["`entries[0].right_time`", "a column name matching", "plan_time` from x"],
    ),
    (
        "name_injection",
        dict(BASE, entries=[{"right_time": "plan_time", "name": "a' as x; --"}]),
        ["`entries[0].name`", "a column name matching", "a' as x"],
    ),
    (
        "duplicate_name",
        dict(BASE, entries=["plan_time", {"right_time": "f_time", "name": "PLAN_TIME"}]),
        ["`entries[1].name`", "a name no other entry has", "entries[0] has it too", "'PLAN_TIME'"],
    ),
    ("bound_number_for_timestamps", dict(BASE, bound=5), ["`bound`", "an interval string", "Received: 5"]),
    ("bound_negative", dict(BASE, bound="-1 day"), ["`bound`", "distances are non-negative", "'-1 day'"]),
    ("bound_malformed", dict(BASE, bound="5 parsecs"), ["`bound`", "interval string", "'5 parsecs'"]),
    (
        "bound_interval_for_numbers",
        dict(left_time="id", entries=["tick"], bound="1 day"),
        ["`bound`", "a non-negative number for numeric time columns", "'1 day'"],
    ),
]
# the macro alone: the relation argument (a DataFrame carries its own columns)
MACRO_ONLY = [
    ("model_cte", dict(BASE, model="training_set"), ["`model`", "whose columns can be looked up", "'training_set'"]),
    ("model_injection", dict(BASE, model="x; drop table y"), ["`model`", "a Relation (ref/source)", "drop table"]),
]


@pytest.fixture(scope="module")
def messages(tmp_path_factory) -> dict[str, str]:
    renderer = Renderer(PACKAGE_ONLY, columns=COLUMNS, scratch=tmp_path_factory.mktemp("profile_errors"))
    calls = [
        {
            "id": f"{flavour}{case_id}",
            "macro": flavour + "training_set_profile",
            "kwargs": {"model": {"relation": MODEL}, **args},
        }
        for case_id, args, _ in CASES + MACRO_ONLY
        for flavour in ("", "hive__")
    ]
    found = renderer.errors(calls)
    assert renderer.queries == []
    return {k: re.sub(r"\s+", " ", v) for k, v in found.items()}


@pytest.mark.parametrize("case_id,args,expected", CASES + MACRO_ONLY, ids=[c[0] for c in CASES + MACRO_ONLY])
def test_bad_argument_is_a_compile_error(messages, case_id, args, expected):
    for flavour in ("", "hive__"):
        message = messages[flavour + case_id]
        assert "temporal_joins.training_set_profile: invalid argument" in message, message
        for part in expected:
            assert part in message, f"{flavour}{case_id}: {part!r} not in message:\n{message}"


@pytest.mark.parametrize("case_id,args,expected", CASES, ids=[c[0] for c in CASES])
def test_python_raises_the_macros_message(messages, case_id, args, expected):
    with pytest.raises(ValueError) as raised:
        build_entries(SCHEMA, args.get("left_time"), args.get("entries"), args.get("bound"))
    # the macro names the relation a column is missing from; a DataFrame has no name: `model`
    macro_message = messages[case_id].replace(f"column not found in {MODEL}", "column not found in model")
    assert str(raised.value) in macro_message, (str(raised.value), macro_message)


def test_a_valid_call_renders_and_checks(tmp_path_factory):
    """The cases above fail for their argument, not for the call's shape."""
    renderer = Renderer(PACKAGE_ONLY, columns=COLUMNS, scratch=tmp_path_factory.mktemp("profile_ok"))
    sql = renderer.render(
        [{"id": "ok", "macro": "training_set_profile", "kwargs": dict(BASE, model={"relation": MODEL}, bound="1 day")}]
    )["ok"]
    assert "'features'" in sql and "86400000000" in sql and "'seconds'" in sql
    left_time, entries = build_entries(SCHEMA, "LABEL_TIME", BASE["entries"], "1 day")
    assert left_time == "label_time" and [e.name for e in entries] == ["plan_time", "features"]
    assert {e.bound for e in entries} == {86400000000} and {e.unit for e in entries} == {"seconds"}
