"""Render temporal_joins macro calls through dbt in-process: the one harness the tests, the
benchmarks and the HiveQL export share.

A call is {'id': str, 'macro': 'asof_join' | 'hive__asof_join' | ..., 'kwargs': {...}}; a
`left`/`right` kwarg given as {'relation': 'schema.table'} becomes a dbt Relation (so the
macro introspects its columns). A dialect flavour called by name (`hive__range_join`, to
render HiveQL on a Spark target) gets the public macro's defaults for the arguments the call
leaves out: the defaults live only in the public macro's signature. All calls render in one
`dbt run-operation tj_render_calls` (integration_tests/macros/tj_render_calls.sql), which
logs one 'TJ_SQL <json>' line per call; calls that must fail render in one `tj_render_each`,
which catches each call's compile error and logs its message.

render_calls() is one dbt invocation (parse and render). Renderer parses once and renders many
batches on that parse, and with `columns` it needs no engine at all: `make check` renders every
argument error and the SQL of tests/unit/rendered/ so, without a JVM.
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
        # a generic test `{% test x(...) %}` is the macro test_x to dbt (its flavours: default__test_x, ...)
        for kind, name, args in re.findall(
            r"\{%-?\s*(macro|test)\s+([a-z]\w*)\((.*?)\)\s*-?%\}", path.read_text(), re.S
        ):
            if "__" in name:
                continue
            name = f"test_{name}" if kind == "test" else name
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


def _columns_answered(columns: dict[str, list[tuple[str, str]]], queries: list[str] | None = None, *, engine=True):
    """Answer column lookups from `columns` ({name: [(column, type)]}) instead of an engine. A name
    is a relation's identifier or 'schema.identifier' (looked up first).
    engine=True (render_calls' way): only get_columns_in_relation is answered; a dotted string name
    (get_relation) and compile-time queries still go to the engine.
    engine=False: nothing reaches an engine, and no Spark session is needed at all. get_relation
    (a macro given a dotted string name) finds only a 'schema.identifier' name of `columns`, else
    none (no such relation); any statement meant for the engine is refused (a compile error that
    names it) and appended to `queries` when given."""
    from contextlib import ExitStack
    from unittest import mock

    from dbt.adapters.spark.column import SparkColumn
    from dbt.adapters.spark.impl import SparkAdapter
    from dbt_common.exceptions import CompilationError

    lowered = {name.lower(): value for name, value in columns.items()}

    def known(schema, identifier):
        identifier = (identifier or "").lower()
        qualified = f"{schema}.{identifier}".lower() if schema else None
        if qualified is not None and qualified in lowered:
            return lowered[qualified]
        return lowered.get(identifier)

    def columns_of(adapter, relation):
        found = known(relation.schema, relation.identifier)
        if found is None:
            raise CompilationError(f"tools.dbt_render: no columns given for relation {relation}")
        return [SparkColumn(column=name, dtype=dtype) for name, dtype in found]

    def relation_of(adapter, database, schema, identifier, *args, **kwargs):
        if f"{schema}.{identifier}".lower() not in lowered:
            return None
        return adapter.Relation.create(database=database, schema=schema, identifier=identifier, type="table")

    def refused(adapter, sql, *args, **kwargs):
        if queries is not None:
            queries.append(sql)
        raise CompilationError(f"tools.dbt_render: no engine answers here; a statement was refused: {sql}")

    stack = ExitStack()
    stack.enter_context(mock.patch.object(SparkAdapter, "get_columns_in_relation", columns_of))
    if not engine:
        stack.enter_context(mock.patch.object(SparkAdapter, "get_relation", relation_of))
        stack.enter_context(mock.patch.object(SparkAdapter, "execute", refused))
    return stack


def _catching():
    """adapter.tj_render_caught(macro, kwargs) for tj_render_each: {'sql': the macro's result}, or {'error': the
    message} of the compile error it raised, so the next call still renders in the same invocation."""
    from contextlib import ExitStack
    from unittest import mock

    from dbt.adapters.spark.impl import SparkAdapter
    from dbt_common.exceptions import CompilationError, DbtRuntimeError

    def caught(adapter, macro, kwargs):
        try:
            return {"sql": macro(**kwargs)}
        except (CompilationError, DbtRuntimeError) as error:
            return {"error": str(error)}

    stack = ExitStack()
    stack.enter_context(mock.patch.object(SparkAdapter, "tj_render_caught", caught, create=True))
    stack.enter_context(mock.patch.object(SparkAdapter, "_available_", SparkAdapter._available_ | {"tj_render_caught"}))
    return stack


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


# parsed manifests by (project folder, its vars or None), see Renderer.manifest
_MANIFESTS: dict[tuple[str, str | None], object] = {}


def _profiles_dir() -> str:
    return os.environ.get("DBT_PROFILES_DIR", str(REPO / "profiles"))


class Renderer:
    """Render many batches of macro calls on one parse of a project: the project is parsed once
    (dbt's Manifest, ~4 s), then each batch is one `run-operation` on that manifest (~0.1-0.2 s, no
    parse, no cache population): render() of calls that must render (tj_render_calls: the first
    error ends the batch), errors() of calls that must fail (tj_render_each: each call's error is
    caught and the next one renders).

    columns: {name: [(column, type)]} answers every column and relation lookup (see
    _columns_answered): no engine is asked anything and no JVM starts. A call that runs a
    compile-time query (`auto`, the union strategy's counts: pass
    dbt_vars={'temporal_joins_compile_queries': False} to take them off) fails, the refused
    statement named in its error and kept in `self.queries`. engine=True sends relation lookups and
    such queries to the engine after all (render_calls' way). Without columns the engine answers
    every lookup, once per relation and invocation. dbt_vars: the vars of the parse and of every
    invocation. scratch: a folder for dbt's target/ and logs/ (default: the project's own).
    parse_once=False: each invocation parses (partially) on its own, as a `dbt` command does.
    """

    def __init__(
        self,
        project_dir: Path = INTEGRATION,
        dbt_vars: dict | None = None,
        columns: dict[str, list[tuple[str, str]]] | None = None,
        scratch: Path | None = None,
        *,
        parse_once: bool = True,
        engine: bool = False,
    ):
        self.project_dir = Path(project_dir)
        self.parse_once = parse_once
        self.engine = engine
        self.dbt_vars = dbt_vars
        self.columns = columns
        self.scratch = scratch
        self.queries: list[str] = []  # statements refused (with columns): none, unless a macro queried
        self._manifest = None

    def _argv(self, *command: str) -> list[str]:
        argv = [*command, "--quiet", "--project-dir", str(self.project_dir), "--profiles-dir", _profiles_dir()]
        if self.scratch is not None:  # else the project's own target/ (and its partial parse) and logs/
            argv += ["--target-path", str(self.scratch / "target"), "--log-path", str(self.scratch / "logs")]
        if self.dbt_vars:
            argv += ["--vars", json.dumps(self.dbt_vars)]
        return argv

    @property
    def manifest(self):
        """The project's Manifest, parsed on first use, once per process for a project and its vars (the
        package-only project, which has no nodes, parses alike under any vars: once for all of them). An
        invocation on it still gets this renderer's vars, which the macros read when they run."""
        if self._manifest is None:
            project = self.project_dir.resolve()
            dbt_vars = None if project == PACKAGE_ONLY.resolve() else json.dumps(self.dbt_vars, sort_keys=True)
            key = (str(project), dbt_vars)
            if key not in _MANIFESTS:
                from dbt.cli.main import dbtRunner

                from temporal_joins.dbt_session import install

                install()  # harmless for rendering; keeps every in-process dbt invocation alike
                result = dbtRunner().invoke(self._argv("parse", "--no-write-json"))
                if not result.success:
                    raise RenderError(f"dbt parse of {self.project_dir} failed: {result.exception or ''}")
                _MANIFESTS[key] = result.result
            self._manifest = _MANIFESTS[key]
        return self._manifest

    def _lookups(self):
        if self.columns is None:
            return _columns_cached()
        return _columns_answered(self.columns, self.queries, engine=self.engine)

    def _invoke(self, calls: list[dict], operation: str = "tj_render_calls"):
        """One run-operation of `operation` over `calls`: (success, {id: logged item}, dbt's error messages,
        exception)."""
        from contextlib import ExitStack

        from dbt.cli.main import dbtRunner

        logged: dict[str, dict] = {}
        errors: list[str] = []

        def collect(event):
            if event.info.name == "JinjaLogInfo" and event.data.msg.startswith(MARKER):
                item = json.loads(event.data.msg[len(MARKER) :])
                logged[item["id"]] = item
            elif event.info.level == "error":  # run-operation reports compile errors only as events
                errors.append(event.info.msg)

        args = json.dumps({"calls": [with_defaults(c) for c in calls]})
        argv = self._argv("run-operation", operation, "--args", args)
        if self.columns is not None:
            argv.append("--no-populate-cache")
        manifest = self.manifest if self.parse_once else None
        with ExitStack() as stack:
            stack.enter_context(self._lookups())
            if operation == "tj_render_each":
                stack.enter_context(_catching())
            result = dbtRunner(manifest=manifest, callbacks=[collect]).invoke(argv)
        return result.success, logged, errors, result.exception

    def _failed(self, exception, errors: list[str], missing: list[str]) -> RenderError:
        return RenderError(
            f"dbt run-operation failed: {exception or ''}\n"
            + "\n".join(errors)
            + (f"\nno SQL for {missing}" if missing else "")
        )

    def render(self, calls: list[dict]) -> dict[str, str]:
        """{id: sql} for every call, all in one invocation; raises RenderError with dbt's messages
        if any call fails (the first failing call ends the invocation)."""
        success, logged, errors, exception = self._invoke(calls)
        missing = sorted({c["id"] for c in calls} - set(logged))
        if not success or missing:
            raise self._failed(exception, errors, missing)
        return {call_id: item["sql"] for call_id, item in logged.items()}

    def errors(self, calls: list[dict]) -> dict[str, str]:
        """{id: dbt's compile-error message} for calls that must each fail. Each renders on its own (its error
        is caught, and the next call renders), all in one invocation; raises RenderError if any of them
        renders, or if the invocation fails outside the calls."""
        success, logged, errors, exception = self._invoke(calls, "tj_render_each")
        missing = sorted({c["id"] for c in calls} - set(logged))
        if not success or missing:
            raise self._failed(exception, errors, missing)
        rendered = {call_id: item["sql"] for call_id, item in logged.items() if "error" not in item}
        if rendered:
            raise RenderError(
                f"rendered although each should fail: {sorted(rendered)}:\n" + "\n".join(rendered.values())
            )
        return {call_id: item["error"] for call_id, item in logged.items()}

    def error(self, call: dict) -> str:
        """dbt's compile-error message for one call that must fail; raises RenderError if it renders."""
        return self.errors([call])[call["id"]]


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
    project's own). One dbt invocation, which parses (partially, when the target's parse is current):
    a Renderer renders many batches on one parse."""
    renderer = Renderer(project_dir, dbt_vars=dbt_vars, columns=columns, scratch=scratch, parse_once=False, engine=True)
    return renderer.render(calls)
