"""Render temporal_joins macro calls through dbt in-process: the one harness the tests, the
benchmarks and the HiveQL export share.

A call is {'id': str, 'macro': 'asof_join' | 'hive__asof_join' | ..., 'kwargs': {...}}; a
`left`/`right` kwarg given as {'relation': 'schema.table'} becomes a dbt Relation (so the
macro introspects its columns). A dialect flavour called by name (`hive__range_join`, to
render HiveQL on a Spark target) gets the public macro's defaults for the arguments the call
leaves out: the defaults live only in the public macro's signature. All calls render in one
`dbt run-operation tj_render_calls` (integration_tests/macros/tj_render_calls.sql), which
logs one 'TJ_SQL <json>' line per call.
"""

from __future__ import annotations

import ast
import json
import os
import re
from functools import lru_cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
INTEGRATION = REPO / "integration_tests"
# A minimal project named temporal_joins over the package's macros and the render macro: it
# renders without `dbt deps` and without compiling the integration project's models.
PACKAGE_ONLY = Path(__file__).resolve().parent / "render_project"
MARKER = "TJ_SQL "


class RenderError(RuntimeError):
    """dbt did not render every call; the message holds dbt's errors."""


@lru_cache(maxsize=1)
def public_defaults() -> dict[str, dict]:
    """{public macro: {argument: default}}, read from the signatures in macros/."""
    found = {}
    literals = {"none": "None", "true": "True", "false": "False"}
    for path in sorted((REPO / "macros").rglob("*.sql")):
        for name, args in re.findall(r"\{%-?\s*macro\s+([a-z]\w*)\((.*?)\)\s*-?%\}", path.read_text(), re.S):
            if "__" in name:
                continue
            python_args = re.sub(r"\b(none|true|false)\b", lambda m: literals[m.group(1)], args)
            fn = ast.parse(f"def f({python_args}): pass").body[0].args
            names = [a.arg for a in fn.args]
            defaults = [ast.literal_eval(d) for d in fn.defaults]
            found[name] = dict(zip(names[len(names) - len(defaults) :], defaults))
    return found


def with_defaults(call: dict) -> dict:
    """A dialect flavour called by name gets its public macro's defaults for what it leaves out."""
    _, _, public = call["macro"].rpartition("__")
    if public == call["macro"] or public not in public_defaults():
        return call
    return {**call, "kwargs": {**public_defaults()[public], **call["kwargs"]}}


def _columns_answered(columns: dict[str, list[tuple[str, str]]]):
    """Answer get_columns_in_relation from `columns` ({identifier: [(name, type)]}) instead of
    an engine: rendering then needs no Spark session at all."""
    from unittest import mock

    from dbt.adapters.spark.column import SparkColumn
    from dbt.adapters.spark.impl import SparkAdapter

    def columns_of(adapter, relation):
        return [SparkColumn(column=name, dtype=dtype) for name, dtype in columns[relation.identifier]]

    return mock.patch.object(SparkAdapter, "get_columns_in_relation", columns_of)


def _columns_cached():
    """Ask the engine once per relation within one invocation: a differential renders hundreds of
    calls over the same few tables, and each lookup is a `describe extended` (~65 ms on Spark)."""
    from unittest import mock

    from dbt.adapters.spark.impl import SparkAdapter

    engine_lookup = SparkAdapter.get_columns_in_relation
    seen: dict[str, list] = {}

    def columns_of(adapter, relation):
        key = str(relation).lower()
        if key not in seen:
            seen[key] = engine_lookup(adapter, relation)
        return list(seen[key])

    return mock.patch.object(SparkAdapter, "get_columns_in_relation", columns_of)


def render_calls(
    calls: list[dict],
    project_dir: Path = INTEGRATION,
    *,
    dbt_vars: dict | None = None,
    columns: dict[str, list[tuple[str, str]]] | None = None,
    scratch: Path | None = None,
) -> dict[str, str]:
    """{id: sql} for every call; raises RenderError with dbt's messages if any call fails.
    columns: answer column lookups from it instead of an engine (else the engine answers once per
    relation and invocation). scratch: a folder for dbt's target/ and logs/ (default: the
    project's own)."""
    from dbt.cli.main import dbtRunner

    from temporal_joins.dbt_session import install

    install()  # harmless for rendering; keeps every in-process dbt invocation alike
    rendered: dict[str, str] = {}
    errors: list[str] = []

    def collect(event):
        if event.info.name == "JinjaLogInfo" and event.data.msg.startswith(MARKER):
            item = json.loads(event.data.msg[len(MARKER) :])
            rendered[item["id"]] = item["sql"]
        elif event.info.level == "error":  # run-operation reports compile errors only as events
            errors.append(event.info.msg)

    argv = [
        "run-operation",
        "tj_render_calls",
        "--args",
        json.dumps({"calls": [with_defaults(c) for c in calls]}),
        "--quiet",
        "--project-dir",
        str(project_dir),
        "--profiles-dir",
        os.environ.get("DBT_PROFILES_DIR", str(REPO / "profiles")),
    ]
    if scratch is not None:  # else the project's own target/ (and its partial parse) and logs/
        argv += ["--target-path", str(scratch / "target"), "--log-path", str(scratch / "logs")]
    if dbt_vars:
        argv += ["--vars", json.dumps(dbt_vars)]
    if columns is not None:
        argv.append("--no-populate-cache")
    with _columns_answered(columns) if columns is not None else _columns_cached():
        result = dbtRunner(callbacks=[collect]).invoke(argv)
    missing = sorted({c["id"] for c in calls} - set(rendered))
    if not result.success or missing:
        raise RenderError(
            f"dbt run-operation failed: {result.exception or ''}\n"
            + "\n".join(errors)
            + (f"\nno SQL for {missing}" if missing else "")
        )
    return rendered
