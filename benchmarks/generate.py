"""The data generator of K. A. Pettersson's PIT-join thesis (KTH, 2022; its section 3.3.1) and
the stored variants.

Left: N unique ids, one row each, `label` at a uniform time in one year of seconds.
Right: per id, k ~ Normal(20, 2) or Normal(80, 8) feature rows (chosen per id), times
Uniform(0, max) or Normal(mean ~ Uniform(0, max), sd ~ Uniform(5, 15) days) clipped to
the year (chosen per id). numpy with a fixed seed; ids are generated in chunks of
CHUNK ids (each chunk has its own seeded generator), so memory stays bounded at N = 1M
and the data does not depend on how many chunks run.

Right rows are made unique on (id, ts): with ties the as-of match is ambiguous and no
checksum could compare engines. Everything is written once as parquet under
benchmarks/data/ (git-ignored) and reused; a `_SUCCESS` marker says a directory is complete.

Variants (all derived from the ascending base):
  asc     stored sorted by (id, ts) ascending     desc    sorted descending
  random  rows in random order                    left20  20 left rows per id (same right)
  hotkey  one id (0) holds 10% of the right rows  nokey   same files as asc, joined without `by`
  bucketed<B>  Spark tables bucketed (and sorted) by id into B buckets, made from asc
  powerlaw<a>  a skewed spine: N labels over ids whose label counts follow a Zipf law with
               exponent a (capped at POWERLAW_CAP), FEATURES_PER_LABEL feature rows per label
  hot<p>  one id (HOT_ID) holds p% of both the N labels and the features (an "unknown" customer, a
          house account, a market index); every other id 1-8 labels; FEATURES_PER_LABEL feature
          rows per label
  left20_nulls  left20 with NULL_SHARE of the right rows' values null (seeded): a matched row's null
          must stay null, where a fill from an older row (tempo's default skipNulls) gives other rows
  left20_wide  left20 whose right rows carry four payload columns (scenarios.WIDE_PAYLOAD): `value`, a bigint
          count, a double score and a double rate of which NULL_SHARE is null (seeded)

Derived from any of those files (a scenario's `columns` and `times`, benchmarks/scenarios.py), each made once
under <N>/<kind>/ beside the files it copies:
  mixed      the right rows plus a string `kind` (one of KINDS strings, NULL_SHARE of them null, seeded)
  timestamp  both sides' `ts` as timestamps (UTC, written as instants: Spark reads them as `timestamp`, DuckDB as
             `timestamptz`), TS_EPOCH plus the bigint seconds: the same rows as the bigint files
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from . import scenarios

SEED = 4
MAX_TS = 60 * 60 * 24 * 365  # one year of seconds, the thesis's maximum timestamp
DAY = 60 * 60 * 24
CHUNK = 100_000  # ids per generated chunk
LEFT20_ROWS = 20
HOT_ID = 0
HOT_SHARE = 0.10
NULL_SHARE = 0.10  # left20_nulls: the share of right rows whose value is null
POWERLAW_CAP = 5_000  # labels of the biggest id: thousands of labels, tens of thousands of features
FEATURES_PER_LABEL = 8
TS_EPOCH = 1_704_067_200  # 2024-01-01 00:00:00 UTC: a timestamp time is the bigint seconds after it
KINDS = 1_000  # mixed: how many distinct strings `kind` takes

DATA_DIR = Path(os.environ.get("TEMPORAL_JOINS_BENCH_DATA", Path(__file__).resolve().parent / "data"))

LEFT_SCHEMA = pa.schema([("id", pa.int64()), ("ts", pa.int64()), ("label", pa.int32())])
RIGHT_SCHEMA = pa.schema([("id", pa.int64()), ("ts", pa.int64()), ("value", pa.float64())])


@dataclass(frozen=True)
class Files:
    """Parquet locations of one (N, variant): a left file and a directory of right parts."""

    left: Path
    right: Path

    @property
    def right_glob(self) -> str:
        return str(self.right / "*.parquet")


def _rng(n: int, chunk: int, salt: int = 0) -> np.random.Generator:
    return np.random.default_rng([SEED, n, chunk, salt])


def _unique_sorted(ids: np.ndarray, ts: np.ndarray, *cols: np.ndarray):
    """Sort by (id, ts) and keep the first row of every duplicate (id, ts)."""
    order = np.lexsort((ts, ids))
    ids, ts = ids[order], ts[order]
    keep = np.ones(len(ids), dtype=bool)
    keep[1:] = (ids[1:] != ids[:-1]) | (ts[1:] != ts[:-1])
    return (ids[keep], ts[keep], *(c[order][keep] for c in cols))


def generate_chunk(n: int, chunk: int, left_rows_per_id: int = 1):
    """(left, right) arrow tables for ids [chunk*CHUNK, min(n, (chunk+1)*CHUNK))."""
    start, stop = chunk * CHUNK, min(n, (chunk + 1) * CHUNK)
    ids = np.arange(start, stop, dtype=np.int64)
    rng = _rng(n, chunk)
    # the thesis's left table: one label per id at a uniform time
    left_ts = rng.integers(0, MAX_TS + 1, size=len(ids), dtype=np.int64)
    labels = rng.integers(0, 2, size=len(ids), dtype=np.int32)
    # right: per id a count distribution and a time distribution, each chosen uniformly
    many = rng.random(len(ids)) < 0.5
    k = np.where(many, rng.normal(80, 8, len(ids)), rng.normal(20, 2, len(ids)))
    k = np.maximum(np.rint(k), 1).astype(np.int64)
    uniform_times = rng.random(len(ids)) < 0.5
    means = rng.uniform(0, MAX_TS, len(ids))
    sds = rng.uniform(5 * DAY, 15 * DAY, len(ids))
    rid = np.repeat(ids, k)
    normal_ts = np.clip(np.rint(rng.normal(np.repeat(means, k), np.repeat(sds, k))), 0, MAX_TS).astype(np.int64)
    uniform_ts = rng.integers(0, MAX_TS + 1, size=len(rid), dtype=np.int64)
    rts = np.where(np.repeat(uniform_times, k), uniform_ts, normal_ts)
    values = rng.normal(0.0, 1.0, len(rid))
    rid, rts, values = _unique_sorted(rid, rts, values)
    right = pa.table({"id": rid, "ts": rts, "value": values}, schema=RIGHT_SCHEMA)

    if left_rows_per_id == 1:
        left = pa.table({"id": ids, "ts": left_ts, "label": labels}, schema=LEFT_SCHEMA)
    else:
        # 20 labels per id at uniform times (own generator, so the right table is unchanged)
        lrng = _rng(n, chunk, salt=left_rows_per_id)
        lid = np.repeat(ids, left_rows_per_id)
        lts = lrng.integers(0, MAX_TS + 1, size=len(lid), dtype=np.int64)
        llab = lrng.integers(0, 2, size=len(lid), dtype=np.int32)
        lid, lts, llab = _unique_sorted(lid, lts, llab)
        left = pa.table({"id": lid, "ts": lts, "label": llab}, schema=LEFT_SCHEMA)
    return left, right


def generate_powerlaw(n: int, a: float):
    """(left, right) for about n labels over ids whose label counts are Zipf(a), capped at
    POWERLAW_CAP; each id gets FEATURES_PER_LABEL feature rows per label. Label and feature
    times are uniform in the year; feature rows unique on (id, ts)."""
    rng = np.random.default_rng([SEED, n, int(a * 1000), 13])
    counts = np.minimum(rng.zipf(a, size=n), POWERLAW_CAP)
    counts = counts[: int(np.searchsorted(np.cumsum(counts), n)) + 1]
    counts[-1] -= max(0, int(counts.sum()) - n)  # exactly n labels
    ids = rng.permutation(len(counts)).astype(np.int64)  # big ids anywhere in the id range
    lid = np.repeat(ids, counts)
    lts = rng.integers(0, MAX_TS + 1, size=len(lid), dtype=np.int64)
    llab = rng.integers(0, 2, size=len(lid), dtype=np.int32)
    rid = np.repeat(ids, counts * FEATURES_PER_LABEL)
    rts = rng.integers(0, MAX_TS + 1, size=len(rid), dtype=np.int64)
    lid, lts, llab = _unique_sorted(lid, lts, llab)
    rid, rts, values = _unique_sorted(rid, rts, rng.normal(0.0, 1.0, len(rid)))
    left = pa.table({"id": lid, "ts": lts, "label": llab}, schema=LEFT_SCHEMA)
    return left, pa.table({"id": rid, "ts": rts, "value": values}, schema=RIGHT_SCHEMA)


def generate_hot(n: int, share: float):
    """(left, right) for n labels: `share` of them and of the feature rows on HOT_ID, the rest over ids
    with 1-8 labels each (uniform); FEATURES_PER_LABEL feature rows per label; times uniform in the year,
    feature rows unique on (id, ts) (the hot id's drawn without repeats)."""
    rng = np.random.default_rng([SEED, n, int(share * 1000), 17])
    hot = int(round(n * share))
    counts = rng.integers(1, 9, size=max(n - hot, 1))
    counts = counts[: int(np.searchsorted(np.cumsum(counts), n - hot)) + 1]
    counts[-1] -= max(0, int(counts.sum()) - (n - hot))
    ids = np.arange(HOT_ID + 1, HOT_ID + 1 + len(counts), dtype=np.int64)
    lid = np.concatenate([np.full(hot, HOT_ID, dtype=np.int64), np.repeat(ids, counts)])
    lts = rng.integers(0, MAX_TS + 1, size=len(lid), dtype=np.int64)
    llab = rng.integers(0, 2, size=len(lid), dtype=np.int32)
    hot_features = min(hot * FEATURES_PER_LABEL, MAX_TS + 1)
    rid = np.concatenate([np.full(hot_features, HOT_ID, dtype=np.int64), np.repeat(ids, counts * FEATURES_PER_LABEL)])
    rts = np.concatenate(
        [
            rng.choice(MAX_TS + 1, size=hot_features, replace=False).astype(np.int64),
            rng.integers(0, MAX_TS + 1, size=len(rid) - hot_features, dtype=np.int64),
        ]
    )
    lid, lts, llab = _unique_sorted(lid, lts, llab)
    rid, rts, values = _unique_sorted(rid, rts, rng.normal(0.0, 1.0, len(rid)))
    left = pa.table({"id": lid, "ts": lts, "label": llab}, schema=LEFT_SCHEMA)
    return left, pa.table({"id": rid, "ts": rts, "value": values}, schema=RIGHT_SCHEMA)


def _chunks(n: int) -> int:
    return (n + CHUNK - 1) // CHUNK


def _done(path: Path) -> bool:
    return (path / "_SUCCESS").exists()


def _fresh(path: Path) -> Path:
    if path.exists():
        shutil.rmtree(path)
    (path / "right").mkdir(parents=True)
    return path


def _finish(path: Path) -> None:
    (path / "_SUCCESS").write_text("ok\n")


def _derive_right(asc: Path, d: Path, transform) -> None:
    """Write d's right files: each of asc's right files through transform (in file order, so a seeded
    transform gives the same rows every time)."""
    _fresh(d)
    for i, p in enumerate(sorted((asc / "right").glob("*.parquet"))):
        pq.write_table(transform(pq.read_table(p)), d / "right" / f"part-{i:05d}.parquet")
    _finish(d)


def _with_kind(t: pa.Table, rng: np.random.Generator) -> pa.Table:
    kinds = pa.array([f"kind_{k}" for k in range(KINDS)])
    index = pa.array(rng.integers(0, KINDS, len(t)), mask=rng.random(len(t)) < NULL_SHARE)
    return t.append_column("kind", kinds.take(index))


def _as_timestamps(t: pa.Table, rng: np.random.Generator) -> pa.Table:
    micros = pc.multiply(pc.add(t["ts"], TS_EPOCH), 1_000_000)
    return t.set_column(t.schema.get_field_index("ts"), "ts", micros.cast(pa.timestamp("us", tz="UTC")))


DERIVED = {"mixed": (_with_kind, 23), "timestamp": (_as_timestamps, 29)}  # kind: (transform, seed salt)


def _copy(src: Path, dst: Path, n: int, kind: str, part: int) -> None:
    """src through kind's transform into dst, a row group at a time (each with its own seeded generator)."""
    transform, salt = DERIVED[kind]
    source = pq.ParquetFile(src)
    with pq.ParquetWriter(dst, transform(source.schema_arrow.empty_table(), np.random.default_rng(0)).schema) as w:
        for g in range(source.num_row_groups):
            w.write_table(transform(source.read_row_group(g), np.random.default_rng([SEED, n, salt, part, g])))


def _derived(n: int, src: Path, kind: str, make: bool, log=print) -> Path:
    """src's copy under <N>/<kind>/ (a parquet file, or a directory of parquet parts), made once if `make`."""
    base = DATA_DIR / f"n{n}"
    dst = base / kind / src.relative_to(base)
    if not make:
        return dst
    if src.is_dir() and not _done(dst):
        log(f"writing n={n} {kind} {src.relative_to(base)} ...")
        if dst.exists():
            shutil.rmtree(dst)
        dst.mkdir(parents=True)
        for i, p in enumerate(sorted(src.glob("*.parquet"))):
            _copy(p, dst / p.name, n, kind, i)
        _finish(dst)  # its _SUCCESS is skipped by Spark (a leading `_`) and by the right side's glob
    elif src.is_file() and not dst.exists():
        log(f"writing n={n} {kind} {src.relative_to(base)} ...")
        dst.parent.mkdir(parents=True, exist_ok=True)
        partial = dst.with_name(dst.name + ".partial")
        _copy(src, partial, n, kind, 0)
        partial.replace(dst)  # complete once it has its name
    return dst


def _scenario_files(n: int, defined: scenarios.Scenario, make: bool, log=print) -> Files:
    """The scenario's files: its data set's, then with a string column, then with timestamp times."""
    made = _data_files(n, defined)
    left, right = made.left, made.right
    if defined.columns == "mixed":
        right = _derived(n, right, "mixed", make, log)
    if defined.times == "timestamp":
        left, right = _derived(n, left, "timestamp", make, log), _derived(n, right, "timestamp", make, log)
    return Files(left, right)


def files(n: int, scenario: str) -> Files:
    """The parquet locations of a scenario (a row of benchmarks/scenarios.py) at N."""
    return _scenario_files(n, scenarios.get(scenario), make=False)


def _data_files(n: int, defined: scenarios.Scenario) -> Files:
    """The parquet locations of a scenario's data set (bigint times, its own payload) at N."""
    base = DATA_DIR / f"n{n}"
    data = defined.data
    if data == "asc":
        d = base / "asc"
        return Files(d / "left.parquet", d / "right")
    if data == "left20":
        return Files(base / "left20" / "left.parquet", base / "asc" / "right")
    if data == "left20_nulls":
        return Files(base / "left20" / "left.parquet", base / "nulls" / "right")
    if data == "left20_wide":
        return Files(base / "left20" / "left.parquet", base / "wide" / "right")
    if data == "hotkey":
        return Files(base / "asc" / "left.parquet", base / "hotkey" / "right")
    d = base / _generated_name(defined)
    return Files(d / "left.parquet", d / "right")


def _generated_name(defined: scenarios.Scenario) -> str:
    """The directory of a generated data set (powerlaw, hot), named by its parameters: the scenarios on the
    same rows share it."""
    if defined.data == "powerlaw":
        return f"powerlaw{defined.exponent}"
    return f"hot{round(defined.hot_share * 100)}"


def ensure(n: int, scenario: str, log=print) -> Files:
    """Generate (once) the parquet files a scenario (a row of benchmarks/scenarios.py) needs; returns their
    locations."""
    defined = scenarios.get(scenario)
    _ensure_data(n, defined, log)
    return _scenario_files(n, defined, make=True, log=log)


def _ensure_data(n: int, defined: scenarios.Scenario, log=print) -> None:
    """Generate (once) the files of a scenario's data set (bigint times, its own payload)."""
    base = DATA_DIR / f"n{n}"
    variant = defined.data
    if variant in ("powerlaw", "hot"):
        d = base / _generated_name(defined)
        if not _done(d):
            log(f"generating n={n} {d.name} ...")
            _fresh(d)
            if variant == "powerlaw":
                left, right = generate_powerlaw(n, defined.exponent)
            else:
                left, right = generate_hot(n, defined.hot_share)
            pq.write_table(left, d / "left.parquet")
            for i, part in enumerate(np.array_split(np.arange(len(right)), max(1, _chunks(n)))):
                pq.write_table(right.take(part), d / "right" / f"part-{i:05d}.parquet")
            _finish(d)
        return
    asc = base / "asc"
    if not _done(asc):
        log(f"generating n={n} asc ...")
        _fresh(asc)
        with pq.ParquetWriter(asc / "left.parquet", LEFT_SCHEMA) as lw:
            for c in range(_chunks(n)):
                left, right = generate_chunk(n, c)
                lw.write_table(left)
                pq.write_table(right, asc / "right" / f"part-{c:05d}.parquet")
        _finish(asc)
    if variant in ("left20", "left20_nulls", "left20_wide") and not _done(base / "left20"):
        log(f"generating n={n} left20 ...")
        d = base / "left20"
        if d.exists():
            shutil.rmtree(d)
        d.mkdir(parents=True)
        with pq.ParquetWriter(d / "left.parquet", LEFT_SCHEMA) as lw:
            for c in range(_chunks(n)):
                lw.write_table(generate_chunk(n, c, LEFT20_ROWS)[0])
        _finish(d)
    if variant == "left20_nulls" and not _done(base / "nulls"):
        log(f"writing n={n} nulls ...")
        rng = _rng(n, 999_999, salt=13)

        def holed(t: pa.Table) -> pa.Table:
            nulls = pa.array(rng.random(len(t)) < NULL_SHARE)
            return t.set_column(2, "value", pc.if_else(nulls, pa.scalar(None, pa.float64()), t["value"]))

        _derive_right(asc, base / "nulls", holed)
    if variant == "left20_wide" and not _done(base / "wide"):
        log(f"writing n={n} wide ...")
        rng = _rng(n, 999_999, salt=19)

        def widened(t: pa.Table) -> pa.Table:
            rate = pa.array(rng.random(len(t)), pa.float64())
            nulls = pa.array(rng.random(len(t)) < NULL_SHARE)
            t = t.append_column("n", pa.array(rng.integers(0, 1_000, len(t)), pa.int64()))
            t = t.append_column("score", pa.array(rng.normal(0.0, 1.0, len(t)), pa.float64()))
            return t.append_column("rate", pc.if_else(nulls, pa.scalar(None, pa.float64()), rate))

        _derive_right(asc, base / "wide", widened)
    if variant == "desc" and not _done(base / "desc"):
        log(f"writing n={n} desc ...")
        d = _fresh(base / "desc")
        left = pq.read_table(asc / "left.parquet")
        pq.write_table(left.take(np.arange(len(left) - 1, -1, -1)), d / "left.parquet")
        parts = sorted((asc / "right").glob("*.parquet"), reverse=True)
        for i, p in enumerate(parts):
            t = pq.read_table(p)
            pq.write_table(t.take(np.arange(len(t) - 1, -1, -1)), d / "right" / f"part-{i:05d}.parquet")
        _finish(d)
    if variant == "random" and not _done(base / "random"):
        log(f"writing n={n} random ...")
        d = _fresh(base / "random")
        rng = _rng(n, 999_999, salt=7)
        left = pq.read_table(asc / "left.parquet")
        pq.write_table(left.take(rng.permutation(len(left))), d / "left.parquet")
        right = pq.read_table(asc / "right")
        perm = rng.permutation(len(right))
        parts = max(1, _chunks(n))
        for i, idx in enumerate(np.array_split(perm, parts)):
            pq.write_table(right.take(idx), d / "right" / f"part-{i:05d}.parquet")
        _finish(d)
    if variant == "hotkey" and not _done(base / "hotkey"):
        log(f"writing n={n} hotkey ...")
        d = _fresh(base / "hotkey")
        total = 0
        for i, p in enumerate(sorted((asc / "right").glob("*.parquet"))):
            t = pq.read_table(p)
            t = t.filter(pc.not_equal(t["id"], HOT_ID))  # the hot id's rows are replaced below
            total += len(t)
            pq.write_table(t, d / "right" / f"part-{i + 1:05d}.parquet")
        # hot rows / (hot rows + the rest) = HOT_SHARE, times distinct (no ties inside the key)
        hot = int(round(total * HOT_SHARE / (1 - HOT_SHARE)))
        rng = _rng(n, 999_999, salt=11)
        hts = np.sort(rng.choice(MAX_TS + 1, size=min(hot, MAX_TS + 1), replace=False)).astype(np.int64)
        hot_table = pa.table(
            {"id": np.full(len(hts), HOT_ID, dtype=np.int64), "ts": hts, "value": rng.normal(0.0, 1.0, len(hts))},
            schema=RIGHT_SCHEMA,
        )
        pq.write_table(hot_table, d / "right" / "part-00000.parquet")
        _finish(d)


def ensure_bucketed(spark, n: int, buckets: int, database: str, log=print, variant: str = "asc") -> tuple[str, str]:
    """Spark tables bucketed and sorted by id (the thesis's pre-bucketed variant), made once from the
    variant's files (asc, or left20: 20 labels per id)."""
    src = ensure(n, variant, log)
    shape = "" if variant == "asc" else f"_{variant}"
    names = (f"{database}.bench_n{n}{shape}_b{buckets}_left", f"{database}.bench_n{n}{shape}_b{buckets}_right")
    spark.sql(f"create database if not exists {database}")
    for name, path in zip(names, (str(src.left), str(src.right))):
        if not spark.catalog.tableExists(name):
            log(f"writing bucketed table {name} ...")
            (
                spark.read.parquet(path)
                .write.bucketBy(buckets, "id")
                .sortBy("id", "ts")
                .mode("overwrite")
                .saveAsTable(name)
            )
    return names
