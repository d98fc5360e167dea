"""The package and its dbt projects are ready for dbt v2 as far as this machine can show (project
issue 38): no dbt v2 engine runs here, so its two public gates are checked instead.

1. dbt's JSON schemas of the files as dbt v2 reads them (tests/dbt_jsonschema/, vendored from
   dbt-labs/dbt-jsonschema, see its README.md): every dbt_project.yml, packages.yml and properties
   YAML file (macros, models, seeds, snapshots, analyses, data tests) of every dbt project in the
   repository validates, with the `jsonschema` library. package-lock.yml (written by `dbt deps`) has
   no schema; the profiles schema is not vendored: its top level admits no profile name at all and
   its Spark entry knows neither the session method nor `threads`, so it describes no usable
   profiles.yml. Every other YAML file must be one of these, so a new one is not skipped unseen.
2. `dbt-autofix deprecations` (dbt Labs' migration tool, the pyproject `test` extra), dry run with
   JSON output, finds nothing to fix in any project. It downloads the dbt v2 schemas from dbt's CDN,
   which this machine cannot reach: a wrapper serves it the vendored files instead (an httpx mock
   transport answering the CDN's three URLs; any other request fails the test).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = Path(__file__).resolve().parents[1] / "dbt_jsonschema"
PROJECT_SCHEMA = "dbt_project-latest-fusion.json"
PROPERTIES_SCHEMA = "dbt_yml_files-latest-fusion.json"
PACKAGES_SCHEMA = "packages-latest-fusion.json"  # dependencies-latest-fusion.json is the same file

# folders no dbt project of the repo reads: installed packages, dbt's output, tool state
PRUNED = {"dbt_packages", "target", "logs", "node_modules", "build", "dist", "__pycache__"}
PRUNED_PATHS = {REPO / "benchmarks" / "data"}
# YAML files without a schema, and why
NO_SCHEMA = {
    "package-lock.yml": "written by `dbt deps`",
    "profiles.yml": "the vendored schemas have no usable one (module docstring)",
}
RESOURCE_PATHS = {  # dbt_project.yml key: dbt's default
    "macro-paths": ["macros"],
    "model-paths": ["models"],
    "seed-paths": ["seeds"],
    "snapshot-paths": ["snapshots"],
    "analysis-paths": ["analyses"],
    "test-paths": ["tests"],
}


def _walk() -> list[Path]:
    """Every file of the work tree but hidden files and folders (.venv, .spark, dbt's profiles/.user.yml, ...)
    and PRUNED ones."""
    found = []
    for folder, dirs, files in os.walk(REPO):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in PRUNED and here / d not in PRUNED_PATHS)
        found += [here / f for f in sorted(files) if not f.startswith(".")]
    return found


FILES = _walk()
PROJECTS = sorted(p.parent for p in FILES if p.name == "dbt_project.yml")


def _properties_files(project: Path) -> list[Path]:
    """The YAML files under the project's own resource paths (one outside it belongs to another)."""
    settings = yaml.safe_load((project / "dbt_project.yml").read_text())
    roots = [(project / d).resolve() for key, default in RESOURCE_PATHS.items() for d in settings.get(key, default)]
    roots = [r for r in roots if r.is_relative_to(project) and r.is_dir()]
    return [
        f
        for f in FILES
        if f.suffix in (".yml", ".yaml")
        and f.name not in NO_SCHEMA
        and any(f.is_relative_to(r) for r in roots)
        and _project_of(f) == project
    ]


def _project_of(path: Path) -> Path:
    """The innermost dbt project holding the file."""
    return max((p for p in PROJECTS if path.is_relative_to(p)), key=lambda p: len(p.parts))


def _checked() -> dict[Path, str]:
    """Each YAML file with a schema: the schema's file name."""
    checked = {}
    for project in PROJECTS:
        checked[project / "dbt_project.yml"] = PROJECT_SCHEMA
        for name in ("packages.yml", "dependencies.yml"):
            if (project / name).exists():
                checked[project / name] = PACKAGES_SCHEMA
        for f in _properties_files(project):
            checked[f] = PROPERTIES_SCHEMA
    return checked


CHECKED = _checked()


@functools.cache
def _validator(schema: str):
    import jsonschema

    document = json.loads((SCHEMAS / schema).read_text())
    cls = jsonschema.validators.validator_for(document)
    cls.check_schema(document)
    return cls(document)


def _errors(data, schema: str) -> list[str]:
    errors = sorted(_validator(schema).iter_errors(data), key=lambda e: list(e.absolute_path))
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:500]}" for e in errors]


