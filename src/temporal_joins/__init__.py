"""temporal_joins: point-in-time (as-of), range and interval joins for Spark SQL and Hive.

The dbt macros live in the package's macros/ folder; this Python package holds what runs
beside them: the Python-model fallback (temporal_joins.asof, temporal_joins.window), the training set's
profile (temporal_joins.profile, the training_set_profile macro's twin) and the
command line (python -m temporal_joins: dbt with Python models on a local session, a local
Thrift server). The Hive 2.3 parser check is a repo tool (tools/hiveql.py), not part of it.
"""

__version__ = "0.2.0"


def asof_join(*args, **kwargs):
    """temporal_joins.asof.asof_join (imported on first use, so this package stays light)."""
    from temporal_joins.asof import asof_join as _asof_join

    return _asof_join(*args, **kwargs)


def training_set_profile(*args, **kwargs):
    """temporal_joins.profile.training_set_profile (imported on first use, so this package stays light)."""
    from temporal_joins.profile import training_set_profile as _training_set_profile

    return _training_set_profile(*args, **kwargs)
