"""asof_join_many on DataFrames: the asof_join_many macro's passes (macros/asof/_asof_many_plan.sql).

Entries whose left keys are the same columns (and whose right keys and times compare as the same
kind of type) share one union pass; each further key set is one more pass, reading the previous
pass's output as its left side, so duplicate left rows stay separate rows. engine='auto' takes
broadcast for the key sets where asof_join's rule holds (all of them in one broadcast pass, first),
union for the others, and asof_join's own auto (arrow over ranges of time) for an entry without
keys. When every entry has a tolerance, right rows that no left row can match are filtered first.
"""

from __future__ import annotations

import dataclasses

from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins import _spark_version
from temporal_joins import _validation as v
from temporal_joins.asof._exprs import time_units, within_tolerance
from temporal_joins.asof.arrow import arrow_join
from temporal_joins.asof.broadcast import broadcast_fits, broadcast_many
from temporal_joins.asof.spec import DIRECTIONS, JOIN_TYPES, AsofSpec, build_spec
from temporal_joins.asof.union import union_join
from temporal_joins.defaults import ASOF_ENTRY, ASOF_JOIN_MANY

MACRO = "asof_join_many"
ENGINES = ("auto", "union", "broadcast")
# each entry's arguments and defaults: asof_join's (temporal_joins.defaults)
ENTRY_DEFAULTS = ASOF_ENTRY
ENTRY_KEYS = ("right_df", "right_time", *ENTRY_DEFAULTS)


def _type_class(dtype) -> str:
    """How a key or time compares inside a union: integers and decimals exactly, floating point as
    double, other types as themselves (the macro's _asof_type_class)."""
    name = dtype.simpleString()
    if v.time_kind(name) == "numeric_integral" or name.startswith("decimal"):
        return "exact"
    if name in ("float", "double"):
        return "float"
    return name


def _signature(right_df: DataFrame, s: AsofSpec) -> tuple:
    pairs = sorted(s.by, key=lambda pair: pair[0].lower())
    keys = tuple((left.lower(), _type_class(right_df.schema[right].dataType)) for left, right in pairs)
    return keys, _type_class(s.right_type)


def _specs(left_df, left_time, rights, join_type) -> list[tuple[DataFrame, AsofSpec]]:
    allowed = "a mapping with `right_df` and `right_time`, and any of asof_join's " + ", ".join(ENTRY_DEFAULTS)
    if not isinstance(rights, (list, tuple)) or not rights:
        v.fail(MACRO, "rights", "a non-empty list of entries, each " + allowed, rights)
    entries = []
    for i, item in enumerate(rights):
        if not isinstance(item, dict):
            v.fail(MACRO, f"rights[{i}]", allowed, item)
        for key in item:
            if key not in ENTRY_KEYS:
                v.fail(MACRO, f"rights[{i}]", "the keys " + ", ".join(ENTRY_KEYS), key, "unknown key")
        args = {**ENTRY_DEFAULTS, **item}
        scope = v.Scope(MACRO, f"rights[{i}].")
        s = build_spec(
            left_df,
            args.get("right_df"),
            left_time,
            args.get("right_time"),
            args["by"],
            args["direction"],
            args["allow_exact_matches"],
            args["tolerance"],
            join_type,
            args["columns"],
            args["prefix"],
            args["order_by"],
            "auto",
            macro=scope,
            skip_nulls=args["skip_nulls"],
            null_safe_keys=args["null_safe_keys"],
        )
        entries.append((args["right_df"], s))
    # an output name used by two entries names both
    taken: dict[str, str] = {}
    for i, (_, s) in enumerate(entries):
        for source, output in s.right_columns:
            what = f"right column `{source}` of rights[{i}]"
            if output.lower() in taken:
                v.fail(
                    s.macro,
                    "prefix",
                    "a prefix that keeps the output names apart from the left columns and from each other",
                    rights[i].get("prefix", ""),
                    f"{what} would be output as `{output}`, which collides with {taken[output.lower()]}",
                )
            taken[output.lower()] = f"{what} (output as `{output}`)"
    return entries


