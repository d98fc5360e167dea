"""One defaults table per language, checked against each other once: temporal_joins.defaults (which
the Python API's signatures read) against the public macros' signature defaults in macros/ (read by
tools/dbt_render.public_defaults, no dbt run). No Spark session."""

import inspect

from temporal_joins import defaults
from temporal_joins.asof import asof_join, asof_join_many
from temporal_joins.asof.many import ENTRY_DEFAULTS
from temporal_joins.profile import training_set_profile
from temporal_joins.window import window_aggregate
from tools.dbt_render import public_defaults

# macro arguments without a Python twin, and why
SQL_ONLY = {
    "window_aggregate": {"types"},  # the column types of a CTE, which a DataFrame carries itself
}
# none in the macro's signature; required in Python
REQUIRED = {"left_time", "right_time", "rights", "entries"}
SQL_ONLY["training_set_profile"] = {"model"}  # the DataFrame is the Python twin's first argument


def _sql_value(value):
    return list(value) if isinstance(value, tuple) else value


def test_python_defaults_equal_the_macros_signatures():
    sql = public_defaults()
    for macro, table in defaults.DEFAULTS.items():
        names = defaults.SQL_NAMES.get(macro, {})
        expected = {a: d for a, d in sql[macro].items() if a not in REQUIRED | SQL_ONLY.get(macro, set())}
        assert {names.get(a, a): _sql_value(d) for a, d in table.items()} == expected, macro


def test_the_api_reads_the_table():
    for fn, table in ((asof_join, defaults.ASOF_JOIN), (asof_join_many, defaults.ASOF_JOIN_MANY)):
        params = inspect.signature(fn).parameters
        assert {n: p.default for n, p in params.items() if p.default is not p.empty} == table, fn.__name__
    for fn, table in (
        (window_aggregate, defaults.WINDOW_AGGREGATE),
        (training_set_profile, defaults.TRAINING_SET_PROFILE),
    ):
        params = inspect.signature(fn).parameters
        assert {n: p.default for n, p in params.items() if p.default is not p.empty} == table, fn.__name__
    assert {k: defaults.ASOF_JOIN[k] for k in defaults.ENTRY_ARGUMENTS} == ENTRY_DEFAULTS
