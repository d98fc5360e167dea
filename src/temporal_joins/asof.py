"""asof_join for Spark DataFrames: the dbt macro's semantics, on a native or a vectorized engine.

The SQL macro (macros/asof_join.sql) is the reference. For every left row this returns the
left row once (duplicates included) plus the one right row with the same keys nearest in
time: `backward` (right_time <= left_time), `forward` (>=) or `nearest` (the closer one, the
backward one on equal distance); `allow_exact_matches=False` makes the comparisons strict;
`tolerance` drops a match farther than it; right rows with a null key or time never match,
nor do left rows with a null key or time. Among right rows with the same time the largest
`order_by` wins (nulls lowest); without order_by such ties are arbitrary, as in the macro.
Output: the left columns in their order and names, then the right `columns` (default: all
but the right keys; the matched right_time always comes first), each named prefix ~ name.

Engines (see README.md#python-fallback):
  native  Spark 4.3's SortMergeAsOfJoin through DataFrame._joinAsOf, with its defects routed
          around: TIMESTAMP/DATE as-of columns go in as epoch microseconds/days, right rows
          are reduced to one per (keys, time) when it matters (order_by, nearest), and the
          physical plan is checked, and pinned, while the flag is set.
  arrow   both sides hash-partitioned into B buckets by the keys (without keys: B ranges of
          time, each also given the right rows it may match just outside it); each bucket
          merged by cogroup().applyInArrow with a numpy/pyarrow as-of (one sort, running max/min).
  broadcast  (keyed joins) the left rows are broadcast; right rows stream past them into a
          hash aggregate that keeps the best candidate per left row: the right side is never
          shuffled or sorted. Each right row pairs with every left row of its key on the
          allowed side, so it is for small left sides with few rows per key.
  auto    broadcast when the join is keyed and one query on the left side finds at most
          BROADCAST_MAX_ROWS rows and BROADCAST_MAX_ROWS_PER_KEY rows per key (the macro's
          auto rule, with its defaults); else native when the join is keyed and the running
          Spark plans SortMergeAsOfJoin, else arrow.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
from decimal import Decimal, ROUND_FLOOR
from typing import Any

MACRO = "asof_join"
IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_]*$"
DIRECTIONS = ("backward", "forward", "nearest")
JOIN_TYPES = ("left", "inner")
ENGINES = ("auto", "native", "arrow", "broadcast")
# auto's broadcast rule: the same defaults as the macro's vars temporal_joins_broadcast_max_rows(_per_key)
BROADCAST_MAX_ROWS = 2_000_000
BROADCAST_MAX_ROWS_PER_KEY = 2
NATIVE_FLAG = "spark.sql.join.sortMergeAsOfJoin.enabled"
# Plan nodes that mean the as-of join was rewritten into a (near-)cartesian product.
CARTESIAN_NODES = ("CartesianProduct", "BroadcastNestedLoopJoin")
# Target bytes of one arrow bucket (both sides): what one Python worker holds at once.
BUCKET_BYTES = 32 * 1024 * 1024
MAX_BUCKETS = 4096
_UINT64_MAX = 2**64 - 1


class NativeAsOfUnavailable(RuntimeError):
    """Spark did not plan SortMergeAsOfJoin (Spark < 4.3, or the operator was rewritten away)."""


# --------------------------------------------------------------------------- validation
# Same error shape as macros/_validation.sql's _tj_fail.

def _repr(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, str):
        return f"'{value}'"
    return str(value)


def _fail(argument: str, allowed: str, received: Any, detail: str | None = None):
    msg = (f"temporal_joins.{MACRO}: invalid argument `{argument}`" + (f": {detail}" if detail else "")
           + f". Allowed: {allowed}. Received: {_repr(received)}.")
    raise ValueError(msg)


def _identifier(argument: str, value: Any) -> str:
    if not isinstance(value, str) or not re.match(IDENTIFIER, value):
        _fail(argument, f"a column name matching {IDENTIFIER}", value)
    return value


def _identifier_list(argument: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [_identifier(argument, value)]
    if isinstance(value, (list, tuple)):
        return [_identifier(argument, v) for v in value]
    _fail(argument, "a column name or a list of column names", value)


def _by_pairs(value: Any) -> list[tuple[str, str]]:
    allowed = "a column name, a list of column names and/or [left, right] pairs, or a {left: right} mapping"
    if value is None:
        return []
    if isinstance(value, str):
        name = _identifier("by", value)
        return [(name, name)]
    if isinstance(value, dict):
        return [(_identifier("by", l), _identifier("by", r)) for l, r in value.items()]
    if isinstance(value, (list, tuple)):
        pairs = []
        for item in value:
            if isinstance(item, str):
                name = _identifier("by", item)
                pairs.append((name, name))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                pairs.append((_identifier("by", item[0]), _identifier("by", item[1])))
            else:
                _fail("by", allowed, value)
        return pairs
    _fail("by", allowed, value)


def _require_by(s, engine: str, why: str):
    if not s.by:
        _fail("by", f"one or more key columns when engine is {engine} ({why})", [])


def _choice(argument: str, value: Any, allowed) -> str:
    normalized = value.lower() if isinstance(value, str) else value
    if normalized not in allowed:
        _fail(argument, ", ".join(allowed), value)
    return normalized


def _find(df_columns: list[str], argument: str, relation: str, name: str) -> str:
    for c in df_columns:
        if c.lower() == name.lower():
            return c
    _fail(argument, f"columns of `{relation}` ({', '.join(df_columns)})", name, f"column not found in {relation}")


def _time_kind(dtype) -> str:
    from pyspark.sql import types as T

    if isinstance(dtype, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return "numeric_integral"
    if isinstance(dtype, (T.FloatType, T.DoubleType, T.DecimalType)):
        return "numeric"
    if isinstance(dtype, (T.TimestampType, T.TimestampNTZType)):
        return "timestamp"
    if isinstance(dtype, T.DateType):
        return "date"
    return "other"


def _family(kind: str) -> str:
    return "numeric" if kind.startswith("numeric") else kind


_INTERVAL = re.compile(r"^\s*(?:interval\s+)?(\d+(?:\.\d+)?)\s+(second|minute|hour|day|week)s?\s*$")
_UNIT_MICROS = {"second": 10**6, "minute": 60 * 10**6, "hour": 3600 * 10**6, "day": 86400 * 10**6,
                "week": 7 * 86400 * 10**6}


def _distance(value: Any, kind: str):
    """Parse a tolerance as the macro's _tj_distance does; returns a Decimal in the join's
    units (numbers; epoch microseconds for timestamps; days for dates) or None."""
    family = _family(kind)
    if value is None:
        return None
    if family == "numeric":
        if isinstance(value, bool) or not isinstance(value, (int, float, Decimal)) or value < 0 \
                or (isinstance(value, float) and math.isnan(value)):
            _fail("tolerance", "a non-negative number for numeric time columns", value)
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    allowed = ("an interval string such as '90 seconds', '7 days', 'interval 1 hour' (units: second, minute, "
               f"hour, day, week) for {family} time columns" + ("; whole days or weeks for dates" if family == "date" else ""))
    if isinstance(value, _dt.timedelta) and family == "timestamp" and value >= _dt.timedelta(0):
        # a Python convenience the macro cannot take: exact, in microseconds
        return Decimal(value // _dt.timedelta(microseconds=1))
    if not isinstance(value, str):
        _fail("tolerance", allowed, value)
    m = _INTERVAL.match(value.lower())
    if m is None:
        _fail("tolerance", allowed, value)
    amount, unit = m.group(1), m.group(2)
    if "." in amount and unit != "second":
        _fail("tolerance", allowed, value, "fractions are only allowed for seconds")
    if family == "date":
        if unit not in ("day", "week"):
            _fail("tolerance", allowed, value, "date columns take whole days or weeks")
        return Decimal(int(amount) * (7 if unit == "week" else 1))
    return Decimal(amount) * _UNIT_MICROS[unit]


class _Spec:
    """The validated request, the Python twin of _asof_spec's return value."""


