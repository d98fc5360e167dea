{#-
  The hot keys' SQL (the SQL layer): which rows belong to a hot key that asof/_asof_hot_keys_plan.sql measured
  (ranges.hot: their hashes), and a keyed event's range id.
-#}

{#- The hash that marks a hot key's rows: one int over the key columns (expressions). -#}
{% macro _asof_hot_hash(key_exprs) %}
  {{ return('hash(' ~ key_exprs | join(', ') ~ ')') }}
{% endmacro %}

{#- Whether a row's key (its key expressions) is one of the measured hot keys. -#}
{% macro _asof_is_hot(key_exprs, ranges) %}
  {{ return(temporal_joins._asof_hot_hash(key_exprs) ~ ' in (' ~ ranges.hot | join(', ') ~ ')') }}
{% endmacro %}

{#- The right rows of the hot keys, as a relation (the run-time quantiles are taken over their times). -#}
{% macro _asof_hot_right_sql(ranges) %}
  {%- set quoted = [] -%}
  {%- for k in ranges.hot_check.right_keys -%}
    {%- do quoted.append('tj__hr.' ~ temporal_joins._tj_q(k)) -%}
  {%- endfor -%}
  {{ return('(select tj__hr.* from ' ~ ranges.right_info.sql ~ ' as tj__hr where '
            ~ temporal_joins._asof_is_hot(quoted, ranges) ~ ')') }}
{% endmacro %}

{#- A keyed event's range id: its range when its key is hot, else -1 (key_exprs: the key expressions, time: its
    time). -#}
{% macro _asof_hot_range(key_exprs, time, ranges, splits) %}
  {{ return('case when ' ~ temporal_joins._asof_is_hot(key_exprs, ranges) ~ ' then '
            ~ temporal_joins._asof_time_range(time, ranges.kind, splits) ~ ' else -1 end') }}
{% endmacro %}
