"""Every example of README.md and docs/*.md runs as written (project issue 23).

The fenced ```sql, ```yaml/```yml and ```python blocks are read from the docs at test time, so an
example cannot drift from the code:

- a SQL block opened by `-- macros/<name>.sql` is a macro file of the scratch project (a
  materialization, a dispatch override: the whole build runs with it);
- a SQL block calling `{{ temporal_joins.… }}` (or opened by `-- models/<name>.sql`) is a model of
  one scratch dbt project (tests/docs_project/: its dbt_project.yml and small seeds named as the
  examples ref() them), which installs this checkout with `local:`; a Python block defining
  `model(dbt, session)` is a dbt Python model there. A markdown table right after a model block
  is that model's output, and must be its rows.
- YAML blocks are parsed, and each is the dbt file it shows: the profile is the scratch project's
  profiles.yml (and must load as a `method: session` dbt profile), a schema file goes in beside
  the models, a dbt_project.yml fragment is merged into the project's, and packages.yml is read
  as `dbt deps` reads it.
- Other Python blocks are compiled and run.

One `dbt build` on the suite's shared Spark session runs every model and test, and must raise no
deprecation. A block that cannot run here carries `<!-- example: not run (<why>) -->` on the
line before its fence; every other block must run.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from helpers.dbt import Dbt
from helpers.docs_examples import BLOCKS, DOCS, RUN, blocks_in, one_block, scratch_project
from helpers.packaging import QUICKSTART_REQUIREMENTS

from tools.spark_session import session_conf

REPO = Path(__file__).resolve().parents[2]


def test_every_example_is_run_or_marked_with_a_reason():
    openings = sum(len(re.findall(r"^ *```(?:sql|ya?ml|python)\b", doc.read_text(), re.M)) for doc in DOCS)
    assert len(BLOCKS) == openings > 0, [b.where for b in BLOCKS]  # no fence is missed (an odd indent, say)
    for block in BLOCKS:
        if block.language == "yaml":
            yaml.safe_load(block.text)  # marked or not, every YAML block parses
        if block.language == "python":
            compile(block.text, block.where, "exec")
    unknown = [b.where for b in RUN if b.role == "unknown"]
    assert not unknown, f"examples this test cannot run; give them a role here or a not-run mark: {unknown}"
    marked = [(b.where, b.not_run) for b in BLOCKS if b.not_run is not None]
    assert all(why.strip() for _, why in marked), marked
    assert len(marked) <= 2, f"keep not-run marks rare: {marked}"


def test_a_mark_and_a_shown_table_belong_to_their_block():
    page = """Intro.

<!-- example: not run (needs a Databricks workspace) -->
```yaml
profile: {outputs: {}}
```

1. A step:

   ```sql
   {{ temporal_joins.asof_join(ref('a'), ref('b')) }}
   ```

   | id | value |
   |---|---|
   | 1 | null |
"""
    marked, model = blocks_in(REPO / "README.md", page)
    assert (marked.line, marked.not_run, marked.table) == (4, "needs a Databricks workspace", None)
    assert model.not_run is None and model.text == "{{ temporal_joins.asof_join(ref('a'), ref('b')) }}"
    assert (model.role, model.model_name, model.table) == ("model", "readme_l10", (("id", "value"), ("1", "null")))


@pytest.mark.slow  # a git clone and a `dbt deps` process
def test_packages_example_resolves_as_written(tmp_path):
    """`dbt deps` on the README's packages.yml, its git URL pointing at a clone of this checkout: the
    revision it names exists, and the package it installs accepts the running dbt."""
    block = one_block("packages")
    clone = tmp_path / "temporal_joins.git"
    subprocess.run(["git", "clone", "--quiet", "--bare", str(REPO), str(clone)], check=True)
    project = tmp_path / "my_project"
    project.mkdir()
    (project / "dbt_project.yml").write_text("name: my_project\nversion: '1.0.0'\nprofile: my_project\n")
    (project / "packages.yml").write_text(block.text.replace("<this repository's git URL>", clone.as_uri()))
    dbt = Path(sys.executable).with_name("dbt")
    env = {**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    out = subprocess.run([str(dbt), "deps", "--no-version-check"], cwd=project, env=env, capture_output=True, text=True)
    assert out.returncode == 0, f"{block.where}: dbt deps failed\n{out.stdout}\n{out.stderr}"
    installed = yaml.safe_load((project / "dbt_packages" / "temporal_joins" / "dbt_project.yml").read_text())
    assert installed["name"] == "temporal_joins"


def test_quickstart_install_line_is_the_one_the_resolver_test_checks():
    readme = (REPO / "README.md").read_text()
    lines = [line.strip() for line in readme.splitlines() if re.match(r'\s*(uv )?pip install .*"dbt-core', line)]
    assert len(lines) == 2, lines  # pip, and the note's uv line for the parser that cannot be built
    for line in lines:
        assert re.findall(r'"([^"]+)"', line) == list(QUICKSTART_REQUIREMENTS), line


def test_plain_python_snippets_run():
    snippets = [b for b in RUN if b.role == "snippet"]
    assert snippets
    for block in snippets:
        exec(compile(block.text, block.where, "exec"), {"__name__": "__docs_example__"})


@dataclass
class Build:
    project: Path
    success: bool
    statuses: dict[str, str]  # unique_id: status
    nodes: dict[str, object]  # unique_id: the built node
    deprecation_events: Counter  # fired during deps and build
    deprecations_counted: Counter  # counted by dbt during deps and build, shown or not
    messages: str


@pytest.fixture(scope="module")
def build(spark, tmp_path_factory) -> Build:
    """One `dbt deps` and one `dbt build` of the scratch project on the suite's Spark session."""
    import dbt.deprecations

    scratch = tmp_path_factory.mktemp("docs_examples")
    project = scratch_project(scratch, Path(os.environ["TEMPORAL_JOINS_STATE"]))
    runner = Dbt(project)
    logs = ["--log-path", str(scratch / "logs")]
    events: Counter = Counter()

    def count_deprecations(event):
        if event.info.name.endswith("Deprecation"):
            events[event.info.name] += 1

    # dbt shows each deprecation once per process (the suite's other projects may have shown it
    # already) but counts every occurrence: compare its counts before and after
    shown_before = Counter(dbt.deprecations.active_deprecations)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DBT_PROFILES_DIR", str(project))  # the profile example, not profiles/profiles.yml
        deps = runner.invoke("deps", "--quiet", *logs, callbacks=[count_deprecations])
        assert deps.success, runner.failure_message(deps)
        result = runner.invoke("build", "--target-path", str(scratch / "target"), *logs, callbacks=[count_deprecations])
    counted = Counter(dbt.deprecations.active_deprecations)
    counted.subtract(shown_before)
    results = result.result.results if result.result is not None else []
    return Build(
        project=project,
        success=result.success,
        statuses={r.node.unique_id: str(r.status) for r in results},
        nodes={r.node.unique_id: r.node for r in results},
        deprecation_events=events,
        deprecations_counted=+counted,
        messages=runner.failure_message(result),
    )


