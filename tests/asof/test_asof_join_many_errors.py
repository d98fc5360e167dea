"""asof_join_many's bad arguments are compile errors in the shared shape: asof_join's message for
the same bad argument, naming the entry (`rights[1].direction`); output names used twice name
both uses; injection attempts never reach SQL. Rendered by dbt over the package's macros with the
columns answered from a dict (tools/dbt_render.Renderer): no Spark, one parse, and every failing call rendered
on its own in one dbt invocation.
"""

from __future__ import annotations

import ast

import pytest

from tools.dbt_render import PACKAGE_ONLY, Renderer, public_defaults

COLUMNS = {
    "labels": [("id", "int"), ("account_id", "int"), ("label_time", "timestamp"), ("label", "string")],
    "plans": [("id", "int"), ("changed_at", "timestamp"), ("plan", "string"), ("version", "int")],
    "owners": [("account_id", "int"), ("assigned_at", "timestamp"), ("owner", "string"), ("rank", "bigint")],
}
LEFT = {"relation": "s.labels"}
PLANS = {"relation": {"relation": "s.plans"}, "right_time": "changed_at", "by": "id", "prefix": "plan_"}
OWNERS = {"relation": {"relation": "s.owners"}, "right_time": "assigned_at", "by": "account_id", "prefix": "owner_"}


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    """One parse of the package for every call; no engine behind it."""
    return Renderer(PACKAGE_ONLY, columns=COLUMNS, scratch=tmp_path_factory.mktemp("many_errors"))


# (id, entry overrides for rights[1], the argument, the asof_join kwargs with the same bad value)
SAME_AS_ASOF_JOIN = [
    ("direction", {"direction": "sideways"}, "direction"),
    ("allow_exact_matches", {"allow_exact_matches": "yes"}, "allow_exact_matches"),
    ("skip_nulls", {"skip_nulls": "yes"}, "skip_nulls"),
    ("skip_nulls_list", {"skip_nulls": ["owner", "assigned_at"]}, "skip_nulls"),
    ("null_safe_keys_not_a_key", {"null_safe_keys": ["owner"]}, "null_safe_keys"),
    ("tolerance_injection", {"tolerance": "1 day); drop table x; --"}, "tolerance"),
    ("tolerance_number", {"tolerance": 5}, "tolerance"),
    ("unknown_order_by", {"order_by": "nope"}, "order_by"),
    ("unknown_columns", {"columns": ["owner", "nope"]}, "columns"),
    ("by_injection", {"by": "account_id) or (1=1"}, "by"),
    ("time_kinds_differ", {"right_time": "rank"}, "right_time"),
    ("prefix_injection", {"prefix": "x` from y; --"}, "prefix"),
    ("prefix_collision_with_left", {"prefix": "", "columns": ["account_id", "owner"], "by": []}, "prefix"),
]


def _same_as_asof_join_calls(case_id: str, overrides: dict) -> dict[str, tuple[str, dict]]:
    """The asof_join_many call with the bad entry, and asof_join's with the same arguments."""
    entry = {**OWNERS, **overrides}
    single = {k: v for k, v in entry.items() if k != "relation"}
    return {
        f"many {case_id}": ("asof_join_many", {"left": LEFT, "left_time": "label_time", "rights": [PLANS, entry]}),
        f"single {case_id}": (
            "asof_join",
            {"left": LEFT, "right": entry["relation"], "left_time": "label_time", **single},
        ),
    }


@pytest.mark.parametrize("case_id,overrides,argument", SAME_AS_ASOF_JOIN, ids=[c[0] for c in SAME_AS_ASOF_JOIN])
def test_an_entrys_bad_argument_gives_asof_joins_message_naming_the_entry(messages, case_id, overrides, argument):
    many, single = messages[f"many {case_id}"], messages[f"single {case_id}"]
    line = next(line.strip() for line in single.splitlines() if "temporal_joins.asof_join:" in line)
    expected = line.replace("temporal_joins.asof_join:", "temporal_joins.asof_join_many:").replace(
        f"invalid argument `{argument}`", f"invalid argument `rights[1].{argument}`"
    )
    assert expected in many, (expected, many)


