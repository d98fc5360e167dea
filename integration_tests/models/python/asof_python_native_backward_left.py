"""The Python-model fallback on the native engine (SortMergeAsOfJoin): a backward as-of join.

Built through temporal_joins' `session` submission method (python -m temporal_joins dbt ...);
its rows must equal the SQL macro's model asof_union_backward_left (see schema.yml). On a Spark
older than 4.3 (the Spark matrix of `make test`) native must refuse at the call, naming the Spark
it needs; the model then builds the same join on the union engine, so its rows are still checked.
"""

from temporal_joins.asof import NativeAsOfUnavailable, asof_join


def _engine(session, join):
    """native on Spark >= 4.3; on an older one native must refuse at the call, naming the Spark it needs."""
    if tuple(int(part) for part in session.version.split(".")[:2]) >= (4, 3):
        return "native"
    try:
        join("native")
    except NativeAsOfUnavailable as error:
        if "4.3" in str(error):
            return "union"
        raise
    raise RuntimeError(f"engine='native' did not refuse Spark {session.version}")


def model(dbt, session):
    # parquet: dbt-spark's Python epilogue defaults to delta, which a plain local Spark lacks
    dbt.config(materialized="table", file_format="parquet")
    labels = dbt.ref("asof_labels")
    features = dbt.ref("asof_features")

    def join(engine):
        return asof_join(
            labels,
            features,
            "label_time",
            "feature_time",
            by="id",
            direction="backward",
            join_type="left",
            order_by="version",
            engine=engine,
        )

    # dbt's parser wants model() to end with its return
    return join(_engine(session, join))
