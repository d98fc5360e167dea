"""The Python import graph of src/temporal_joins, benchmarks/ and tools/, read with ast (nothing is imported).

    python -m tools.import_graph            # counts, cross-family imports, files over the line limit
    python -m tools.import_graph --edges    # and every module -> module edge

A family is one part of the tree that owns its private names: temporal_joins.asof, temporal_joins.window,
tools.hive, benchmarks. The rest is the shared layer (temporal_joins' top-level modules, tools' top-level
modules), which every family may import. A cross-family import reaches from one family into another; it is
private when it reaches past the family's package (its __init__, the family's public face) into one of its
modules, or when the module path or an imported name starts with an underscore. tests/unit/test_import_layout.py
holds the tree to no cross-family private import and no src/ file over LINE_LIMIT lines.
"""

from __future__ import annotations

import argparse
import ast
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOTS = (("src", REPO / "src" / "temporal_joins"), ("", REPO / "benchmarks"), ("", REPO / "tools"))
FAMILIES = ("temporal_joins.asof", "temporal_joins.window", "tools.hive", "benchmarks")
LINE_LIMIT = 400


@dataclass(frozen=True)
class Edge:
    importer: str
    imported: str  # a module
    names: tuple[str, ...]  # the names imported from it (empty for `import module`)
    line: int


def module_name(path: Path) -> str:
    """temporal_joins.asof.union for src/temporal_joins/asof/union.py; a package is its __init__."""
    rel = path.relative_to(REPO / "src" if path.is_relative_to(REPO / "src") else REPO).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def python_files() -> list[Path]:
    return sorted(p for _, root in ROOTS for p in root.rglob("*.py") if "render_project" not in p.parts)


def family(module: str) -> str | None:
    """The family that owns `module`, or None for the shared layer."""
    return next((f for f in FAMILIES if module == f or module.startswith(f + ".")), None)


def _resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def edges(known: set[str] | None = None) -> list[Edge]:
    """Every import of one of the tree's own modules (temporal_joins, benchmarks, tools), in any scope."""
    files = python_files()
    known = known or {module_name(p) for p in files}
    out = []
    for path in files:
        importer = module_name(path)
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] in ("temporal_joins", "benchmarks", "tools"):
                        out.append(Edge(importer, alias.name, (), node.lineno))
            elif isinstance(node, ast.ImportFrom):
                module = _resolve(importer, path.name == "__init__.py", node)
                if module.split(".")[0] not in ("temporal_joins", "benchmarks", "tools"):
                    continue
                # `from package import module` imports a module, not a name
                modules = [a.name for a in node.names if f"{module}.{a.name}" in known]
                names = tuple(a.name for a in node.names if a.name not in modules)
                for m in modules:
                    out.append(Edge(importer, f"{module}.{m}", (), node.lineno))
                if names:
                    out.append(Edge(importer, module, names, node.lineno))
    return out


def _underscore(edge: Edge) -> bool:
    module_private = any(part.startswith("_") and not part.startswith("__") for part in edge.imported.split("."))
    return module_private or any(n.startswith("_") for n in edge.names)


def cross_family(all_edges: list[Edge]) -> list[Edge]:
    """Imports from one family into another (the shared layer excluded on either side)."""
    return [
        e for e in all_edges if family(e.imported) is not None and family(e.importer) not in (None, family(e.imported))
    ]


def cross_family_private(all_edges: list[Edge]) -> list[Edge]:
    """Cross-family imports past the other family's package, or of underscore names or modules."""
    return [e for e in cross_family(all_edges) if _underscore(e) or e.imported != family(e.imported)]


def private_imports(all_edges: list[Edge]) -> list[Edge]:
    """Underscore names or modules imported from another module (any family)."""
    return [e for e in all_edges if _underscore(e) and e.importer != e.imported]


def long_files(limit: int = LINE_LIMIT, under: Path | None = None) -> list[tuple[str, int]]:
    files = python_files() if under is None else sorted(under.rglob("*.py"))
    counted = [(str(p.relative_to(REPO)), len(p.read_text().splitlines())) for p in files]
    return [(p, n) for p, n in counted if n > limit]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", action="store_true", help="print every module -> module edge")
    args = parser.parse_args(argv)
    all_edges = edges()
    modules = {module_name(p) for p in python_files()}
    pairs = sorted({(e.importer, e.imported) for e in all_edges})
    if args.edges:
        print("# edges")
        for a, b in pairs:
            print(f"{a} -> {b}")
    groups = [
        ("cross-family imports", cross_family(all_edges)),
        ("cross-family private imports", cross_family_private(all_edges)),
        ("private imports between modules", private_imports(all_edges)),
    ]
    for title, found in groups:
        print(f"# {title}: {len(found)}")
        for e in found:
            print(f"{e.importer}:{e.line} -> {e.imported} {', '.join(e.names)}".rstrip())
    long = long_files()
    print(f"# files over {LINE_LIMIT} lines: {len(long)}")
    for path, n in long:
        print(f"{path}: {n}")
    print(
        f"# counts: modules={len(modules)} edges={len(pairs)} cross_family={len(groups[0][1])} "
        f"cross_family_private={len(groups[1][1])} private_imports={len(groups[2][1])} over_{LINE_LIMIT}={len(long)}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