def _spec(left_df, right_df, left_time, right_time, by, direction, allow_exact_matches, tolerance,
          join_type, columns, prefix, order_by, engine) -> _Spec:
    from pyspark.sql import DataFrame

    for argument, df in (("left_df", left_df), ("right_df", right_df)):
        if not isinstance(df, DataFrame):
            _fail(argument, "a pyspark.sql.DataFrame", type(df).__name__)
    for argument, value in (("left_time", left_time), ("right_time", right_time)):
        if value is None or (isinstance(value, str) and value.strip() == ""):
            _fail(argument, f"a column of `{'left' if argument == 'left_time' else 'right'}`", None,
                  "this argument is required")
    s = _Spec()
    s.direction = _choice("direction", direction, DIRECTIONS)
    s.join_type = _choice("join_type", join_type, JOIN_TYPES)
    s.engine = _choice("engine", engine, ENGINES)
    if allow_exact_matches is not True and allow_exact_matches is not False:
        _fail("allow_exact_matches", "true, false", allow_exact_matches)
    s.allow_exact_matches = allow_exact_matches
    if prefix is None:
        prefix = ""
    if not isinstance(prefix, str) or not re.match(r"^[A-Za-z0-9_]*$", prefix) or (prefix and prefix[0].isdigit()):
        _fail("prefix", "'' or a name prefix of letters, digits and underscores, not starting with a digit", prefix)
    s.prefix = prefix

    left_cols, right_cols = left_df.columns, right_df.columns
    s.left_time = _find(left_cols, "left_time", "left", _identifier("left_time", left_time))
    s.right_time = _find(right_cols, "right_time", "right", _identifier("right_time", right_time))
    s.by = [(_find(left_cols, "by", "left", l), _find(right_cols, "by", "right", r)) for l, r in _by_pairs(by)]

    lschema, rschema = left_df.schema, right_df.schema
    s.left_type, s.right_type = lschema[s.left_time].dataType, rschema[s.right_time].dataType
    lk, rk = _time_kind(s.left_type), _time_kind(s.right_type)
    for argument, k, col in (("left_time", lk, s.left_time), ("right_time", rk, s.right_time)):
        if k == "other":
            _fail(argument, "a numeric, timestamp or date column", col, "unsupported column type")
    if _family(lk) != _family(rk):
        _fail("right_time", f"a column of the same kind as left_time `{s.left_time}` ({lk})", s.right_time,
              f"time columns of different kinds ({lk} vs {rk})")
    s.kind = lk if lk == rk else _family(lk)
    s.tolerance = _distance(tolerance, s.kind)
    s.order_by = [_find(right_cols, "order_by", "right", c) for c in _identifier_list("order_by", order_by)]

    if columns is None:
        right_keys = {r.lower() for _, r in s.by}
        wanted = [c for c in right_cols if c.lower() not in right_keys]
    else:
        wanted = [_find(right_cols, "columns", "right", c) for c in _identifier_list("columns", columns)]
    if s.right_time.lower() not in {w.lower() for w in wanted}:
        wanted = [s.right_time] + wanted
    seen, s.right_columns = set(), []
    for name in wanted:
        if name.lower() not in seen:
            seen.add(name.lower())
            s.right_columns.append((name, prefix + name))
    left_lower = [c.lower() for c in left_cols]
    for source, output in s.right_columns:
        if output.lower() in left_lower:
            _fail("prefix", "a prefix that keeps right output names apart from the left columns", prefix,
                  f"right column `{source}` would be output as `{output}`, which collides with left column "
                  f"`{left_cols[left_lower.index(output.lower())]}`")
    s.left_columns = list(left_cols)
    return s


