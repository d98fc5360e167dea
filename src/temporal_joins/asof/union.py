"""engine='union': the macro's union strategy (macros/asof/_asof_union_sql.sql) on DataFrames, for
one right side (asof_join) or the K entries of one asof_join_many pass, which share the left keys.

One union of the left rows and every entry's right rows, one shuffle by the keys, one window per
time order with one ``last(struct, ignorenulls)`` per entry: each right row travels whole as one
struct per entry, so a match is never a mix of rows and the cost does not grow with the number of
right columns. At equal times, rows of entries that allow exact matches sort before the left
rows and rows of strict entries after them; among tied right rows the greatest order_by comes
last (nulls first, lowest), so it wins. forward runs the same frame over a descending time order;
nearest takes both and keeps the closer, the backward one on equal distance. Each entry's
tolerance is checked on its matched row.
"""

from __future__ import annotations

from dataclasses import dataclass

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from temporal_joins import _validation
from temporal_joins.asof._exprs import internal_name, time_units, within_tolerance
from temporal_joins.asof.hot_keys import carry_across_ranges, hot_split, range_of
from temporal_joins.asof.spec import AsofSpec
from temporal_joins.tuning import TUNING

# the columns form's widest right side (the macro's _asof_union_column_limit): wider ones travel as one struct
COLUMN_LIMIT = TUNING["temporal_joins_union_columns_max"]


def _null_bits(right: DataFrame, s: AsofSpec) -> list[int | None]:
    """Per right column, its bit in the entry's null mask, or None: the time and the keys are never null on the
    union's rows (it keeps only rows with both); a column that skips nulls needs none (its running last is its
    latest non-null value)."""
    never = {s.right_time.lower(), *(rk.lower() for _, rk in s.by)}
    skipped = set(s.skipped())
    out, n = [], 0
    for j, (src, _) in enumerate(s.right_columns):
        if src.lower() in never or j in skipped:
            out.append(None)
        else:
            out.append(1 << n)
            n += 1
    return out


@dataclass
class Fold:
    """The null mask folded into the time's low `flags` bits (the macro's _asof_union_fold): one running last gives
    the matched row's time and which of its columns were null. The time as a bigint of whole units (ints as they
    are, dates in days, timestamps in microseconds); a timestamp beyond +-2^(63 - flags) microseconds (far outside
    Spark's years 0001-9999) stops the query with an error rather than wrap."""

    flags: int
    time_type: T.DataType

    def encode(self, time: Column, mask: Column, s: AsofSpec) -> Column:
        t = self.time_type
        if isinstance(t, T.DateType):
            whole = F.unix_date(time).cast("long")
        elif isinstance(t, T.TimestampType):
            whole = F.unix_micros(time)
        else:
            whole = time.cast("long")
        folded = F.shiftleft(whole, self.flags) + mask
        if not isinstance(t, T.TimestampType):
            return folded  # an int's or a date's days leave room for 30 flags
        limit = 1 << (63 - self.flags)
        said = F.concat(
            F.lit(f"asof_join: right_time `{s.right_time}` = "),
            time.cast("string"),
            F.lit(
                f" is beyond +-2^{63 - self.flags}, where the union engine keeps the null flags of {self.flags} right"
                " column(s) in the time; use engine='arrow' or 'exploding'"
            ),
        )
        return F.when(~whole.between(-limit, limit - 1), F.raise_error(said)).otherwise(folded)

    def time(self, folded: Column) -> Column:
        whole = F.shiftright(folded, self.flags)
        t = self.time_type
        if isinstance(t, T.DateType):
            return F.date_from_unix_date(whole.cast("int"))
        if isinstance(t, T.TimestampType):
            return F.timestamp_micros(whole)
        return whole.cast(t)


def _fold(right: DataFrame, s: AsofSpec, flags: int) -> Fold | None:
    """How the entry's null mask folds into its time, or None: no flags, more than 5 on a timestamp, or a time of
    another type (floating point, decimal; bigint, which may use all 64 bits, as a sentinel 2^63 - 1 does;
    timestamp_ntz, whose micros would pass through the session time zone)."""
    t = right.schema[s.right_time].dataType
    if not flags or not isinstance(t, (T.ByteType, T.ShortType, T.IntegerType, T.DateType, T.TimestampType)):
        return None
    if isinstance(t, T.TimestampType) and flags > 5:
        return None
    return Fold(flags, t)


def _aligned_by(s: AsofSpec) -> list[tuple[str, str]]:
    """The key pairs in the order of their left names: the entries of a pass line up by position."""
    return sorted(s.by, key=lambda pair: pair[0].lower())


