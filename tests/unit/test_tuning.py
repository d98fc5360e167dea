"""One tuning table per language, checked against each other once: temporal_joins.tuning.TUNING (which the
Python engines read) against _tj_tuning() in macros/_tuning.sql (parsed, no dbt run). Past the tables, no macro
reads a var with a default of its own or restates a constant, so a new one cannot drift. No Spark session."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from temporal_joins import broadcast_rule
from temporal_joins.asof import hot_keys, union
from temporal_joins.tuning import TUNING, setting

REPO = Path(__file__).resolve().parents[2]
MACROS = REPO / "macros"
TABLE = MACROS / "_tuning.sql"
# settings of the macros without a Python twin, and why
MACRO_ONLY = {
    "temporal_joins_compile_queries": True,  # whether macros may query while dbt compiles; Python always may
    "temporal_joins_union_fold_bigint": False,  # the Python union never folds the null flags into a bigint time
}
JINJA_LITERALS = {"none": "None", "true": "True", "false": "False"}


def _literal(text: str):
    return ast.literal_eval(re.sub(r"\b(none|true|false)\b", lambda m: JINJA_LITERALS[m.group(1)], text))


def _code(text: str) -> str:
    """A macro file without its Jinja comments."""
    return re.sub(r"\{#.*?#\}", "", text, flags=re.S)


def _other_macro_files() -> list[Path]:
    paths = sorted(p for p in MACROS.rglob("*.sql") if p != TABLE)
    assert len(paths) > 20, paths
    return paths


def macro_table() -> dict:
    """_tj_tuning()'s dict: its body is `set t = {}`, one `do t.update({key: literal})` per constant and
    `return(t)`; anything else in it fails here rather than be skipped."""
    body = re.search(r"\{%\s*macro _tj_tuning\(\)\s*%\}(.*?)\{%\s*endmacro\s*%\}", TABLE.read_text(), re.S)
    assert body, f"no macro _tj_tuning in {TABLE}"
    code = _code(body.group(1))
    statements = re.findall(r"\{%-?\s*(.*?)\s*-?%\}", code, re.S)
    assert statements[0] == "set t = {}", statements[0]
    table: dict = {}
    for statement in statements[1:]:
        entry = re.fullmatch(r"do t\.update\((\{.*\})\)", statement, re.S)
        assert entry, statement
        for key, value in _literal(entry.group(1)).items():
            assert key not in table, f"{key} twice"
            table[key] = value
    assert re.sub(r"\{%.*?%\}", "", code, flags=re.S).strip() == "{{ return(t) }}"
    return table


def test_the_macro_table_equals_the_python_table():
    assert not set(MACRO_ONLY) & set(TUNING)
    table = macro_table()
    assert set(table) == set(TUNING) | set(MACRO_ONLY), set(table) ^ (set(TUNING) | set(MACRO_ONLY))
    assert {k: table[k] for k in TUNING} == TUNING
    assert {k: table[k] for k in MACRO_ONLY} == MACRO_ONLY


def test_a_var_overrides_only_the_prefixed_names():
    assert all(k.startswith("temporal_joins_") or not k.startswith("temporal") for k in macro_table())
    assert setting("temporal_joins_hot_key_rows") == TUNING["temporal_joins_hot_key_rows"]
    assert setting("temporal_joins_hot_key_rows", {"temporal_joins_hot_key_rows": 1}) == 1
    assert setting("sample_rows", {"sample_rows": 5}) == TUNING["sample_rows"]  # no var behind a plain name


def test_no_macro_reads_a_var_past_the_accessor():
    """var() only in _tj_setting; no comment restates a var's default either (`var('temporal_joins_x', 2)`)."""
    for path in _other_macro_files():
        text = path.read_text()
        assert not re.search(r"\bvar\(", _code(text)), f"{path}: read it with temporal_joins._tj_setting(name)"
        assert not re.search(r"\bvar\(\s*'temporal_joins_\w+'\s*,", text), f"{path}: a default in a comment"


def test_every_setting_is_a_constant_and_every_constant_is_read():
    table = set(macro_table())
    settings, named = set(), set()
    for path in _other_macro_files():
        code = _code(path.read_text())
        settings |= set(re.findall(r"_tj_setting\('(\w+)'\)", code))
        named |= {k for k in table if f"'{k}'" in code}  # also a var's name passed on (_tj_whole_number_var)
    assert settings <= table, settings - table
    assert named == table, table - named


def test_no_macro_or_module_restates_a_distinctive_value():
    """The table's values of 10,000 and more appear nowhere else as literals: in no macro's code, in no module of
    src/temporal_joins but the table (the engines bind their module names from it)."""
    distinctive = {v for v in TUNING.values() if isinstance(v, int) and v >= 10_000}
    assert distinctive >= {100_000, 500_000, 10_000_000, 512 * 1024**2}
    for path in _other_macro_files():
        found = {int(n) for n in re.findall(r"\b\d+\b", _code(path.read_text()))} & distinctive
        assert not found, f"{path}: {found}; use temporal_joins._tj_setting(name)"
    for path in sorted((REPO / "src" / "temporal_joins").rglob("*.py")):
        if path.name == "tuning.py":
            continue
        found = {n.value for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Constant)} & distinctive
        assert not found, f"{path}: {found}; use temporal_joins.tuning.TUNING"


# the engines' module names (public, patched by tests) and the constant each is bound from
MODULE_NAMES = [
    (broadcast_rule, "BROADCAST_MAX_BYTES", "temporal_joins_broadcast_max_bytes"),
    (broadcast_rule, "BROADCAST_MAX_ROWS", "temporal_joins_broadcast_max_rows"),
    (broadcast_rule, "BROADCAST_MAX_ROWS_PER_KEY", "temporal_joins_broadcast_max_rows_per_key"),
    (broadcast_rule, "STATS_SAMPLE_ROWS", "sample_rows"),
    (hot_keys, "HOT_KEY_ROWS", "temporal_joins_hot_key_rows"),
    (hot_keys, "HOT_LEAST_ROWS", "hot_least_rows"),
    (hot_keys, "PARALLELISM", "temporal_joins_parallelism"),
    (hot_keys, "HOT_KEY_RANGES", "temporal_joins_time_ranges"),
    (hot_keys, "HOT_SAMPLE_ROWS", "sample_rows"),
    (union, "COLUMN_LIMIT", "temporal_joins_union_columns_max"),
]


def test_the_engines_module_names_are_the_tables():
    found = {f"{m.__name__}.{name}": getattr(m, name) for m, name, _ in MODULE_NAMES}
    assert found == {f"{m.__name__}.{name}": TUNING[key] for m, name, key in MODULE_NAMES}


def test_the_docs_state_the_tables_defaults():
    """`var('temporal_joins_x', default)` in the docs gives the table's default."""
    table = macro_table()
    found = 0
    for path in [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]:
        for name, default in re.findall(r"var\('(temporal_joins_\w+)', ([^)]+)\)", path.read_text()):
            found += 1
            assert name in table, f"{path}: {name}"
            assert _literal(default) == table[name], f"{path}: {name} {default}, the table's {table[name]!r}"
    assert found >= 5
