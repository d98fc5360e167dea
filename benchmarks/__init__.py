"""As-of join benchmark suite: reproduces the experiments of K. A. Pettersson's
KTH master thesis (2022) on this machine.

generate.py   the thesis's data generator (numpy, fixed seed) and the stored variants, as parquet
contenders.py every join implementation that is measured (ours, the thesis's, Spark's, tempo, DuckDB)
metrics.py    per-run Spark metrics from the monitoring REST API (or the same status store via py4j)
report.py     markdown tables and PNG plots under benchmarks/results/
run.py        the command line: `python -m benchmarks.run --size quick|full|smoke`
"""
