"""hive__asof_join_many on a real Hive 2.3 (tools/hive: MapReduce in local mode): the union and the
broadcast passes, rendered by the Hive flavour, return DuckDB's chained ASOF joins' rows
(pandas for nearest). One training set of five entries covers the three directions, strict and
inclusive entries, a tolerance, a key mapping, a second key set, order_by ties and a null-safe entry (a null
key matches a null key: `<=>` on Hive); a second, inner
join has only tolerances (so its right sides are pruned). bigint times (near +-2**61)."""

from __future__ import annotations

import pandas as pd
import pytest
from helpers.asof_many_cases import (
    Entry,
    ManyCase,
    differences,
    generate,
    null_key_matches,
    oracle,
    rows_from_frame,
    spark_rows,
    spark_schema,
)

SCHEMA = "tj_many_hive"
KIND = "bigint"
TRAINING_SET = ManyCase(
    KIND,
    [
        Entry("r0", "backward", exact=True, tolerance=True),
        Entry("r1", "forward", exact=False, tolerance=False),  # by {'k': 'cust'}
        Entry("r2", "nearest", exact=True, tolerance=False),  # the second key set, g
        Entry("r3", "backward", exact=False, tolerance=False, order_by=("rid",)),
        Entry("r3", "nearest", exact=True, tolerance=False, null_safe=True),  # shares the pass of k
    ],
    "left",
    number=0,
)
PRUNED_INNER = ManyCase(
    KIND,
    [Entry("r0", "forward", exact=True, tolerance=True), Entry("r2", "nearest", exact=False, tolerance=True)],
    "inner",
    number=1,
)
TABLES = ("left", "r0", "r1", "r2", "r3")
VARIANTS = {"union": [TRAINING_SET, PRUNED_INNER], "broadcast": [TRAINING_SET, PRUNED_INNER]}


@pytest.fixture(scope="module")
def frames(spark, hive_engines):
    """The same tables in Spark (dbt renders against it: columns, auto's and pruning's queries) and in Hive."""
    hive = hive_engines("UTC")
    data = generate(KIND, 12, seed=9191)
    spark.sql(f"create database if not exists {SCHEMA}")
    hive.execute(f"create database if not exists {SCHEMA}")
    for table in TABLES:
        name = f"many_{table}_{KIND}"
        schema = spark_schema(KIND, table)
        spark.createDataFrame(spark_rows(data[table]), schema).write.mode("overwrite").saveAsTable(f"{SCHEMA}.{name}")
        columns = [tuple(part.split()) for part in schema.split(", ")]
        hive.execute(f"drop table if exists {SCHEMA}.{name}")
        hive.create_table(name, columns, rows=spark_rows(data[table]), db=SCHEMA)
    return data


@pytest.fixture(scope="module")
def rendered(dbt, frames):
    calls = [
        {
            "id": f"{variant}|{case.number}",
            "macro": "hive__asof_join_many",
            "kwargs": {**case.kwargs(SCHEMA), "strategy": variant},
        }
        for variant, cases in VARIANTS.items()
        for case in cases
    ]
    return dbt.render(calls)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_hive_runs_the_hive_flavour_and_returns_the_oracles_rows(hive, frames, rendered, variant):
    checked, matched, null_keys = 0, 0, 0
    for case in VARIANTS[variant]:
        sql = rendered[f"{variant}|{case.number}"]
        got = hive.query(sql)
        actual = rows_from_frame(_frame(got, case), case)
        expected = rows_from_frame(oracle(case, frames), case)
        diff = differences(actual, expected)
        assert not diff, f"{variant} case {case.number}:\n" + "\n".join(diff)
        checked += sum(actual.values())
        matched += sum(n for row, n in actual.items() if row[len(row) - 1] is not None)
        null_keys += null_key_matches(case, actual)
    # what ran: rows of both cases, some with a match in the last entry, some null key matching a null key
    assert checked >= len(frames["left"]) // 2 and matched > 0 and null_keys > 0, (checked, matched, null_keys)


def _frame(rows, case):
    return pd.DataFrame(rows, columns=case.columns, dtype=object)  # ints stay exact beside nulls
