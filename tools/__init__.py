"""The repository's own tooling (engines and servers the tests and benchmarks start), not part of the package."""
