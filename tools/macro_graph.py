"""The macro files' call graph, in counts: how the package's layers call each other.

    python -m tools.macro_graph [MACROS_DIR] [--edges]

A file calls another when one of its macros calls `temporal_joins.<name>` (or dispatches to
'<name>') for a macro defined in the other. Prints: files, macros, edges (file -> file), two-way
pairs (files calling each other both ways), files over LIMIT lines, `'hive'` strings outside the
dialect layer, and macros with a `dialect` parameter. tests/unit/test_macro_layout.py asserts the targets.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIMIT = 400
# the dialect layer: where Spark and Hive may differ (docs/design.md, "Dialects")
DIALECT_LAYER = ("_dialect.sql", "dialect/")

_MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)\s*\((.*?)\)\s*-?%\}", re.S)
# temporal_joins.<macro>(...), a dispatch by name, or a fragment of the spec's dialect table (spec.dialect.<f>: tj_<f>)
_CALL = re.compile(r"temporal_joins\.(\w+)|adapter\.dispatch\(\s*'(\w+)'|\.dialect\.(\w+)\(")


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.sql"))


def _name(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def in_dialect_layer(name: str) -> bool:
    return any(name == d or name.startswith(d) for d in DIALECT_LAYER)


def graph(root: Path = REPO / "macros") -> dict:
    files = _files(root)
    owner: dict[str, str] = {}
    params: dict[str, list[str]] = {}
    texts = {}
    for path in files:
        name = _name(root, path)
        texts[name] = path.read_text(encoding="utf-8")
        for macro, args in _MACRO.findall(texts[name]):
            owner[macro] = name
            params[macro] = [a.split("=")[0].strip() for a in args.split(",") if a.strip()]
    edges: dict[tuple[str, str], int] = {}
    for name, text in texts.items():
        for a, b, c in _CALL.findall(text):
            callee = a or b or "tj_" + c
            for target in (callee, "default__" + callee):
                if target in owner and owner[target] != name:
                    key = (name, owner[target])
                    edges[key] = edges.get(key, 0) + 1
                    break
    two_way = sorted({tuple(sorted(k)) for k in edges if (k[1], k[0]) in edges})
    lines = {name: len(text.splitlines()) for name, text in texts.items()}
    hive = {name: len(re.findall(r"'hive'", text)) for name, text in texts.items() if not in_dialect_layer(name)}
    return {
        "files": len(files),
        "macros": len(owner),
        "edges": edges,
        "two_way": two_way,
        "over_limit": {n: c for n, c in lines.items() if c > LIMIT},
        "hive_strings": {n: c for n, c in hive.items() if c},
        "dialect_params": sorted(m for m, ps in params.items() if "dialect" in ps),
        "lines": lines,
    }


def summary(g: dict) -> str:
    out = [
        f"files {g['files']}, macros {g['macros']}, edges {len(g['edges'])} "
        f"({sum(g['edges'].values())} calls), two-way pairs {len(g['two_way'])}, "
        f"files over {LIMIT} lines {len(g['over_limit'])}, 'hive' strings outside the dialect layer "
        f"{sum(g['hive_strings'].values())} in {len(g['hive_strings'])} files, "
        f"macros with a dialect parameter {len(g['dialect_params'])}"
    ]
    out += [f"  two-way: {a} <-> {b}" for a, b in g["two_way"]]
    out += [f"  over {LIMIT}: {n} ({c})" for n, c in sorted(g["over_limit"].items())]
    out += [f"  'hive': {n} ({c})" for n, c in sorted(g["hive_strings"].items())]
    return "\n".join(out)


def main(argv: list[str]) -> int:
    args = [a for a in argv if not a.startswith("--")]
    g = graph(Path(args[0]) if args else REPO / "macros")
    print(summary(g))
    if "--edges" in argv:
        for (a, b), n in sorted(g["edges"].items()):
            print(f"  {a} -> {b}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
