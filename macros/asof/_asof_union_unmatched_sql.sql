{#-
  The union strategy's right and full joins (the SQL layer; asof/_asof_union_sql.sql calls these): every right row
  that is no left row's match comes out once, its left columns null. Each event gets a row id (tj__rid) in the
  events layer, evaluated once; the window carries the id of each running candidate (tj__back0__id /
  tj__fwd0__id) beside it, so a left row names the one right row it took, whichever of tied rows that was. A right
  row's own running candidate is itself (the frame ends at the current row), so it keeps its own columns through
  the same expressions as a match (with skip_nulls, which fills a candidate's nulls from older rows, its own
  columns pass through the window instead). Then one more window, partitioned by the id taken, counts the left
  rows that claimed each right row. Right rows the union never holds (a null key or time) are never matched: a
  branch of their own.
  asof_join only (one entry).
-#}

{#- The matched layer's match columns with each right row's own candidate (matches: the left rows' expressions,
    '<expr> as <name>'), its side, its id and the id it is claimed by (taken: the id a left row takes, or null). -#}
{% macro _asof_union_own_matches(plan, union, matches, taken) %}
  {%- set entry = plan.entries[0] -%}
  {%- set form = union.entry_columns[0] -%}
  {%- set own_back = entry.direction in ['backward', 'nearest'] -%}
  {%- set is_left = 'tj__side = ' ~ union.left_side -%}
  {%- set out = [] -%}
  {%- for m in matches -%}
    {%- set expr, name = m.rsplit(' as ', 1) -%}
    {%- set own = ('1' if own_back else '2') if form else ('tj__back0' if own_back else 'tj__fwd0') -%}
    {#- skip_nulls: a running candidate fills a column's null from an older row, so a right row's own columns come
        as they are (3: its own tj__r0__<j>, passed through the window) -#}
    {%- set own = '3' if entry.skip_nulls else own -%}
    {%- do out.append('case when ' ~ is_left ~ ' then ' ~ expr ~ ' else ' ~ own ~ ' end as ' ~ name) -%}
  {%- endfor -%}
  {%- do out.append('tj__side') -%}
  {%- do out.append('tj__rid') -%}
  {%- do out.append('case when ' ~ is_left ~ ' then ' ~ taken ~ ' else tj__rid end as tj__taken') -%}
  {{ return(out) }}
{% endmacro %}

{#- claimed: every event of `matched` (the matched layer's SQL) with the number of left rows that took its right
    row (on a right row: 0 when unmatched).
    Partitioned by the id taken (tj__taken: a right row's own, or the one a left row took), an unmatched left row by
    its own: the sides' ids are told apart (each side's ids are unique only among its own rows). -#}
{% macro _asof_union_claimed(plan, union, matched) -%}
select tj__u.*, sum(case when tj__side = {{ union.left_side }} then 1 else 0 end) over (
    partition by coalesce(tj__taken, tj__rid), case when tj__taken is null then 1 else 0 end) as tj__claimed
from (
{{ matched | indent(2, true) }}
) as tj__u
{%- endmacro %}

{#- The rows kept: the left rows (right: the matched ones, matched: their conditions) and the unclaimed right rows. -#}
{% macro _asof_union_kept(plan, union, matched) %}
  {%- set is_left = 'tj__side = ' ~ union.left_side -%}
  {%- set unclaimed = '(tj__side <> ' ~ union.left_side ~ ' and tj__claimed = 0)' -%}
  {%- if plan.join_type == 'right' -%}
    {{ return('(' ~ is_left ~ ' and ' ~ matched | join(' and ') ~ ') or ' ~ unclaimed) }}
  {%- endif -%}
  {{ return(is_left ~ ' or ' ~ unclaimed) }}
{% endmacro %}

{#- The right rows the union leaves out (a null key, a null or NaN time): unmatched, each with a typed null per left
    column (the plan requires the left's columns). -#}
{% macro _asof_union_unreachable(plan) %}
  {%- set entry = plan.entries[0] -%}
  {%- set outputs = [] -%}
  {#- none while dbt parses (the columns are looked up when it compiles) -#}
  {%- for column in plan.left_columns or [] -%}
    {%- set info = temporal_joins._tj_find_column(plan.left_info, column) -%}
    {%- do outputs.append('cast(null as ' ~ info.dtype ~ ') as ' ~ temporal_joins._tj_q(column)) -%}
  {%- endfor -%}
  {%- for rc in entry.right_columns -%}
    {%- do outputs.append('tj__rsrc.' ~ temporal_joins._tj_q(rc.source) ~ ' as ' ~ temporal_joins._tj_q(rc.output)) -%}
  {%- endfor -%}
  {%- set reachable = [] -%}
  {%- for pair in entry.by -%}
    {%- do reachable.append('tj__rsrc.' ~ temporal_joins._tj_q(pair[1]) ~ ' is not null') -%}
  {%- endfor -%}
  {%- do reachable.append(plan.dialect.time_value('tj__rsrc.' ~ temporal_joins._tj_q(entry.right_time),
                                                  entry.right_nan) ~ ' is not null') -%}
select
  {{ outputs | join(',\n  ') }}
from {{ entry.right }} as tj__rsrc
where not ({{ reachable | join(' and ') }})
{%- endmacro %}
