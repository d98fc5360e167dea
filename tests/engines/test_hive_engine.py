"""The real Hive 2.3 engine (tools/hive): it runs HiveQL as Hive does and reads values back exactly.

- The thesis's Listing 4.1 (benchmarks/hiveql/thesis_listing_4_1.hql) runs as MapReduce jobs
  and returns the rows computed by hand and by DuckDB on the same statement.
- Every primitive type goes in through a parquet file and comes back typed and exact: nulls
  (never the string 'NULL'), NaN, -0.0 and subnormal doubles, 38-digit decimals, dates, and
  timestamps to the microsecond, in UTC and in America/New_York (Hive 2.3's timestamps are
  wall times of the JVM's zone: the DST gap and overlap are where a conversion would show), as
  wall times and, across both DST changes, as instants.
- Must-fail controls: a statement Hive rejects at semantic analysis (today's union flavour)
  and one that fails inside a reducer are raised as HiveError with Hive's own message.
"""

from __future__ import annotations

import datetime as dt
import math
import struct
import zoneinfo
from decimal import Decimal
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from tools.hive import HiveEngine, HiveEngineError, HiveError
from tools.hive.engine import _pid_alive
from tools.hive_export import THESIS_LISTING_4_1

REPO = Path(__file__).resolve().parents[2]
HIVEQL = REPO / "benchmarks" / "hiveql"
# every test starts Hive 2.3's engine (tools.hive), through the hive fixtures or by itself
pytestmark = pytest.mark.hive

LABELS = [  # (id, ts, label)
    (1, 2, 102),
    (1, 10, 100),
    (1, 20, 101),
    (2, 15, 200),
    (2, 15, 200),  # a duplicate left row: Listing 4.1 keeps one (it ranks per id, ts)
    (3, 7, 300),  # an exact match (>=), whose right value is null
    (4, 1, 400),  # no right row at all
]
FEATURES = [  # (id, ts, value)
    (1, 3, 1.5),
    (1, 10, 2.5),
    (1, 15, 3.5),
    (2, 1, 0.25),
    (2, 14, -1.0),
    (3, 7, None),
    (5, 9, 9.0),  # no left row
]
# Listing 4.1: inner join, the latest feature at or before each label, one row per (id, ts)
LISTING_4_1_ROWS = [(1, 10, 100, 10, 2.5), (1, 20, 101, 15, 3.5), (2, 15, 200, 14, -1.0), (3, 7, 300, 7, None)]


def _load_listing_inputs(hive: HiveEngine, db: str) -> None:
    hive.create_table("labels", [("id", "bigint"), ("ts", "bigint"), ("label", "int")], LABELS, db=db)
    hive.create_table("features", [("id", "bigint"), ("ts", "bigint"), ("value", "double")], FEATURES, db=db)


def test_thesis_listing_4_1_returns_the_hand_computed_and_duckdb_rows(hive):
    _load_listing_inputs(hive, "tj_listing")
    hive.run_file(HIVEQL / "thesis_listing_4_1.hql", {"db": "tj_listing"})  # create table ... stored as orc as
    got = sorted(hive.query("select * from tj_listing.thesis_listing_4_1"), key=repr)

    con = duckdb.connect()
    con.register("labels", pd.DataFrame(LABELS, columns=["id", "ts", "label"]))
    con.register("features", pd.DataFrame(FEATURES, columns=["id", "ts", "value"], dtype=object))
    oracle = sorted(
        (tuple(None if pd.isna(v) else v for v in row) for row in con.sql(THESIS_LISTING_4_1).fetchall()), key=repr
    )
    assert got == sorted(LISTING_4_1_ROWS, key=repr) == oracle


# --------------------------------------------------------------------------- typed round trip


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