def _pruned(left_df: DataFrame, entries: list[tuple[DataFrame, AsofSpec]]) -> list[tuple[DataFrame, AsofSpec]]:
    """Right rows no left row can match filtered out, when every entry has a tolerance (one job on
    left_df: its earliest and latest time in the engines' exact units)."""
    if any(s.tolerance is None for _, s in entries):
        return entries
    # the left times in each entry's units (a TIMESTAMP_NTZ reads differently against NTZ and TIMESTAMP)
    types = list(dict.fromkeys(s.right_type for _, s in entries))
    s0 = entries[0][1]
    aggs = []
    for other in types:
        units = time_units(F.col(f"`{s0.left_time}`"), s0.kind, s0.left_type, other)
        aggs += [F.min(units), F.max(units)]
    found = left_df.agg(*aggs).first()
    if found[0] is None:
        return entries
    out = []
    for right_df, s in entries:
        k = types.index(s.right_type)
        lo, hi = found[2 * k], found[2 * k + 1]
        rt = time_units(F.col(f"`{s.right_time}`"), s.kind, s.right_type, s.left_type)
        # the match's own arithmetic at the earliest / latest left time: exact or looser, never tighter
        back = within_tolerance(F.lit(lo), rt, dataclasses.replace(s, direction="backward"))
        fwd = within_tolerance(F.lit(hi), rt, dataclasses.replace(s, direction="forward"))
        keep = {"backward": back & (rt <= F.lit(hi)), "forward": (rt >= F.lit(lo)) & fwd, "nearest": back & fwd}
        out.append((right_df.where(keep[s.direction]), s))
    return out


