"""The package's layout, read by tools/import_graph.py (ast only, no imports, no Spark): no family
reaches into another's modules or private names, and no src/ file grows past the line limit."""

from tools import import_graph as g


def test_no_cross_family_private_import():
    found = g.cross_family_private(g.edges())
    assert not found, "\n".join(f"{e.importer}:{e.line} -> {e.imported} {', '.join(e.names)}" for e in found)


def test_no_src_file_over_the_line_limit():
    long = dict(g.long_files(under=g.REPO / "src"))
    assert not long, long


def test_the_graph_sees_the_families():
    """The scan finds the package's own imports (an empty graph would pass the checks above)."""
    pairs = {(e.importer, e.imported) for e in g.edges()}
    assert ("temporal_joins.asof", "temporal_joins.asof.union") in pairs
    assert {g.family(m) for _, m in pairs} >= {"temporal_joins.asof", "temporal_joins.window", "benchmarks"}
