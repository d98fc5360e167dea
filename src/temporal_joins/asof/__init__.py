"""asof_join for Spark DataFrames, with the asof_join macro's semantics.

The SQL macro (macros/asof_join.sql) is the reference; this package runs the same join on
DataFrames for dbt Python models. Engines, one module each:

- ``native``: Spark's SortMergeAsOfJoin with its defects routed around (native.py), Spark >= 4.3;
- ``arrow``: bucketed cogroup (mapInArrow where cogroup().applyInArrow does not exist, Spark 3.5)
  + the numpy/pyarrow merge of merge.py (arrow.py);
- ``broadcast``: the macro's broadcast strategy (broadcast.py);
- ``union``: the macro's union strategy (union.py), keyed joins;
- ``auto``: broadcast when its rule holds, else union (keyed joins), else arrow.

``asof_join_many`` (many.py) joins one left DataFrame to many right ones in passes of the
union and broadcast engines, as the asof_join_many macro does. The Python API needs Spark >= 3.5;
temporal_joins._spark_version checks it, and what an engine needs beyond it, at the call.
"""

from __future__ import annotations

import dataclasses

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins import _spark_version
from temporal_joins import _validation as v
from temporal_joins.asof.arrow import BUCKET_BYTES, MAX_BUCKETS, arrow_join, choose_buckets
from temporal_joins.asof.broadcast import broadcast_fits, broadcast_join
from temporal_joins.asof.hot_keys import HOT_KEY_ROWS, HOT_SAMPLE_ROWS, hot_threshold, sample_least
from temporal_joins.asof.many import asof_join_many
from temporal_joins.asof.native import (
    CARTESIAN_NODES,
    NATIVE_FLAG,
    MetricsUnavailable,
    NativeAsOfUnavailable,
    check_native_plan,
    native_join,
    native_metrics,
    native_partitions,
    native_plan,
)
from temporal_joins.asof.spec import ASOF_JOIN_TYPES, DIRECTIONS, ENGINES, JOIN_TYPES, AsofSpec, build_spec
from temporal_joins.asof.union import union_join
from temporal_joins.broadcast_rule import BROADCAST_MAX_BYTES, BROADCAST_MAX_ROWS, BROADCAST_MAX_ROWS_PER_KEY
from temporal_joins.defaults import ASOF_JOIN as D

__all__ = [
    "asof_join",
    "asof_join_many",
    "AsofSpec",
    "NativeAsOfUnavailable",
    "MetricsUnavailable",
    "native_metrics",
    "native_plan",
    "BROADCAST_MAX_BYTES",
    "BROADCAST_MAX_ROWS",
    "BROADCAST_MAX_ROWS_PER_KEY",
    "BUCKET_BYTES",
    "MAX_BUCKETS",
    "CARTESIAN_NODES",
    "DIRECTIONS",
    "ENGINES",
    "JOIN_TYPES",
    "NATIVE_FLAG",
    "build_spec",
    "check_native_plan",
    "choose_buckets",
    "native_partitions",
    "HOT_KEY_ROWS",
    "HOT_SAMPLE_ROWS",
    "hot_threshold",
    "sample_least",
]


