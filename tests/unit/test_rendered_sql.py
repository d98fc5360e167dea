"""The SQL of a fixed set of macro calls, compared with the committed files tests/unit/rendered/<call id>.sql:
a refactoring of the macros shows its SQL diff here, without Spark.

Every public macro (asof_join, asof_join_many, range_join, interval_join, interval_aggregate,
window_aggregate, training_set_profile), each strategy and both flavours (the Spark SQL one, and the HiveQL one
called by name as hive__<macro>, with the public macro's defaults), with a few option variants each. Column
lookups are answered from COLUMNS (tools/dbt_render.Renderer: no engine, no JVM) and var
temporal_joins_compile_queries is false, so no call queries an engine while it compiles (`auto` then takes
union). All calls render in one dbt invocation.

A mismatch prints a unified diff (committed file -> rendered now). After a deliberate change of the SQL, rewrite the
files and review their diff in git:

    TJ_UPDATE_RENDERED=1 .venv/bin/python -m pytest tests/unit/test_rendered_sql.py

(that also deletes the files of calls no longer in CALLS).
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

from tools.dbt_render import PACKAGE_ONLY, Renderer

RENDERED = Path(__file__).resolve().parent / "rendered"
UPDATE = os.environ.get("TJ_UPDATE_RENDERED") == "1"
FLAVOURS = {"spark": "", "hive": "hive__"}

COLUMNS = {
    # timestamps
    "labels": [("id", "bigint"), ("label_time", "timestamp"), ("label", "string")],
    "features": [("id", "bigint"), ("feature_time", "timestamp"), ("value", "double"), ("note", "string")],
    "plans": [("id", "bigint"), ("changed_at", "timestamp"), ("plan", "string"), ("version", "int")],
    "spells": [("id", "bigint"), ("valid_from", "timestamp"), ("valid_to", "timestamp"), ("amount", "double")],
    "visits": [("id", "bigint"), ("entered", "timestamp"), ("left_at", "timestamp"), ("room", "string")],
    "txns": [("id", "bigint"), ("txn_ts", "timestamp"), ("amount", "decimal(12,2)"), ("note", "string")],
    # a training set: asof_join_many's output (two entries' matched times), timestamps and bigint times
    "training": [("id", "bigint"), ("label_time", "timestamp"), ("plan_time", "timestamp"), ("f_time", "timestamp")],
    "tick_training": [("sym", "string"), ("t", "bigint"), ("q_t", "bigint"), ("px", "double")],
    # bigint times
    "ticks": [("sym", "string"), ("t", "bigint"), ("px", "double")],
    "quotes": [("sym", "string"), ("t", "bigint"), ("bid", "double"), ("ask", "double")],
    "ranges": [("sym", "string"), ("lo", "bigint"), ("hi", "bigint"), ("qty", "bigint")],
    # dates
    "days": [("id", "bigint"), ("day", "date"), ("label", "string")],
    "rates": [("id", "bigint"), ("rate_day", "date"), ("rate", "decimal(9,4)")],
    # a joined model (the generic tests max_staleness, min_match_rate)
    "training_set": [
        ("id", "bigint"),
        ("segment", "string"),
        ("label_time", "timestamp"),
        ("f_feature_time", "timestamp"),
        ("f_score", "double"),
    ],
}


def rel(name: str) -> dict:
    return {"relation": f"s.{name}"}


ASOF = dict(left=rel("labels"), right=rel("features"), left_time="label_time", right_time="feature_time", by="id")
ASOF_BIGINT = dict(left=rel("ticks"), right=rel("quotes"), left_time="t", right_time="t", by="sym", prefix="q_")
ASOF_DATE = dict(left=rel("days"), right=rel("rates"), left_time="day", right_time="rate_day", by="id")
PLANS = {"relation": rel("plans"), "right_time": "changed_at", "by": "id", "prefix": "plan_"}
FEATURES = {"relation": rel("features"), "right_time": "feature_time", "by": "id", "prefix": "f_"}
RANGE = dict(left=rel("labels"), right=rel("features"), left_time="label_time", right_time="feature_time", by="id")
RANGE_BIGINT = dict(left=rel("ticks"), right=rel("quotes"), left_time="t", right_time="t", by="sym", prefix="q_")
POINT = dict(left=rel("labels"), right=rel("spells"), left_time="label_time", right_start="valid_from")
POINT = dict(POINT, right_end="valid_to", by="id")
OVERLAP = dict(left=rel("visits"), right=rel("spells"), left_start="entered", left_end="left_at", by="id")
OVERLAP = dict(OVERLAP, right_start="valid_from", right_end="valid_to")
WINDOW = dict(left=rel("labels"), right=rel("txns"), left_time="label_time", right_time="txn_ts", by="id")
WINDOW = dict(WINDOW, windows=["1 hour", "7 days"], aggregates={"amount": ["sum", "avg"], "*": ["count"]})


def _variants() -> dict[str, tuple[str, dict]]:
    """{call id (without the flavour): (public macro, kwargs)}."""
    out: dict[str, tuple[str, dict]] = {}
    # asof_join: every strategy, then a few options on each
    for strategy in ("union", "exploding", "broadcast"):
        out[f"asof_join-{strategy}"] = ("asof_join", dict(ASOF, strategy=strategy))
        out[f"asof_join-{strategy}-tolerance"] = ("asof_join", dict(ASOF, strategy=strategy, tolerance="90 minutes"))
        out[f"asof_join-{strategy}-nearest"] = ("asof_join", dict(ASOF, strategy=strategy, direction="nearest"))
        out[f"asof_join-{strategy}-forward-exclusive-inner"] = (
            "asof_join",
            dict(ASOF, strategy=strategy, direction="forward", allow_exact_matches=False, join_type="inner"),
        )
        out[f"asof_join-{strategy}-skip_nulls-order_by"] = (
            "asof_join",
            dict(ASOF, strategy=strategy, skip_nulls=True, order_by="note", columns=["value"], prefix="f_"),
        )
        # skip_nulls a list: `note` from the best candidate where it is not null, `value` from the matched row
        out[f"asof_join-{strategy}-skip_nulls-list-tolerance"] = (
            "asof_join",
            dict(ASOF, strategy=strategy, skip_nulls=["note"], tolerance="90 minutes", prefix="f_"),
        )
        if strategy != "broadcast":
            out[f"asof_join-{strategy}-bigint-tolerance"] = (
                "asof_join",
                dict(ASOF_BIGINT, strategy=strategy, tolerance=5),
            )
    out["asof_join-auto"] = ("asof_join", dict(ASOF))  # compile queries off: union
    # the join types beside inner and left: semi and anti on every strategy, right and full on union (the one
    # strategy that runs them), full with nearest and a tolerance and the columns form of a bigint time
    for strategy in ("union", "exploding", "broadcast"):
        out[f"asof_join-{strategy}-semi"] = ("asof_join", dict(ASOF, strategy=strategy, join_type="semi"))
        out[f"asof_join-{strategy}-anti-nearest"] = (
            "asof_join",
            dict(ASOF, strategy=strategy, join_type="anti", direction="nearest"),
        )
    out["asof_join-auto-right"] = ("asof_join", dict(ASOF, join_type="right", prefix="f_"))
    out["asof_join-union-right-skip_nulls"] = (
        "asof_join",
        dict(ASOF, strategy="union", join_type="right", skip_nulls=True, order_by="note", prefix="f_"),
    )
    out["asof_join-union-full-nearest-tolerance"] = (
        "asof_join",
        dict(ASOF_BIGINT, strategy="union", join_type="full", direction="nearest", tolerance=5),
    )
    out["asof_join-union-keyless"] = ("asof_join", dict(ASOF, by=[], strategy="union", prefix="f_"))
    out["asof_join-union-date-tolerance"] = ("asof_join", dict(ASOF_DATE, strategy="union", tolerance="3 days"))
    # asof_join_many: two entries, each strategy
    for strategy in ("auto", "union", "exploding", "broadcast"):
        rights = [PLANS, dict(FEATURES, direction="nearest", tolerance="1 day")]
        out[f"asof_join_many-{strategy}"] = (
            "asof_join_many",
            dict(left=rel("labels"), left_time="label_time", rights=rights, strategy=strategy),
        )
    out["asof_join_many-union-skip_nulls-list"] = (
        "asof_join_many",
        dict(left=rel("labels"), left_time="label_time", rights=[PLANS, dict(FEATURES, skip_nulls=["VALUE"])]),
    )
    # range_join: both strategies, windows before/after, a bigint and an exclusive variant
    for strategy in ("bucketed", "naive"):
        out[f"range_join-{strategy}"] = (
            "range_join",
            dict(RANGE, lower="30 minutes", upper="10 minutes", strategy=strategy),
        )
    out["range_join-bucketed-left-exclusive-bin"] = (
        "range_join",
        dict(RANGE, lower="1 hour", join_type="left", lower_inclusive=False, bin_size="15 minutes", prefix="r_"),
    )
    out["range_join-bucketed-full-bigint"] = ("range_join", dict(RANGE_BIGINT, lower=3, upper=2, join_type="full"))
    # interval_join: point and overlap mode, both strategies, open ends
    for strategy in ("bucketed", "naive"):
        out[f"interval_join-point-{strategy}"] = ("interval_join", dict(POINT, strategy=strategy, bin_size="1 day"))
    out["interval_join-overlap-bucketed-open_start"] = (
        "interval_join",
        dict(OVERLAP, open_start=True, start_inclusive=False, bin_size="1 day"),
    )
    out["interval_join-point-left-open_end-exclusive"] = (
        "interval_join",
        dict(POINT, join_type="left", open_end=True, end_inclusive=False, bin_size="6 hours", prefix="s_"),
    )
    out["interval_join-point-bigint"] = (
        "interval_join",
        dict(
            left=rel("ticks"),
            right=rel("ranges"),
            left_time="t",
            right_start="lo",
            right_end="hi",
            by="sym",
            bin_size=50,
        ),
    )
    # interval_aggregate: the sweep line, its default and every aggregate with open ends
    out["interval_aggregate"] = ("interval_aggregate", dict(POINT, value="amount"))
    out["interval_aggregate-all-open-exclusive"] = (
        "interval_aggregate",
        dict(POINT, value="amount", aggregates=["sum", "count", "avg"], open_start=True, start_inclusive=False),
    )
    # window_aggregate: every strategy, a forward window with inclusive ends
    for strategy in ("auto", "union", "broadcast"):
        out[f"window_aggregate-{strategy}"] = ("window_aggregate", dict(WINDOW, strategy=strategy, prefix="w_"))
    out["window_aggregate-union-forward-inclusive"] = (
        "window_aggregate",
        dict(WINDOW, direction="forward", lower_inclusive=True, upper_inclusive=False, strategy="union"),
    )
    out["window_aggregate-union-bigint"] = (
        "window_aggregate",
        dict(RANGE_BIGINT, windows=[10, 100], aggregates={"bid": ["min", "max"]}, strategy="union"),
    )
    # the generic tests max_staleness and min_match_rate (test_<name>, as dbt names them), timestamps and bigint
    trained = dict(model=rel("training_set"), left_time="label_time", right_time="f_feature_time")
    out["test_max_staleness"] = (
        "test_max_staleness",
        dict(trained, bound="7 days", max_share=0.05, group_by="segment"),
    )
    out["test_max_staleness-bigint"] = (
        "test_max_staleness",
        dict(model=rel("ranges"), left_time="hi", right_time="lo", bound=5),
    )
    out["test_min_match_rate"] = (
        "test_min_match_rate",
        dict(model=rel("training_set"), right_time="f_score", min_rate=0.9, group_by=["segment"]),
    )
    # training_set_profile: timestamps with a bound and a named entry; bigint times without a bound
    out["training_set_profile"] = (
        "training_set_profile",
        dict(
            model=rel("training"),
            left_time="label_time",
            entries=["plan_time", {"right_time": "f_time", "name": "features"}],
            bound="1 day",
        ),
    )
    out["training_set_profile-bigint"] = (
        "training_set_profile",
        dict(model=rel("tick_training"), left_time="t", entries=["q_t"]),
    )
    return out


def _calls() -> list[dict]:
    calls = []
    for flavour, macro_prefix in FLAVOURS.items():
        for name, (macro, kwargs) in _variants().items():
            calls.append({"id": f"{flavour}-{name}", "macro": macro_prefix + macro, "kwargs": kwargs})
    return calls


CALLS = _calls() + [
    # Spark SQL's ASOF JOIN: the Spark flavour only (Hive has none); compile queries off, so the setting is not read
    {
        "id": "spark-asof_join-native-forward-exclusive-tolerance",
        "macro": "asof_join",
        "kwargs": dict(ASOF, strategy="native", direction="forward", allow_exact_matches=False, tolerance="90 minutes"),
    },
    # null_safe_keys: a null key matches a null key (`<=>`; the union keeps right rows with a null key)
    {"id": "spark-asof_join-union-null_safe_keys", "macro": "asof_join", "kwargs": dict(ASOF, null_safe_keys=True)},
    {
        "id": "hive-asof_join-broadcast-null_safe_keys-list",
        "macro": "hive__asof_join",
        "kwargs": dict(ASOF, strategy="broadcast", null_safe_keys=["id"]),
    },
    {
        "id": "spark-asof_join_many-union-null_safe_keys",
        "macro": "asof_join_many",
        "kwargs": dict(
            left=rel("labels"),
            left_time="label_time",
            rights=[PLANS, dict(FEATURES, null_safe_keys=True)],
            strategy="union",
        ),
    },
    {
        "id": "spark-asof_join-native-null_safe_keys",
        "macro": "asof_join",
        "kwargs": dict(ASOF_BIGINT, strategy="native", null_safe_keys=True),
    },
    {
        "id": "spark-asof_join-native-order_by-inner-bigint",
        "macro": "asof_join",
        "kwargs": dict(ASOF_BIGINT, strategy="native", order_by="ask", join_type="inner"),
    },
]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> dict[str, str]:
    renderer = Renderer(
        PACKAGE_ONLY,
        dbt_vars={"temporal_joins_compile_queries": False},
        columns=COLUMNS,
        scratch=tmp_path_factory.mktemp("rendered_sql"),
    )
    sql = renderer.render(CALLS)
    assert renderer.queries == [], "a call queried the engine while compiling"
    if UPDATE:
        RENDERED.mkdir(exist_ok=True)
        for stale in set(RENDERED.glob("*.sql")) - {RENDERED / f"{c['id']}.sql" for c in CALLS}:
            stale.unlink()
        for call_id, text in sql.items():
            (RENDERED / f"{call_id}.sql").write_text(text + "\n")
    return sql


def test_every_call_has_its_file_and_every_file_its_call(rendered):
    files = {path.stem for path in RENDERED.glob("*.sql")}
    ids = {c["id"] for c in CALLS}
    assert not ids - files, f"no file for {sorted(ids - files)}: TJ_UPDATE_RENDERED=1 writes them"
    assert not files - ids, f"files of no call: {sorted(files - ids)}: TJ_UPDATE_RENDERED=1 deletes them"


@pytest.mark.parametrize("call_id", [c["id"] for c in CALLS])
def test_rendered_sql_is_the_committed_file(rendered, call_id):
    path = RENDERED / f"{call_id}.sql"
    assert path.exists(), f"{path} missing: TJ_UPDATE_RENDERED=1 writes it"
    expected, actual = path.read_text(), rendered[call_id] + "\n"
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True),
                actual.splitlines(keepends=True),
                f"{path.relative_to(RENDERED.parents[2])} (committed)",
                f"{call_id} (rendered now)",
            )
        )
        pytest.fail(f"the SQL of {call_id} changed (TJ_UPDATE_RENDERED=1 rewrites the file):\n{diff}", pytrace=False)
