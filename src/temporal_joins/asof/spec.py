"""asof_join's validated arguments: the Python twin of the macro's _asof_spec."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from pyspark.sql import Column, DataFrame
from pyspark.sql import types as T

from temporal_joins import _validation as v

MACRO = "asof_join"
DIRECTIONS = ("backward", "forward", "nearest")
JOIN_TYPES = ("left", "inner")
# asof_join's join types: left and inner, and semi and anti (the left rows with, without, a match), which every engine
# runs as filters of the left join. The macro's right and full (the right rows no left row matched) are SQL only: an
# engine sees a right row only as a left row's candidate.
ASOF_JOIN_TYPES = JOIN_TYPES + ("semi", "anti")
MACRO_ONLY_JOIN_TYPES = ("right", "full")
ENGINES = ("auto", "native", "arrow", "broadcast", "union")


@dataclass(frozen=True)
class AsofSpec:
    """One validated as-of join request. Column names are spelled as the DataFrames spell them."""

    by: tuple[tuple[str, str], ...]  # (left key, right key) pairs
    left_time: str
    right_time: str
    left_type: T.DataType
    right_type: T.DataType
    kind: str  # numeric_integral | numeric | timestamp | date
    direction: str
    allow_exact_matches: bool
    tolerance: Decimal | None  # in the join's units (epoch micros, days, numbers)
    join_type: str
    left_columns: tuple[str, ...]  # every left column, in order
    right_columns: tuple[tuple[str, str], ...]  # (right source, output name); right_time first
    order_by: tuple[str, ...]
    engine: str
    macro: str = MACRO  # the macro errors name (a v.Scope for an entry of asof_join_many)
    skip_nulls: bool = False  # right columns from the best candidate where they are not null
    skip_columns: tuple[str, ...] | None = None  # skip_nulls a list: those columns' lower-cased sources; None: all
    null_safe: tuple[bool, ...] = ()  # per `by` pair: a null key matches a null key (null_safe_keys)

    def null_safe_key(self, i: int) -> bool:
        """Whether key pair i compares null-safe."""
        return bool(self.null_safe) and self.null_safe[i]

    def any_null_safe(self) -> bool:
        return any(self.null_safe)

    def key_equals(self, i: int, left: Column, right: Column) -> Column:
        """Key pair i's equality: ``==``, or null-safe (``<=>``) per null_safe_keys."""
        return left.eqNullSafe(right) if self.null_safe_key(i) else left == right

    def skipped(self) -> list[int]:
        """With skip_nulls, the indexes of the right columns that take their own latest non-null value (those
        listed, or all but the time and the keys, which are never null on a candidate); else none."""
        if not self.skip_nulls:
            return []
        never = {self.right_time.lower(), *(rk.lower() for _, rk in self.by)}
        return [
            j
            for j, (src, _) in enumerate(self.right_columns)
            if src.lower() not in never and (self.skip_columns is None or src.lower() in self.skip_columns)
        ]

    def require_by(self, engine: str, why: str) -> None:
        """Engines that only work per key refuse a join without `by`."""
        if not self.by:
            v.fail(self.macro, "by", f"one or more key columns when engine is {engine} ({why})", [])


