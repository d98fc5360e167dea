"""The as-of merge of one bucket, in numpy and pyarrow only (no Spark): what the arrow
engine runs in each Python worker, and what its unit tests call directly.

Inputs are pyarrow Tables shaped by the arrow engine: key columns, one time column in exact
comparable units (int64 epoch micros / days / unscaled decimals, or float64), the order_by
columns (right only) and the payload columns. For every left row the merge finds the right
row of the same keys nearest in time, with the asof_join macro's rules.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

_UINT64_MAX = 2**64 - 1


@dataclass(frozen=True)
class MergePlan:
    keys: list[str]  # key columns, on both tables
    time: str  # the time column, on both tables
    order_by: list[str]  # right tie-breakers: the greatest wins, nulls lowest
    left_columns: list[str]  # output: these left columns, then right_outputs
    right_outputs: list[str]
    direction: str  # backward | forward | nearest
    allow_exact_matches: bool
    tolerance: int | float | None  # in the time column's units
    inner: bool  # drop left rows without a match
    skip_nulls: tuple[str, ...] = ()  # right outputs taken from the best candidate where they are not null


def changed(table: pa.Table, names: list[str]) -> np.ndarray:
    """bool[n]: row i starts a new run of equal values in `names` (row 0 always does)."""
    n = table.num_rows
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    out[0] = True
    for name in names:
        col = table.column(name)
        later, earlier = col.slice(1), col.slice(0, n - 1)
        neq = pc.not_equal(later, earlier)
        if pa.types.is_floating(col.type):  # NaN keys are equal, as Spark's joins and windows hold them
            neq = pc.and_(neq, pc.invert(pc.and_(pc.is_nan(later), pc.is_nan(earlier))))
        out[1:] |= np.asarray(pc.fill_null(neq, True).to_numpy(zero_copy_only=False), dtype=bool)
    return out


def _sort_nulls_first(table: pa.Table, names: list[str]):
    try:  # pyarrow >= 25: null placement per key
        return pc.sort_indices(table, sort_keys=[(c, "ascending", "at_start") for c in names])
    except (TypeError, ValueError):
        return pc.sort_indices(table, sort_keys=[(c, "ascending") for c in names], null_placement="at_start")


def _gap(later, earlier, is_float: bool):
    """later - earlier (>= 0 by construction), exact for int64 via wrap-around uint64."""
    if is_float:
        return later - earlier
    return later.astype(np.uint64) - earlier.astype(np.uint64)


def _last_of_each_time(right: pa.Table, plan: MergePlan) -> pa.Table:
    """Right rows sorted by (keys, time, order_by nulls first); with order_by, only the last
    row of each (keys, time) run, the one with the greatest order_by, can win."""
    right = right.take(_sort_nulls_first(right, plan.keys + [plan.time] + plan.order_by))
    if plan.order_by:
        starts = changed(right, plan.keys + [plan.time])
        right = right.filter(pa.array(np.append(starts[1:], True)))
    return right


def _candidates(left: pa.Table, right: pa.Table, lidx: np.ndarray, plan: MergePlan):
    """(back, fwd): per left row, the index of its backward / forward right row, or -1.

    Matchable left rows and right rows become one event list sorted by (keys, time, side);
    a running max (backward) or min (forward, from the end) of right-row positions finds the
    nearest right row. At equal times the side order decides whether an exact match counts."""
    keys, t, nl, nr = plan.keys, plan.time, left.num_rows, right.num_rows
    ev = pa.concat_tables(
        [
            left.take(pa.array(lidx))
            .select(keys + [t])
            .append_column("__side", pa.array(np.zeros(len(lidx), np.int8)))
            .append_column("__pos", pa.array(lidx.astype(np.int64))),
            right.select(keys + [t])
            .append_column("__side", pa.array(np.ones(nr, np.int8)))
            .append_column("__pos", pa.array(np.arange(nr, dtype=np.int64))),
        ],
        promote_options="default",
    )
    n = ev.num_rows
    idx = np.arange(n)

    def sorted_events(right_first: bool):
        side_order = "descending" if right_first else "ascending"
        e = ev.take(pc.sort_indices(ev, sort_keys=[(c, "ascending") for c in keys + [t]] + [("__side", side_order)]))
        return e.column("__side").to_numpy() == 1, e.column("__pos").to_numpy(), np.cumsum(changed(e, keys)) - 1

    back = fwd = None
    if plan.direction in ("backward", "nearest"):
        # the right row goes before the left row at equal times when exact matches count
        is_right, pos, group = sorted_events(right_first=plan.allow_exact_matches)
        last = np.maximum.accumulate(np.where(is_right, idx, -1))
        ok = (~is_right) & (last >= 0)
        ok[ok] &= group[last[ok]] == group[ok]
        back = np.full(nl, -1, dtype=np.int64)
        sel = np.flatnonzero(ok)
        back[pos[sel]] = pos[last[sel]]
    if plan.direction in ("forward", "nearest"):
        is_right, pos, group = sorted_events(right_first=not plan.allow_exact_matches)
        nxt = np.minimum.accumulate(np.where(is_right, idx, n)[::-1])[::-1]
        ok = (~is_right) & (nxt < n)
        ok[ok] &= group[np.minimum(nxt[ok], n - 1)] == group[ok]
        fwd = np.full(nl, -1, dtype=np.int64)
        sel = np.flatnonzero(ok)
        fwd[pos[sel]] = pos[nxt[sel]]
    return back, fwd


def _pick(left: pa.Table, right: pa.Table, back, fwd, plan: MergePlan) -> np.ndarray:
    """The matched right index per left row (-1: none) after nearest's choice and the tolerance."""
    t = plan.time
    is_float = pa.types.is_floating(left.schema.field(t).type)
    # nulls filled only so the array stays int64 (exact); those rows never match
    lt = pc.fill_null(left.column(t), 0).to_numpy(zero_copy_only=False)
    rt = right.column(t).to_numpy(zero_copy_only=False)
    tol = plan.tolerance
    tol_u = None if tol is None else (tol if is_float else np.uint64(min(max(tol, 0), _UINT64_MAX)))

    def within(cand, backward: bool):
        m = cand >= 0
        if tol_u is None or not m.any():
            return m
        i = np.flatnonzero(m)
        g = _gap(lt[i], rt[cand[i]], is_float) if backward else _gap(rt[cand[i]], lt[i], is_float)
        m[i] = g <= tol_u
        return m

    if plan.direction == "backward":
        return np.where(within(back, True), back, -1)
    if plan.direction == "forward":
        return np.where(within(fwd, False), fwd, -1)
    use_back = back >= 0
    both = np.flatnonzero((back >= 0) & (fwd >= 0))
    if len(both):  # the closer one; the backward one on equal distance
        use_back[both] = _gap(lt[both], rt[back[both]], is_float) <= _gap(rt[fwd[both]], lt[both], is_float)
    chosen = np.where(use_back, back, fwd)
    ok = within(np.where(use_back, back, -1), True) | within(np.where(use_back, -1, fwd), False)
    return np.where(ok, chosen, -1)


