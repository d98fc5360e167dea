{#-
  strategy='native' planned (the plan layer): whether Spark SQL's ASOF JOIN (Spark 4.3 and later, behind the
  setting spark.sql.join.asofJoin.enabled, run by SortMergeAsOfJoin) gives this call the rows of every other
  strategy; where it cannot, a compile error naming the way out. Its SQL: asof/_asof_native_sql.sql. The rules
  of the Python API's engine='native' (src/temporal_joins/asof/native.py): keys required (without them the
  operator runs the whole join in one task); no nearest (MATCH_CONDITION takes >=, >, <=, < only); no
  skip_nulls (the operator matches one whole row); left and inner joins only; order_by kept by cutting the
  right side to one row per (keys, time) before the join. `auto` never picks native.
  While dbt compiles (var temporal_joins_compile_queries true) one statement reads the setting
  (tj_native_asof_query): undefined before Spark 4.3; false, unless the model's pre_hook sets it (a pre_hook runs
  after the model compiles, before its query). With the var false nothing is asked: Spark's own error then
  names the setting.
-#}
{% macro _asof_native_check(spec, dialect_table) %}
  {%- set others = 'auto, union, exploding, broadcast' -%}
  {%- set problems = [] -%}
  {%- set query = dialect_table.native_asof_query() -%}
  {%- if query is none -%}
    {%- do problems.append(['the Hive flavour has no ASOF JOIN (native renders Spark SQL\'s, Spark 4.3 and later)',
                            others]) -%}
  {%- elif not spec.by -%}
    {%- do problems.append(['native needs `by` keys (without them Spark\'s ASOF JOIN runs the whole join in one'
                            ~ ' task)', 'native with by keys, or ' ~ others]) -%}
  {%- elif spec.direction == 'nearest' -%}
    {%- do problems.append(['native cannot run direction \'nearest\' (Spark\'s ASOF JOIN MATCH_CONDITION takes'
                            ~ ' >=, >, <=, < only)', others ~ ' for nearest']) -%}
  {%- elif spec.join_type not in ['left', 'inner'] -%}
    {%- do problems.append(['native cannot run join_type \'' ~ spec.join_type ~ '\' (Spark\'s ASOF JOIN is LEFT'
                            ~ ' or INNER)', others ~ ' for this join_type']) -%}
  {%- elif spec.skip_nulls -%}
    {%- do problems.append(['native cannot run skip_nulls (Spark\'s ASOF JOIN matches one whole row)',
                            others ~ ' with skip_nulls']) -%}
  {%- elif temporal_joins._tj_compile_queries(spec.macro) -%}
    {%- set value = run_query(query).rows[0][1] | string | trim | lower -%}
    {%- if value not in ['true', 'false'] -%}
      {%- do problems.append(['native needs Spark 4.3 or later (this session does not know'
                              ~ ' spark.sql.join.asofJoin.enabled)', others]) -%}
    {%- elif value == 'false' and not temporal_joins._asof_native_hooked() -%}
      {%- do problems.append(['native needs spark.sql.join.asofJoin.enabled, which is false in this session: set it'
                              ~ ' before the model\'s query, e.g. config(pre_hook="set spark.sql.join.asofJoin.enabled'
                              ~ '=true")', 'native with that setting, or ' ~ others]) -%}
    {%- endif -%}
  {%- endif -%}
  {%- for detail, allowed in problems -%}
    {{ temporal_joins._tj_fail(macro_name=spec.macro, argument='strategy', allowed=allowed, received='native',
                               detail=detail) }}
  {%- endfor -%}
{% endmacro %}

{#- Whether the model being compiled has a pre_hook that names the setting (it runs before the model's query). -#}
{% macro _asof_native_hooked() %}
  {%- if model is not defined or model is none -%}{{ return(false) }}{%- endif -%}
  {%- set node_config = model.get('config', {}) if model is mapping else (model.config or {}) -%}
  {%- set hooks = (node_config.get('pre-hook') or node_config.get('pre_hook') or [])
        if node_config is mapping else [] -%}
  {%- for hook in ([hooks] if hooks is string else hooks) -%}
    {%- set text = (hook.get('sql', '') if hook is mapping else (hook.sql if hook.sql is defined else hook)) -%}
    {%- if 'spark.sql.join.asofjoin.enabled' in (text | string | lower) -%}{{ return(true) }}{%- endif -%}
  {%- endfor -%}
  {{ return(false) }}
{% endmacro %}
