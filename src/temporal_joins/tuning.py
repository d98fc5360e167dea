"""The tuning constants: one table, shared with the macros. Each is keyed by the dbt var that overrides
it in the macros (`temporal_joins_...`), or by a plain name when no var does. The macros hold the same
table in macros/_tuning.sql (`_tj_tuning()`, read through `_tj_setting(name)`); tests/unit/test_tuning.py
holds the two equal, key for key. A new constant goes in both. Figures behind the values:
benchmarks/README.md; their history: CHANGELOG.md.

The engines' module names (broadcast_rule.BROADCAST_MAX_BYTES, asof.hot_keys.HOT_KEY_ROWS,
asof.union.COLUMN_LIMIT, ...) are bound from here: they stay, as the public API exports some and tests
patch them."""

from __future__ import annotations

TUNING: dict[str, int | None] = {
    # auto broadcasts a left side of at most this many bytes (its rows times their estimated size)
    "temporal_joins_broadcast_max_bytes": 512 * 1024**2,
    # ... and of at most this many rows (None: no row limit, the bytes decide)
    "temporal_joins_broadcast_max_rows": None,
    # ... and of at most this many rows per key
    "temporal_joins_broadcast_max_rows_per_key": 2,
    # the union's widest right side that crosses column by column; a wider one travels as one struct
    "temporal_joins_union_columns_max": 2,
    # the ranges of time a split window runs in: a hot key's (the macros' keyless union's too; 1: no split)
    "temporal_joins_time_ranges": 64,
    # a key with this many estimated left rows is hot whatever the cores (0: never split a key)
    "temporal_joins_hot_key_rows": 10_000_000,
    # the cores a hot key's share is measured against (0: the session's, measured)
    "temporal_joins_parallelism": 0,
    # the fewest estimated left rows a key is split at for its share of the cores
    "hot_least_rows": 500_000,
    # the most hot keys split, the biggest first
    "hot_keys_max": 100,
    # the rows a sample reads: auto's rows per key, the hot keys' estimate (the macros: also the Hive bin's)
    "sample_rows": 100_000,
    # the seed of auto's random sample of rows per key
    "sample_seed": 7,
    # percentile_approx's accuracy for the quantiles a split window's ranges come from
    "quantile_accuracy": 1000,
}


def setting(name: str, dbt_vars: dict | None = None):
    """A constant as the macros read it (`_tj_setting`): the dbt var of a `temporal_joins_` name when set, else
    the table's value."""
    if name.startswith("temporal_joins_") and dbt_vars and name in dbt_vars:
        return dbt_vars[name]
    return TUNING[name]
