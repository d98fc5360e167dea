"""sqlfluff's stand-in for the package's macros (the jinja templater cannot run dbt macros).

Every public join macro takes (left, right, ...). A model's call such as
{{ temporal_joins.asof_join(ref('a'), ref('b'), ...) }} renders to a plain SELECT that reads
both relations, so sqlfluff lints the SQL written around the call (CTEs, refs, layout). The SQL
the macros generate is linted separately, from the real rendering (tests/engines/test_endpoints_sqlfluff.py).
"""


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)

    def macro(left=None, right=None, *args, **kwargs):
        return f"select * from {left} cross join {right}" if right is not None else f"select * from {left}"

    return macro
