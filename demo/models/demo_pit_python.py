"""The same point-in-time join as a dbt Python model, through the Python fallback
(temporal_joins.asof_join, engine='auto'), run in the local SparkSession by
temporal_joins' `session` submission method. Its rows must equal demo_pit_union."""

from temporal_joins.asof import asof_join


def model(dbt, session):
    dbt.config(materialized="table", file_format="parquet")
    return asof_join(dbt.ref("demo_labels"), dbt.ref("demo_feature_updates"), "ts", "ts", by="id", prefix="feature_")
