"""Bad input is a compile-time error that names the macro, the argument, the allowed values
and the value received, and nothing reaches Spark.

The calls render on the package-only project (tools/dbt_render.Renderer: one parse for the module), the
integration seeds' columns answered from COLUMNS: no engine is asked anything, and a statement meant for one
(an injected one included) would be refused and kept in the renderer's `queries`, which the module checks
is empty. Only test_a_model_name_without_ref_is_pointed_at_ref compiles inside the integration project on
Spark: its check reads the model's own code and the project's graph, which exist only while a node compiles.
"""

from __future__ import annotations

import pytest

from tools.dbt_render import PACKAGE_ONLY, Renderer

# the integration seeds' columns (integration_tests/dbt_project.yml's column_types), as ref() names them
COLUMNS = {
    "temporal_joins.asof_labels": [("id", "int"), ("label_time", "timestamp"), ("label", "string")],
    "temporal_joins.asof_features": [
        ("id", "int"),
        ("feature_time", "timestamp"),
        ("value", "double"),
        ("version", "int"),
    ],
}
# a right side with 32 columns that may be null (no seed: the union's limit on a skip_nulls list)
COLUMNS["temporal_joins.wide_features"] = [("id", "int"), ("feature_time", "timestamp")] + [
    (f"c{j}", "double") for j in range(32)
]
LABELS = {"relation": "temporal_joins.asof_labels"}  # ref('asof_labels')
FEATURES = {"relation": "temporal_joins.asof_features"}  # ref('asof_features')
REFS = dict(left=LABELS, right=FEATURES)
BASE = dict(REFS, left_time="label_time", right_time="feature_time", by="id")