# --------------------------------------------------------------------------- public API

def asof_join(left_df, right_df, left_time, right_time, by=(), direction="backward", allow_exact_matches=True,
              tolerance=None, join_type="left", columns=None, prefix="", order_by=None, engine="auto"):
    """Point-in-time join of two Spark DataFrames with the asof_join macro's semantics.

    Returns a Spark DataFrame with the macro's rows and columns. Raises ValueError naming
    the argument, the allowed values and the received value, like the macro.
    engine: 'native' (SortMergeAsOfJoin, keyed joins only; NativeAsOfUnavailable if Spark
    cannot plan it), 'arrow' (bucketed cogroup + vectorized merge; without keys the buckets
    are ranges of time), 'broadcast' (broadcast left side + hash aggregate; keyed joins only),
    or 'auto' (broadcast for a small left side with few rows per key, else native for a keyed
    join if available, else arrow).
    """
    s = _spec(left_df, right_df, left_time, right_time, by, direction, allow_exact_matches, tolerance,
              join_type, columns, prefix, order_by, engine)
    if s.engine == "broadcast" or (s.engine == "auto" and _broadcast_fits(left_df, s)):
        return _broadcast(left_df, right_df, s)
    if s.engine == "arrow" or (s.engine == "auto" and not s.by):
        return _arrow(left_df, right_df, s)
    try:
        return _native(left_df, right_df, s)
    except NativeAsOfUnavailable:
        if s.engine == "native":
            raise
        return _arrow(left_df, right_df, s)


# --------------------------------------------------------------------------- helpers

def _internal(names: list[str], stem: str) -> str:
    """An internal column name no input column uses."""
    taken = {n.lower() for n in names}
    name, i = stem, 0
    while name.lower() in taken:
        i += 1
        name = f"{stem}{i}"
    return name


def _time_expr(col, kind: str, dtype):
    """The as-of column in the engine's units: epoch micros / epoch days / long / as-is."""
    from pyspark.sql import functions as F, types as T

    if kind == "timestamp":
        if isinstance(dtype, T.TimestampNTZType):
            # NTZ values as wall-clock instants in UTC: differences stay exact, no DST gaps
            return F.unix_micros(F.to_utc_timestamp(col.cast("timestamp"), F.current_timezone()))
        return F.unix_micros(col)
    if kind == "date":
        return F.unix_date(col).cast("long")
    if kind == "numeric_integral" or isinstance(dtype, (T.ByteType, T.ShortType, T.IntegerType, T.LongType)):
        return col.cast("long")
    return col


def _key_types(left_df, right_df, s):
    """Per key pair, the type both sides are cast to (so the bucket hashes agree)."""
    from pyspark.sql import functions as F

    types = []
    for l, r in s.by:
        lt, rt = left_df.schema[l].dataType, right_df.schema[r].dataType
        if lt == rt:
            types.append(lt)
        else:
            # Spark's own coercion of the two types (analysis only, no job)
            probe = left_df.sparkSession.range(0).select(
                F.coalesce(F.lit(None).cast(lt), F.lit(None).cast(rt)).alias("c"))
            types.append(probe.schema["c"].dataType)
    return types


# --------------------------------------------------------------------------- native engine

def _pin(df, check) -> Any:
    """Plan df now (while the flag is set), check the plan, and return a DataFrame over the
    planned RDD, so later actions cannot re-optimize it with the flag off."""
    qe = df._jdf.queryExecution()
    plan = qe.executedPlan().toString()
    check(plan)
    spark = df.sparkSession
    jdf = spark._jsparkSession.internalCreateDataFrame(qe.toRdd(), df._jdf.schema(), False)
    from pyspark.sql import DataFrame

    pinned = DataFrame(jdf, spark)
    pinned._temporal_joins_plan = qe.executedPlan()  # the JVM plan behind the RDD: see native_metrics()
    return pinned


def native_metrics(df) -> dict | None:
    """SQL metrics of the SortMergeAsOfJoin node behind a native-engine result (after an action
    they prove the operator ran: e.g. numOutputRows), or None for other DataFrames."""
    plan = getattr(df, "_temporal_joins_plan", None)
    stack = [plan] if plan is not None else []
    while stack:
        node = stack.pop()
        if node.nodeName() == "SortMergeAsOfJoin":
            metrics = node.metrics()
            it = metrics.keySet().iterator()
            out = {}
            while it.hasNext():
                key = it.next()
                out[key] = metrics.apply(key).value()
            return out
        children = node.children()
        stack.extend(children.apply(i) for i in range(children.size()))
    return None


