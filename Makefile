# Three entry points, each idempotent on a fresh clone:
#   make demo   set up, then build the demo project on an in-process local Spark and print joined rows
#   make check  set up, then a loop of about two minutes that never starts a JVM: ruff, and the tests that
#               need no Spark, Hive or cluster (argument errors, rendered SQL, layout, unit tests)
#   make test   set up, then run the whole test suite (what .ci/run calls) and, beside it, the Spark
#               matrix: the compatibility part on pyspark 3.5 and 4.0 (tools/matrix.py), then a summary
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DBT := $(VENV)/bin/dbt
STAMP := $(VENV)/.installed
# uv, not pip: dbt-core 1.12's dependency dbt-core-experimental-parser downloads a binary while it builds
# (requirements/no-experimental-parser.txt says why it is left out); uv also never picks a pre-release here
NO_PARSER := requirements/no-experimental-parser.txt
INSTALL = $(VENV)/bin/uv pip install --quiet --python $(PY) --excludes $(NO_PARSER)

# Spark's warehouse, Derby metastore and derby.log live here (git-ignored).
export TEMPORAL_JOINS_STATE ?= $(CURDIR)/.spark
# The Hive 2.3 engine's build (tools/hive: compiled runner, classpath, Derby template), git-ignored.
export TEMPORAL_JOINS_HIVE_HOME ?= $(CURDIR)/.hive
export DBT_PROFILES_DIR := $(CURDIR)/profiles
export DBT_SEND_ANONYMOUS_USAGE_STATS := false
export PYSPARK_PYTHON := $(CURDIR)/$(PY)

.PHONY: setup demo check test clean

$(STAMP): pyproject.toml $(NO_PARSER)
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip uv
	$(INSTALL) -e '.[spark,connect,test]'
	touch $(STAMP)

integration_tests/dbt_packages/temporal_joins: $(STAMP) integration_tests/packages.yml
	cd integration_tests && ../$(DBT) deps --quiet

setup: $(STAMP) integration_tests/dbt_packages/temporal_joins
	mkdir -p $(TEMPORAL_JOINS_STATE)

demo: setup
	@$(PY) scripts/demo.py

# make check: no JVM, a couple of minutes. The tests marked jvm, hive or cluster (tests/conftest.py marks them
# from their fixtures) are deselected, and so are those marked slow (processes of their own: dbt parse, pip wheel,
# sqlfluff, PyPI); JAVA_HOME points nowhere and TEMPORAL_JOINS_NO_JVM=1 makes the spark fixture fail, so a JVM
# started by mistake fails loudly. PYTEST_ARGS adds options, e.g. make check PYTEST_ARGS="-k rendered"
CHECK_MARKS := not jvm and not hive and not cluster and not slow
check: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	JAVA_HOME=/nonexistent/make-check-starts-no-jvm TEMPORAL_JOINS_NO_JVM=1 \
	  $(PY) -m pytest tests -m "$(CHECK_MARKS)" -q --durations=15 $(PYTEST_ARGS)

# MATRIX_ARGS=--serial runs the matrix after the main suite instead of beside it
MATRIX_ARGS ?=
test: setup
	$(PY) -m tools.matrix test --python $(PYTHON) $(MATRIX_ARGS) -- tests --durations=50

# make matrix: only the Spark matrix (its venvs under $(TEMPORAL_JOINS_STATE)/matrix, built once), e.g.
#   make matrix MATRIX_ENVS=spark-3.5 PYTEST_ARGS="-k asof_join_differential"
MATRIX_ENVS ?=
PYTEST_ARGS ?=
.PHONY: matrix
matrix: setup
	$(PY) -m tools.matrix run $(MATRIX_ENVS) --python $(PYTHON) -- $(PYTEST_ARGS)

clean:
	rm -rf $(TEMPORAL_JOINS_STATE) $(TEMPORAL_JOINS_HIVE_HOME) target integration_tests/target integration_tests/dbt_packages demo/target demo/dbt_packages .pytest_cache

# make bench: the as-of join benchmark (benchmarks/README.md), results under benchmarks/results/<size>/.
#   BENCH_SIZE=quick  N up to 100k, a laptop's quarter hour   BENCH_SIZE=full  N up to 1M (about 50M right rows), hours
#   BENCH_ARGS passes filters, e.g. BENCH_ARGS="--scenarios '^asc$$' --n 1000000"
BENCH_SIZE ?= quick
BENCH_ARGS ?=
.PHONY: bench bench-many
bench: setup bench-many
	$(INSTALL) -e '.[spark,connect,test,bench]'
	$(PY) -m benchmarks.run --size $(BENCH_SIZE) $(BENCH_ARGS)

# make bench-many: the training-set benchmark (asof_join_many, benchmarks/many.py), results under
# benchmarks/results/many/<size>/. BENCH_SIZE=small|quick|full (full: 200k ids x 5 labels, 4 x 10M rows).
MANY_BENCH_ARGS ?=
bench-many: setup
	$(INSTALL) -e '.[spark,connect,test,bench]'
	$(PY) -m benchmarks.many --size $(BENCH_SIZE) $(MANY_BENCH_ARGS)

# make bench-range: the range-join benchmark (README.md#range-and-interval-joins), results in
# benchmarks/results/range_join_bench.md. RANGE_BENCH_ARGS=--quick for small sizes.
RANGE_BENCH_ARGS ?=
.PHONY: bench-range
bench-range: setup
	$(PY) -m benchmarks.range_join_bench $(RANGE_BENCH_ARGS)

# make hive-engine: assemble the real Hive 2.3 engine (tools/hive/README.md) from the pyspark wheel,
# once per venv and Java (cached in $(TEMPORAL_JOINS_HIVE_HOME)); the Hive tests also build it on demand.
# make hive-shell: a hive> prompt on it (MR local mode, embedded Derby). HIVE_ARGS passes options,
#   e.g. HIVE_ARGS="--timezone America/New_York", or HIVE_ARGS="-f my.hql --hivevar db=default"
HIVE_ARGS ?=
.PHONY: hive-engine hive-shell
hive-engine: setup
	$(PY) -m tools.hive --build

hive-shell: hive-engine
	$(PY) -m tools.hive $(HIVE_ARGS)

# make bench-hive: the Hive comparison run (benchmarks/hive_compare.py): benchmarks/hiveql on the Hive 2.3
# engine of tools/hive, a table in benchmarks/results/hive_compare.md. HIVE_BENCH_ARGS="--n 1000 10000 100000".
.PHONY: bench-hive
bench-hive: hive-engine
	$(PY) -m benchmarks.hive_compare $(HIVE_BENCH_ARGS)

# make bench-window: the window_aggregate benchmark (benchmarks/README.md#window-aggregates), results in
# benchmarks/results/window_bench.md. WINDOW_BENCH_ARGS picks sizes, e.g. "--n 100000 --n 1000000".
WINDOW_BENCH_ARGS ?=
.PHONY: bench-window
bench-window: setup
	$(INSTALL) -e '.[spark,connect,test,bench]'
	$(PY) -m benchmarks.window_bench $(WINDOW_BENCH_ARGS)
