"""window_aggregate for Spark DataFrames, with the window_aggregate macro's semantics.

The SQL macro (macros/window_aggregate.sql, macros/window/) is the reference; this package
builds the same plans with DataFrame operations for dbt Python models. Strategies, one module
each, over the validated arguments of spec.py and the shared pieces of plan.py:

- ``union``: running sums and counts over ONE union of the right rows and K + 1 marker rows
  per left row (an anchor at the left time, one shifted copy per window), one shuffle by the
  keys, one sort, one running window; the markers of a left row meet again in a hash
  aggregate grouped by the keys and the left columns. min and max come from a bucketed band
  join whose pairs join the same aggregate (union.py).
- ``broadcast``: the distinct left rows are broadcast, the right rows stream past them, and
  one hash aggregate per left row takes Spark's own aggregates over each window's pairs
  (broadcast.py).
- ``auto``: broadcast when ``left_df``'s rows times their estimated size are at most
  BROADCAST_MAX_BYTES and it has at most BROADCAST_MAX_ROWS_PER_KEY rows per key (asof_join's
  rule and its sampled check), else union.

Either strategy's grouped rows become the output columns in output.py.
"""

from __future__ import annotations

from pyspark.sql import DataFrame

from temporal_joins import _spark_version
from temporal_joins.broadcast_rule import (
    BROADCAST_MAX_BYTES,
    BROADCAST_MAX_ROWS,
    BROADCAST_MAX_ROWS_PER_KEY,
    spine_fits,
)
from temporal_joins.defaults import WINDOW_AGGREGATE as D
from temporal_joins.window.broadcast import broadcast_grouped
from temporal_joins.window.output import finish
from temporal_joins.window.plan import Plan
from temporal_joins.window.spec import (
    AGGREGATES,
    DIRECTIONS,
    MACRO,
    STRATEGIES,
    Lookback,
    Measure,
    Output,
    WindowSpec,
    build_spec,
)
from temporal_joins.window.union import union_grouped

__all__ = [
    "window_aggregate",
    "WindowSpec",
    "build_spec",
    "STRATEGIES",
    "BROADCAST_MAX_BYTES",
    "BROADCAST_MAX_ROWS",
    "BROADCAST_MAX_ROWS_PER_KEY",
    "AGGREGATES",
    "DIRECTIONS",
    "MACRO",
    "Lookback",
    "Measure",
    "Output",
]