ERRORS = [
    ("rights_missing", {"rights": None}, ["`rights`", "a non-empty list of entries", "Received: none"]),
    ("rights_empty", {"rights": []}, ["`rights`", "a non-empty list of entries", "Received: []"]),
    ("rights_a_mapping", {"rights": PLANS}, ["`rights`", "a non-empty list of entries"]),
    (
        "entry_not_a_mapping",
        {"rights": [PLANS, "owners"]},
        ["`rights[1]`", "a mapping with `relation` and `right_time`", "'owners'"],
    ),
    (
        "entry_unknown_key",
        {"rights": [{**PLANS, "ttl": "1 day"}]},
        ["`rights[0]`: unknown key", "relation, right_time, by", "'ttl'"],
    ),
    ("entry_without_relation", {"rights": [{"right_time": "changed_at"}]}, ["`rights[0].relation`", "required"]),
    (
        "entry_bad_relation",
        {"rights": [{**PLANS, "relation": "plans; drop table x"}]},
        ["`rights[0].relation`", "'plans; drop table x'"],
    ),
    ("entry_without_right_time", {"rights": [{**PLANS, "right_time": None}]}, ["`rights[0].right_time`", "required"]),
    (
        "entry_unknown_by",
        {"rights": [{**PLANS, "by": {"id": "customer"}}]},
        ["`rights[0].by`", "column not found", "'customer'"],
    ),
    (
        "collision_between_entries",
        {
            "rights": [
                PLANS,
                {**OWNERS, "prefix": "plan_", "columns": ["owner"], "right_time": "assigned_at"},
                {**PLANS, "prefix": "p2_"},
                {**PLANS, "columns": ["plan"], "prefix": "plan_"},
            ]
        },
        [
            "`rights[3].prefix`",
            "right column `changed_at` of rights[3] would be output as `plan_changed_at`",
            "collides with right column `changed_at` of rights[0] (output as `plan_changed_at`)",
        ],
    ),
    (
        "broadcast_without_by",
        {"rights": [PLANS, {**OWNERS, "by": []}], "strategy": "broadcast"},
        ["`rights[1].by`", "one or more key columns when strategy is broadcast", "Received: []"],
    ),
    (
        "strategy",
        {"rights": [PLANS], "strategy": "magic"},
        ["asof_join_many: invalid argument `strategy`", "auto, union, exploding, broadcast", "'magic'"],
    ),
    ("join_type", {"rights": [PLANS], "join_type": "outer"}, ["`join_type`", "left, inner", "'outer'"]),
    ("left_time_missing", {"rights": [PLANS], "left_time": None}, ["`left_time`", "required"]),
    (
        "left_time_not_a_time",
        {"rights": [PLANS], "left_time": "label"},
        ["`left_time`", "numeric, timestamp or date", "'label' (string)"],
    ),
]


HIVE_CTE_LEFT = {
    "left": "labels_cte",
    "left_time": "label_time",
    "rights": [PLANS],
    "join_type": "left",
    "strategy": "union",
}
# every call of the module that must fail: {id: (macro, kwargs)}
FAILING = {
    **{
        k: v
        for case_id, overrides, _ in SAME_AS_ASOF_JOIN
        for k, v in _same_as_asof_join_calls(case_id, overrides).items()
    },
    **{
        case_id: ("asof_join_many", {"left": LEFT, "left_time": "label_time", **kwargs})
        for case_id, kwargs, _ in ERRORS
    },
    "hive_cte_left": ("hive__asof_join_many", HIVE_CTE_LEFT),
}


@pytest.fixture(scope="module")
def messages(renderer) -> dict[str, str]:
    """dbt's message for each failing call, each rendered on its own, all in one invocation."""
    found = renderer.errors([{"id": i, "macro": macro, "kwargs": kwargs} for i, (macro, kwargs) in FAILING.items()])
    assert renderer.queries == [], f"a statement was meant for the engine: {renderer.queries}"
    return found


@pytest.mark.parametrize("case_id,kwargs,parts", ERRORS, ids=[c[0] for c in ERRORS])
def test_bad_argument_is_a_compile_error(messages, case_id, kwargs, parts):
    message = messages[case_id]
    assert "temporal_joins.asof_join_many: invalid argument `" in message, message
    for part in parts:
        assert part in message, (case_id, part, message)


def test_hive_flavour_needs_introspectable_left(messages):
    message = messages["hive_cte_left"]
    assert "`left`" in message and "Hive flavour" in message and "'labels_cte'" in message, message


def test_entry_defaults_are_asof_joins(renderer):
    """Each entry's defaults are asof_join's own (its signature holds them)."""
    rendered = renderer.render([{"id": "d", "macro": "_asof_many_entry_defaults", "kwargs": {}}])
    defaults = ast.literal_eval(rendered["d"])
    signature = public_defaults()["asof_join"]
    assert defaults == {k: signature[k] for k in defaults}
    assert set(defaults) == set(signature) - {"left_time", "right_time", "join_type", "strategy"}
