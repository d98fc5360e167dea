"""The Python-model fallback with engine='auto' (broadcast for this small keyed left side, else
union; never native): a forward inner as-of join. Its rows must equal asof_union_forward_inner.
"""

from temporal_joins.asof import asof_join


def model(dbt, session):
    dbt.config(materialized="table", file_format="parquet")
    return asof_join(
        dbt.ref("asof_labels"),
        dbt.ref("asof_features"),
        "label_time",
        "feature_time",
        by="id",
        direction="forward",
        join_type="inner",
        order_by="version",
    )