def _check_native_plan(plan: str):
    if "SortMergeAsOfJoin" not in plan or any(node in plan for node in CARTESIAN_NODES):
        raise NativeAsOfUnavailable(
            "temporal_joins.asof_join: Spark did not plan SortMergeAsOfJoin for the native engine "
            "(it needs Spark >= 4.3 with " + NATIVE_FLAG + "); refusing to run the cartesian rewrite:\n" + plan)


def _native(left_df, right_df, s: _Spec):
    from pyspark.sql import functions as F, Window

    # measured: 10,000 left / 500,000 right rows took 187 s natively; arrow joins 100,000 / 4.9M in about 9 s
    _require_by(s, "native", "without keys Spark's as-of operator runs the whole join in one task, far slower "
                "than engine='arrow', which splits time into ranges")
    spark = left_df.sparkSession
    all_names = list(left_df.columns) + list(right_df.columns) + [o for _, o in s.right_columns]
    lt = _internal(all_names, "__tj_lt")
    rt = _internal(all_names, "__tj_rt")
    rkeys = [_internal(all_names, f"__tj_rk{i}") for i in range(len(s.by))]
    obs = [_internal(all_names, f"__tj_o{i}") for i in range(len(s.order_by))]

    left = left_df.withColumn(lt, _time_expr(F.col(s.left_time), s.kind, s.left_type))
    right = right_df.select(
        *[F.col(r).alias(k) for (_, r), k in zip(s.by, rkeys)],
        _time_expr(F.col(s.right_time), s.kind, s.right_type).alias(rt),
        *[F.col(o).alias(a) for o, a in zip(s.order_by, obs)],
        *[F.col(src).alias(out) for src, out in s.right_columns])
    keep = F.col(rt).isNotNull()
    for k in rkeys:
        keep = keep & F.col(k).isNotNull()
    right = right.where(keep)
    if s.order_by or s.direction == "nearest":
        # One right row per (keys, time), the one with the largest order_by: the operator's
        # tie choice is arbitrary, and its nearest picks wrong rows among duplicate times.
        # Partitioned by the keys only, so the join reuses this shuffle and sort.
        w = Window.orderBy(F.col(rt).asc(), *[F.col(o).asc_nulls_first() for o in obs])
        if rkeys:
            w = w.partitionBy(*rkeys)
        nxt = _internal(all_names, "__tj_next")
        right = right.withColumn(nxt, F.lead(rt, 1).over(w)).where(
            F.col(nxt).isNull() | (F.col(nxt) != F.col(rt))).drop(nxt)
    right = right.drop(*obs)

    on = [left[l] == right[k] for (l, _), k in zip(s.by, rkeys)] or None

    # The flag only matters while Spark plans the query, so the plan is made (and pinned) now.
    # AQE off while planning: with it, toRdd would run the shuffles here and now; without it
    # the pinned plan stays lazy and runs with the caller's action.
    # In AQE's place, the shuffle partition count is sized here as AQE would coalesce it.
    saved = {key: spark.conf.get(key, None)
             for key in (NATIVE_FLAG, "spark.sql.adaptive.enabled", "spark.sql.shuffle.partitions")}
    partitions = native_partitions(spark, _size_bytes(left_df), _size_bytes(right_df))
    spark.conf.set(NATIVE_FLAG, "true")
    spark.conf.set("spark.sql.adaptive.enabled", "false")
    spark.conf.set("spark.sql.shuffle.partitions", str(partitions))
    try:
        # No tolerance for the operator: with allowExactMatches=False it makes the tolerance
        # strict too (gap < tolerance), and it compares right >= left - tolerance, which rounds
        # differently from the macro's (left - right) <= tolerance on doubles. The nearest row
        # is the same with or without a tolerance (a farther one is never closer), so the
        # macro's check is applied to the matched row afterwards, in the macro's arithmetic.
        joined = left._joinAsOf(right, leftAsOfColumn=left[lt], rightAsOfColumn=right[rt], on=on,
                                how=s.join_type, allowExactMatches=s.allow_exact_matches,
                                direction=s.direction)
        right_out = [right[o] for _, o in s.right_columns]
        if s.tolerance is not None:
            within = _native_within(left[lt], right[rt], s)
            if s.join_type == "inner":
                joined = joined.where(within)
            else:
                right_out = [F.when(within, c).alias(o) for c, (_, o) in zip(right_out, s.right_columns)]
        out = joined.select(*[left[c] for c in s.left_columns], *right_out)
        return _pin(out, _check_native_plan)
    finally:
        for key, value in saved.items():
            if value is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, value)


def _native_within(lcol, rcol, s: _Spec):
    """The macro's tolerance check on the matched row: gap <= tolerance, gap = later - earlier."""
    from pyspark.sql import functions as F

    if s.kind in ("timestamp", "date", "numeric_integral"):
        # integral units, through decimal(20,0) like _tj_gap: no overflow; gap <= t <=> gap <= floor(t)
        lcol, rcol = lcol.cast("decimal(20,0)"), rcol.cast("decimal(20,0)")
        tol = F.lit(Decimal(int(s.tolerance.to_integral_value(rounding=ROUND_FLOOR)))).cast("decimal(20,0)")
    elif any(_is_float(t) for t in (s.left_type, s.right_type)):
        tol = F.lit(float(s.tolerance))
    else:
        tol = F.lit(s.tolerance)
    if s.direction == "backward":
        gap = lcol - rcol
    elif s.direction == "forward":
        gap = rcol - lcol
    else:
        gap = F.when(rcol <= lcol, lcol - rcol).otherwise(rcol - lcol)
    return gap <= tol


