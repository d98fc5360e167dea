"""Repository tooling, not shipped in the wheel: local Spark endpoints (Thrift server,
standalone cluster), the Hive 2.3 parser check and the HiveQL export. Run from the repo root
(`python -m tools.<module>`); the test suite imports it the same way."""