def _gap(later: Column, earlier: Column, s: AsofSpec) -> Column:
    """later - earlier on times in time_units; integral units through decimal(20,0) (no overflow)."""
    if s.kind in ("timestamp", "date", "numeric_integral"):
        return later.cast("decimal(20,0)") - earlier.cast("decimal(20,0)")
    return later - earlier


@dataclass
class EntryPlan:
    """One right entry of a union pass: its internal names and how its row crosses the union. flat (the macro's
    _asof_union_columns): at most COLUMN_LIMIT columns cross column by column (`values`) with a null mask (`mask`,
    a bit per nullable column: `bits`), packed into a struct after the window; else the row is one struct."""

    right: DataFrame
    s: AsofSpec
    pairs: list[tuple[str, str]]  # the key pairs in the order of their left names
    side: int  # its rows' place among rows of equal time (the left rows sit at the pass's left_side)
    struct: str
    struct_type: T.StructType
    back: str  # the backward candidate (a struct), then the match
    fwd: str
    match: str
    owned: list[tuple[str, str]]  # (tie-breaker column, right column), numbered across the pass
    flat: bool
    values: list[str]
    bits: list[int | None]
    mask: str | None  # its own column, when it is not folded into the time
    fold: Fold | None
    # skip_nulls: per right column index that may be null, the name of the time of its own latest non-null value
    # (only where a tolerance or nearest needs it; without, the column's running last is the answer)
    times: dict[int, str]

    def branch_columns(self, right: DataFrame | None) -> list[Column]:
        """The entry's columns in a union branch: its row (right) or nulls (right None)."""
        s = self.s
        if not self.flat:
            if right is None:
                return [F.lit(None).cast(self.struct_type).alias(self.struct)]
            return [F.struct(*[F.col(f"`{src}`").alias(out) for src, out in s.right_columns]).alias(self.struct)]
        nullable = [(src, bit) for (src, _), bit in zip(s.right_columns, self.bits) if bit]
        mask = sum((F.when(F.col(f"`{src}`").isNull(), bit).otherwise(0) for src, bit in nullable), F.lit(0))
        cols = []
        for (src, _), v in zip(s.right_columns, self.values):
            value = F.col(f"`{src}`") if right is not None else F.lit(None).cast(self.right.schema[src].dataType)
            if self.fold and src.lower() == s.right_time.lower():
                value = self.fold.encode(F.col(f"`{src}`"), mask, s) if right is not None else F.lit(None).cast("long")
            cols.append(value.alias(v))
        if self.mask:
            cols.append((mask if right is not None else F.lit(None).cast("int")).alias(self.mask))
        return cols

    def carried(self) -> list[str]:
        return self.values + ([self.mask] if self.mask else [])

    def candidates(self) -> tuple[str, ...]:
        return {"backward": (self.back,), "forward": (self.fwd,)}.get(self.s.direction, (self.back, self.fwd))

    def packed(self, lefts: DataFrame) -> DataFrame:
        """flat: each candidate packed into its struct, its nulls restored from the mask (a running last skips
        nulls: where the matched row's column was null it holds an older row's)."""
        s = self.s
        t_index = next(j for j, (src, _) in enumerate(s.right_columns) if src.lower() == s.right_time.lower())
        for c in self.candidates():
            times = {j: f"{c}{name}" for j, name in self.times.items()}
            time = F.col(f"{c}{self.values[t_index]}")
            flags = time if self.fold else F.col(f"{c}{self.mask}")
            fields = [
                (
                    self.fold.time(time)
                    if self.fold and j == t_index
                    else F.when(flags.bitwiseAND(bit) == 0, F.col(f"{c}{v}"))
                    if bit
                    else F.col(f"{c}{v}")
                ).alias(out)
                for j, ((_, out), v, bit) in enumerate(zip(s.right_columns, self.values, self.bits))
            ]
            # skip_nulls: each column's own time rides in the struct too (matched() reads it, then drops it)
            fields += [F.col(name).alias(f"__tj_t{j}") for j, name in times.items()]
            lefts = lefts.withColumn(c, F.when(F.col(f"{c}{self.values[t_index]}").isNotNull(), F.struct(*fields)))
            lefts = lefts.drop(*[f"{c}{v}" for v in self.carried()], *times.values())
        return lefts

    def matched(self, row: str) -> Column:
        """The matched right row (a struct) of the left row in `row`, or null (nearest: the closer candidate, the
        backward one on equal distance), within the tolerance. skip_nulls: a column with its own time picks its side
        and checks the tolerance by that time."""
        s = self.s
        lt = time_units(F.col(row)[s.left_time], s.kind, s.left_type, s.right_type)
        time_out = next(out for src, out in s.right_columns if src.lower() == s.right_time.lower())
        b = F.col(self.back) if s.direction != "forward" else None
        f = F.col(self.fwd) if s.direction != "backward" else None

        def units(candidate):
            return None if candidate is None else time_units(candidate[time_out], s.kind, s.right_type, s.left_type)

        whole = self._pick(lt, b, units(b), f, units(f))
        if not self.times:
            return whole
        fields = []
        for j, (_, out) in enumerate(s.right_columns):
            if j not in self.times:
                fields.append(whole[out].alias(out))
                continue
            own = f"__tj_t{j}"
            fields.append(
                self._pick(
                    lt,
                    None if b is None else b[out],
                    None if b is None else b[own],
                    None if f is None else f[out],
                    None if f is None else f[own],
                ).alias(out)
            )
        return F.when(whole.isNotNull(), F.struct(*fields))

    def _pick(self, lt: Column, b, tb, f, tf) -> Column:
        """b or f (the backward / forward candidate's value; tb, tf: its time in time_units, null when there is
        none), or null: the entry's direction, nearest's choice and tolerance."""
        s = self.s
        ok_b = ok_f = F.lit(True)
        if s.tolerance is not None:
            if b is not None:
                ok_b = within_tolerance(lt, tb, s)
            if f is not None:
                ok_f = within_tolerance(lt, tf, s)
        if s.direction == "backward":
            return F.when(lt.isNotNull() & tb.isNotNull() & ok_b, b)
        if s.direction == "forward":
            return F.when(lt.isNotNull() & tf.isNotNull() & ok_f, f)
        take_back = tf.isNull() | (tb.isNotNull() & (_gap(lt, tb, s) <= _gap(tf, lt, s)))
        return F.when(lt.isNull(), None).when(take_back, F.when(tb.isNotNull() & ok_b, b)).otherwise(F.when(ok_f, f))


