"""In-process dbt on the shared SparkSession: the `Dbt` runner the `dbt` fixture of tests/conftest.py
returns, and that tests building projects of their own (the docs' scratch project, the local target)
make for those projects."""

from __future__ import annotations

import os
from pathlib import Path

from tools.dbt_render import PACKAGE_ONLY, render_calls

REPO = Path(__file__).resolve().parents[2]
INTEGRATION = REPO / "integration_tests"


class Dbt:
    """In-process dbt on the integration_tests project (and the shared SparkSession)."""

    def __init__(self, project_dir: Path = INTEGRATION, render_scratch: Path | None = None):
        self.project_dir = project_dir
        self.render_scratch = render_scratch

    def invoke(self, *args: str, callbacks=None):
        from dbt.cli.main import dbtRunner

        from temporal_joins.dbt_session import install

        install()  # Python models run in this SparkSession (submission method `session`)

        argv = [*args, "--project-dir", str(self.project_dir), "--profiles-dir", os.environ["DBT_PROFILES_DIR"]]
        return dbtRunner(callbacks=callbacks or []).invoke(argv)

    def render(self, calls: list[dict], dbt_vars: dict | None = None) -> dict:
        """Render macro calls in one invocation: {id: sql}. Raises on any compile error.
        In the package-only project with a target of its own: a change of vars then re-parses the
        package's macros (~2 s), not the integration project (~5 s), and the integration project's
        partial parse survives the render."""
        return render_calls(calls, PACKAGE_ONLY, dbt_vars=dbt_vars, scratch=self.render_scratch)

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
