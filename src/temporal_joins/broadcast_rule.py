"""auto's broadcast rule, shared by asof_join's and window_aggregate's engines (the macro's
_tj_auto_strategy and its vars): whether a left side is small enough, with few enough rows per key,
to broadcast. Both families import it; neither imports the other for it."""

from __future__ import annotations

import re
from collections import Counter

import pyarrow.compute as pc
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from temporal_joins.tuning import TUNING

# auto's rule, from the tuning table (the macro's vars temporal_joins_broadcast_max_bytes, _max_rows, _max_rows_per_key)
BROADCAST_MAX_BYTES = TUNING["temporal_joins_broadcast_max_bytes"]
BROADCAST_MAX_ROWS: int | None = TUNING["temporal_joins_broadcast_max_rows"]
BROADCAST_MAX_ROWS_PER_KEY = TUNING["temporal_joins_broadcast_max_rows_per_key"]
STATS_SAMPLE_ROWS = TUNING["sample_rows"]  # rows per key are counted on a sample of about this many left rows


def ungroupable_columns(df: DataFrame) -> list[str]:
    """Columns Spark cannot group by (maps and variants, also nested): broadcast groups by every left column."""
    return [
        f.name for f in df.schema.fields if re.search(r"map<|(^|[<,:\s])variant($|[>,\s])", f.dataType.simpleString())
    ]


def row_bytes(df: DataFrame) -> int:
    """A left row's estimated size in the broadcast hash table (the macro's _tj_broadcast_row_bytes): an
    UnsafeRow (a null bit per column in 8-byte words, 8 bytes per column) plus the variable-length parts at
    Spark's default sizes (string 20 rounded to 24, binary 104, a decimal past 18 digits 16, nested types 64),
    plus 16 for the table's entry."""
    n = len(df.schema.fields)
    return 16 + 8 * ((n + 63) // 64) + 8 * n + sum(_variable_bytes(f.dataType.simpleString()) for f in df.schema.fields)


def _variable_bytes(dtype: str) -> int:
    decimal = re.match(r"decimal\((\d+)", dtype)
    if re.match(r"(array|map|struct|variant)\b", dtype):
        return 64
    if re.match(r"(string|varchar|char)\b", dtype):
        return 24
    if re.match(r"binary\b", dtype):
        return 104
    return 16 if decimal and int(decimal.group(1)) > 18 else 0


def spine_fits(left_df: DataFrame, keys: list[str]) -> bool:
    """Keys given, no ungroupable left column, at most BROADCAST_MAX_BYTES of rows (counted exactly, times
    their estimated size, row_bytes), at most BROADCAST_MAX_ROWS rows when set, and at most
    BROADCAST_MAX_ROWS_PER_KEY rows per key, counted on a random sample of about STATS_SAMPLE_ROWS
    rows when the left side is bigger.

    Why a sample: a group-by over every key of a 1M-row spine takes about 1 s, as long as a tenth of the
    broadcast join it decides on; the count and the sample's keys (hashed, fetched as Arrow) take about
    0.25 s. A spine within the rule always passes (a key's sample count is at most its row count); a hot
    key (hundreds of rows) always fails; a few keys just over the limit may pass, which costs little.
    The choice never changes the rows, only the plan."""
    if not keys or ungroupable_columns(left_df):
        return False
    rows = left_df.count()
    if rows * row_bytes(left_df) > BROADCAST_MAX_BYTES or (
        BROADCAST_MAX_ROWS is not None and rows > BROADCAST_MAX_ROWS
    ):
        return False
    fraction = min(1.0, STATS_SAMPLE_ROWS / max(rows, 1))
    # one long per row, whatever the key types; null keys hash alike, as group-by groups them
    hashed = left_df.select(F.xxhash64(*[F.col(f"`{k}`") for k in keys]).alias("k"))
    if fraction < 1.0:
        hashed = hashed.where(F.rand(TUNING["sample_seed"]) < fraction)
    return max_rows_per_key(hashed) <= BROADCAST_MAX_ROWS_PER_KEY


def max_rows_per_key(hashed: DataFrame) -> int:
    """The most rows one value of column `k` has (0 without rows), counted in the driver: the column
    fetched as Arrow where DataFrame.toArrow exists (Spark >= 4.0), else collected as one array by a
    global aggregate. At a 1M-row spine (100,000 keys sampled) the array takes about 1.5 times Arrow's
    time and two thirds of a group-by's in Spark (docs/design.md, "Python engines")."""
    if not hasattr(type(hashed), "toArrow"):  # the class: a Connect DataFrame answers unknown names
        return max(Counter(hashed.agg(F.collect_list("k")).first()[0]).values(), default=0)
    column = hashed.toArrow().column("k")
    return pc.max(pc.value_counts(column).field("counts")).as_py() if len(column) else 0