# (id, arguments, substrings the message must contain)
CASES = [
    (
        "direction",
        dict(BASE, direction="sideways"),
        ["asof_join", "`direction`", "backward, forward, nearest", "'sideways'"],
    ),
    ("join_type", dict(BASE, join_type="outer"), ["asof_join", "`join_type`", "left, inner", "'outer'"]),
    # right and full: only union tells which right rows no left row matched
    (
        "join_type_right_exploding",
        dict(BASE, join_type="right", strategy="exploding", prefix="f_"),
        [
            "temporal_joins.asof_join: invalid argument `strategy`: exploding cannot run join_type right",
            "Allowed: auto, union (the strategies that run join_type right)",
            "Received: 'exploding'.",
        ],
    ),
    (
        "join_type_full_broadcast",
        dict(BASE, join_type="full", strategy="broadcast", prefix="f_"),
        ["`strategy`: broadcast cannot run join_type full", "Allowed: auto, union", "'broadcast'"],
    ),
    (
        "join_type_right_cte_left",
        dict(BASE, left="l", join_type="right", prefix="f_"),
        ["asof_join", "`left`", "whose columns can be looked up when join_type is right", "Received: 'l'."],
    ),
    (
        "strategy",
        dict(BASE, strategy="magic"),
        ["asof_join", "`strategy`", "auto, union, exploding, broadcast", "'magic'"],
    ),
    (
        # columns: without keys the right's `id` would come out and collide with the left's (a check that comes
        # first once the columns are known; `dbt compile --inline` raised this one while parsing, columns unknown)
        "broadcast_without_by",
        dict(REFS, left_time="label_time", right_time="feature_time", strategy="broadcast", columns=["value"]),
        ["asof_join", "`by`", "one or more key columns when strategy is broadcast", "Received: []"],
    ),
    (
        "null_safe_keys_not_a_key",
        dict(BASE, null_safe_keys=["id", "label"]),
        [
            "asof_join",
            "`null_safe_keys`: `label` is not a left key of `by`",
            "Allowed: true, false, or a list of left key names of `by` (id)",
            "Received: 'label'",
        ],
    ),
    (
        "null_safe_keys_type",
        dict(BASE, null_safe_keys=1),
        ["asof_join", "`null_safe_keys`", "true, false, or a list of left key names of `by` (id)", "Received: 1"],
    ),
    (
        "missing_left_time",
        dict(REFS, right_time="feature_time", by="id"),
        ["asof_join", "`left_time`", "required", "none"],
    ),
    (
        "missing_right_time",
        dict(REFS, left_time="label_time", by="id"),
        ["asof_join", "`right_time`", "required", "none"],
    ),
    (
        "missing_right",
        dict(left=LABELS, left_time="label_time", right_time="feature_time"),
        ["asof_join", "`right`", "required"],
    ),
    (
        "allow_exact_matches",
        dict(BASE, allow_exact_matches="yes"),
        ["asof_join", "`allow_exact_matches`", "true, false", "'yes'"],
    ),
    (
        "skip_nulls",
        dict(BASE, skip_nulls="yes"),
        ["asof_join", "`skip_nulls`", "true, false", "'yes'"],
    ),
    # skip_nulls as a list: only right columns it brings, not right_time or a key (those never skip)
    (
        "skip_nulls_list_right_time",
        dict(BASE, skip_nulls=["value", "feature_time"]),
        [
            "asof_join: invalid argument `skip_nulls`: 'feature_time' is right_time",
            "true, false or a list of the right columns it brings but right_time and the keys: `value`, `version`",
            "Received: ['value', 'feature_time'].",
        ],
    ),
    (
        "skip_nulls_list_key",
        dict(BASE, columns=["id", "value"], prefix="f_", skip_nulls=["ID"]),
        ["`skip_nulls`: 'ID' is a key", "the keys: `value`.", "Received: ['ID']."],
    ),
    (
        "skip_nulls_list_not_brought",
        dict(BASE, columns=["value"], skip_nulls=["version"]),
        ["`skip_nulls`: 'version' is not a right column it brings (see `columns`)", "and the keys: `value`."],
    ),
    (
        "skip_nulls_list_not_a_name",
        dict(BASE, skip_nulls=["value", 3]),
        ["`skip_nulls`: 3 is not a right column it brings", "Received: ['value', 3]."],
    ),
    (
        "skip_nulls_list_union_too_wide",
        dict(BASE, right={"relation": "temporal_joins.wide_features"}, skip_nulls=["c0"], strategy="union"),
        [
            "asof_join: invalid argument `skip_nulls`: 31 such columns. Allowed: at most 30 right columns that may be"
            " null outside the list when the strategy is union (their null flags fit one int); strategy exploding or"
            " broadcast, or more columns in the list. Received: ['c0'].",
        ],
    ),
    (
        "skip_nulls_a_mapping",
        dict(BASE, skip_nulls={"value": True}),
        ["`skip_nulls`. Allowed: true, false or a list of the right columns", "Received: {'value': True}."],
    ),
    (
        "tolerance_negative",
        dict(REFS, left_time="id", right_time="id", tolerance=-5),
        ["`tolerance`", "non-negative number", "-5"],
    ),
    ("tolerance_malformed", dict(BASE, tolerance="5 parsecs"), ["`tolerance`", "interval string", "'5 parsecs'"]),
    (
        "tolerance_number_for_timestamp",
        dict(BASE, tolerance=5),
        ["`tolerance`", "timestamp time columns", "Received: 5."],
    ),
    (
        "tolerance_interval_for_number",
        dict(REFS, left_time="id", right_time="id", tolerance="1 day"),
        ["`tolerance`", "non-negative number", "'1 day'"],
    ),
    (
        "tolerance_fraction_of_hours",
        dict(BASE, tolerance="1.5 hours"),
        ["`tolerance`", "only allowed for seconds", "'1.5 hours'"],
    ),
    (
        "tolerance_injection",
        dict(BASE, tolerance="1 day); drop table tj_canary.x; --"),
        ["`tolerance`", "interval string", "drop table tj_canary.x"],
    ),
    (
        "unknown_left_time",
        dict(REFS, left_time="nope", right_time="feature_time", by="id"),
        ["`left_time`", "column not found", "'nope'", "label_time"],
    ),
    (
        "unknown_right_time",
        dict(REFS, left_time="label_time", right_time="nope", by="id"),
        ["`right_time`", "column not found", "'nope'", "feature_time"],
    ),
    (
        "unknown_by",
        dict(REFS, left_time="label_time", right_time="feature_time", by=[["id", "customer"]]),
        ["`by`", "column not found", "'customer'"],
    ),
    ("unknown_columns", dict(BASE, columns=["value", "nope"]), ["`columns`", "column not found", "'nope'"]),
    ("unknown_order_by", dict(BASE, order_by="nope"), ["`order_by`", "column not found", "'nope'"]),
    (
        "time_kinds_differ",
        dict(REFS, left_time="label_time", right_time="version", by="id"),
        ["`right_time`", "different kinds", "timestamp", "numeric_integral", "'version'"],
    ),
    (
        "time_not_temporal",
        dict(REFS, left_time="label", right_time="feature_time", by="id"),
        ["`left_time`", "numeric, timestamp or date", "'label'"],
    ),
    (
        "prefix_collision",
        dict(BASE, columns=["id", "value"]),
        ["`prefix`", "`id`", "collides with left column `id`", "Received: ''"],
    ),
    ("prefix_injection", dict(BASE, prefix="x` from y; --"), ["`prefix`", "letters, digits and underscores"]),
    (
        "by_injection",
        dict(REFS, left_time="label_time", right_time="feature_time", by="id) or (1=1"),
        ["`by`", "column name", "'id) or (1=1'"],
    ),
    (
        "by_shape",
        dict(REFS, left_time="label_time", right_time="feature_time", by=[["id", "id", "id"]]),
        ["`by`", "[left, right] pairs"],
    ),
]