def test_the_projects_are_the_known_ones():
    """A new dbt project is fine, but it should be one on purpose (and get its own checks)."""
    names = sorted(str(p.relative_to(REPO)) for p in PROJECTS)
    assert names == [
        ".",
        "demo",
        "integration_tests",
        "tests/databricks_project",
        "tests/docs_project",
        "tools/render_project",
    ]


def test_every_yaml_file_is_checked_or_has_no_schema():
    unclassified = [
        str(f.relative_to(REPO))
        for f in FILES
        if f.suffix in (".yml", ".yaml") and f not in CHECKED and f.name not in NO_SCHEMA
    ]
    assert not unclassified, f"YAML files that no schema check reads: {unclassified}"


def test_the_schemas_are_the_vendored_ones_in_use():
    used = {PROJECT_SCHEMA, PROPERTIES_SCHEMA, PACKAGES_SCHEMA}
    assert {p.name for p in SCHEMAS.glob("*.json")} == used
    for schema in used:
        _validator(schema)  # a valid JSON schema


@pytest.mark.parametrize("path", sorted(CHECKED), ids=lambda p: str(p.relative_to(REPO)))
def test_file_validates_against_the_dbt_v2_schema(path):
    data = yaml.safe_load(path.read_text())
    errors = _errors(data, CHECKED[path])
    assert not errors, f"{path.relative_to(REPO)} against {CHECKED[path]}:\n" + "\n".join(errors)


def test_the_old_jinja_enabled_flag_is_what_the_schema_refuses():
    """The check has teeth: the project setting this change removed (a Jinja string where dbt v2
    wants a boolean) fails it."""
    old = {
        "name": "temporal_joins",
        "version": "0.2.0",
        "config-version": 2,
        "models": {"temporal_joins": {"+enabled": "{{ var('temporal_joins_demo', false) | as_bool }}"}},
    }
    assert _errors(old, PROJECT_SCHEMA)


@pytest.fixture(scope="module")
def docs_project(tmp_path_factory) -> Path:
    """tests/docs_project with the docs' runnable examples, as tests/dbt_projects/test_docs_examples.py builds it."""
    from helpers.docs_examples import scratch_project

    tmp = tmp_path_factory.mktemp("docs_v2")
    return scratch_project(tmp, tmp / "state")


def test_docs_examples_validate_against_the_dbt_v2_schemas(docs_project):
    """The README's and docs/'s YAML examples (schema files, project settings, packages.yml) in the
    scratch project they run in."""
    failures = []
    checks = [(docs_project / "dbt_project.yml", PROJECT_SCHEMA), (docs_project / "packages.yml", PACKAGES_SCHEMA)]
    checks += [(f, PROPERTIES_SCHEMA) for f in sorted((docs_project / "models").rglob("*.yml"))]
    for path, schema in checks:
        failures += [
            f"{path.relative_to(docs_project)}: {e}" for e in _errors(yaml.safe_load(path.read_text()), schema)
        ]
    assert not failures, "\n".join(failures)


# ----------------------------------------------------------------------------------------- dbt-autofix