def _is_float(dtype) -> bool:
    from pyspark.sql import types as T

    return isinstance(dtype, (T.FloatType, T.DoubleType))


# --------------------------------------------------------------------------- broadcast engine

def _ungroupable_columns(df) -> list[str]:
    """Columns Spark cannot group by (maps and variants, also nested): broadcast groups by every left column."""
    return [f.name for f in df.schema.fields
            if re.search(r"map<|(^|[<,:\s])variant($|[>,\s])", f.dataType.simpleString())]


def _broadcast_fits(left_df, s: _Spec) -> bool:
    """auto's rule (the macro's _asof_auto_strategy): keyed, groupable, small, few rows per key."""
    from pyspark.sql import functions as F

    if not s.by or _ungroupable_columns(left_df):
        return False
    counts = left_df.groupBy(*[F.col(f"`{l}`") for l, _ in s.by]).agg(F.count(F.lit(1)).alias("n"))
    rows, per_key = counts.agg(F.sum("n"), F.max("n")).first()
    return (rows or 0) <= BROADCAST_MAX_ROWS and (per_key or 0) <= BROADCAST_MAX_ROWS_PER_KEY


def _broadcast(left_df, right_df, s: _Spec):
    """The macro's broadcast strategy (macros/asof/_asof_broadcast.sql) on DataFrames."""
    from pyspark.sql import functions as F

    _require_by(s, "broadcast", "without keys every right row would be paired with every earlier left row")
    maps = _ungroupable_columns(left_df)
    if maps:
        _fail("engine", "auto, native, arrow when `left_df` has map or variant columns (broadcast groups by "
              "the left columns, and maps cannot be grouped)", s.engine, f"left column `{maps[0]}` is a map or variant")
    names = list(left_df.columns) + list(right_df.columns) + [o for _, o in s.right_columns]
    groups = [_internal(names, f"__tj_g{i}") for i in range(len(s.left_columns))]
    values = [_internal(names, f"__tj_v{i}") for i in range(len(s.right_columns))]
    order, copy, matches = (_internal(names, n) for n in ("__tj_order", "__tj_copy", "__tj_matches"))

    def lcol(c):
        return F.col(f"__tj_l.`{c}`")

    def rcol(c):
        return F.col(f"__tj_r.`{c}`")

    lt = _time_expr(lcol(s.left_time), s.kind, s.left_type)
    rt = _time_expr(rcol(s.right_time), s.kind, s.right_type)
    strict = not s.allow_exact_matches
    cond = F.lit(True)
    for l, r in s.by:
        cond = cond & (lcol(l) == rcol(r))
    if s.direction == "backward":
        cond = cond & ((rt < lt) if strict else (rt <= lt))
    elif s.direction == "forward":
        cond = cond & ((rt > lt) if strict else (rt >= lt))
    else:
        cond = cond & lt.isNotNull() & rt.isNotNull()
        if strict:
            cond = cond & (rt != lt)
    if s.tolerance is not None:
        cond = cond & _native_within(lt, rt, s)

    # The best candidate is the largest order (see the macro): exact arithmetic on integral units.
    exact_lt, exact_rt = lt, rt
    if s.kind in ("timestamp", "date", "numeric_integral"):
        exact_lt, exact_rt = lt.cast("decimal(20,0)"), rt.cast("decimal(20,0)")
    agg = F.max_by
    if s.direction == "backward":
        fields = [rt]
    elif s.direction == "forward" and not s.order_by:
        fields, agg = [rt], F.min_by
    elif s.direction == "forward":
        fields = [-exact_rt]
    else:
        backward_side = exact_rt <= exact_lt
        fields = [-F.when(backward_side, exact_lt - exact_rt).otherwise(exact_rt - exact_lt),
                  F.when(backward_side, 1).otherwise(0)]
    fields += [rcol(o) for o in s.order_by]
    order_col = fields[0] if len(fields) == 1 else F.struct(*[f.alias(f"o{i}") for i, f in enumerate(fields)])

    left_rows = left_df.alias("__tj_l")
    candidates = right_df.alias("__tj_r").join(F.broadcast(left_rows), cond, "inner").select(
        *[lcol(c).alias(g) for c, g in zip(s.left_columns, groups)],
        order_col.alias(order),
        *[rcol(src).alias(v) for (src, _), v in zip(s.right_columns, values)],
        F.lit(0).alias(copy))
    # one marker row per left row: keeps unmatched rows and counts duplicates
    markers = left_df.select(
        *[F.col(f"`{c}`").alias(g) for c, g in zip(s.left_columns, groups)],
        F.lit(None).cast(candidates.schema[order].dataType).alias(order),
        *[F.lit(None).cast(candidates.schema[v].dataType).alias(v) for v in values],
        F.lit(1).alias(copy))
    best = markers.unionByName(candidates).groupBy(*groups).agg(
        *[agg(F.col(v), F.col(order)).alias(v) for v in values],
        F.count(order).alias(matches), F.sum(copy).alias(copy))
    if s.join_type == "inner":
        best = best.where(F.col(matches) > 0)
    best = best.withColumn(copy, F.explode(F.array_repeat(F.lit(0), F.col(copy).cast("int"))))
    return best.select(*[F.col(g).alias(c) for g, c in zip(groups, s.left_columns)],
                       *[F.col(v).alias(out) for v, (_, out) in zip(values, s.right_columns)])