def entry_plans(entries: list[tuple[DataFrame, AsofSpec]], names: list[str], left_side: int) -> list[EntryPlan]:
    """The plan of each entry of a pass; `names`: what no internal column may be named."""
    plans: list[EntryPlan] = []
    for i, (right, s) in enumerate(entries):
        start = sum(len(p.owned) for p in plans)  # tie-breakers numbered across the entries
        # skip_nulls: every column its own last, a bit only for the columns that keep the matched row's value
        bits = _null_bits(right, s)
        flat = s.skip_nulls or len(s.right_columns) <= COLUMN_LIMIT
        if sum(1 for b in bits if b) > 30:  # only a skip_nulls list gets here: the flags must fit one int
            _validation.fail(
                s.macro,
                "skip_nulls",
                "at most 30 right columns that may be null outside the list when the engine is union (their null"
                " flags fit one int); engine arrow or broadcast, or more columns in the list",
                list(s.skip_columns or ()),
                f"{sum(1 for b in bits if b)} such columns",
            )
        fold = _fold(right, s, sum(1 for b in bits if b)) if flat else None
        own_times = s.skipped() if s.tolerance is not None or s.direction == "nearest" else []
        plans.append(
            EntryPlan(
                right=right,
                s=s,
                pairs=_aligned_by(s),
                side=0 if s.allow_exact_matches else left_side + 1,
                struct=internal_name(names, f"__tj_r{i}"),
                struct_type=T.StructType(
                    [T.StructField(out, right.schema[src].dataType) for src, out in s.right_columns]
                ),
                back=internal_name(names, f"__tj_back{i}"),
                fwd=internal_name(names, f"__tj_fwd{i}"),
                match=internal_name(names, f"__tj_m{i}"),
                owned=[(internal_name(names, f"__tj_o{start + j}"), c) for j, c in enumerate(s.order_by)],
                flat=flat,
                values=[internal_name(names, f"__tj_r{i}_{j}") for j in range(len(s.right_columns))],
                bits=bits,
                mask=internal_name(names, f"__tj_rn{i}") if any(bits) and not fold else None,
                fold=fold,
                times={j: internal_name(names, f"__tj_rt{i}_{j}") for j in own_times},
            )
        )
    return plans