def asof_join(
    left_df: DataFrame,
    right_df: DataFrame,
    left_time: str,
    right_time: str,
    by=D["by"],
    direction: str = D["direction"],
    allow_exact_matches: bool = D["allow_exact_matches"],
    tolerance=D["tolerance"],
    join_type: str = D["join_type"],
    columns=D["columns"],
    prefix: str = D["prefix"],
    order_by=D["order_by"],
    engine: str = D["engine"],
    skip_nulls: bool | list[str] = D["skip_nulls"],
    null_safe_keys=D["null_safe_keys"],
) -> DataFrame:
    """Point-in-time (as-of) join of two Spark DataFrames.

    For every left row, the one right row with the same keys nearest in time: the Python
    twin of the ``temporal_joins.asof_join`` dbt macro, with its arguments, rows, columns
    and error messages.

    Parameters
    ----------
    left_df, right_df : pyspark.sql.DataFrame
        The spine (every row is kept once by a left join, duplicates included) and the
        table whose rows are matched to it.
    left_time, right_time : str
        Time columns: both numeric, both timestamp (or timestamp_ntz), or both date.
    by : str, list or dict, default ()
        Key columns with the same name on both sides (``'id'``, ``['a', 'b']``), left ->
        right pairs (``[['user_id', 'customer_id']]``, ``{'user_id': 'customer_id'}``),
        or empty for no keys. Null keys never match (but see ``null_safe_keys``).
    direction : {'backward', 'forward', 'nearest'}, default 'backward'
        ``backward``: the greatest ``right_time <= left_time``; ``forward``: the smallest
        ``right_time >= left_time``; ``nearest``: the smaller distance, the backward row on
        equal distance.
    allow_exact_matches : bool, default True
        False makes the comparison strict (``<`` / ``>``).
    tolerance : number, str, datetime.timedelta or None, default None
        The farthest a match may lie, inclusive: a non-negative number for numeric times,
        an interval string (``'90 seconds'``, ``'7 days'``) or timedelta for timestamps,
        whole days or weeks for dates.
    join_type : {'left', 'inner', 'semi', 'anti'}, default 'left'
        ``left`` keeps every left row (nulls where nothing matched); ``inner`` drops those;
        ``semi`` returns the left rows that have a match, ``anti`` those that have none (the
        left columns only, each left row once, duplicates kept), on every engine. The macro's
        ``right`` and ``full`` raise a ValueError naming the engine (SQL only: the union
        strategy).
    columns : list of str, optional
        Right columns to output; default every right column except the keys. The matched
        ``right_time`` is always output, first.
    prefix : str, default ''
        Put before each right output name. A right output name that collides with a left
        column raises.
    order_by : str or list of str, optional
        Right columns that break ties among right rows with the same time: the greatest
        wins, compared column by column, null lowest. Without it a tie goes to any one of
        the tied rows (always one whole row).
    engine : {'auto', 'broadcast', 'native', 'arrow', 'union'}, default 'auto'
        ``broadcast`` (keyed joins; small left side, few rows per key), ``native`` (Spark's
        SortMergeAsOfJoin, keyed joins, Spark >= 4.3), ``arrow`` (vectorized merge per
        bucket; without keys over ranges of time), ``union`` (the macro's union strategy:
        one shuffle, one sort and one window per time order; keyed joins); ``auto`` picks
        broadcast when ``left_df``'s rows times their estimated size are at most
        BROADCAST_MAX_BYTES (512 MiB) and it has at most BROADCAST_MAX_ROWS_PER_KEY rows
        per key (counted on a sample of about STATS_SAMPLE_ROWS rows for bigger spines:
        two cheap jobs), else union for keyed joins, else arrow. Every engine but
        ``native`` runs on Spark 3.5 and later (``arrow`` merges through
        cogroup().applyInArrow from Spark 4.0, through mapInArrow before);
        ``native`` on an older Spark raises NativeAsOfUnavailable at the call, before any job.
        The Python API needs Spark >= 3.5 (on Spark 3.4 the SQL macro runs).
    skip_nulls : bool or list of str, default False
        False: the matched row whole (a null inside it stays null). True: each right column
        takes its value from the best candidate where it is not null (tempo's ``skipNulls``,
        for sparse update tables), under the same direction, exactness, tolerance and ties;
        the time comes from the best candidate. A list of right columns (among those
        ``columns`` brings, not ``right_time`` or a key): only those, the others from the
        matched row (``union``: at most 30 that may be null outside the list). Every engine
        but ``native`` (Spark's operator keeps whole rows) takes it; ``union`` without keys
        and the hot-key split do not apply.
    null_safe_keys : bool or list of str, default False
        False: a null key matches nothing. True: every ``by`` pair compares null-safe (a null
        key matches a null key, SQL's ``<=>``, DuckDB's ``IS NOT DISTINCT FROM``); a list of
        left key names: those pairs. Every engine but ``arrow`` (which ``auto`` takes only
        without keys); the hot-key split does not apply.

    Returns
    -------
    pyspark.sql.DataFrame
        Every left column in its order and name, then the right columns (``prefix`` +
        name) of the matched row, whole: a null inside the matched row stays null.

    Raises
    ------
    ValueError
        For a bad argument, naming it, the allowed values and what was received:
        ``temporal_joins.asof_join: invalid argument `direction`. Allowed: backward,
        forward, nearest. Received: 'sideways'.``; and on Spark < 3.5, naming ``left_df``.
    NativeAsOfUnavailable
        A RuntimeError: ``engine='native'`` on Spark < 4.3 (at the call, before any job, in the
        shape above, naming the running Spark and the engines that run on it), on a Spark that
        does not plan SortMergeAsOfJoin, or on a session that may not set the configs it plans
        with (``auto`` never takes ``native``).

    See Also
    --------
    pandas.merge_asof : the same join on pandas DataFrames (single node).

    Examples
    --------
    >>> from temporal_joins.asof import asof_join
    >>> labels = spark.createDataFrame([(1, 10), (1, 20), (2, 15)], "id int, t int")
    >>> features = spark.createDataFrame([(1, 5, "a"), (1, 18, "b"), (2, 16, "c")], "id int, t int, v string")
    >>> asof_join(labels, features, "t", "t", by="id", prefix="f_").orderBy("id", "t").show()
    +---+---+----+----+
    | id|  t| f_t| f_v|
    +---+---+----+----+
    |  1| 10|   5|   a|
    |  1| 20|  18|   b|
    |  2| 15|NULL|NULL|
    +---+---+----+----+
    """
    s = build_spec(
        left_df=left_df,
        right_df=right_df,
        left_time=left_time,
        right_time=right_time,
        by=by,
        direction=direction,
        allow_exact_matches=allow_exact_matches,
        tolerance=tolerance,
        join_type=join_type,
        columns=columns,
        prefix=prefix,
        order_by=order_by,
        engine=engine,
        skip_nulls=skip_nulls,
        join_types=ASOF_JOIN_TYPES,
        null_safe_keys=null_safe_keys,
    )
    if s.join_type in ("semi", "anti"):
        # the left join's rows filtered: the matched time is never null on a match
        joined = _join(left_df, right_df, dataclasses.replace(s, join_type="left"))
        matched = F.col(f"`{s.right_columns[0][1]}`").isNotNull()
        return joined.where(matched if s.join_type == "semi" else ~matched).select(
            *[F.col(f"`{c}`") for c in s.left_columns]
        )
    return _join(left_df, right_df, s)