@pytest.fixture(scope="module")
def renderer(tmp_path_factory):
    """One parse of the package for the module; no engine behind it, and no compile-time query."""
    return Renderer(
        PACKAGE_ONLY,
        dbt_vars={"temporal_joins_compile_queries": False},  # auto takes union without counting rows
        columns=COLUMNS,
        scratch=tmp_path_factory.mktemp("asof_join_errors"),
    )


# strategy='native' (Spark SQL's ASOF JOIN) where it cannot give the rows: (id, macro, arguments, what the message says)
NATIVE_REFUSED = [
    ("hive", "hive__asof_join", BASE, ["the Hive flavour has no ASOF JOIN", "Allowed: auto, union, exploding"]),
    (
        "keyless",
        "asof_join",
        dict(REFS, left_time="label_time", right_time="feature_time", columns=["value"]),
        ["native needs `by` keys", "Allowed: native with by keys, or auto"],
    ),
    ("nearest", "asof_join", dict(BASE, direction="nearest"), ["cannot run direction 'nearest'", "for nearest"]),
    ("skip_nulls", "asof_join", dict(BASE, skip_nulls=True), ["cannot run skip_nulls", "with skip_nulls"]),
    ("semi", "asof_join", dict(BASE, join_type="semi"), ["cannot run join_type 'semi'", "for this join_type"]),
    (
        "full",
        "asof_join",
        dict(BASE, join_type="full", prefix="f_"),
        ["cannot run join_type 'full'", "for this join_type"],
    ),
]
BAD_RELATIONS = ["asof_labels; drop table tj_canary.x", "a.b.c.d", "no_schema_here.asof_labels"]
# every call of the module that must fail: {id: (macro, kwargs)}
FAILING = {
    **{case_id: ("asof_join", args) for case_id, args, _ in CASES},
    **{f"relation {relation}": ("asof_join", dict(BASE, left=relation)) for relation in BAD_RELATIONS},
    "cte": ("asof_join", dict(BASE, right="f")),  # with f as (select * from {{ ref('asof_features') }}) ...
    "hive_cte_left": ("hive__asof_join", dict(BASE, left="l", strategy="union")),
    "negative_distance": ("range_join", dict(BASE, lower="-30 seconds")),
    **{f"native {case_id}": (macro, dict(args, strategy="native")) for case_id, macro, args, _ in NATIVE_REFUSED},
}


@pytest.fixture(scope="module")
def messages(renderer) -> dict[str, str]:
    """dbt's message for each failing call, each rendered on its own, all in one invocation."""
    found = renderer.errors([{"id": i, "macro": macro, "kwargs": kwargs} for i, (macro, kwargs) in FAILING.items()])
    assert renderer.queries == [], f"a statement was meant for the engine: {renderer.queries}"
    return found


@pytest.mark.parametrize("case_id,args,expected", CASES, ids=[c[0] for c in CASES])
def test_bad_argument_is_a_compile_error(messages, case_id, args, expected):
    message = messages[case_id]
    for part in expected:
        assert part in message, f"{case_id}: {part!r} not in message:\n{message}"


@pytest.mark.parametrize("case_id,macro,args,expected", NATIVE_REFUSED, ids=[c[0] for c in NATIVE_REFUSED])
def test_native_strategy_it_cannot_run_is_a_compile_error(messages, case_id, macro, args, expected):
    message = messages[f"native {case_id}"]
    assert f"temporal_joins.{macro.removeprefix('hive__')}: invalid argument `strategy`" in message, message
    assert "Received: 'native'" in message, message
    for part in expected:
        assert part in message, f"{case_id}: {part!r} not in message:\n{message}"


class _SettingAnswered(Renderer):
    """No engine, but a compile-time query is answered: `set <key>` with the value `setting` (what Spark answers
    for the ASOF JOIN setting: '<undefined>' before Spark 4.3, else its value); the statements are kept."""

    def __init__(self, setting: str, **kwargs):
        super().__init__(PACKAGE_ONLY, columns=COLUMNS, **kwargs)
        self.setting = setting
        self.asked: list[str] = []

    def _lookups(self):
        from unittest import mock

        import agate
        from dbt.adapters.contracts.connection import AdapterResponse
        from dbt.adapters.spark.impl import SparkAdapter

        def answer(adapter, sql, *args, **kwargs):
            self.asked.append(sql.strip())
            key = sql.split()[-1]
            return AdapterResponse(_message="OK"), agate.Table([[key, self.setting]], ["key", "value"])

        stack = super()._lookups()
        stack.enter_context(mock.patch.object(SparkAdapter, "execute", answer))
        return stack


