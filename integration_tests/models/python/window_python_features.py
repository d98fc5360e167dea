"""window_aggregate from a dbt Python model (temporal_joins.window, union strategy).

Built through temporal_joins' `session` submission method (python -m temporal_joins dbt ...);
its rows must equal the SQL macro's model window_txn_features (see schema.yml).
"""

from temporal_joins.window import window_aggregate


def model(dbt, session):
    # parquet: dbt-spark's Python epilogue defaults to delta, which a plain local Spark lacks
    dbt.config(materialized="table", file_format="parquet")
    return window_aggregate(
        dbt.ref("window_labels"),
        dbt.ref("window_txns"),
        "label_time",
        "txn_ts",
        by="customer_id",
        windows=["1 day", "7 days"],
        aggregates={"amount": ["sum", "count", "avg", "min", "max"], "*": ["count"]},
        prefix="txn_",
        strategy="union",
    )