def window_aggregate(
    left_df: DataFrame,
    right_df: DataFrame,
    left_time: str,
    right_time: str,
    by=D["by"],
    windows=D["windows"],
    aggregates=D["aggregates"],
    lower_inclusive: bool = D["lower_inclusive"],
    upper_inclusive: bool = D["upper_inclusive"],
    direction: str = D["direction"],
    prefix: str = D["prefix"],
    strategy: str = D["strategy"],
) -> DataFrame:
    """Lookback (or look-ahead) aggregates of Spark DataFrames, per left row and window.

    For every left row (each exactly once, duplicates included) and every window ``w``: the
    aggregates of the right rows with the same keys and ``left_time - w < right_time <=
    left_time`` (backward, by default), with SQL's semantics. The Python twin of the
    ``temporal_joins.window_aggregate`` dbt macro: its arguments, rows, columns, types and
    error messages.

    Parameters
    ----------
    left_df, right_df : pyspark.sql.DataFrame
        The spine (every row is kept once, duplicates included) and the events aggregated.
    left_time, right_time : str
        Time columns: both numeric, both timestamp, or both date.
    by : str, list or dict, default ()
        Key columns (``'id'``, ``['a', 'b']``, ``[['user_id', 'customer_id']]``,
        ``{'user_id': 'customer_id'}``), or empty for no keys. Null keys never match.
    windows : list
        Window lengths: numbers for numeric times, interval strings (``'90 seconds'``,
        ``'1 hour'``, ``'7 days'``, ``'2 weeks'``) for timestamps (elapsed time), whole days or
        weeks for dates.
    aggregates : dict
        ``{column: [aggregates]}`` with ``sum``, ``count``, ``avg``, ``min``, ``max``, and
        ``'*': ['count']`` for count(*).
    lower_inclusive : bool, default False
        Whether the window's far end (``left_time - w`` backward, ``left_time + w`` forward)
        belongs to it.
    upper_inclusive : bool, default True
        Whether the end at ``left_time`` belongs to it.
    direction : {'backward', 'forward'}, default 'backward'
        ``backward``: ``left_time - w < right_time <= left_time``; ``forward`` mirrors it:
        ``left_time <= right_time < left_time + w``.
    prefix : str, default ''
        Put before every output name.
    strategy : {'auto', 'union', 'broadcast'}, default 'auto'
        ``union``: running sums over one union of both sides (one shuffle, one sort, for any
        number of windows; min/max from a bucketed band join); ``broadcast``: the distinct
        left rows are broadcast and every aggregate is taken over the pairs; ``auto``:
        broadcast when ``left_df``'s rows times their estimated size are at most
        BROADCAST_MAX_BYTES and it has at most BROADCAST_MAX_ROWS_PER_KEY rows per key
        (asof_join's rule), else union. Every strategy runs on Spark 3.5 and later, the
        Python API's minimum (on Spark 3.4 the SQL macro runs).

    Returns
    -------
    pyspark.sql.DataFrame
        Every left column in its order, then ``prefix + column + '_' + aggregate + '_' +
        suffix`` per window, column and aggregate (``prefix + 'count_' + suffix`` for
        count(*)); the suffix is the window's amount and unit letter (``'30 days'`` ->
        ``30d``, ``'90 seconds'`` -> ``90s``, ``2.5`` -> ``2_5``).

    Raises
    ------
    ValueError
        For a bad argument, naming it, the allowed values and what was received, as the macro;
        and on Spark < 3.5, naming ``left_df``.

    See Also
    --------
    temporal_joins.asof.asof_join : the latest right row instead of aggregates.

    Examples
    --------
    >>> from temporal_joins.window import window_aggregate
    >>> labels = spark.createDataFrame([(1, 10), (1, 20), (2, 15)], "id int, t int")
    >>> events = spark.createDataFrame([(1, 5, 2.0), (1, 18, 3.0), (1, 20, 4.0)], "id int, t int, v double")
    >>> window_aggregate(labels, events, "t", "t", by="id", windows=[10], aggregates={"v": ["sum"], "*": ["count"]},
    ...                  prefix="e_").orderBy("id", "t").show()
    +---+---+--------+----------+
    | id|  t|e_v_sum_10|e_count_10|
    +---+---+--------+----------+
    |  1| 10|     2.0|         1|
    |  1| 20|     7.0|         2|
    |  2| 15|    NULL|         0|
    +---+---+--------+----------+
    """
    s = build_spec(
        left_df=left_df,
        right_df=right_df,
        left_time=left_time,
        right_time=right_time,
        by=by,
        windows=windows,
        aggregates=aggregates,
        lower_inclusive=lower_inclusive,
        upper_inclusive=upper_inclusive,
        direction=direction,
        prefix=prefix,
        strategy=strategy,
    )
    _spark_version.check(MACRO, left_df)
    if s.strategy == "auto":
        # asof_join's rule (temporal_joins.broadcast_rule.spine_fits), on the left keys
        s = _with_strategy(s, "broadcast" if spine_fits(left_df, [left for left, _ in s.by]) else "union")
    p = Plan(left_df, right_df, s)
    grouped = union_grouped(left_df, right_df, p) if s.strategy == "union" else broadcast_grouped(left_df, right_df, p)
    return finish(grouped, p)


def _with_strategy(s: WindowSpec, strategy: str) -> WindowSpec:
    from dataclasses import replace

    return replace(s, strategy=strategy)