TYPES = [
    ("ti", "tinyint"),
    ("si", "smallint"),
    ("i", "int"),
    ("bi", "bigint"),
    ("f", "float"),
    ("d", "double"),
    ("dec", "decimal(38,10)"),
    ("small_dec", "decimal(5,2)"),
    ("b", "boolean"),
    ("s", "string"),
    ("vc", "varchar(12)"),
    ("day", "date"),
    ("ts", "timestamp"),
    ("bin", "binary"),
]
ROWS = [
    (
        -128,
        -32768,
        -(2**31),
        -(2**63),
        _f32(0.1),
        0.1,
        Decimal("-1234567890123456789012345678.0123456789"),
        Decimal("-999.99"),
        True,
        "NULL",
        "NULL",
        dt.date(1900, 1, 1),
        dt.datetime(1969, 12, 31, 23, 59, 59, 999999),
        b"\x00\xff",
    ),
    (
        127,
        32767,
        2**31 - 1,
        2**63 - 1,
        -0.0,
        5e-324,
        Decimal("0.0000000001"),
        Decimal("999.99"),
        False,
        "",
        "",
        dt.date(1969, 12, 31),
        dt.datetime(2024, 3, 10, 3, 30, 0, 1),
        b"",
    ),
    (None,) * len(TYPES),
    (
        0,
        0,
        0,
        0,
        math.inf,
        math.nan,
        Decimal("0E-10"),
        Decimal("0.00"),
        None,
        "tab\there\nnewline \\N ü€😀",
        "\\N",
        dt.date(9999, 12, 31),
        dt.datetime(2024, 11, 3, 1, 30, 0, 500000),
        b"NULL",
    ),
    (
        1,
        2,
        3,
        4,
        -math.inf,
        -1.7976931348623157e308,
        Decimal("12.5"),
        Decimal("-0.01"),
        True,
        "x",
        "y",
        dt.date(2024, 3, 10),
        dt.datetime(2100, 7, 1, 12, 0, 0, 1),
        b"\n",
    ),
    (
        5,
        6,
        7,
        8,
        _f32(3.4028234663852886e38),
        2.2250738585072014e-308,
        Decimal("1E-10"),
        Decimal("1.00"),
        False,
        "  padded  ",
        "a" * 12,
        dt.date(1970, 1, 1),
        dt.datetime(1900, 1, 1, 0, 0, 0),
        b"\x80",
    ),
]


def _same(a, b) -> bool:
    """Equal and of the same type; NaN equals NaN, and -0.0 is not 0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b


def _assert_rows_identical(got, expected):
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert all(_same(x, y) for x, y in zip(g, e)), f"\n got      {g!r}\n expected {e!r}"


def _hive_timestamp_text(t: dt.datetime) -> str:
    """How Hive 2.3 casts a timestamp to string: fraction digits without trailing zeros, none for zero."""
    fraction = f"{t.microsecond:06d}".rstrip("0")
    return t.strftime("%Y-%m-%d %H:%M:%S") + (f".{fraction}" if fraction else "")


def _hive_unix_timestamp(t: dt.datetime, zone: zoneinfo.ZoneInfo) -> int:
    """unix_timestamp(ts) of Hive 2.3: Timestamp.getTime() (whole milliseconds, floored) / 1000 in
    Java's integer division, which truncates toward zero: 1969-12-31 23:59:59.999 UTC gives 0.
    java.util's calendar takes a wall time that a DST overlap repeats as standard time: fold=1."""
    return _java_unix_seconds(t.replace(tzinfo=zone, fold=1))


def _java_unix_seconds(instant: dt.datetime) -> int:
    millis = (instant - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)) // dt.timedelta(milliseconds=1)
    return -(-millis // 1000) if millis < 0 else millis // 1000


@pytest.mark.parametrize("timezone", ["UTC", "America/New_York"])
def test_every_type_round_trips_exactly_with_nulls(hive_engines, timezone):
    hive = hive_engines(timezone)
    hive.create_table("every_type", TYPES, ROWS, db="tj_types")
    got = hive.query("select * from tj_types.every_type order by bi nulls first")
    expected = sorted(ROWS, key=lambda r: (r[3] is not None, r[3] or 0))
    _assert_rows_identical(got, expected)

    # Hive itself sees the wall times and dates we wrote, in the JVM's zone (not shifted by it)
    zone = zoneinfo.ZoneInfo(timezone)
    text = hive.query(
        "select bi, cast(ts as string), cast(day as string), unix_timestamp(ts), s is null, s = 'NULL' "
        "from tj_types.every_type"
    )
    by_key = {row[3]: row for row in ROWS}
    for bi, ts_text, day_text, epoch, s_null, s_is_null_text in text:
        row = by_key[bi]
        ts, day, s = row[12], row[11], row[9]
        assert ts_text == (None if ts is None else _hive_timestamp_text(ts))
        assert day_text == (None if day is None else day.isoformat())
        assert epoch == (None if ts is None else _hive_unix_timestamp(ts, zone))
        assert s_null is (s is None) and s_is_null_text == (None if s is None else s == "NULL")


def test_instants_round_trip_across_both_dst_changes(hive_engines):
    """timestamps="instant": every instant is exact, also the two that share the wall time 01:30
    on 2024-11-03 in New York, which Hive orders, counts and converts as two instants."""
    hive = hive_engines("America/New_York", "instant")
    utc = dt.timezone.utc
    instants = [
        dt.datetime(2024, 3, 10, 6, 59, 59, 999999, tzinfo=utc),
        dt.datetime(2024, 3, 10, 7, 0, tzinfo=utc),
        dt.datetime(2024, 3, 10, 7, 30, tzinfo=utc),
        dt.datetime(2024, 11, 3, 5, 30, tzinfo=utc),
        dt.datetime(2024, 11, 3, 5, 59, 59, 999999, tzinfo=utc),
        dt.datetime(2024, 11, 3, 6, 0, tzinfo=utc),
        dt.datetime(2024, 11, 3, 6, 30, tzinfo=utc),
        dt.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc),
    ]
    hive.create_table(
        "instants", [("i", "int"), ("ts", "timestamp")], [(None, None)] + list(enumerate(instants)), db="tj_types"
    )
    got = hive.query("select i, ts, unix_timestamp(ts), cast(ts as string) from tj_types.instants order by ts")
    zone = zoneinfo.ZoneInfo("America/New_York")
    ordered = sorted(enumerate(instants), key=lambda p: p[1])
    assert all(ts.tzinfo is not None for _, ts, _, _ in got[1:])
    # in UTC: PEP 495 makes a repeated wall time unequal to every time of another zone
    as_utc = [(i, ts and ts.astimezone(utc)) for i, ts, _, _ in got]
    assert as_utc == [(None, None)] + ordered  # nulls first, then by instant
    for _, ts, epoch, text in got[1:]:
        assert epoch == _java_unix_seconds(ts)
        assert text == _hive_timestamp_text(ts.astimezone(zone).replace(tzinfo=None))
    assert hive.query("select count(distinct ts) from tj_types.instants") == [(len(instants),)]


