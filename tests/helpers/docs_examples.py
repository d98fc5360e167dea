"""The runnable examples of README.md and docs/*.md, and the scratch dbt project that holds them.

Every fenced sql, yaml/yml and python block of the docs, with its not-run mark and the table shown
after it; `scratch_project` lays out tests/docs_project/ plus every example that runs as one dbt
project. tests/dbt_projects/test_docs_examples.py builds it and checks the examples (its docstring has the
rules); tests/dbt_projects/test_dbt_parse.py and tests/dbt_projects/test_dbt_v2_schemas.py parse and validate it.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
PROJECT = REPO / "tests" / "docs_project"

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


def one_block(role: str) -> Block:
    found = [b for b in RUN if b.role == role]
    assert len(found) == 1, f"expected one {role} example, found {[b.where for b in found]}"
    return found[0]


def scratch_project(root: Path, state: Path) -> Path:
    """tests/docs_project/ plus every example that runs: models, schema files, project settings, profile."""
    project = root / "docs_project"
    shutil.copytree(PROJECT, project)
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    profile = one_block("profile").text.replace(PLACEHOLDER_STATE, str(state))
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
