"""sqlfluff on the integration models (jinja templater, no JVM) and on the SQL the macros generate.

The repository's .sqlfluff lints every integration model with the full rule set: zero
violations. The generated SQL (each SQL model compiled on the session target) is linted with
the rules about meaning (ambiguity, references, structure, aliasing, conventions); the
generated layout and the always-quoted identifiers are deliberate, so those rules are not applied.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MODELS = REPO / "integration_tests" / "models"
SQLFLUFF = [sys.executable, "-m", "sqlfluff"]

# Rules that judge what the generated SQL means. Left out, on purpose: layout (LT) and
# capitalisation (CP) of generated text, RF03/RF06 (every identifier is backtick-quoted and
# qualified only where needed), AL09 (`x` as `x` keeps output names explicit), ST04/ST06/ST09
# (nested CASE, select-list order, join-condition order: generated shapes), AM04 (`tj__l.*`
# when the left input is a CTE whose columns cannot be known).
GENERATED_RULES = "ambiguous,convention,structure,references.from,references.qualification,aliasing"
GENERATED_EXCLUDED = "AM04,AL09,ST04,ST06,ST09"


def _lint(args: list[str], cwd: Path = REPO, stdin: str | None = None) -> list[dict]:
    proc = subprocess.run(
        [*SQLFLUFF, "lint", "--format", "json", "--nofail", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def _violations(report: list[dict]) -> list[str]:
    return [
        f"{f['filepath']}:{v.get('start_line_no')}: {v['code']} {v['description']}"
        for f in report
        for v in f["violations"]
    ]


@pytest.mark.slow  # sqlfluff's jinja templater over every integration model (tens of seconds)
def test_integration_models_lint_clean():
    report = _lint([str(MODELS)])
    linted = {Path(f["filepath"]).resolve() for f in report}
    assert linted == {p.resolve() for p in MODELS.rglob("*.sql")}  # every model, nothing skipped
    assert _violations(report) == []


@pytest.mark.slow  # a sqlfluff process: the check of the setup the lint above uses
def test_the_lint_setup_reports_violations():
    # the same config on a sloppy model: unused CTE, upper-case keywords, a ref and the stand-in macro
    sloppy = (
        "with unused as (select 1 as x)\nSELECT * FROM {{ ref('asof_labels') }}\n"
        "union all\nselect * from ({{ temporal_joins.asof_join(ref('a'), ref('b'), 't', 't') }})\n"
    )
    report = _lint(["--stdin-filename", str(MODELS / "asof" / "sloppy.sql"), "-"], stdin=sloppy)
    codes = {v["code"] for f in report for v in f["violations"]}
    assert {"ST03", "CP01"} <= codes, codes


def test_generated_sql_lints_clean(seeded, tmp_path):
    sql_models = sorted(p.stem for p in MODELS.rglob("*.sql") if "must_fail" not in p.parts)
    result = seeded.invoke("compile", "--select", *sql_models, "--indirect-selection", "empty", "--quiet")
    assert result.success, seeded.failure_message(result)
    for r in result.result.results:
        if r.node.resource_type == "model":
            (tmp_path / f"{r.node.name}.sql").write_text(r.node.compiled_code)
    assert len(list(tmp_path.glob("*.sql"))) == len(sql_models)
    # sqlfluff skips files past 20,000 bytes by default: an interval join measuring its bin at run time is longer
    (tmp_path / ".sqlfluff").write_text("[sqlfluff]\nlarge_file_skip_byte_limit = 0\n")
    report = _lint(
        [
            "--dialect",
            "sparksql",
            "--templater",
            "raw",
            "--rules",
            GENERATED_RULES,
            "--exclude-rules",
            GENERATED_EXCLUDED,
            "--processes",  # one file per process: the suite's Spark is idle meanwhile
            "2",
            str(tmp_path),
        ],
        cwd=tmp_path,
    )
    assert sorted(Path(f["filepath"]).stem for f in report) == sql_models
    assert _violations(report) == []
