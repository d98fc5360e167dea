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
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from conftest import Dbt

from tools.spark_session import session_conf

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
PROJECT = Path(__file__).resolve().parent / "docs_project"

FENCE = re.compile(r"^(?P<indent>[ ]*)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
LANGUAGES = {"sql": "sql", "yaml": "yaml", "yml": "yaml", "python": "python"}
NOT_RUN = re.compile(r"^\s*<!--\s*example:\s*not run\s*\((?P<why>.+)\)\s*-->\s*$")
MODEL_FILE = re.compile(r"^(?:--|#)\s*models/(?P<name>\w+)\.(?:sql|py)\s*$")
MACRO_FILE = re.compile(r"^--\s*macros/(?P<name>\w+)\.sql\b")
PLACEHOLDER_STATE = "/path/to/state"  # the profile example's state folder


@dataclass(frozen=True)
class Block:
    doc: Path
    line: int  # of the opening fence
    language: str  # sql | yaml | python
    text: str
    not_run: str | None  # why, from the mark before the fence
    table: tuple[tuple[str, ...], ...] | None  # the output shown right after it: header, then rows

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(REPO)}:{self.line}"

    @property
    def folder(self) -> str:
        """Models of one page share a folder of the scratch project (models/readme/, ...)."""
        return self.doc.stem.lower()

    @property
    def role(self) -> str:
        """What the block is to dbt: model, python_model, packages, profile, properties, project or
        snippet (plain Python); `unknown` fails the suite until it gets a role or a not-run mark."""
        if self.language == "sql":
            first = self.text.splitlines()[0]
            if MACRO_FILE.match(first):
                return "macro"
            return "model" if "{{ temporal_joins." in self.text or MODEL_FILE.match(first) else "unknown"
        if self.language == "python":
            return "python_model" if re.search(r"^def model\(dbt, session\)", self.text, re.M) else "snippet"
        data = yaml.safe_load(self.text)
        if not isinstance(data, dict):
            return "unknown"
        if "packages" in data:
            return "packages"
        if len(data) == 1 and isinstance(profile := next(iter(data.values())), dict) and "outputs" in profile:
            return "profile"
        if {"models", "seeds", "sources", "snapshots"} & set(data):
            return "properties"
        if {"dispatch", "vars", "name", "profile"} & set(data):
            return "project"
        return "unknown"

    @property
    def model_name(self) -> str:
        """The name its `-- models/<name>.sql` line gives, else one from its page and line."""
        found = MODEL_FILE.match(self.text.splitlines()[0])
        return found["name"] if found else f"{self.folder}_l{self.line}"

    @property
    def file(self) -> str:
        """Where the scratch project holds it: models/<page>/<name>.sql|.py, or a schema file's .yml."""
        if self.role == "properties":
            return f"models/{self.folder}/{self.folder}_l{self.line}.yml"
        if self.role == "macro":
            return f"macros/{MACRO_FILE.match(self.text)['name']}.sql"
        return f"models/{self.folder}/{self.model_name}.{'py' if self.role == 'python_model' else 'sql'}"


def _table_after(lines: list[str], start: int) -> tuple[tuple[str, ...], ...] | None:
    """The markdown table starting at the first non-blank line from `start`, if any."""
    while start < len(lines) and not lines[start].strip():
        start += 1
    rows = []
    for line in lines[start:]:
        cells = line.strip()
        if not cells.startswith("|"):
            break
        row = tuple(cell.strip() for cell in cells.strip("|").split("|"))
        if not all(set(cell) <= set("-: ") for cell in row):  # the header's rule
            rows.append(row)
    return tuple(rows) or None


def blocks_in(doc: Path, text: str) -> list[Block]:
    """The sql, yaml and python blocks of one page, each with its not-run mark and shown output."""
    blocks = []
    lines = text.splitlines()
    for fence in FENCE.finditer(text):
        language = LANGUAGES.get(fence["lang"])
        if language is None:  # bash, plain text: not examples of the package's API
            continue
        line = text.count("\n", 0, fence.start()) + 1
        indent = len(fence["indent"])
        body = "\n".join(row[indent:] for row in fence["body"].splitlines())
        before = next((row for row in reversed(lines[: line - 1]) if row.strip()), "")
        mark = NOT_RUN.match(before)
        end_line = text.count("\n", 0, fence.end()) + 1
        blocks.append(Block(doc, line, language, body, mark["why"] if mark else None, _table_after(lines, end_line)))
    return blocks


BLOCKS = [block for doc in DOCS for block in blocks_in(doc, doc.read_text(encoding="utf-8"))]
RUN = [b for b in BLOCKS if b.not_run is None]


def _one(role: str) -> Block:
    found = [b for b in RUN if b.role == role]
    assert len(found) == 1, f"expected one {role} example, found {[b.where for b in found]}"
    return found[0]


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


def test_packages_example_resolves_as_written(tmp_path):
    """`dbt deps` on the README's packages.yml, its git URL pointing at a clone of this checkout: the
    revision it names exists, and the package it installs accepts the running dbt."""
    block = _one("packages")
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
    from test_dependency_resolution import QUICKSTART_REQUIREMENTS

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


def _scratch_project(root: Path, state: Path) -> Path:
    """tests/docs_project/ plus every example that runs: models, schema files, project settings, profile."""
    project = root / "docs_project"
    shutil.copytree(PROJECT, project)
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    profile = _one("profile").text.replace(PLACEHOLDER_STATE, str(state))
    (project / "profiles.yml").write_text(profile + "\n")
    settings = yaml.safe_load((project / "dbt_project.yml").read_text())
    for block in RUN:
        if block.role in ("model", "python_model", "properties", "macro"):
            path = project / block.file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(block.text + "\n")
        elif block.role == "project":
            fragment = yaml.safe_load(block.text)
            # each dispatch example names its own namespace: together they are the project's list
            if "dispatch" in fragment:
                settings["dispatch"] = settings.get("dispatch", []) + fragment.pop("dispatch")
            settings.update(fragment)
    (project / "dbt_project.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    return project


@pytest.fixture(scope="module")
def build(spark, tmp_path_factory) -> Build:
    """One `dbt deps` and one `dbt build` of the scratch project on the suite's Spark session."""
    import dbt.deprecations

    scratch = tmp_path_factory.mktemp("docs_examples")
    project = _scratch_project(scratch, Path(os.environ["TEMPORAL_JOINS_STATE"]))
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
