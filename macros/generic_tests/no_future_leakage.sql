{#-
  Point-in-time correctness for training sets: no row may carry a feature timestamp later
  than its label timestamp. Fails with the offending rows. Rows where either time is null
  (unmatched left rows) pass.
-#}
{% test no_future_leakage(model, left_time, right_time) %}
  {#- a bad argument fails this test when it runs, not the project's parse -#}
  {%- if not execute -%}{{ return('') }}{%- endif -%}
  {%- set left_time = temporal_joins._tj_identifier('no_future_leakage', 'left_time', left_time) -%}
  {%- set right_time = temporal_joins._tj_identifier('no_future_leakage', 'right_time', right_time) -%}
select *
from {{ model }}
where {{ temporal_joins._tj_q(right_time) }} > {{ temporal_joins._tj_q(left_time) }}
{% endtest %}
