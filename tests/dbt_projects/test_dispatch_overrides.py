"""A user's project overrides the package's SQL through `dispatch`, as the README's "Overriding the SQL"
shows: one dialect fragment (`spark__tj_last_ignore_nulls`), and a whole flavour (`spark__range_join`).

A scratch project installs this checkout with `local:`, lists itself first in the temporal_joins
namespace and renders through tools/dbt_render with the columns answered (no Spark session).
"""

from __future__ import annotations

import shutil

import yaml

from tools.dbt_render import INTEGRATION, REPO, render_calls

OVERRIDES = """
{% macro spark__tj_last_ignore_nulls(expr) %}
  {{ return('last_value(' ~ expr ~ ') ignore nulls /* my_project */') }}
{% endmacro %}

{% macro spark__range_join(left, right, left_time, right_time, by, lower, upper, lower_inclusive,
                           upper_inclusive, join_type, columns, prefix, bin_size, strategy) %}
  {{ return('select 1 as my_project_range_join') }}
{% endmacro %}
"""
COLUMNS = {
    "labels": [("id", "bigint"), ("t", "timestamp")],
    "features": [("id", "bigint"), ("t", "timestamp"), ("v", "double")],
}
CALLS = [
    {
        "id": "asof",
        "macro": "asof_join",
        "kwargs": {
            "left": {"relation": "labels"},
            "right": {"relation": "features"},
            "left_time": "t",
            "right_time": "t",
            "by": "id",
            "prefix": "f_",
            "strategy": "union",
        },
    },
    {
        "id": "range",
        "macro": "range_join",
        "kwargs": {
            "left": {"relation": "labels"},
            "right": {"relation": "features"},
            "left_time": "t",
            "right_time": "t",
            "by": "id",
            "lower": "1 day",
            "prefix": "f_",
        },
    },
]


def _project(root, overrides: bool):
    project = root / ("with_overrides" if overrides else "without")
    (project / "macros").mkdir(parents=True)
    shutil.copy(INTEGRATION / "macros" / "tj_render_calls.sql", project / "macros")
    config = {"name": "my_project", "version": "1.0.0", "config-version": 2, "profile": "temporal_joins"}
    if overrides:
        (project / "macros" / "temporal_joins_overrides.sql").write_text(OVERRIDES)
        config["dispatch"] = [{"macro_namespace": "temporal_joins", "search_order": ["my_project", "temporal_joins"]}]
    (project / "dbt_project.yml").write_text(yaml.safe_dump(config))
    (project / "packages.yml").write_text(yaml.safe_dump({"packages": [{"local": str(REPO)}]}))
    from dbt.cli.main import dbtRunner

    assert dbtRunner().invoke(["deps", "--quiet", "--project-dir", str(project)]).success
    return project


def _render(project):
    # no compile-time query: nothing here may need an engine
    return render_calls(
        CALLS, project, dbt_vars={"temporal_joins_compile_queries": False}, columns=COLUMNS, scratch=project
    )


def test_a_project_overrides_a_fragment_and_a_flavour_through_dispatch(tmp_path):
    plain = _render(_project(tmp_path, overrides=False))
    assert "/* my_project */" not in plain["asof"] and "ignore nulls" in plain["asof"]
    assert "my_project_range_join" not in plain["range"]

    overridden = _render(_project(tmp_path, overrides=True))
    # the fragment replaces every running last of the union, and only that
    assert overridden["asof"].count("/* my_project */") == plain["asof"].count("ignore nulls")
    assert overridden["asof"].replace(" /* my_project */", "").replace("last_value(", "last(") == plain["asof"]
    assert overridden["range"] == "select 1 as my_project_range_join"