def union_join(left_df: DataFrame, entries: list[tuple[DataFrame, AsofSpec]], join_type: str) -> DataFrame:
    """Join left_df to every (right_df, spec) of one pass; the output has every column of left_df,
    then each entry's right columns."""
    for _, s in entries:
        s.require_by(
            "union",
            "without keys the window is one partition, one task sorts every row; engine='arrow' and "
            "engine='auto' split time into ranges",
        )
    left_columns = list(left_df.columns)
    names = left_columns + [c for right, _ in entries for c in right.columns]
    names += [out for _, s in entries for _, out in s.right_columns]
    left_side = 1 if any(s.allow_exact_matches for _, s in entries) else 0
    plans = entry_plans(entries, names, left_side)
    keys = [internal_name(names, f"__tj_k{i}") for i in range(len(plans[0].pairs))]
    t, side, row = (internal_name(names, n) for n in ("__tj_t", "__tj_side", "__tj_l"))
    tie_breakers = [name for p in plans for name, _ in p.owned]
    tb_types = {name: p.right.schema[c].dataType for p in plans for name, c in p.owned}

    s0 = plans[0].s
    parts = [
        left_df.select(
            *[F.col(f"`{lk}`").alias(k) for (lk, _), k in zip(plans[0].pairs, keys)],
            time_units(F.col(f"`{s0.left_time}`"), s0.kind, s0.left_type, s0.right_type).alias(t),
            F.lit(left_side).alias(side),
            *[F.lit(None).cast(tb_types[tb]).alias(tb) for tb in tie_breakers],
            F.struct(*[F.col(f"`{c}`") for c in left_columns]).alias(row),
            *[c for p in plans for c in p.branch_columns(None)],
        )
    ]
    row_type = parts[0].schema[row].dataType
    for p in plans:
        s = p.s
        right_t = time_units(F.col(f"`{s.right_time}`"), s.kind, s.right_type, s.left_type)
        keep = right_t.isNotNull()  # a NaN time too: it never matches
        for k, (_, rk) in enumerate(p.pairs):
            if not s.null_safe_key(k):
                keep = keep & F.col(f"`{rk}`").isNotNull()
        mine = dict(p.owned)
        parts.append(
            p.right.where(keep).select(
                *[F.col(f"`{rk}`").alias(k) for (_, rk), k in zip(p.pairs, keys)],
                right_t.alias(t),
                F.lit(p.side).alias(side),
                *[
                    (F.col(f"`{mine[tb]}`") if tb in mine else F.lit(None).cast(tb_types[tb])).alias(tb)
                    for tb in tie_breakers
                ],
                F.lit(None).cast(row_type).alias(row),
                *[c for q in plans for c in q.branch_columns(p.right if q is p else None)],
            )
        )
    events = parts[0]
    for part in parts[1:]:
        events = events.union(part)  # by position, with SQL's type coercion (as the macro's UNION ALL)

    # one right side: a hot key's rows over ranges of time, each its own window partition
    # (not with skip_nulls: a range's carried candidate is one whole row; nor with null-safe keys, as the macro)
    one = len(plans) == 1 and not s0.skip_nulls and not s0.any_null_safe()
    split = hot_split(left_df, plans[0].right, s0) if one else None
    trange = internal_name(names, "__tj_trange")
    partition = [*keys]
    if split is not None:
        events = events.withColumn(trange, range_of(F.hash(*keys), F.col(t), split))
        partition.append(trange)

    windowed = events
    for direction, time_order in (("backward", F.col(t).asc()), ("forward", F.col(t).desc())):
        served = [p for p in plans if p.s.direction in (direction, "nearest")]
        if not served:
            continue
        order = [time_order, F.col(side).asc()] + [F.col(name).asc() for p in served for name, _ in p.owned]
        w = Window.partitionBy(*partition).orderBy(*order).rowsBetween(Window.unboundedPreceding, Window.currentRow)
        for p in served:
            candidate = p.back if direction == "backward" else p.fwd
            if not p.flat:
                windowed = windowed.withColumn(candidate, F.last(p.struct, ignorenulls=True).over(w))
                continue
            for v in p.carried():
                windowed = windowed.withColumn(f"{candidate}{v}", F.last(v, ignorenulls=True).over(w))
            for j, name in p.times.items():
                own = F.when(F.col(p.values[j]).isNotNull(), F.col(t))
                windowed = windowed.withColumn(f"{candidate}{name}", F.last(own, ignorenulls=True).over(w))

    lefts = windowed.where(F.col(side) == left_side)
    for p in plans:
        if p.flat:
            lefts = p.packed(lefts)
    if split is not None:
        p = plans[0]
        lefts = carry_across_ranges(lefts, p.right, left_df, s0, split, keys, trange, p.back, p.fwd, p.owned)
    for p in plans:
        lefts = lefts.withColumn(p.match, p.matched(row))
    if join_type == "inner":
        for p in plans:
            lefts = lefts.where(F.col(p.match).isNotNull())
    return lefts.select(
        *[F.col(row)[c].alias(c) for c in left_columns],
        *[F.col(p.match)[out].alias(out) for p in plans for _, out in p.s.right_columns],
    )