def _match(left: pa.Table, right: pa.Table, lidx: np.ndarray, plan: MergePlan) -> tuple[pa.Table, np.ndarray]:
    """(the right rows that can win, per left row the index of its match among them or -1)."""
    if right.num_rows:
        right = _last_of_each_time(right, plan)
    match = np.full(left.num_rows, -1, dtype=np.int64)
    if len(lidx) and right.num_rows:
        back, fwd = _candidates(left, right, lidx, plan)
        match = _pick(left, right, back, fwd, plan)
    return right, match


def merge_bucket(left: pa.Table, right: pa.Table, plan: MergePlan) -> pa.Table:
    """The as-of merge of one bucket: plan.left_columns of every left row (of the matched
    ones when plan.inner), then plan.right_outputs of its match (nulls when none). A column of
    plan.skip_nulls comes from the match among the right rows where it is not null."""
    nl = left.num_rows
    # left rows that can match: key and time not null
    valid = np.ones(nl, dtype=bool)
    for c in plan.keys + [plan.time]:
        valid &= ~np.asarray(left.column(c).is_null().to_numpy(zero_copy_only=False), dtype=bool)
    lidx = np.flatnonzero(valid)
    whole, match = _match(left, right, lidx, plan)

    rows = np.flatnonzero(match >= 0) if plan.inner else np.arange(nl)
    out_left = left.select(plan.left_columns).take(pa.array(rows, type=pa.int64()))
    arrays = list(out_left.columns)
    for name in plan.right_outputs:
        source, picked = whole, match[rows]
        if name in plan.skip_nulls:
            source, own = _match(left, right.filter(pc.is_valid(right.column(name))), lidx, plan)
            picked = own[rows]
        ridx = pa.array(picked, type=pa.int64(), mask=picked < 0)
        arrays.append(
            source.column(name).take(ridx) if source.num_rows else pa.nulls(len(rows), right.schema.field(name).type)
        )
    return pa.Table.from_arrays(arrays, names=plan.left_columns + plan.right_outputs)


def _utc_type(t):
    """t with every zoned timestamp (nested ones too) labelled tz='UTC'."""
    if pa.types.is_timestamp(t):
        return pa.timestamp(t.unit, tz="UTC") if t.tz is not None else t
    if pa.types.is_struct(t):
        return pa.struct([f.with_type(_utc_type(f.type)) for f in t])
    if pa.types.is_large_list(t):
        return pa.large_list(t.value_field.with_type(_utc_type(t.value_type)))
    if pa.types.is_list(t):
        return pa.list_(t.value_field.with_type(_utc_type(t.value_type)))
    if pa.types.is_map(t):
        return pa.map_(t.key_field.with_type(_utc_type(t.key_type)), t.item_field.with_type(_utc_type(t.item_type)))
    return t


def utc_timestamps(table: pa.Table) -> pa.Table:
    """Spark hands the UDF zoned timestamps labelled with the session zone's name ('Etc/UTC',
    'America/New_York') but checks the result against tz='UTC' without a cast. Same instants, so
    relabel them: a metadata-only cast."""
    target = pa.schema([f.with_type(_utc_type(f.type)) for f in table.schema])
    return table if target.equals(table.schema) else table.cast(target)


def merge_for_spark(left: pa.Table, right: pa.Table, plan: MergePlan) -> pa.Table:
    """merge_bucket with its result in the types Spark's Arrow UDFs check against (utc_timestamps)."""
    return utc_timestamps(merge_bucket(left, right, plan))
