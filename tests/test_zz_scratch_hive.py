import time
import pytest
from test_hive_differential import (RANGE_ON_HIVE, range_cid, range_kwargs, _range_statement, _check_range,
    range_data, range_tables, hive_range, run_batch, parse_first)

KIND = __import__("os").environ.get("SCR_KIND", "int")

def test_join_reach(spark, dbt, hive_range, range_data):
    configs = [c for c in RANGE_ON_HIVE if c["kind"] == KIND]
    calls = [{"id": range_cid(c), "macro": "hive__" + c["macro"], "kwargs": range_kwargs(c)} for c in configs]
    sql = dbt.render(calls, dbt_vars={"temporal_joins_compile_queries": False})
    joined = [k for k, s in sql.items() if "tj__rng" in s]
    print("configs", len(configs), "with join reach", len(joined))
    parse_first(spark, sql)
    fails = {}
    ok = []
    for c in configs:
        name = range_cid(c)
        t = time.time()
        try:
            res = run_batch(hive_range, {name: _range_statement(c, sql[name])}, union_remove=False)
            f, _ = _check_range(res, [c], range_data)
            if f: fails[name] = "WRONG " + f[0][:300]
            else: ok.append(name)
        except Exception as e:
            fails[name] = "ERR " + str(e)[:400]
        print(name, round(time.time() - t, 1), name in ok, flush=True)
    for k, v in fails.items(): print("FAIL", k, v)
    assert not fails