# --------------------------------------------------------------------------- arrow engine

def _size_bytes(df) -> int:
    try:
        return int(str(df._jdf.queryExecution().optimizedPlan().stats().sizeInBytes()))
    except Exception:  # stats unavailable: treat as unknown
        return -1


def native_partitions(spark, left_bytes: int, right_bytes: int) -> int:
    """Shuffle partitions for the native plan: what AQE's coalescing would leave, i.e. about
    spark.sql.adaptive.advisoryPartitionSizeInBytes each, at least the default parallelism and
    at most spark.sql.shuffle.partitions."""
    configured = int(spark.conf.get("spark.sql.shuffle.partitions"))
    if left_bytes < 0 or right_bytes < 0 or left_bytes + right_bytes >= 2**62:
        return configured
    advisory = spark.conf.get("spark.sql.adaptive.advisoryPartitionSizeInBytes", "64MB")
    units = {"b": 1, "k": 2**10, "kb": 2**10, "m": 2**20, "mb": 2**20, "g": 2**30, "gb": 2**30}
    m = re.match(r"^\s*(\d+)\s*([a-z]*)\s*$", str(advisory).lower())
    size = int(m.group(1)) * units.get(m.group(2) or "b", 1) if m else 64 * 2**20
    parallelism = spark.sparkContext.defaultParallelism
    wanted = math.ceil((left_bytes + right_bytes) / max(size, 1))
    return int(max(1, min(configured, max(parallelism, wanted))))


def choose_buckets(spark, left_bytes: int, right_bytes: int) -> int:
    """B: enough buckets that one holds about BUCKET_BYTES, at least one per shuffle partition."""
    partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
    if left_bytes < 0 or right_bytes < 0 or left_bytes + right_bytes >= 2**62:
        return min(MAX_BUCKETS, max(partitions, 256))  # unknown size: many small buckets
    return int(min(MAX_BUCKETS, max(partitions, math.ceil((left_bytes + right_bytes) / BUCKET_BYTES))))


def _arrow_time(col, kind, dtype, scale):
    from pyspark.sql import functions as F, types as T

    if kind == "numeric":
        if scale is None:
            return col.cast("double")
        # decimals: exact, as unscaled longs at a common scale
        return (col.cast(T.DecimalType(38, scale)) * F.lit(10**scale)).cast("long")
    return _time_expr(col, kind, dtype)


def _arrow(left_df, right_df, s: _Spec, buckets: int | None = None):
    from pyspark.sql import functions as F, types as T

    spark = left_df.sparkSession
    scale = None
    if s.kind == "numeric" and not any(_is_float(t) for t in (s.left_type, s.right_type)):
        dec = [t for t in (s.left_type, s.right_type) if isinstance(t, T.DecimalType)]
        scale = max(t.scale for t in dec)
        int_digits = {T.ByteType: 3, T.ShortType: 5, T.IntegerType: 10, T.LongType: 19}
        digits = max(t.precision - t.scale if isinstance(t, T.DecimalType) else int_digits[type(t)]
                     for t in (s.left_type, s.right_type))
        if digits + scale > 18:
            raise ValueError(
                f"temporal_joins.{MACRO}: invalid argument `engine`: the arrow engine holds decimal times as "
                f"64-bit unscaled integers, too small for these columns. Allowed: native, auto. Received: 'arrow'.")
    as_float = s.kind == "numeric" and scale is None

    names = list(left_df.columns) + list(right_df.columns) + [o for _, o in s.right_columns]
    bucket = _internal(names, "__tj_b")
    t = _internal(names, "__tj_t")
    keys = [_internal(names, f"__tj_k{i}") for i in range(len(s.by))]
    obs = [_internal(names, f"__tj_o{i}") for i in range(len(s.order_by))]
    key_types = _key_types(left_df, right_df, s)
    if buckets is None:
        buckets = choose_buckets(spark, _size_bytes(left_df), _size_bytes(right_df))

    def with_bucket(cols):
        return (F.pmod(F.hash(*cols), F.lit(buckets)) if cols else F.lit(0)).alias(bucket)

    lkey_cols = [F.col(l).cast(kt) for (l, _), kt in zip(s.by, key_types)]
    left = left_df.select(with_bucket(lkey_cols), *[c.alias(k) for c, k in zip(lkey_cols, keys)],
                          _arrow_time(F.col(s.left_time), s.kind, s.left_type, scale).alias(t),
                          *[F.col(c) for c in s.left_columns])
    rkey_cols = [F.col(r).cast(kt) for (_, r), kt in zip(s.by, key_types)]
    keep = F.col(s.right_time).isNotNull()
    for (_, r) in s.by:
        keep = keep & F.col(r).isNotNull()
    right = right_df.where(keep).select(
        with_bucket(rkey_cols), *[c.alias(k) for c, k in zip(rkey_cols, keys)],
        _arrow_time(F.col(s.right_time), s.kind, s.right_type, scale).alias(t),
        *[F.col(o).alias(a) for o, a in zip(s.order_by, obs)],
        *[F.col(src).alias(out) for src, out in s.right_columns])

    out_schema = T.StructType(list(left_df.schema.fields) + [
        T.StructField(out, right_df.schema[src].dataType, True) for src, out in s.right_columns])
    if s.tolerance is None:
        tol = None
    elif as_float:
        tol = float(s.tolerance)
    else:
        tol = int((s.tolerance * (10**scale if scale else 1)).to_integral_value(rounding=ROUND_FLOOR))
    plan = {
        "keys": keys, "t": t, "obs": obs, "left_columns": s.left_columns,
        "right_outputs": [o for _, o in s.right_columns], "direction": s.direction,
        "allow_exact_matches": s.allow_exact_matches, "tolerance": tol, "inner": s.join_type == "inner",
        "schema": out_schema,
    }

    if not s.by:
        left, right = _time_ranges(left, right, bucket, t, buckets, s.direction)

    def merge(left_table, right_table):
        return merge_bucket(left_table, right_table, plan)

    return left.groupBy(bucket).cogroup(right.groupBy(bucket)).applyInArrow(merge, out_schema)


