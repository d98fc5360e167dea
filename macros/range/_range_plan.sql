{#-
  The plan layer of range_join and interval_join: what their bucketed SQL needs measured before it is written,
  decided on the dialect's capabilities (run_time_scalars). The flavours call _range_join_plan and
  _interval_join_plan between the spec (range/_range_spec.sql) and the SQL (range/_range_sql.sql,
  range/_interval_sql.sql), whose measuring queries this file reuses.

  The plan is the spec with 'dialect' (the dialect table) and these fields resolved:
    clamp {'how': 'scalar', 'stats'}: the reach measured when the query runs (scalar subqueries, planned once
          and reused, one job before the join);
          {'how': 'join'}: per key, joined in when the query runs (a CTE input, or a dialect without
          run-time scalar subqueries);
          none: not clamped (a bin at least the window's width, the naive strategy, or _range_join_plan's
          full join without run-time scalars).
    bin   a number (bin_size, the range join's window, or measured on a bounded sample while compiling), or
          {'sql'}: a scalar subquery, measured when the query runs.
-#}

{% macro _range_join_plan(spec, dialect_table) %}
  {%- set plan = dict(spec, dialect=dialect_table) -%}
  {%- set run_time_scalars = dialect_table.run_time_scalars() -%}
  {%- set measured = plan.clamp is not none and plan.clamp.how == 'measure' -%}
  {#- Without run-time scalars the reach would be joined in, and Hive 2.3's MapReduce fails some full range joins
      over a joined reach (a NullPointerException in FileSinkOperator.closeOp: tools/hive/FINDINGS.md). A range
      join's copies are bounded by its window anyway (window / bin + 1 per row; the reach only trims them), so
      such a full join is not clamped. -#}
  {%- if measured and not run_time_scalars and plan.join_type == 'full' -%}
    {%- do plan.update({'clamp': none}) -%}
  {%- else -%}
    {%- do plan.update({'clamp': temporal_joins._range_clamp_plan(plan, run_time_scalars)}) -%}
  {%- endif -%}
  {{ return(plan) }}
{% endmacro %}

{#- interval_join's plan: the reach as range_join's, and the bin when bin_size is not given (_interval_bin). -#}
{% macro _interval_join_plan(spec, dialect_table) %}
  {%- set plan = dict(spec, dialect=dialect_table) -%}
  {%- set run_time_scalars = dialect_table.run_time_scalars() -%}
  {%- set measured = plan.clamp is not none and plan.clamp.how == 'measure' -%}
  {%- if plan.strategy == 'bucketed' and plan.bin is none and measured and not run_time_scalars -%}
    {#- measured while compiling: the bin only sizes the buckets, so the first rows of each side are enough,
        their spans clamped to the reach of the other side's first rows (both bounded while compiling) -#}
    {%- do plan.update({'bin': temporal_joins._interval_bin(
          dict(plan, clamp=temporal_joins._range_clamp_literals(plan)), run_time_scalars=false)}) -%}
  {%- endif -%}
  {%- do plan.update({'clamp': temporal_joins._range_clamp_plan(plan, run_time_scalars)}) -%}
  {%- if plan.strategy == 'bucketed' and plan.bin is none -%}
    {%- do plan.update({'bin': temporal_joins._interval_bin(plan, run_time_scalars=run_time_scalars)}) -%}
  {%- endif -%}
  {{ return(plan) }}
{% endmacro %}

{#- The spec's clamp resolved: a measurable reach ({'how': 'measure'}) as scalar subqueries with run-time
    scalars, else joined in per key; a CTE's joined reach and no clamp stay as they are. -#}
{% macro _range_clamp_plan(plan, run_time_scalars) %}
  {%- if plan.clamp is none or plan.clamp.how != 'measure' -%}{{ return(plan.clamp) }}{%- endif -%}
  {%- if not run_time_scalars -%}{{ return({'how': 'join'}) }}{%- endif -%}
  {%- set reach = '(' ~ temporal_joins._range_bounds_sql(plan=plan, sides=['l', 'r'], grouped=false, text=false)
        ~ ') as tj__reach' -%}
  {%- set stats = {} -%}
  {%- for name in temporal_joins._range_bound_names() -%}
    {%- do stats.update({name: '(select tj__' ~ name ~ ' from ' ~ reach ~ ')'}) -%}
  {%- endfor -%}
  {{ return({'how': 'scalar', 'stats': stats}) }}
{% endmacro %}

{#-
  bin_size not given: measured from the lengths of the spans the copies cover (each interval
  clamped like its copies, so a sentinel end such as 9999-12-31 or an open end counts only as
  far as the other side reaches): max(p90, p99 / 10, p99.9 / 100) of the positive lengths
  (approximate percentiles), so that 90% of the intervals span at most two buckets and only the
  longest 1% / 0.1% are copied into more than ~11 / ~101 buckets; 1 unit when there is no span
  of positive length. With run-time scalars it is measured when the query runs (a scalar subquery,
  planned once, so both sides' buckets use one bin); without, with one query while the model compiles,
  over the first _tj_setting('sample_rows') rows of each side (a limit: bounded at any table size), which
  needs relations and var temporal_joins_compile_queries (plan.clamp {'how': 'literal'}).
-#}
{% macro _interval_bin(plan, run_time_scalars) %}
  {%- if not execute -%}{{ return(1.0) }}{%- endif -%}
  {#- measured while compiling: only from literals (_range_clamp_literals), before any span is built -#}
  {%- if not run_time_scalars and plan.clamp.how != 'literal' -%}
    {{ temporal_joins._tj_fail(macro_name=plan.macro, argument='bin_size',
         allowed='a bin (a number, or an interval string such as \'1 hour\');'
         ~ ' the Hive flavour needs it when an input is a CTE name or var temporal_joins_compile_queries is false'
         ~ ' (Hive 2.3 measures the bin with a query while the model compiles)',
         received=none, detail='no bin_size and nothing to measure it with') }}
  {%- endif -%}
  {%- set lengths = [] -%}
  {%- set copied = ['r'] if plan.mode == 'point' else ['l', 'r'] -%}
  {%- for side in copied -%}
    {%- set span = temporal_joins._range_copy_span(plan, side, 'epoch') -%}
    {%- do lengths.append('select cast(tj__one.tj__hi as double) - cast(tj__one.tj__lo as double) as len from '
        ~ span.sql ~ ' as tj__one where ' ~ span.valid) -%}
  {%- endfor -%}
  {%- if run_time_scalars -%}
    {#- Spark may evaluate the subquery once per side (its optimizer does not always reuse it), and
        percentile_approx's result depends on the order its partial results merge in: the same
        quantiles from exact counts per power-of-two class of length (an exact percentile of ~60
        classes), so every evaluation returns the same bin. -#}
    {%- set classes -%}
select greatest(pow(2, percentile(tj__k, 0.9, tj__h) + 1), pow(2, percentile(tj__k, 0.99, tj__h) + 1) / 10,
                {{- ' ' }}pow(2, percentile(tj__k, 0.999, tj__h) + 1) / 100) as bin
from (select floor(log2(len)) as tj__k, count(*) as tj__h from ({{ lengths | join(' union all ') }}) as tj__lengths
      {{- ' ' }}where len > 0 group by floor(log2(len))) as tj__hist
    {%- endset -%}
    {{ return({'sql': '(select case when tj__m.bin > 0 then tj__m.bin else 1.0 end from (' ~ classes
                      ~ ') as tj__m)'}) }}
  {%- endif -%}
  {#- the bin only sizes the buckets (never which rows match): the first rows of each side are enough -#}
  {%- set sampled = [] -%}
  {%- for length in lengths -%}
    {%- do sampled.append('select len from ' ~ temporal_joins._tj_first_rows(length) ~ ' as tj__sample'
          ~ loop.index0) -%}
  {%- endfor -%}
  {%- set query -%}
select greatest(percentile_approx(len, 0.9), percentile_approx(len, 0.99) / 10,
                {{- ' ' }}percentile_approx(len, 0.999) / 100) as bin
from ({{ sampled | join(' union all ') }}) as tj__lengths
where len > 0
  {%- endset -%}
  {%- set result = run_query(query) -%}
  {%- set value = result.columns[0].values()[0] if result and result.rows | length > 0 else none -%}
  {%- if value is none or (value | float) <= 0 -%}{{ return(1.0) }}{%- endif -%}
  {{ return(value | float) }}
{% endmacro %}

{#- The reach of the first _tj_setting('sample_rows') rows of each side, from one query while the model compiles
    (a limit: bounded at any table size), as literals: what a bin measured while compiling is clamped to. A CTE
    input or var temporal_joins_compile_queries false: nothing to measure with (_interval_bin asks for bin_size). -#}
{% macro _range_clamp_literals(plan) %}
  {%- if not execute or not temporal_joins._tj_compile_queries(plan.macro) -%}
    {{ return({'how': 'none'}) }}
  {%- endif -%}
  {%- set sampled = dict(plan) -%}
  {%- for side in ['left', 'right'] -%}
    {%- do sampled.update({side: temporal_joins._tj_first_rows('select * from ' ~ plan[side])}) -%}
  {%- endfor -%}
  {%- set result = run_query(temporal_joins._range_bounds_sql(plan=sampled, sides=['l', 'r'], grouped=false)) -%}
  {%- set stats = {} -%}
  {%- for name in temporal_joins._range_bound_names() -%}
    {%- set measured = result.columns[loop.index0].values()[0] if result and result.rows | length > 0 else none -%}
    {%- do stats.update({name: temporal_joins._range_stat_literal(plan, name, measured)}) -%}
  {%- endfor -%}
  {{ return({'how': 'literal', 'stats': stats}) }}
{% endmacro %}

{#-
  A measured bound as a typed SQL literal of the epoch kind (none for null). The text comes
  from the engine (cast to string), is checked to be a number and re-rendered, never spliced
  as received. Integral and decimal bounds come as decimal(38,6), the type _tj_bucket
  converts them through, so the literal's bucket equals the row's.
-#}
{% macro _range_stat_literal(plan, name, value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- set text = value | string | trim -%}
  {%- if name.endswith('open') -%}{{ return(1 if text in ['1', '1.0'] else 0) }}{%- endif -%}
  {%- set epoch_kind = plan.epoch_kind -%}
  {%- if epoch_kind in ['micros', 'micros_zoned', 'days'] and modules.re.match('^-?[0-9]+$', text) -%}
    {{ return('cast(' ~ (text | int) ~ ' as bigint)') }}
  {%- elif epoch_kind in ['integral', 'decimal'] and modules.re.match('^-?[0-9]+(\.[0-9]+)?$', text) -%}
    {{ return("cast('" ~ text ~ "' as decimal(38,6))") }}
  {%- elif epoch_kind == 'double'
        and modules.re.match('^(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|-?Infinity|NaN)$', text) -%}
    {{ return("cast('" ~ text ~ "' as double)") }}
  {%- endif -%}
  {{ exceptions.raise_compiler_error('temporal_joins.' ~ plan.macro ~ ': the measured time range gave ' ~ text
      ~ ', which is not a number of its kind') }}
{% endmacro %}
