"""Does a change to engine='union' (src/temporal_joins/asof/union.py) keep its DataFrame plans?

    python -m tools.union_plans --against HEAD      # exit 1 and a diff when a plan differs

Builds union_join's plan for a set of configurations (keyed single joins in every direction, strict,
with tolerance, order_by and inner joins; the columns form at <= COLUMN_LIMIT right columns and the
struct form past it; hot keys split into ranges; asof_join_many passes of several entries, a keyless
entry beside them) twice: with the working tree's union.py and with the one at git revision REV,
loaded as a module of its own. The optimized logical plans, expression ids stripped, must be equal.
A local Spark session, no metastore; about a minute.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
UNION = "src/temporal_joins/asof/union.py"


def load_union(rev: str | None):
    """temporal_joins.asof.union, or the union.py of git revision `rev` as a separate module."""
    if rev is None:
        from temporal_joins.asof import union

        return union
    source = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{rev}:{UNION}"], capture_output=True, text=True, check=True
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="tj-union-")) / "union_at_rev.py"
    path.write_text(source)
    name = "union_at_" + re.sub(r"\W", "_", rev)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def frames(spark):
    left = spark.createDataFrame(
        [(i % 7, i * 3 % 50, f"l{i}") for i in range(60)] + [(None, 5, "null key"), (1, None, "null time")],
        "id int, t int, lv string",
    )
    right = spark.createDataFrame(
        [(i % 7, i * 5 % 53, f"v{i}", i * 1.5, i % 3) for i in range(80)] + [(2, None, "no time", 0.0, 0)],
        "id int, t int, v string, w double, ver int",
    )
    other = spark.createDataFrame(
        [(i % 7, i * 2 % 41, i) for i in range(40)],
        "id int, t int, z bigint",
    )
    return left, right, other


@contextlib.contextmanager
def patched(module, **values):
    old = {k: getattr(module, k) for k in values}
    for k, v in values.items():
        setattr(module, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(module, k, v)


def configurations(spark):
    """[(name, build)]: build(union_module) returns the DataFrame of one configuration."""
    from temporal_joins.asof import hot_keys, many
    from temporal_joins.asof.spec import build_spec

    left, right, other = frames(spark)

    def single(columns, **kw):
        args = dict(by="id", direction="backward", allow_exact_matches=True, tolerance=None, join_type="left")
        args.update(kw)
        join_type = args.pop("join_type")
        order_by = args.pop("order_by", None)

        def build(u):
            s = build_spec(
                left, right, "t", "t", args["by"], args["direction"], args["allow_exact_matches"], args["tolerance"],
                join_type, columns, "r_", order_by, "union",
            )  # fmt: skip
            return u.union_join(left, [(right, s)], join_type)

        return build

    def hot(build):
        def wrapped(u):
            # the hot-key constants live in union.py before its split, in asof/hot_keys.py after it
            with patched(u if hasattr(u, "HOT_KEY_ROWS") else hot_keys, HOT_KEY_ROWS=1, HOT_KEY_RANGES=7):
                return build(u)

        return wrapped

    def many_pass(rights, join_type="left", engine="union"):
        def build(u):
            with patched(many, union_join=u.union_join):
                return many.asof_join_many(left, "t", rights, join_type=join_type, engine=engine)

        return build

    narrow, wide = ["v"], None  # the columns form (t, v) and the struct form (every right column)
    out = []
    for form, columns in (("columns", narrow), ("struct", wide)):
        out += [
            (f"{form} backward", single(columns)),
            (f"{form} forward strict inner", single(columns, direction="forward", allow_exact_matches=False,
                                                    join_type="inner")),
            (f"{form} nearest tolerance", single(columns, direction="nearest", tolerance=6)),
            (f"{form} backward order_by tolerance", single(columns, order_by="ver", tolerance=10)),
            (f"{form} hot backward", hot(single(columns, order_by="ver"))),
            (f"{form} hot nearest strict", hot(single(columns, direction="nearest", allow_exact_matches=False))),
            (f"{form} hot forward tolerance", hot(single(columns, direction="forward", tolerance=4))),
        ]  # fmt: skip
    entries = [
        {"right_df": right, "right_time": "t", "by": "id", "prefix": "a_", "columns": ["v"], "order_by": "ver"},
        {"right_df": other, "right_time": "t", "by": "id", "prefix": "b_", "direction": "nearest", "tolerance": 5},
        {"right_df": right, "right_time": "t", "by": "id", "prefix": "c_", "direction": "forward",
         "allow_exact_matches": False},
    ]  # fmt: skip
    keyless = {"right_df": other, "right_time": "t", "prefix": "d_", "columns": ["z"]}
    out += [
        ("many three entries", many_pass(entries)),
        ("many three entries inner", many_pass(entries, join_type="inner")),
        ("many keyless beside keyed (auto)", many_pass([entries[0], keyless, entries[1]], engine="auto")),
        ("many struct and columns", many_pass([entries[1], {**entries[0], "columns": None}])),
    ]
    return out


def plan_text(df) -> str:
    plan = str(df._jdf.queryExecution().optimizedPlan().toString())
    return re.sub(r"#\d+L?", "", plan)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", help="git revision whose union.py is the reference")
    parser.add_argument("--show", action="store_true", help="print every plan")
    parser.add_argument("--only", help="regex on the configuration names (default: all)")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the arrow engine's workers need pyarrow
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[1]")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.autoBroadcastJoinThreshold", "-1")
        .getOrCreate()
    )
    now, then = load_union(None), load_union(args.against)
    differ = 0
    chosen = [(name, build) for name, build in configurations(spark) if re.search(args.only or "", name)]
    for name, build in chosen:
        a, b = plan_text(build(then)), plan_text(build(now))
        rows_equal = Counter(map(tuple, build(then).collect())) == Counter(map(tuple, build(now).collect()))
        same = a == b and rows_equal
        differ += not same
        print(f"{'same' if same else 'DIFFERENT'}: {name} ({len(b.splitlines())} plan lines)")
        if not same:
            print(
                "\n".join(
                    difflib.unified_diff(a.splitlines(), b.splitlines(), args.against, "working tree", lineterm="")
                )
            )
        elif args.show:
            print(b)
    print(f"{differ} of {len(chosen)} configurations differ from {args.against}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
