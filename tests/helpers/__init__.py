"""What the test modules share and no test module holds: the randomized case generators and their oracles
(asof_cases, asof_many_cases, range_cases, window_cases, on the time grid of grid), the Python engines'
session-time-zone matrix (engine_zones), plan probes (plans), the in-process dbt runner the `dbt` fixture
returns (dbt), the docs' examples and their scratch dbt project (docs_examples), and the README's install
line (packaging). tests/ is on pytest's pythonpath (pyproject.toml), so a test imports them as
`from helpers.asof_cases import ...`; a test module never imports another test module or conftest.
"""