def _join(left_df: DataFrame, right_df: DataFrame, s: AsofSpec) -> DataFrame:
    """The left or inner join of a checked spec on its engine."""
    _spark_version.check(s.macro, left_df, s.engine, ENGINES, NativeAsOfUnavailable)
    if s.skip_nulls and s.engine == "native":
        v.fail(
            s.macro,
            "engine",
            "auto, arrow, broadcast, union with skip_nulls (Spark's SortMergeAsOfJoin keeps whole rows)",
            s.engine,
        )
    if s.any_null_safe() and s.engine == "arrow":
        v.fail(
            s.macro,
            "engine",
            "auto, broadcast, native, union with null_safe_keys (arrow merges the keys that are not null)",
            s.engine,
        )
    if s.engine == "broadcast" or (s.engine == "auto" and broadcast_fits(left_df, s)):
        return broadcast_join(left_df, right_df, s)
    # auto: union for keyed joins, as the macro; native buffers whole key groups and falls far
    # behind on skewed or many-labels-per-key spines (benchmarks/README.md, "Python engines")
    if s.engine == "union" or (s.engine == "auto" and s.by):
        return union_join(left_df, [(right_df, s)], s.join_type)
    if s.engine in ("arrow", "auto"):
        return arrow_join(left_df, right_df, s)
    return native_join(left_df, right_df, s)
