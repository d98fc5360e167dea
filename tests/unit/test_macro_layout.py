"""The macro files' layout (tools/macro_graph.py): the dialect layer holds every Spark/Hive difference,
the flavours take the public macros' arguments by name, and the file graph only gets simpler.
Cheap: reads macros/, no Spark, no dbt."""

from __future__ import annotations

import re

from tools.dbt_render import REPO, public_defaults
from tools.macro_graph import LIMIT, graph

MACROS = REPO / "macros"
PUBLIC = ["asof_join", "asof_join_many", "range_join", "interval_join", "interval_aggregate", "window_aggregate"]
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
