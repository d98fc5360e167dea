"""The Python-model fallback on the native engine (SortMergeAsOfJoin): a backward as-of join.

Built through temporal_joins' `session` submission method (python -m temporal_joins dbt ...);
its rows must equal the SQL macro's model asof_union_backward_left (see schema.yml).
"""

from temporal_joins.asof import asof_join


def model(dbt, session):
    # parquet: dbt-spark's Python epilogue defaults to delta, which a plain local Spark lacks
    dbt.config(materialized="table", file_format="parquet")
    labels = dbt.ref("asof_labels")
    features = dbt.ref("asof_features")
    return asof_join(
        labels,
        features,
        "label_time",
        "feature_time",
        by="id",
        direction="backward",
        join_type="left",
        order_by="version",
        engine="native",
    )