def asof_join_many(
    left_df: DataFrame,
    left_time: str,
    rights: list[dict],
    join_type: str = ASOF_JOIN_MANY["join_type"],
    engine: str = ASOF_JOIN_MANY["engine"],
) -> DataFrame:
    """Point-in-time join of one DataFrame to many: a training set's label spine to its feature tables.

    The rows of chaining :func:`asof_join` once per entry of ``rights``, in order, computed with
    one shuffle and one sort per set of left keys: the Python twin of the
    ``temporal_joins.asof_join_many`` dbt macro, with its arguments, rows, columns and error
    messages (each naming the entry: ``rights[1].direction``).

    Parameters
    ----------
    left_df : pyspark.sql.DataFrame
        The spine: every row is kept once by a left join, duplicates included.
    left_time : str
        Its time column, compared with every entry's ``right_time`` (numeric, timestamp or date;
        each entry's of the same kind).
    rights : list of dict
        The entries, at least one. Each holds ``right_df`` and ``right_time``, and any of
        :func:`asof_join`'s ``by``, ``direction``, ``allow_exact_matches``, ``tolerance``,
        ``columns``, ``prefix`` and ``order_by``, with the same meanings and defaults. An output
        name used by two entries, or by an entry and ``left_df``, raises naming both.
    join_type : {'left', 'inner'}, default 'left'
        ``left`` keeps every left row; ``inner`` only those with a match in every entry.
    engine : {'auto', 'union', 'broadcast'}, default 'auto'
        ``union``: one union pass per key set (entries need ``by``); ``broadcast``: one
        broadcast pass for every entry (each needs ``by``); ``auto``: broadcast for the key sets
        where :func:`asof_join`'s rule holds (one job on ``left_df`` per key set), union for the
        others, and :func:`asof_join`'s ``auto`` for an entry without keys. Every engine runs on
        Spark 3.5 and later, the Python API's minimum (on Spark 3.4 the SQL macro runs).

    Returns
    -------
    pyspark.sql.DataFrame
        Every column of ``left_df`` in its order, then each entry's right columns (its
        ``prefix`` + name), in the entries' order.

    Raises
    ------
    ValueError
        For a bad argument, as :func:`asof_join` does, naming the entry:
        ``temporal_joins.asof_join_many: invalid argument `rights[1].direction`. Allowed:
        backward, forward, nearest. Received: 'sideways'.``; and on Spark < 3.5, naming ``left_df``.

    See Also
    --------
    asof_join : one right side.

    Examples
    --------
    >>> from temporal_joins.asof import asof_join_many
    >>> labels = spark.createDataFrame([(1, 10, 7), (2, 15, 9)], "customer_id int, t int, account_id int")
    >>> plans = spark.createDataFrame([(1, 5, "pro"), (2, 16, "free")], "customer_id int, t int, plan string")
    >>> owners = spark.createDataFrame([(7, 12, "ann"), (9, 1, "bob")], "account_id int, t int, owner string")
    >>> asof_join_many(labels, "t", [
    ...     {"right_df": plans, "right_time": "t", "by": "customer_id", "prefix": "plan_", "tolerance": 30},
    ...     {"right_df": owners, "right_time": "t", "by": "account_id", "prefix": "owner_", "direction": "nearest"},
    ... ]).orderBy("customer_id").show()
    +-----------+---+----------+------+---------+-------+-----------+
    |customer_id|  t|account_id|plan_t|plan_plan|owner_t|owner_owner|
    +-----------+---+----------+------+---------+-------+-----------+
    |          1| 10|         7|     5|      pro|     12|        ann|
    |          2| 15|         9|  NULL|     NULL|      1|        bob|
    +-----------+---+----------+------+---------+-------+-----------+
    """
    if not isinstance(left_df, DataFrame):
        v.fail(MACRO, "left_df", "a pyspark.sql.DataFrame", type(left_df).__name__)
    v.required(MACRO, "left_time", left_time, "a column of `left`")
    left_time = v.find_column(
        MACRO, "left_time", list(left_df.columns), "left", v.identifier(MACRO, "left_time", left_time)
    )
    type_name = left_df.schema[left_time].dataType.simpleString()
    if v.time_kind(type_name) == "other":
        v.fail(
            MACRO, "left_time", "a numeric, timestamp or date column", left_time, "unsupported column type", type_name
        )
    join_type = v.choice(MACRO, "join_type", join_type, JOIN_TYPES)
    engine = v.choice(MACRO, "engine", engine, ENGINES)
    entries = _specs(left_df, left_time, rights, join_type)
    _spark_version.check(MACRO, left_df, engine, ENGINES)
    if engine in ("union", "broadcast"):
        for _, s in entries:
            s.require_by(engine, "it joins per key; engine='auto' takes another path for an entry without keys")

    # the passes, in the order they run
    groups: dict[tuple, list[int]] = {}
    for i, (right_df, s) in enumerate(entries):
        groups.setdefault(_signature(right_df, s) if s.by else ("keyless", i), []).append(i)
    broadcast, passes = [], []
    for members in groups.values():
        s0 = entries[members[0]][1]
        if engine == "broadcast" or (engine == "auto" and s0.by and broadcast_fits(left_df, s0)):
            broadcast += members
        else:
            passes.append(("union" if s0.by else "single", members))
    if broadcast:
        passes.insert(0, ("broadcast", sorted(broadcast)))

    pruned = _pruned(left_df, entries)
    out = left_df
    for kind, members in passes:
        chosen = [pruned[i] for i in members]
        if kind == "broadcast":
            out = broadcast_many(out, chosen, join_type, MACRO, engine)
        elif kind == "union":
            out = union_join(out, chosen, join_type)
        else:  # an entry without keys: what asof_join's auto takes, arrow over ranges of time
            right_df, s = chosen[0]
            out = arrow_join(out, right_df, dataclasses.replace(s, left_columns=tuple(out.columns)))
    order = list(left_df.columns) + [o for _, s in entries for _, o in s.right_columns]
    return out.select(*[F.col(f"`{c}`") for c in order])


__all__ = ["DIRECTIONS", "ENGINES", "MACRO", "asof_join_many"]
