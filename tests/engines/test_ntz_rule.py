"""TIMESTAMP_NTZ in every macro family, in a session zone with DST (America/New_York, on the day
DST starts). The rule (docs/design.md): two TIMESTAMP_NTZ columns compare as wall-clock times;
a TIMESTAMP_NTZ against a TIMESTAMP is read in the session time zone, as Spark casts it.

The label at wall time 03:30 is 07:30 UTC in New York that day. Against TIMESTAMP events at
07:00 and 08:00 UTC, a one-hour lookback meets 07:00 only when 03:30 is read in the zone (read
as UTC it meets nothing). Against TIMESTAMP_NTZ events at wall times 02:45 and 03:15 (02:45 does
not exist that day: a zone reading would move it to 03:45 and out of the window), it meets both.
"""

from __future__ import annotations

import pytest

from temporal_joins.window import window_aggregate

SCHEMA = "tj_ntz_rule"
ZONE = "America/New_York"

# one label, events as TIMESTAMP (instants) and as TIMESTAMP_NTZ (wall times)
TABLES = {
    "labels": "select 1 as id, timestamp_ntz'2024-03-10 03:30:00' as label_time",
    "events_ltz": "select * from values (1, timestamp'2024-03-10T07:00:00+00:00', 1.0),"
    " (1, timestamp'2024-03-10T08:00:00+00:00', 10.0) as e(id, event_time, amount)",
    "events_ntz": "select * from values (1, timestamp_ntz'2024-03-10 02:45:00', 1.0),"
    " (1, timestamp_ntz'2024-03-10 03:15:00', 10.0) as e(id, event_time, amount)",
}
# events table -> the amounts a one-hour lookback from the label must meet
EXPECTED = {"events_ltz": [1.0], "events_ntz": [1.0, 10.0]}


def _calls(events: str) -> list[dict]:
    left, right = {"relation": f"{SCHEMA}.labels"}, {"relation": f"{SCHEMA}.{events}"}
    common = {"left": left, "right": right, "by": "id", "left_time": "label_time"}
    return [
        {
            "id": f"range_join:{events}",
            "macro": "range_join",
            "kwargs": {**common, "right_time": "event_time", "lower": "1 hour", "columns": ["amount"]},
        },
        {
            "id": f"window_aggregate:{events}",
            "macro": "window_aggregate",
            "kwargs": {
                **common,
                "right_time": "event_time",
                "windows": ["1 hour"],
                "aggregates": {"amount": ["sum", "count"]},
            },
        },
    ]


@pytest.fixture(scope="module")
def ntz_sql(spark, seeded):
    spark.sql(f"create database if not exists {SCHEMA}")
    for name, query in TABLES.items():
        spark.sql(f"drop table if exists {SCHEMA}.{name}")
        spark.sql(f"create table {SCHEMA}.{name} using parquet as {query}")
    return seeded.render([call for events in EXPECTED for call in _calls(events)])


def test_every_family_follows_the_ntz_rule_in_a_dst_zone(spark, ntz_sql):
    zone = spark.conf.get("spark.sql.session.timeZone")
    # after rendering: the dbt session target sets its own zone when it opens
    spark.conf.set("spark.sql.session.timeZone", ZONE)
    try:
        got = {}
        for cid, sql in ntz_sql.items():
            rows = spark.sql(sql).collect()
            if cid.startswith("range_join"):
                got[cid] = sorted(r.amount for r in rows)
            else:
                (row,) = rows
                got[cid] = (row["amount_sum_1h"], row["amount_count_1h"])
        for events in EXPECTED:  # the Python version of window_aggregate
            (row,) = window_aggregate(
                spark.table(f"{SCHEMA}.labels"),
                spark.table(f"{SCHEMA}.{events}"),
                "label_time",
                "event_time",
                by="id",
                windows=["1 hour"],
                aggregates={"amount": ["sum", "count"]},
            ).collect()
            got[f"python window_aggregate:{events}"] = (row["amount_sum_1h"], row["amount_count_1h"])
    finally:
        spark.conf.set("spark.sql.session.timeZone", zone)
    expected = {}
    for events, amounts in EXPECTED.items():
        expected[f"range_join:{events}"] = amounts
        expected[f"window_aggregate:{events}"] = (sum(amounts), len(amounts))
        expected[f"python window_aggregate:{events}"] = (sum(amounts), len(amounts))
    assert got == expected