# Run as `python -c AUTOFIX SCHEMAS PROJECT...`: dbt-autofix's `deprecations --dry-run --json` on each
# project in turn, a {"project": ...} line before each, with the CDN served from SCHEMAS.
AUTOFIX = r"""
import json, sys
from pathlib import Path

import httpx

schemas = Path(sys.argv[1])
served = {
    "/fs/versions.json": json.dumps({"latest": {"tag": "vendored"}}).encode(),
    "/fs/schemas/fs-schema-dbt-yaml-files-vendored.json": (schemas / "dbt_yml_files-latest-fusion.json").read_bytes(),
    "/fs/schemas/fs-schema-dbt-project-vendored.json": (schemas / "dbt_project-latest-fusion.json").read_bytes(),
}


def handler(request):
    if request.url.host == "public.cdn.getdbt.com" and request.url.path in served:
        return httpx.Response(200, content=served[request.url.path])
    print(json.dumps({"unserved_request": str(request.url)}), flush=True)
    return httpx.Response(404)


# retrieve_schemas.SchemaSpecs builds its client on httpx.HTTPTransport: no option or variable names the URL
httpx.HTTPTransport = lambda *args, **kwargs: httpx.MockTransport(handler)

from dbt_autofix import retrieve_schemas
from dbt_autofix.main import app

# dbt-autofix 0.22 stops on a macro file that calls config() (KeyError: 'macros', open issue
# dbt-labs/dbt-autofix#348): a generic test's config() takes a data test's configs, so its SQL rules
# look those up for a macro file. Not a key: the YAML rules check every node type listed.
get_specs = retrieve_schemas.SchemaSpecs._get_specs


class Specs(dict):
    def __missing__(self, node_type):
        if node_type == "macros":
            return self["tests"]
        raise KeyError(node_type)


def _get_specs(self, version=None):
    yaml_specs, project_specs, fields = get_specs(self, version)
    return Specs(yaml_specs), project_specs, fields


retrieve_schemas.SchemaSpecs._get_specs = _get_specs

for project in sys.argv[2:]:
    print(json.dumps({"project": project}), flush=True)
    try:
        app(["deprecations", "--dry-run", "--json", "--path", project], standalone_mode=False)
    except SystemExit as exit:
        if exit.code:
            raise
    sys.stdout.flush()
"""

# What dbt-autofix reports that is not a deprecation, and why.
NOT_DEPRECATIONS = {
    # dbt's own snapshot materializations read this key so (dbt/include/global_project/macros/
    # materializations/snapshots/): dbt-core sets it on every snapshot's config
    # (SnapshotConfig.snapshot_table_column_names), so it is not a custom key to move to meta
    ("CustomKeyInConfigDeprecation", "config.get('snapshot_table_column_names')"),
}


def _autofix_projects(docs_project: Path) -> list[Path]:
    # the static tests/docs_project is checked through the scratch project that holds it and the examples
    return [p for p in PROJECTS if p != REPO / "tests" / "docs_project"] + [docs_project]


@pytest.mark.slow  # a dbt-autofix process over every project
def test_dbt_autofix_finds_nothing_to_fix(docs_project):
    pytest.importorskip("dbt_autofix", reason="dbt-autofix is in pyproject's `test` extra")
    projects = _autofix_projects(docs_project)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DBT_")} | {"NO_COLOR": "1", "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", AUTOFIX, str(SCHEMAS), *map(str, projects)],
        capture_output=True,
        text=True,
        env=env,
        timeout=1200,
    )
    assert done.returncode == 0, f"dbt-autofix failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    seen, findings = [], []
    for line in done.stdout.splitlines():
        try:
            out = json.loads(line)
        except ValueError:
            continue
        if "project" in out:
            seen.append(out["project"])
        elif "unserved_request" in out:
            findings.append(f"dbt-autofix asked for {out['unserved_request']}")
        elif out.get("mode") == "dry_run":
            for refactor in out.get("refactors", []):
                key = (refactor.get("deprecation"), refactor.get("log", ""))
                if not any(key[0] == d and quoted in key[1] for d, quoted in NOT_DEPRECATIONS):
                    findings.append(f"{out['file_path']}: {refactor.get('deprecation')}: {refactor.get('log')}")
            findings += [f"{out['file_path']}: warning: {w}" for w in out.get("warnings", [])]
    errors = [line for line in done.stderr.splitlines() if "Error" in line]
    assert seen == [str(p) for p in projects], done.stdout[-3000:] + done.stderr[-3000:]
    assert not errors, "dbt-autofix could not process:\n" + "\n".join(errors)
    assert not findings, "dbt-autofix would change:\n" + "\n".join(findings)
