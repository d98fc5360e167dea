"""`python -m temporal_joins ...`: the package's command line.

python -m temporal_joins dbt build ...                    dbt, with Python models runnable on `method: session`
python -m temporal_joins thrift start|status|stop --state  a local Spark Thrift server over the session
                                                          target's folder: Spark starts once, not per dbt command
"""

from __future__ import annotations

import sys

USAGE = """\
usage: python -m temporal_joins dbt <dbt arguments>   (dbt with Python models on method: session)
       python -m temporal_joins thrift {start,status,stop} --state FOLDER [--port 10000]
                                                     (a local Thrift server over a session target's folder)"""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "thrift":
        from temporal_joins.thrift_cli import main as thrift_main

        return thrift_main(argv[1:])
    if argv and argv[0] == "dbt":
        from temporal_joins.dbt_session import main as dbt_main

        return dbt_main(argv)
    print(USAGE, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