def _time_ranges(left, right, bucket, t, buckets, direction):
    """Buckets for a join without keys: ranges of time, so they split one time line.

    The ranges come from approximate quantiles of the right times; a bucket number never
    decreases as the time grows, which is all correctness needs (equal times, one bucket).
    A left row may match a right row outside its range, so each bucket also gets, copied in,
    every right row at the latest time of the nearest earlier non-empty range (backward) and
    at the earliest time of the nearest later one (forward): those are the only outside rows
    that can win. Ties at that time all come, so the merge breaks them as it does inside a
    bucket. Costs two jobs over the right side now (quantiles, per-range min/max)."""
    from pyspark.ml.feature import Bucketizer
    from pyspark.sql import functions as F, types as T

    spark = right.sparkSession
    names = list(right.columns) + list(left.columns)
    key, found = _internal(names, "__tj_td"), _internal(names, "__tj_range")
    # as double (monotone; exact order is kept by the merge) and with -0.0 made 0.0: the
    # binary search orders -0.0 below 0.0, while SQL holds them equal
    as_double = (F.col(t).cast("double") + F.lit(0.0)).alias(key)
    probabilities = [i / buckets for i in range(1, buckets)]
    quantiles = right.select(as_double).approxQuantile(key, probabilities, 1.0 / (4 * buckets)) if probabilities else []
    inner = sorted({q for q in quantiles if math.isfinite(q)})
    if not inner:  # one range: nothing to split or carry
        return left, right
    # NaN (the greatest time in Spark's order) gets its own last range ("keep")
    bucketizer = Bucketizer(splits=[-math.inf] + inner + [math.inf], inputCol=key, outputCol=found,
                            handleInvalid="keep")

    def ranged(df):
        cols = [c for c in df.columns if c != bucket]
        out = bucketizer.transform(df.drop(bucket).withColumn(key, as_double))
        # a null time never matches: any bucket will do
        number = F.when(F.col(key).isNull(), F.lit(0)).otherwise(F.col(found).cast("int"))
        return out.select(number.alias(bucket), *[F.col(f"`{c}`") for c in cols])

    left, right = ranged(left), ranged(right)
    stats = {row[0]: (row[1], row[2]) for row in right.groupBy(bucket).agg(F.min(t), F.max(t)).collect()}
    ranges = len(inner) + 2  # with the NaN range
    carries = []  # (source range, its time to copy, target range)
    if direction in ("backward", "nearest"):
        previous = None
        for target in range(ranges):
            if previous is not None:
                carries.append((previous, stats[previous][1], target))
            if target in stats:
                previous = target
    if direction in ("forward", "nearest"):
        following = None
        for target in reversed(range(ranges)):
            if following is not None:
                carries.append((following, stats[following][0], target))
            if target in stats:
                following = target
    if not carries:
        return left, right
    src, src_t, dst = (_internal(right.columns, n) for n in ("__tj_src", "__tj_src_t", "__tj_dst"))
    carry_map = spark.createDataFrame(carries, T.StructType([
        T.StructField(src, T.IntegerType()), T.StructField(src_t, right.schema[t].dataType),
        T.StructField(dst, T.IntegerType())]))
    copied = right.join(F.broadcast(carry_map), (F.col(bucket) == F.col(src)) & (F.col(t) == F.col(src_t)))
    copied = copied.select(F.col(dst).alias(bucket), *[F.col(f"`{c}`") for c in right.columns if c != bucket])
    return left, right.unionByName(copied)


def _changed(table, names) -> "Any":
    """bool[n]: row i starts a new run of equal values in `names` (row 0 always does)."""
    import numpy as np
    import pyarrow.compute as pc

    n = table.num_rows
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    out[0] = True
    for name in names:
        col = table.column(name)
        neq = pc.not_equal(col.slice(1), col.slice(0, n - 1))
        out[1:] |= np.asarray(pc.fill_null(neq, True).to_numpy(zero_copy_only=False), dtype=bool)
    return out


def _sort_nulls_first(table, names):
    import pyarrow.compute as pc

    try:  # pyarrow >= 25: null placement per key
        return pc.sort_indices(table, sort_keys=[(c, "ascending", "at_start") for c in names])
    except (TypeError, ValueError):
        return pc.sort_indices(table, sort_keys=[(c, "ascending") for c in names], null_placement="at_start")


def _gap(later, earlier, is_float):
    """later - earlier (>= 0 by construction), exact for int64 via wrap-around uint64."""
    import numpy as np

    if is_float:
        return later - earlier
    return later.astype(np.uint64) - earlier.astype(np.uint64)


