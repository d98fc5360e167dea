"""training_set_profile's Hive flavour executed on Hive 2.3's own engine (tools/hive), against the oracle of
tests/helpers/profile_cases.py (the Spark module: tests/profile/test_training_set_profile.py).

Each time kind's largest case is a Hive table, and so are the first kind's empty model and one-row model; the
Hive flavour rendered over each (tools/dbt_render.Renderer, columns answered from the tables' types: no
engine behind dbt) runs as ONE Hive query (the statements' rows share their columns: one UNION ALL, tagged).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from helpers.profile_cases import (
    BOUND,
    CASE_ROWS,
    ENTRIES,
    KINDS,
    SQL_TYPE,
    as_values,
    generate,
    mismatches,
    oracle,
)

from tools.dbt_render import PACKAGE_ONLY, Renderer

SCHEMA = "tj_hive_profile"
# (kind, case_id): each kind's largest case, and the first kind's small ones
TABLES = [(kind, len(CASE_ROWS) - 1) for kind in KINDS] + [(KINDS[0], 0), (KINDS[0], 1)]


def _table(kind: str, case_id: int) -> str:
    return f"p_{kind}_{case_id}"


@pytest.fixture(scope="module")
def statements() -> dict[tuple[str, int], str]:
    columns = {
        f"{SCHEMA}.{_table(k, c)}": [("case_id", "int")] + [(n, SQL_TYPE[k]) for n in ("lt", *ENTRIES)]
        for k, c in TABLES
    }
    renderer = Renderer(PACKAGE_ONLY, columns=columns, scratch=Path(tempfile.mkdtemp(prefix="profile_hive")))
    calls = [
        {
            "id": f"{k}-{c}",
            "macro": "hive__training_set_profile",
            "kwargs": dict(
                model={"relation": f"{SCHEMA}.{_table(k, c)}"}, left_time="lt", entries=list(ENTRIES), bound=BOUND[k][0]
            ),
        }
        for k, c in TABLES
    ]
    sql = renderer.render(calls)
    assert renderer.queries == []
    return {(k, c): sql[f"{k}-{c}"] for k, c in TABLES}


def test_the_hive_flavour_on_hive_matches_the_oracle(hive, statements):
    data = {kind: generate(kind) for kind in KINDS}
    for kind, case_id in TABLES:
        rows = as_values(kind, [r for r in data[kind] if r[0] == case_id])
        columns = [("case_id", "int")] + [(n, SQL_TYPE[kind]) for n in ("lt", *ENTRIES)]
        hive.create_table(_table(kind, case_id), columns, rows, db=SCHEMA)
    union = "\nunion all\n".join(
        f"select {i} as tj_case, tj_x.* from (\n{statements[key]}\n) as tj_x" for i, key in enumerate(TABLES)
    )
    # each branch writes its own files (test_hive_differential.run_batch: Hive 2.3's MR fails to close the
    # file sink of such a union written through a final union job)
    hive.execute("set hive.optimize.union.remove=true")
    try:
        columns, rows = hive.fetch(union)
    finally:
        hive.execute("set hive.optimize.union.remove=false")
    names = [c for c, _ in columns]
    bad = []
    for i, (kind, case_id) in enumerate(TABLES):
        actual = {}
        for row in rows:
            values = dict(zip(names, row))
            if values.pop("tj_case") == i:
                actual[(case_id, values.pop("entry"))] = values
        expected = {key: row for key, row in oracle(kind, data[kind]).items() if key[0] == case_id}
        bad += mismatches(expected, actual, f"hive {kind}")
    assert bad == [], "\n".join(bad[:30])
