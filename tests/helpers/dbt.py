"""In-process dbt on the shared SparkSession: the `Dbt` runner the `dbt` fixture of tests/conftest.py
returns, and that tests building projects of their own (the docs' scratch project, the local target)
make for those projects."""

from __future__ import annotations

import os
from pathlib import Path

from tools.dbt_render import PACKAGE_ONLY, Renderer

REPO = Path(__file__).resolve().parents[2]
INTEGRATION = REPO / "integration_tests"


class Dbt:
    """In-process dbt on the integration_tests project (and the shared SparkSession)."""

    def __init__(self, project_dir: Path = INTEGRATION, render_scratch: Path | None = None):
        self.project_dir = project_dir
        self.render_scratch = render_scratch

    def invoke(self, *args: str, callbacks=None, manifest=None):
        """One dbt command; given a `manifest` (parse()), it runs on it instead of parsing the project again."""
        from dbt.cli.main import dbtRunner

        from temporal_joins.dbt_session import install

        install()  # Python models run in this SparkSession (submission method `session`)

        argv = [*args, "--project-dir", str(self.project_dir), "--profiles-dir", os.environ["DBT_PROFILES_DIR"]]
        return dbtRunner(manifest=manifest, callbacks=callbacks or []).invoke(argv)

    def parse(self):
        """The project's Manifest, as a command parses it (partially, when the target's parse is current). Parsing
        runs no statement on the engine."""
        result = self.invoke("parse", "--no-write-json", "--quiet")
        assert result.success, self.failure_message(result)
        return result.result

    def render(self, calls: list[dict], dbt_vars: dict | None = None) -> dict:
        """Render macro calls in one invocation: {id: sql}. Raises on any compile error.
        In the package-only project with a target of its own, on its one parse per process (a Renderer: the
        package's macros parse alike under any vars, which each invocation still passes): a render costs a
        run-operation (~0.1 s), not a parse (~2 s), and the integration project's partial parse survives it.
        The engine answers the column lookups and the macros' compile-time queries, as a `dbt` command's would."""
        return Renderer(PACKAGE_ONLY, dbt_vars=dbt_vars, scratch=self.render_scratch, engine=True).render(calls)

    def compile_inline(self, sql: str):
        """Compile one inline statement; returns the dbtRunnerResult."""
        return self.invoke("compile", "--inline", sql, "--quiet")

    @staticmethod
    def failure_message(result) -> str:
        if result.exception is not None:
            # dbt wraps parse-time compile errors ("Error parsing inline query"): walk the chain
            messages, exc = [], result.exception
            while exc is not None and len(messages) < 10:
                messages.append(str(exc))
                exc = exc.__cause__ or exc.__context__
            return "\n".join(messages)
        messages = []
        for r in getattr(result.result, "results", []) or []:
            if r.message:
                messages.append(str(r.message))
        return "\n".join(messages)
