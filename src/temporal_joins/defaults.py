"""The Python API's defaults: one table per public function, read by the functions' signatures
(and by asof_join_many's entries). They equal the public macros' signature defaults in macros/;
tests/unit/test_defaults.py compares the two tables once. A new option goes here first.

Python names follow the macros' except where SQL_NAMES says otherwise; a list default of the
macros is a tuple here (defaults are never mutated, but a tuple cannot be)."""

from __future__ import annotations

ASOF_JOIN = {
    "by": (),
    "direction": "backward",
    "allow_exact_matches": True,
    "tolerance": None,
    "join_type": "left",
    "columns": None,
    "prefix": "",
    "order_by": None,
    "engine": "auto",
    "skip_nulls": False,
    "null_safe_keys": False,
}
# each entry of asof_join_many's `rights` takes these of asof_join's arguments, with its defaults
ENTRY_ARGUMENTS = (
    "by",
    "direction",
    "allow_exact_matches",
    "tolerance",
    "columns",
    "prefix",
    "order_by",
    "skip_nulls",
    "null_safe_keys",
)
ASOF_ENTRY = {k: ASOF_JOIN[k] for k in ENTRY_ARGUMENTS}
ASOF_JOIN_MANY = {"join_type": "left", "engine": "auto"}
WINDOW_AGGREGATE = {
    "by": (),
    "windows": None,
    "aggregates": None,
    "lower_inclusive": False,
    "upper_inclusive": True,
    "direction": "backward",
    "prefix": "",
    "strategy": "auto",
}
TRAINING_SET_PROFILE = {"bound": None}

# {macro: {python argument: default}}: what tests/unit/test_defaults.py holds equal to the macros' signatures
DEFAULTS = {
    "asof_join": ASOF_JOIN,
    "asof_join_many": ASOF_JOIN_MANY,
    "window_aggregate": WINDOW_AGGREGATE,
    "training_set_profile": TRAINING_SET_PROFILE,
}
# {macro: {python argument: the macro's argument}} where the names differ
SQL_NAMES = {"asof_join": {"engine": "strategy"}, "asof_join_many": {"engine": "strategy"}}
