"""The macro files' call graph, in counts: how the package's layers call each other.

    python -m tools.macro_graph [MACROS_DIR] [--edges]

A file calls another when one of its macros calls `temporal_joins.<name>` (or dispatches to
'<name>') for a macro defined in the other. Prints: files, macros, edges (file -> file), two-way
pairs (files calling each other both ways), files over LIMIT lines, `'hive'` strings outside the
dialect layer, macros with a `dialect` parameter, and the layers (docs/design.md, "Layers"): each file's
layer, the layer-to-layer calls, where a dialect capability or run_query is read, and calls with more than
MAX_POSITIONAL positional arguments. tests/unit/test_macro_layout.py asserts the targets.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
LIMIT = 400
# the dialect layer: where Spark and Hive may differ (docs/design.md, "Dialects")
DIALECT_LAYER = ("_dialect.sql", "dialect/")
FAMILIES = ("asof/", "range/", "window/", "profile/")
# the shared files of the plan layer (the rest of the top-level _*.sql files are the shared core)
SHARED_PLAN = ("_auto_strategy.sql",)
# a family file's layer is its name's suffix: <anything>_spec.sql, _plan.sql, _sql.sql
LAYER_SUFFIXES = ("spec", "plan", "sql")
# who may call whom: the public flavours run spec -> plan -> SQL; a plan may build a measurement query's text
# with the SQL layer; the SQL calls the dialect's fragments (through plan.dialect), never a capability
ALLOWED_CALLS = {
    "public": {"spec", "plan", "sql", "dialect", "core"},
    "spec": {"spec", "core"},
    "plan": {"plan", "sql", "dialect", "core"},
    "sql": {"sql", "dialect", "core"},
    "dialect": {"dialect", "core"},
    "core": {"core"},
}
# the dialect table's entries that answer a question (the rest render SQL): read in the plan layer only
CAPABILITIES = ("flat_rows", "run_time_scalars", "expands_struct", "cores_query", "native_asof_query")
MAX_POSITIONAL = 3

_MACRO = re.compile(r"\{%-?\s*macro\s+(\w+)\s*\((.*?)\)\s*-?%\}", re.S)
# temporal_joins.<macro>(...), a dispatch by name, or an entry of a dialect table (plan.dialect.<f>: tj_<f>)
_CALL = re.compile(r"temporal_joins\.(\w+)|adapter\.dispatch\(\s*'(\w+)'|\.dialect\.(\w+)\(")


def _files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.sql"))


def _name(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def in_dialect_layer(name: str) -> bool:
    return any(name == d or name.startswith(d) for d in DIALECT_LAYER)


def layer(name: str) -> str:
    """public (a public macro's file), dialect, core (the shared files at the top), spec, plan or sql (a
    family file, by its suffix; 'unlayered' without one), other (generic tests, local target)."""
    if in_dialect_layer(name):
        return "dialect"
    if name.startswith(FAMILIES):
        suffix = name.rsplit("/", 1)[-1].removesuffix(".sql").rsplit("_", 1)[-1]
        return suffix if suffix in LAYER_SUFFIXES else "unlayered"
    if "/" in name:
        return "other"
    if name in SHARED_PLAN:
        return "plan"
    return "core" if name.startswith("_") else "public"


def _calls_with_arguments(text: str):
    """(callee, [top-level argument texts]) of every call in text: temporal_joins.<macro>(...), a fragment
    of a dialect table (<x>.dialect.<fragment>(...)), a dispatch (adapter.dispatch('<macro>', ...)(...))."""
    for m in re.finditer(r"(?:temporal_joins\.|\.dialect\.)(\w+)\(|adapter\.dispatch\(\s*'(\w+)'[^)]*\)\(", text):
        depth, i, start, args = 1, m.end(), m.end(), []
        quote = None
        while i < len(text) and depth:
            ch = text[i]
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == "," and depth == 1:
                args.append(text[start:i])
                start = i + 1
            i += 1
        last = text[start : i - 1]
        if last.strip():
            args.append(last)
        yield m.group(1) or m.group(2), args


def positional(text: str) -> list[tuple[str, int]]:
    """(callee, positional argument count) of each call in text with more than MAX_POSITIONAL."""
    out = []
    for callee, args in _calls_with_arguments(text):
        n = sum(1 for a in args if not re.match(r"\s*\w+\s*=(?!=)", a))
        if n > MAX_POSITIONAL:
            out.append((callee, n))
    return out


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
    layers = {name: layer(name) for name in texts}
    layer_calls: dict[tuple[str, str], list[str]] = {}
    for a, b in edges:
        layer_calls.setdefault((layers[a], layers[b]), []).append(f"{a} -> {b}")
    capability = re.compile(r"\.(" + "|".join(CAPABILITIES) + r")\(\)")
    return {
        "layers": layers,
        "layer_calls": layer_calls,
        "capability_reads": {n: sorted(set(capability.findall(t))) for n, t in texts.items() if capability.search(t)},
        "run_query": {n: len(re.findall(r"\brun_query\(", t)) for n, t in texts.items() if "run_query(" in t},
        "positional": {n: positional(t) for n, t in texts.items() if positional(t)},
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
    out += [f"  layer {n}: {lay}" for n, lay in sorted(g["layers"].items())]
    out += [f"  {a} -> {b}: {len(v)}" for (a, b), v in sorted(g["layer_calls"].items())]
    out += [f"  capability read in {n}: {', '.join(c)}" for n, c in sorted(g["capability_reads"].items())]
    out += [f"  run_query in {n}: {c}" for n, c in sorted(g["run_query"].items())]
    out += [f"  positional > {MAX_POSITIONAL} in {n}: {c}" for n, c in sorted(g["positional"].items())]
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
