"""HiveQL by hand on the real Hive 2.3 engine (MR local mode, embedded Derby).

    python -m tools.hive                          a `hive>` prompt; statements end with `;`, Ctrl-D quits
    python -m tools.hive -f file.hql --hivevar db=default   run a file, print each result
    python -m tools.hive --build                  only assemble the engine (make hive-engine)

The state (metastore, warehouse, hive.log) goes to --state (default: $TEMPORAL_JOINS_STATE/hive-shell),
fresh at every start.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .build import REPO, build
from .engine import HiveEngine, HiveError, HiveResult, scan_statements, split_statements


def _print_result(result: HiveResult) -> None:
    if result.rows:  # Hive gives DML a schema too (_col0): a header only above rows
        print("\t".join(result.columns))
        for row in result.rows:
            print("\t".join(row))
        print(f"OK ({len(result.rows)} rows, {result.seconds:.1f}s)")
    else:
        print(f"OK ({result.seconds:.1f}s)")


def _run_statements(engine: HiveEngine, text: str, hivevars: dict[str, str]) -> bool:
    ok = True
    for statement in split_statements(text):
        try:
            _print_result(engine.execute(statement, hivevars))
        except HiveError as exc:
            print(f"{exc.message}" + (f"\n  task error: {exc.task_error}" if exc.task_error else ""), file=sys.stderr)
            ok = False
    return ok


def _prompt(engine: HiveEngine, hivevars: dict[str, str]) -> None:
    buffer = ""
    while True:
        try:
            line = input("hive> " if not buffer.strip() else "    > ")
        except EOFError:
            print()
            return
        buffer += line + "\n"
        complete, rest = scan_statements(buffer)  # run what a `;` ended, keep the rest
        if complete:
            _run_statements(engine, ";\n".join(complete), hivevars)
            buffer = rest if rest.strip() else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.hive", description=__doc__.split("\n\n")[0])
    parser.add_argument("-f", "--file", type=Path, help="run this HiveQL file and exit")
    parser.add_argument("-e", "--execute", help="run these statements and exit")
    parser.add_argument("--hivevar", action="append", default=[], metavar="K=V", help="${hivevar:K} in statements")
    parser.add_argument("--timezone", default="UTC", help="the JVM's time zone (Hive 2.3 timestamps live in it)")
    parser.add_argument(
        "--state", type=Path, default=Path(os.environ.get("TEMPORAL_JOINS_STATE", REPO / ".spark")) / "hive-shell"
    )
    parser.add_argument("--build", action="store_true", help="only build the engine, print its folder")
    args = parser.parse_args(argv)

    made = build()
    if args.build:
        print(made.path)
        return 0
    hivevars = dict(item.split("=", 1) for item in args.hivevar)
    print(f"starting Hive 2.3 (MR local, Derby) in {args.state}, log {args.state / 'hive.log'} ...", file=sys.stderr)
    with HiveEngine(args.state, timezone=args.timezone, build=made) as engine:
        t = engine.timings
        print(
            f"ready in {t.ready:.1f}s (session {t.session:.1f}s, first statement {t.first_statement:.1f}s)",
            file=sys.stderr,
        )
        if args.file or args.execute:
            text = args.file.read_text() if args.file else args.execute
            return 0 if _run_statements(engine, text, hivevars) else 1
        _prompt(engine, hivevars)
    return 0


if __name__ == "__main__":
    sys.exit(main())
