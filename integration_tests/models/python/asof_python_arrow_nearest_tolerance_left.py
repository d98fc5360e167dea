"""The Python-model fallback on the arrow engine (bucketed cogroup + vectorized merge):
a nearest as-of join with a tolerance. Its rows must equal asof_union_nearest_tolerance_left.
"""

from temporal_joins.asof import asof_join


def model(dbt, session):
    dbt.config(materialized="table", file_format="parquet")
    labels = dbt.ref("asof_labels")
    features = dbt.ref("asof_features")
    return asof_join(
        labels,
        features,
        "label_time",
        "feature_time",
        by="id",
        direction="nearest",
        tolerance="interval 20 minutes",
        order_by="version",
        engine="arrow",
    )
