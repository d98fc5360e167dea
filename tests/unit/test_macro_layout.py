"""The macro files' layout (tools/macro_graph.py): the dialect layer holds every Spark/Hive difference,
the flavours take the public macros' arguments by name, and the file graph only gets simpler.
Cheap: reads macros/, no Spark, no dbt."""

from __future__ import annotations

import re

from tools.dbt_render import REPO, public_defaults
from tools.macro_graph import ALLOWED_CALLS, LIMIT, MAX_POSITIONAL, graph

MACROS = REPO / "macros"
PUBLIC = [
    "asof_join",
    "asof_join_many",
    "range_join",
    "interval_join",
    "interval_aggregate",
    "window_aggregate",
    "training_set_profile",
]
# what is left of issue 40's targets (none): may shrink, never grow
TWO_WAY_LEFT: set[tuple[str, str]] = set()
OVER_LIMIT_LEFT: set[str] = set()


def _package_graph() -> dict:
    return graph(MACROS)


def test_no_hive_string_outside_the_dialect_layer():
    assert _package_graph()["hive_strings"] == {}


def test_no_macro_takes_a_dialect_parameter():
    assert _package_graph()["dialect_params"] == []


def test_two_way_file_pairs_only_shrink():
    two_way = set(_package_graph()["two_way"])
    assert two_way <= TWO_WAY_LEFT, two_way - TWO_WAY_LEFT


def test_files_over_the_limit_only_shrink():
    over = set(_package_graph()["over_limit"])
    assert over <= OVER_LIMIT_LEFT, {n: _package_graph()["lines"][n] for n in over - OVER_LIMIT_LEFT}
    assert LIMIT == 400


def _signature(name: str) -> list[str]:
    for path in MACROS.rglob("*.sql"):
        m = re.search(r"\{%-?\s*macro\s+" + name + r"\((.*?)\)\s*-?%\}", path.read_text(), re.S)
        if m:
            return [a.split("=")[0].strip() for a in re.split(r",(?![^\[]*\])", m.group(1)) if a.strip()]
    raise AssertionError(f"no macro {name}")


def test_flavours_declare_the_public_arguments_without_defaults():
    """default__/hive__ take what the public macro takes, by name; the defaults live only in the public
    signature (tools/dbt_render.public_defaults reads them from there)."""
    for name in PUBLIC:
        public = _signature(name)
        assert set(public_defaults()[name]) <= set(public)
        for flavour in ("default__", "hive__"):
            assert _signature(flavour + name) == public, (flavour + name, public)
        text = (MACROS / f"{name}.sql").read_text()
        assert "*varargs" not in text and "**kwargs" not in text
        dispatched = re.search(r"adapter\.dispatch\('" + name + r"', 'temporal_joins'\)\((.*?)\)\) \}\}", text, re.S)
        assert dispatched, name
        passed = [a.strip() for a in dispatched.group(1).split(",")]
        assert passed == [f"{a}={a}" for a in public], name


def test_both_dialect_tables_hold_every_fragment():
    """Each dispatched fragment tj_<f> of the dialect layer is in the target's table (through dispatch) and in
    the Hive flavour's table."""
    text = (MACROS / "_dialect.sql").read_text()
    fragments = set(re.findall(r"\{% macro tj_(\w+)\(", text)) - {"dialect"}
    dispatched = set(re.findall(r"'(\w+)': adapter\.dispatch\('tj_\1', 'temporal_joins'\)", text))
    hive = set(re.findall(r"'(\w+)': temporal_joins\.(?:hive|default)__tj_\1\b", text))
    assert fragments == dispatched == hive, (fragments ^ dispatched, fragments ^ hive)


# Issue 48's reading order (docs/design.md, "Layers"): public macro -> spec -> plan -> SQL in every family.


def test_every_family_file_names_its_layer():
    unlayered = [n for n, lay in _package_graph()["layers"].items() if lay == "unlayered"]
    assert unlayered == [], f"name each with its layer's suffix (_spec.sql, _plan.sql, _sql.sql): {unlayered}"


def test_each_layer_calls_only_the_layers_below_it():
    wrong = {
        f"{a} -> {b}": calls
        for (a, b), calls in _package_graph()["layer_calls"].items()
        if a in ALLOWED_CALLS and b not in ALLOWED_CALLS[a]
    }
    assert wrong == {}, wrong


def test_dialect_capabilities_are_read_only_in_the_plan_layer():
    """flat_rows(), run_time_scalars(), expands_struct(), cores_query(): a question to the dialect, answered in the
    plan (a plan field the SQL reads), so that the SQL layer renders fragments and never branches on a dialect."""
    g = _package_graph()
    wrong = {n: caps for n, caps in g["capability_reads"].items() if g["layers"][n] not in ("dialect", "plan")}
    assert wrong == {}, wrong


def test_compile_time_queries_run_only_in_the_plan_layer():
    g = _package_graph()
    wrong = {n: count for n, count in g["run_query"].items() if g["layers"][n] not in ("plan", "other")}
    assert wrong == {}, wrong


def test_calls_with_more_than_three_arguments_pass_them_by_name():
    assert _package_graph()["positional"] == {}, f"more than {MAX_POSITIONAL} positional arguments"
