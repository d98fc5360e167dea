{#-
  The range family's plan: what the bucketed joins measure of their inputs before their SQL is written, per
  dialect (the spec's dialect table): the clamp's reach and, for interval_join without bin_size, the bin,
  measured when the query runs (Spark: scalar subqueries) or while compiling on a bounded sample (Hive:
  run_query). The flavour entry points call _range_measured between the spec (range/_range_spec.sql) and the
  SQL (range/_range_sql.sql, range/_interval_sql.sql), whose measuring queries it reuses.
-#}

{#-
  What the bucketed joins measure of their inputs, for a dialect: the clamp's reach and, for interval_join
  without bin_size, the bin. Returns the spec with them resolved:
    clamp {'how': 'scalar', 'stats'}: measured when the query runs (Spark: scalar subqueries, planned once
          and reused, one job before the join);
          {'how': 'join'}: per key, joined in when the query runs (a CTE input; the Hive flavour, as
          Hive 2.3 has no scalar subqueries);
          none: a full range_join in the Hive flavour is not clamped (below).
    bin   a number (bin_size, or measured on a bounded sample while compiling: the Hive flavour), or
          {'sql'}: a scalar subquery (Spark).
-#}
{% macro _range_measured(spec) %}
  {%- set spec = dict(spec) -%}
  {%- if spec.clamp is not none and spec.clamp.how == 'measure' -%}
    {%- if spec.dialect.run_time_scalars() -%}
      {%- set reach = '(' ~ temporal_joins._range_bounds_sql(spec, ['l', 'r'], grouped=false, text=false)
            ~ ') as tj__reach' -%}
      {%- set stats = {} -%}
      {%- for name in temporal_joins._range_bound_names() -%}
        {%- do stats.update({name: '(select tj__' ~ name ~ ' from ' ~ reach ~ ')'}) -%}
      {%- endfor -%}
      {%- do spec.update({'clamp': {'how': 'scalar', 'stats': stats}}) -%}
    {%- else -%}
      {%- if spec.strategy == 'bucketed' and spec.bin is none -%}
        {#- the bin only sizes the buckets: from the first rows of each side, their spans clamped to the
            reach of the other side's first rows (both bounded while compiling) -#}
        {%- do spec.update({'bin': temporal_joins._interval_bin(
              dict(spec, clamp=temporal_joins._range_clamp_literals(spec)))}) -%}
      {%- endif -%}
      {%- if spec.macro == 'range_join' and spec.join_type == 'full' -%}
        {#- Hive 2.3's MapReduce fails some full range joins over the joined reach (a NullPointerException
            in FileSinkOperator.closeOp: tools/hive/FINDINGS.md); a range join's copies are bounded by its
            window anyway (window / bin + 1 per row), the reach only trims them -#}
        {%- do spec.update({'clamp': none}) -%}
      {%- else -%}
        {%- do spec.update({'clamp': {'how': 'join'}}) -%}
      {%- endif -%}
    {%- endif -%}
  {%- endif -%}
  {%- if spec.strategy == 'bucketed' and spec.bin is none -%}
    {%- do spec.update({'bin': temporal_joins._interval_bin(spec)}) -%}
  {%- endif -%}
  {{ return(spec) }}
{% endmacro %}

{#-
  bin_size not given: measured from the lengths of the spans the copies cover (each interval
  clamped like its copies, so a sentinel end such as 9999-12-31 or an open end counts only as
  far as the other side reaches): max(p90, p99 / 10, p99.9 / 100) of the positive lengths
  (approximate percentiles), so that 90% of the intervals span at most two buckets and only the
  longest 1% / 0.1% are copied into more than ~11 / ~101 buckets; 1 unit when there is no span
  of positive length. Spark measures it when the query runs (a scalar subquery, planned once, so
  both sides' buckets use one bin); the Hive flavour with one query while the model compiles, over
  the first _tj_setting('sample_rows') rows of each side (a limit: bounded at any table size), which
  needs relations and var temporal_joins_compile_queries.
-#}
{% macro _interval_bin(spec) %}
  {%- if not execute -%}{{ return(1.0) }}{%- endif -%}
  {%- set lengths = [] -%}
  {%- set copied = ['r'] if spec.mode == 'point' else ['l', 'r'] -%}
  {%- for side in copied -%}
    {%- set span = temporal_joins._range_copy_span(spec, side, 'epoch') -%}
    {%- do lengths.append('select cast(tj__one.tj__hi as double) - cast(tj__one.tj__lo as double) as len from '
        ~ span.sql ~ ' as tj__one where ' ~ span.valid) -%}
  {%- endfor -%}
  {%- if spec.dialect.run_time_scalars() -%}
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
  {%- if spec.clamp.how != 'literal' -%}
    {{ temporal_joins._tj_fail(spec.macro, 'bin_size', 'a bin (a number, or an interval string such as \'1 hour\');'
         ~ ' the Hive flavour needs it when an input is a CTE name or var temporal_joins_compile_queries is false'
         ~ ' (Hive 2.3 measures the bin with a query while the model compiles)',
         none, 'no bin_size and nothing to measure it with') }}
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

{#- What the Hive flavour's bin is measured with: the reach of the first _tj_setting('sample_rows') rows of each side,
    from one query while the model compiles (a limit: bounded at any table size), as literals. A CTE input or
    var temporal_joins_compile_queries false: nothing to measure with (_interval_bin asks for bin_size). -#}
{% macro _range_clamp_literals(spec) %}
  {%- if not execute or not temporal_joins._tj_compile_queries(spec.macro) -%}
    {{ return({'how': 'none'}) }}
  {%- endif -%}
  {%- set sampled = dict(spec) -%}
  {%- for side in ['left', 'right'] -%}
    {%- do sampled.update({side: temporal_joins._tj_first_rows('select * from ' ~ spec[side])}) -%}
  {%- endfor -%}
  {%- set result = run_query(temporal_joins._range_bounds_sql(sampled, ['l', 'r'], grouped=false)) -%}
  {%- set stats = {} -%}
  {%- for name in temporal_joins._range_bound_names() -%}
    {%- set v = result.columns[loop.index0].values()[0] if result and result.rows | length > 0 else none -%}
    {%- do stats.update({name: temporal_joins._range_stat_literal(spec, name, v)}) -%}
  {%- endfor -%}
  {{ return({'how': 'literal', 'stats': stats}) }}
{% endmacro %}

{#-
  A measured bound as a typed SQL literal of the epoch kind (none for null). The text comes
  from the engine (cast to string), is checked to be a number and re-rendered, never spliced
  as received. Integral and decimal bounds come as decimal(38,6), the type _tj_bucket
  converts them through, so the literal's bucket equals the row's.
-#}
{% macro _range_stat_literal(spec, name, value) %}
  {%- if value is none -%}{{ return(none) }}{%- endif -%}
  {%- set text = value | string | trim -%}
  {%- if name.endswith('open') -%}{{ return(1 if text in ['1', '1.0'] else 0) }}{%- endif -%}
  {%- set ek = spec.epoch_kind -%}
  {%- if ek in ['micros', 'micros_zoned', 'days'] and modules.re.match('^-?[0-9]+$', text) -%}
    {{ return('cast(' ~ (text | int) ~ ' as bigint)') }}
  {%- elif ek in ['integral', 'decimal'] and modules.re.match('^-?[0-9]+(\.[0-9]+)?$', text) -%}
    {{ return("cast('" ~ text ~ "' as decimal(38,6))") }}
  {%- elif ek == 'double' and modules.re.match('^(-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|-?Infinity|NaN)$', text) -%}
    {{ return("cast('" ~ text ~ "' as double)") }}
  {%- endif -%}
  {{ exceptions.raise_compiler_error('temporal_joins.' ~ spec.macro ~ ': the measured time range gave ' ~ text
      ~ ', which is not a number of its kind') }}
{% endmacro %}