def merge_bucket(left, right, plan):
    """The as-of merge of one bucket. left/right: pyarrow Tables as built by _arrow."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    keys, t, obs = plan["keys"], plan["t"], plan["obs"]
    direction, exact, tol = plan["direction"], plan["allow_exact_matches"], plan["tolerance"]
    nl = left.num_rows

    # right: sorted by (keys, t, order_by nulls first); keep the last row of each (keys, t) run
    if right.num_rows:
        order = _sort_nulls_first(right, keys + [t] + obs)
        right = right.take(order)
        if obs:
            starts = _changed(right, keys + [t])
            last = np.append(starts[1:], True)
            right = right.filter(pa.array(last))
    nr = right.num_rows

    # left rows that can match: key and time not null
    valid = np.ones(nl, dtype=bool)
    for c in keys + [t]:
        valid &= ~np.asarray(left.column(c).is_null().to_numpy(zero_copy_only=False), dtype=bool)
    lidx = np.flatnonzero(valid)

    match = np.full(nl, -1, dtype=np.int64)
    if len(lidx) and nr:
        # events: matchable left rows + right rows, sorted by (keys, t, side); at equal t the
        # side decides whether an exact match is visible to the running max/min.
        lsel = left.take(pa.array(lidx)).select(keys + [t])
        ev = pa.concat_tables([
            lsel.append_column("__side", pa.array(np.zeros(len(lidx), np.int8)))
                .append_column("__pos", pa.array(lidx.astype(np.int64))),
            right.select(keys + [t]).append_column("__side", pa.array(np.ones(nr, np.int8)))
                 .append_column("__pos", pa.array(np.arange(nr, dtype=np.int64))),
        ], promote_options="default")
        n = ev.num_rows
        # backward scan wants the right row before the left row at equal t when exact matches
        # are allowed; forward scan (from the end) wants it after.
        def sorted_events(right_first):
            side_order = "descending" if right_first else "ascending"
            o = pc.sort_indices(ev, sort_keys=[(c, "ascending") for c in keys + [t]] + [("__side", side_order)])
            e = ev.take(o)
            is_right = e.column("__side").to_numpy() == 1
            pos = e.column("__pos").to_numpy()
            group = np.cumsum(_changed(e, keys)) - 1
            return is_right, pos, group

        idx = np.arange(n)
        back = fwd = None
        if direction in ("backward", "nearest"):
            is_right, pos, group = sorted_events(right_first=exact)
            last = np.maximum.accumulate(np.where(is_right, idx, -1))
            ok = (~is_right) & (last >= 0)
            ok[ok] &= group[last[ok]] == group[ok]
            back = np.full(nl, -1, dtype=np.int64)
            sel = np.flatnonzero(ok)
            back[pos[sel]] = pos[last[sel]]
        if direction in ("forward", "nearest"):
            is_right, pos, group = sorted_events(right_first=not exact)
            nxt = np.minimum.accumulate(np.where(is_right, idx, n)[::-1])[::-1]
            ok = (~is_right) & (nxt < n)
            ok[ok] &= group[np.minimum(nxt[ok], n - 1)] == group[ok]
            fwd = np.full(nl, -1, dtype=np.int64)
            sel = np.flatnonzero(ok)
            fwd[pos[sel]] = pos[nxt[sel]]

        is_float = pa.types.is_floating(left.schema.field(t).type)
        # nulls filled only so the array stays int64 (exact); those rows never match
        lt = pc.fill_null(left.column(t), 0).to_numpy(zero_copy_only=False)
        rt = right.column(t).to_numpy(zero_copy_only=False)
        tol_u = None if tol is None else (tol if is_float else np.uint64(min(max(tol, 0), _UINT64_MAX)))

        def within(cand, backward):
            m = cand >= 0
            if tol_u is None or not m.any():
                return m
            i = np.flatnonzero(m)
            g = _gap(lt[i], rt[cand[i]], is_float) if backward else _gap(rt[cand[i]], lt[i], is_float)
            m[i] = g <= tol_u
            return m

        if direction == "backward":
            match = np.where(within(back, True), back, -1)
        elif direction == "forward":
            match = np.where(within(fwd, False), fwd, -1)
        else:
            use_back = back >= 0
            both = np.flatnonzero((back >= 0) & (fwd >= 0))
            if len(both):
                gb = _gap(lt[both], rt[back[both]], is_float)
                gf = _gap(rt[fwd[both]], lt[both], is_float)
                use_back[both] = gb <= gf
            chosen = np.where(use_back, back, fwd)
            ok_b = within(np.where(use_back, back, -1), True)
            ok_f = within(np.where(use_back, -1, fwd), False)
            match = np.where(ok_b | ok_f, chosen, -1)

    rows = np.flatnonzero(match >= 0) if plan["inner"] else np.arange(nl)
    picked = match[rows]
    out_left = left.select(plan["left_columns"]).take(pa.array(rows, type=pa.int64()))
    ridx = pa.array(picked, type=pa.int64(), mask=picked < 0)
    arrays = list(out_left.columns)
    for name in plan["right_outputs"]:
        arrays.append(right.column(name).take(ridx) if nr else pa.nulls(len(rows), right.schema.field(name).type))
    return pa.Table.from_arrays(arrays, names=plan["left_columns"] + plan["right_outputs"])
