# Two entry points, both idempotent on a fresh clone:
#   make demo   set up, then build the demo project on an in-process local Spark and print joined rows
#   make test   set up, then run the whole test suite (what .ci/run calls)
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
DBT := $(VENV)/bin/dbt
STAMP := $(VENV)/.installed

# Spark's warehouse, Derby metastore and derby.log live here (git-ignored).
export TEMPORAL_JOINS_STATE ?= $(CURDIR)/.spark
export DBT_PROFILES_DIR := $(CURDIR)/profiles
export DBT_SEND_ANONYMOUS_USAGE_STATS := false
export PYSPARK_PYTHON := $(CURDIR)/$(PY)

.PHONY: setup demo test clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

integration_tests/dbt_packages/temporal_joins: $(STAMP) integration_tests/packages.yml
	cd integration_tests && ../$(DBT) deps --quiet

setup: $(STAMP) integration_tests/dbt_packages/temporal_joins
	mkdir -p $(TEMPORAL_JOINS_STATE)

demo: setup
	$(PY) scripts/demo.py

test: setup
	$(PY) -m pytest tests

clean:
	rm -rf $(TEMPORAL_JOINS_STATE) target integration_tests/target integration_tests/dbt_packages .pytest_cache