def test_values_computed_by_hive_come_back_exact(hive):
    got = hive.query(
        "select cast(0.1 as double) + cast(0.2 as double), 1/3, cast('1.5' as decimal(20,10)) * 3, "
        "cast('2024-02-29 23:59:59.999999' as timestamp), date_add('2024-02-28', 1), "
        "cast(null as string), 'NULL', cast(9007199254740993 as bigint)"
    )
    _assert_rows_identical(
        got,
        [
            (
                0.1 + 0.2,
                1 / 3,
                Decimal("4.5000000000"),
                dt.datetime(2024, 2, 29, 23, 59, 59, 999999),
                dt.date(2024, 2, 29),
                None,
                "NULL",
                9007199254740993,
            )
        ],
    )


# --------------------------------------------------------------------------- must-fail controls


def test_a_struct_beside_a_bare_null_is_rejected_by_hive_semantic_analysis(hive):
    """The union strategy's form before its flat layout (tools/hive/FINDINGS.md section 1): a struct
    beside a bare NULL in UNION ALL. Hive rejects it at analysis, and the harness raises that as a
    failure, not a skip."""
    _load_listing_inputs(hive, "tj_control")
    sql = """
    select k, r from (
      select id as k, named_struct('v', value) as r from tj_control.features
      union all
      select id as k, null as r from tj_control.labels
    ) as u
    """
    with pytest.raises(HiveError) as failure:
        hive.query(sql)
    message = str(failure.value)
    assert "SemanticException" in message
    assert "Schema of both sides of union should match" in message and "type void on second table" in message


def test_a_reducer_failure_is_raised_with_the_task_exception(hive):
    """Typed nulls pass analysis, then the struct column in the window's input breaks the reducer
    (tools/hive/FINDINGS.md section 2: any struct column read by a window does)."""
    _load_listing_inputs(hive, "tj_control")
    sql = """
    select k, last_value(r, true) over (partition by k order by t rows between unbounded preceding and current row)
    from (
      select id as k, ts as t, if(false, named_struct('v', value), null) as r from tj_control.features
      union all
      select id as k, ts as t, named_struct('v', value) as r from tj_control.features
    ) as u"""
    with pytest.raises(HiveError) as failure:
        hive.execute(sql)
    assert "return code 2 from org.apache.hadoop.hive.ql.exec.mr.MapRedTask" in failure.value.message
    assert "ClassCastException" in (failure.value.task_error or "")


def test_a_parse_error_names_the_position(hive):
    with pytest.raises(HiveError, match=r"ParseException line 1:7"):
        hive.execute("select from nowhere")


# --------------------------------------------------------------------------- lifecycle


def test_engine_that_is_not_ready_in_time_raises_with_its_log_and_is_stopped(tmp_path):
    engine = HiveEngine(tmp_path / "slow", startup_timeout=0.5)
    with pytest.raises(HiveEngineError) as failure:
        engine.start()
    assert "no answer within 0s while becoming ready" in str(failure.value)
    assert f"--- last lines of {engine.log_path} ---" in str(failure.value)
    assert not _pid_alive(engine.pid)


def test_engine_reports_its_timings(hive):
    t = hive.timings
    assert 0 < t.session < 120 and 0 < t.first_statement < 120 and t.ready >= t.session + t.first_statement
    assert t.statements and all(s > 0 for s in t.statements)