def test_every_model_example_builds(build):
    assert build.success, build.messages
    bad = {k: v for k, v in build.statuses.items() if v not in ("success", "pass")}
    assert not bad, f"{bad}\n{build.messages}"
    models = [b for b in RUN if b.role in ("model", "python_model")]
    assert models
    for block in models:
        unique_id = f"model.my_project.{block.model_name}"
        assert build.statuses.get(unique_id) == "success", f"{block.where}: {unique_id} did not build"


def test_schema_examples_run_their_tests_without_deprecations(build):
    properties = [b for b in RUN if b.role == "properties"]
    assert properties
    for block in properties:
        tests = [k for k, n in build.nodes.items() if k.startswith("test.") and n.original_file_path == block.file]
        declared = sum(len(m.get("data_tests", [])) for m in yaml.safe_load(block.text).get("models", []))
        assert len(tests) == declared > 0, f"{block.where}: {tests}"
        assert all(build.statuses[t] == "pass" for t in tests), {t: build.statuses[t] for t in tests}
    assert not build.deprecation_events, f"dbt deprecations: {dict(build.deprecation_events)}"
    assert not build.deprecations_counted, f"dbt deprecations: {dict(build.deprecations_counted)}"


def test_profile_example_is_a_quiet_session_profile(build):
    from dbt.config.profile import Profile
    from dbt.config.renderer import ProfileRenderer

    raw = yaml.safe_load((build.project / "profiles.yml").read_text())
    (name,) = raw
    credentials = Profile.from_raw_profiles(raw, name, ProfileRenderer({})).credentials
    assert (credentials.type, credentials.method) == ("spark", "session"), credentials
    models = {k: node.schema for k, node in build.nodes.items() if k.startswith("model.")}
    assert models and set(models.values()) == {credentials.schema}, models  # the build ran on this profile
    # quiet as the package's own profile: no progress bars, and its log4j2 file (errors only) from the JVM's start
    parameters = credentials.server_side_parameters
    assert parameters["spark.ui.showConsoleProgress"] == session_conf()["spark.ui.showConsoleProgress"]
    log4j = re.search(r"-Dlog4j2\.configurationFile=(\S+)", parameters["spark.driver.extraJavaOptions"])
    assert log4j, parameters
    assert (build.project / log4j[1]).resolve() == (REPO / "profiles" / "log4j2.properties").resolve()


def test_shown_output_rows_are_the_models_rows(build, spark):
    shown = [b for b in RUN if b.role == "model" and b.table]
    assert shown, "the Quickstart shows its rows"
    for block in shown:
        header, *rows = block.table
        node = build.nodes[f"model.my_project.{block.model_name}"]
        table = spark.table(node.relation_name)
        assert tuple(table.columns) == header, block.where
        as_text = table.selectExpr(*(f"cast(`{c}` as string)" for c in table.columns)).collect()
        got = sorted(tuple("null" if v is None else v for v in row) for row in as_text)
        assert got == sorted(rows), f"{block.where}: the table shows {sorted(rows)}, the model holds {got}"


def test_the_quickstarts_seeds_are_the_docs_projects():
    """The README's Quickstart shows its two seeds as csv blocks: they are the files the docs' models build on
    (tests/docs_project/seeds/), so the output table shown after the model is what they give."""
    from helpers.docs_examples import PROJECT, REPO

    readme = (REPO / "README.md").read_text()
    shown = [
        "\n".join(row.strip() for row in body.strip().splitlines())
        for body in re.findall(r"^[ ]*```csv\n(.*?)^[ ]*```", readme, re.M | re.S)
    ]
    files = {"labels", "plan_changes"}
    assert len(shown) == len(files), shown
    for name in files:
        text = (PROJECT / "seeds" / f"{name}.csv").read_text().strip()
        assert text in shown, f"seeds/{name}.csv is not shown as it is:\n{text}"