@pytest.mark.parametrize(
    "setting,expected",
    [
        ("<undefined>", "native needs Spark 4.3 or later (this session does not know spark.sql.join.asofJoin.enabled)"),
        ("false", 'set it before the model\'s query, e.g. config(pre_hook="set spark.sql.join.asofJoin.enabled=true")'),
        ("true", None),
    ],
    ids=["before_spark_4_3", "off", "on"],
)
def test_native_strategy_reads_the_setting_while_compiling(tmp_path_factory, setting, expected):
    """Before Spark 4.3 (the setting unknown) or with it off (and no pre_hook setting it), native is a compile error
    naming the way out; with it on, the call renders Spark's ASOF JOIN. One statement is asked, nothing else."""
    renderer = _SettingAnswered(setting, scratch=tmp_path_factory.mktemp("native_setting"))
    call = {"id": "native", "macro": "asof_join", "kwargs": dict(BASE, strategy="native")}
    if expected is None:
        assert "left asof join (" in renderer.render([call])["native"]
    else:
        message = renderer.error(call)
        assert "temporal_joins.asof_join: invalid argument `strategy`" in message and expected in message, message
    assert renderer.asked == ["set spark.sql.join.asofJoin.enabled"]


@pytest.mark.parametrize("relation", BAD_RELATIONS)
def test_bad_relation_name_is_a_compile_error(messages, relation):
    message = messages[f"relation {relation}"]
    assert "`left`" in message and relation in message, message


def test_cte_input_requires_columns(messages):
    message = messages["cte"]
    assert "`columns`" in message and "CTE" in message, message


def test_valid_call_compiles(renderer):
    """The error tests above fail for their argument, not because the call shape is wrong."""
    call = {"id": "ok", "macro": "asof_join", "kwargs": dict(BASE, tolerance="interval 2 hours", prefix="f_")}
    sql = renderer.render([call])["ok"]
    assert "INTERVAL '2' HOUR" in sql and "`f_value`" in sql


def test_hive_flavour_needs_introspectable_left(messages):
    """HiveQL cannot expand a struct with .*, so a CTE left side is refused for the Hive flavour."""
    message = messages["hive_cte_left"]
    assert "`left`" in message and "Hive flavour" in message and "'l'" in message, message


def test_a_negative_distance_names_the_other_side(messages):
    message = messages["negative_distance"]
    assert "`lower`" in message, message
    assert "distances are non-negative; `lower` reaches before left_time, use `upper` for after it" in message


# On Spark (marked jvm by its `seeded` fixture): the check reads the model's code and the project's graph, which
# exist only while a node compiles (`dbt compile --inline` in the integration project), not in a run-operation.
def test_a_model_name_without_ref_is_pointed_at_ref(seeded):
    """A one-part name that is no CTE of the model but names a seed: the message says to use ref()."""
    result = seeded.compile_inline(
        "{{ temporal_joins.asof_join('asof_labels', ref('asof_features'), 'label_time', 'feature_time', by='id') }}"
    )
    assert not result.success
    message = seeded.failure_message(result)
    assert "`left`" in message and "no CTE of this model is named `asof_labels`" in message, message
    assert "pass ref('asof_labels')" in message, message
    # the same name defined as a CTE of the model is a CTE, and compiles
    cte = seeded.compile_inline(
        "with asof_labels as (select * from {{ ref('asof_labels') }}) "
        "{{ temporal_joins.asof_join('asof_labels', ref('asof_features'), 'label_time', 'feature_time', by='id') }}"
    )
    assert cte.success, seeded.failure_message(cte)


# On Spark (the `seeded` fixture): a model's pre_hook exists only while a node compiles (`dbt compile --inline`).
def test_native_strategy_takes_the_setting_from_the_models_pre_hook(seeded, spark):
    """With the setting off in the session, native compiles when the model's pre_hook sets it (a pre_hook runs after
    the model compiles, before its query) and is an error naming the pre_hook without one; before Spark 4.3 (the
    setting unknown) it is an error naming the version either way."""
    key = "spark.sql.join.asofJoin.enabled"
    call = (
        "{{ temporal_joins.asof_join(ref('asof_labels'), ref('asof_features'), 'label_time', 'feature_time', "
        "by='id', strategy='native') }}"
    )
    hook = "{{ config(pre_hook='set " + key + "=true') }}\n"
    saved = spark.conf.get(key, None)
    if saved is not None:
        spark.conf.unset(key)
    try:
        plain, hooked = seeded.compile_inline(call), seeded.compile_inline(hook + call)
    finally:
        if saved is not None:
            spark.conf.set(key, saved)
    if tuple(int(p) for p in spark.version.split(".")[:2]) < (4, 3):
        for result in (plain, hooked):
            assert not result.success and "native needs Spark 4.3 or later" in seeded.failure_message(result)
        return
    assert not plain.success
    assert 'e.g. config(pre_hook="set spark.sql.join.asofJoin.enabled=true")' in seeded.failure_message(plain)
    assert hooked.success, seeded.failure_message(hooked)
