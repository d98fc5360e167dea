"""Run dbt Python models on dbt-spark's `method: session` (the local, in-process SparkSession).

dbt-spark submits Python models only to Databricks (`job_cluster`, `all_purpose_cluster`);
on open-source Spark there is no submission method at all (dbt-labs/dbt-spark#415). This
module adds one, `session`: the compiled model (the user's `model(dbt, session)` plus dbt's
ref/source/config glue and the `df.write...saveAsTable(...)` epilogue) is executed in this
process, with `spark` bound to the same SparkSession the session connection uses
(SparkSession.builder.getOrCreate(), as dbt-spark's session method does).

Registration is a runtime hook on the spark adapter class, made by `install()`:
  - `python -m temporal_joins dbt <args>` (this package's __main__) installs it and runs dbtRunner;
  - code that drives dbtRunner itself (tests/conftest.py) calls install() first.
It is the default submission method only when the target's method is `session`; thrift,
http and odbc targets keep dbt-spark's own default, so Databricks users see no change.
Models must set `file_format` to a format the local session has (parquet), since
dbt-spark's Python epilogue defaults to delta.
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings
from typing import Any

SUBMISSION_METHOD = "session"


class SessionPythonJobHelper:
    """A PythonJobHelper (duck-typed: dbt only calls __init__ and submit)."""

    def __init__(self, parsed_model: dict, credentials: Any) -> None:
        self.parsed_model = parsed_model
        self.credentials = credentials
        method = str(getattr(credentials, "method", ""))
        if method.split(".")[-1].lower() != "session":
            raise ValueError(
                f"temporal_joins: submission_method `{SUBMISSION_METHOD}` runs Python models in the local "
                f"SparkSession and needs a target with `method: session`; this target's method is {method!r}."
            )

    def submit(self, compiled_code: str) -> dict[str, str]:
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.getOrCreate()
        name = f"<dbt python model {self.parsed_model.get('unique_id', self.parsed_model.get('alias'))}>"
        namespace = {"__name__": "__dbt_python_model__", "spark": spark}
        # dbt-spark's session connection turns ANSI off for every SQL statement; do the same here
        # so a model's SQL (spark.sql inside it, and the write) behaves like its SQL siblings.
        previous = spark.conf.get("spark.sql.ansi.enabled", None)
        spark.conf.set("spark.sql.ansi.enabled", "false")
        try:
            exec(compile(compiled_code, name, "exec"), namespace)
        finally:
            if previous is not None:
                spark.conf.set("spark.sql.ansi.enabled", previous)
        return {"run_id": name}


def install() -> None:
    """Register `session` as a Python submission method of dbt-spark's SparkAdapter (idempotent)."""
    from dbt.adapters.spark.impl import SparkAdapter

    if getattr(SparkAdapter, "_temporal_joins_session", False):
        return
    helpers = SparkAdapter.python_submission_helpers
    default = SparkAdapter.default_python_submission_method

    def python_submission_helpers(self):
        return {**helpers.fget(self), SUBMISSION_METHOD: SessionPythonJobHelper}

    def default_python_submission_method(self):
        method = str(getattr(self.config.credentials, "method", ""))
        if method.split(".")[-1].lower() == "session":
            return SUBMISSION_METHOD
        return default.fget(self)

    SparkAdapter.python_submission_helpers = property(python_submission_helpers)
    SparkAdapter.default_python_submission_method = property(default_python_submission_method)
    SparkAdapter._temporal_joins_session = True


# dbt commands that open no connection: they run whoever holds the metastore
NO_CONNECTION = {"deps", "clean", "parse", "list", "ls", "init", "serve"}


def session_metastore_blocked(args: list[str]) -> str | None:
    """The one line to print instead of running dbt, when the command's target is `method: session` and
    another JVM (the local Thrift server, local_thrift.py) holds its Derby metastore: Spark would fail to
    open it, in thousands of lines of stack traces. None to run dbt: another target, a command that opens
    no connection, nobody holding it, or anything unexpected (dbt then reports it as usual). The target
    is dbt's own reading of the arguments, environment and profile."""
    if not args or {"--help", "-h", "--version"} & set(args):  # click would print them here, and dbt again
        return None
    try:
        from dbt.cli.flags import Flags
        from dbt.cli.main import cli
        from dbt.config.runtime import load_profile
        from dbt.flags import set_flags
        from dbt_common.context import set_invocation_context

        from temporal_joins.local_thrift import derby_holder, session_blocked_message, session_metastore

        with contextlib.suppress(ImportError):  # dbt reads a .env too, before anything else
            from dotenv import find_dotenv, load_dotenv

            load_dotenv(find_dotenv(usecwd=True), override=False)
        ctx = cli.make_context(cli.name, list(args))
        with warnings.catch_warnings():  # click 9 drops protected_args: its args hold every token
            warnings.simplefilter("ignore", DeprecationWarning)
            tokens = [*getattr(ctx, "protected_args", []), *ctx.args]
        name, command, rest = cli.resolve_command(ctx, tokens)
        flags = Flags(command.make_context(name, rest, parent=ctx))
        if str(flags.WHICH) in NO_CONNECTION:
            return None
        set_flags(flags)
        set_invocation_context(dict(os.environ))  # what env_var() in the profile reads
        profile = load_profile(str(flags.PROJECT_DIR), flags.VARS, flags.PROFILE, flags.TARGET, None)
        credentials = profile.credentials
        if str(getattr(credentials, "method", "")).split(".")[-1].lower() != "session":
            return None
        database = session_metastore(getattr(credentials, "server_side_parameters", None) or {})
        holder = derby_holder(database)
    except Exception:  # noqa: BLE001 -- a check that cannot tell leaves dbt to run and report
        return None
    if holder is None or holder == os.getpid():
        return None
    return session_blocked_message(database, holder)


def run_dbt(args: list[str]) -> int:
    """dbt with the session submission method installed; returns dbt's exit code (0, 1 or 2), or 2 without
    running it when a session target's metastore is held by another JVM (session_metastore_blocked)."""
    from dbt.cli.main import dbtRunner

    blocked = session_metastore_blocked(args)
    if blocked is not None:
        print(blocked, file=sys.stderr)
        return 2
    install()
    result = dbtRunner().invoke(list(args))
    if result.exception is not None:
        return 2
    return 0 if result.success else 1


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] != "dbt":
        print(
            "usage: python -m temporal_joins dbt <dbt arguments>   (dbt with Python models on method: session)",
            file=sys.stderr,
        )
        return 2
    return run_dbt(argv[1:])