def build_spec(
    left_df,
    right_df,
    left_time,
    right_time,
    by,
    direction,
    allow_exact_matches,
    tolerance,
    join_type,
    columns,
    prefix,
    order_by,
    engine,
    macro: str = MACRO,
    engines: tuple[str, ...] = ENGINES,
    skip_nulls=False,
    join_types: tuple[str, ...] = JOIN_TYPES,
    null_safe_keys=False,
) -> AsofSpec:
    """Check every argument as the macro does and return the spec; raises ValueError. macro: the
    name errors give (a v.Scope names an entry of asof_join_many's `rights`); engines: the allowed engines;
    join_types: the allowed join types."""
    for argument, df in (("left_df", left_df), ("right_df", right_df)):
        if not isinstance(df, DataFrame):
            v.fail(macro, argument, "a pyspark.sql.DataFrame", type(df).__name__)
    v.required(macro, "left_time", left_time, "a column of `left`")
    v.required(macro, "right_time", right_time, "a column of `right`")
    direction = v.choice(macro, "direction", direction, DIRECTIONS)
    engine = v.choice(macro, "engine", engine, engines)
    if isinstance(join_type, str) and join_type.lower() in MACRO_ONLY_JOIN_TYPES and join_types != JOIN_TYPES:
        v.fail(
            macro,
            "join_type",
            ", ".join(join_types) + " on every engine (right and full: the SQL macro's union strategy)",
            join_type,
            detail=f"engine {engine!r} cannot run {join_type.lower()!r} (no engine tells which right rows no left "
            "row matched)",
        )
    join_type = v.choice(macro, "join_type", join_type, join_types)
    allow_exact_matches = v.boolean(macro, "allow_exact_matches", allow_exact_matches)
    prefix = v.prefix(macro, prefix)

    left_cols, right_cols = list(left_df.columns), list(right_df.columns)
    left_time = v.find_column(macro, "left_time", left_cols, "left", v.identifier(macro, "left_time", left_time))
    right_time = v.find_column(macro, "right_time", right_cols, "right", v.identifier(macro, "right_time", right_time))
    pairs = tuple(
        (v.find_column(macro, "by", left_cols, "left", left), v.find_column(macro, "by", right_cols, "right", right))
        for left, right in v.by_pairs(macro, by)
    )

    null_safe = _null_safe(macro, pairs, null_safe_keys)

    left_type, right_type = left_df.schema[left_time].dataType, right_df.schema[right_time].dataType
    kind = v.common_time_kind(macro, left_time, left_type.simpleString(), right_time, right_type.simpleString())
    tolerance = v.distance(macro, "tolerance", tolerance, kind)
    order_by = tuple(
        v.find_column(macro, "order_by", right_cols, "right", c) for c in v.identifier_list(macro, "order_by", order_by)
    )
    right_columns = v.right_output_columns(macro, left_cols, right_cols, list(pairs), prefix, columns, [right_time])
    skip_nulls, skip_columns = _skip_nulls(macro, skip_nulls, right_columns, right_time, pairs)
    return AsofSpec(
        by=pairs,
        left_time=left_time,
        right_time=right_time,
        left_type=left_type,
        right_type=right_type,
        kind=kind,
        direction=direction,
        allow_exact_matches=allow_exact_matches,
        tolerance=tolerance,
        join_type=join_type,
        left_columns=tuple(left_cols),
        right_columns=tuple(right_columns),
        order_by=order_by,
        engine=engine,
        macro=macro,
        skip_nulls=skip_nulls,
        skip_columns=skip_columns,
        null_safe=null_safe,
    )


def _skip_nulls(macro, value, right_columns, right_time, pairs) -> tuple[bool, tuple[str, ...] | None]:
    """skip_nulls (the macro's _asof_skip_nulls): true, false, or a list of the right columns brought but
    right_time and the keys. Returns (whether any column skips nulls, the listed lower-cased sources or None for
    all); an empty list is false."""
    if value is True or value is False:
        return value, None
    never = [right_time.lower(), *(rk.lower() for _, rk in pairs)]
    allowed = [src for src, _ in right_columns if src.lower() not in never]
    said = "true, false or a list of the right columns it brings but right_time and the keys" + (
        ": `" + "`, `".join(allowed) + "`" if allowed else " (none here)"
    )
    if isinstance(value, (str, bytes, dict)) or not isinstance(value, (list, tuple)):
        v.fail(macro, "skip_nulls", said, value)
    lowered = [a.lower() for a in allowed]
    skipped: list[str] = []
    for name in value:
        if not isinstance(name, str) or name.lower() not in lowered:
            why = (
                "right_time"
                if isinstance(name, str) and name.lower() == right_time.lower()
                else "a key"
                if isinstance(name, str) and name.lower() in never
                else "not a right column it brings (see `columns`)"
            )
            v.fail(macro, "skip_nulls", said, list(value), f"{v.describe(name)} is {why}")
        if name.lower() not in skipped:
            skipped.append(name.lower())
    return bool(skipped), tuple(skipped)


def _null_safe(macro, pairs, value) -> tuple[bool, ...]:
    """null_safe_keys: False, True (every pair) or left key names of `by` (those pairs); per pair whether it compares
    null-safe. The macro's _asof_null_safe."""
    names = [left.lower() for left, _ in pairs]
    if value is True or value is False:
        return tuple(value for _ in pairs)
    allowed = "true, false, or a list of left key names of `by` (" + (", ".join(names) or "none") + ")"
    if value is None or isinstance(value, (int, float, dict)):
        v.fail(macro, "null_safe_keys", allowed, value)
    chosen = set()
    for name in v.identifier_list(macro, "null_safe_keys", value):
        if name.lower() not in names:
            v.fail(macro, "null_safe_keys", allowed, name, f"`{name}` is not a left key of `by`")
        chosen.add(name.lower())
    return tuple(n in chosen for n in names)
