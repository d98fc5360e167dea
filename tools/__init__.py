"""Repository tooling, not shipped in the wheel: local Spark endpoints (Thrift server,
standalone cluster), the real Hive 2.3 engine (tools/hive), the Hive 2.3 parser check, the
render harness and the HiveQL export. Run from the repo root (`python -m tools.<module>`);
the test suite imports it the same way."""
