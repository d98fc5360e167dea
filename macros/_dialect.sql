{#-
  The dialect layer: every difference between Spark SQL and HiveQL 2.3, each one dispatched macro
  (tj_<entry>, with default__ and hive__ versions), so a project can override any of them through its
  `dispatch:` config (README.md, "Dialects"). Nothing outside this file names a dialect.

  Two kinds of entry: a fragment renders SQL text (the SQL layer calls plan.dialect.<fragment>(...)); a
  capability (flat_rows, run_time_scalars, expands_struct, cores_query) answers a question, read only by the
  plan layer, which records the answer in the plan (tests/unit/test_macro_layout.py). The flavour entry
  points (default__<macro> and hive__<macro> of each public macro) hand the plan a dialect table
  ({entry: macro}): tj_dialect() is the target's own, each entry resolved through adapter.dispatch (a
  project's override included); hive__tj_dialect() is Hive's, dispatched on a Hive target and the package's
  hive__ versions elsewhere, so the Hive flavour can be rendered and checked on a Spark target too
  (integration_tests' *_hive models, tools/dbt_render). An override takes the entry's arguments by name.
  docs/design.md, "Layers" and "Dialects".
-#}

{#- The target's dialect table: each fragment through dispatch. (dbt reads the dispatched names while it
    parses, so each is spelled out: a fragment is added here, to _tj_dispatched_table and to hive__tj_dialect.) -#}
{% macro tj_dialect() %}{{ return(adapter.dispatch('tj_dialect', 'temporal_joins')()) }}{% endmacro %}

{% macro default__tj_dialect() %}
  {{ return(temporal_joins._tj_dispatched_table('default')) }}
{% endmacro %}

{#- Hive's table: through dispatch on a Hive target; on any other (the Hive flavour called by name, as the
    tests do on Spark) the package's hive__ fragments, default__ where Hive has none of its own. -#}
{% macro hive__tj_dialect() %}
  {%- if target.type == 'hive' -%}{{ return(temporal_joins._tj_dispatched_table('hive')) }}{%- endif -%}
  {{ return({'name': 'hive',
             'last_ignore_nulls': temporal_joins.hive__tj_last_ignore_nulls,
             'row_id': temporal_joins.hive__tj_row_id,
             'arg_extreme': temporal_joins.hive__tj_arg_extreme,
             'flat_rows': temporal_joins.hive__tj_flat_rows,
             'candidate_rank': temporal_joins.hive__tj_candidate_rank,
             'absent': temporal_joins.default__tj_absent,
             'time_value': temporal_joins.hive__tj_time_value,
             'key_value': temporal_joins.hive__tj_key_value,
             'run_time_scalars': temporal_joins.hive__tj_run_time_scalars,
             'join_grouped_keeping_all': temporal_joins.hive__tj_join_grouped_keeping_all,
             'from_joined_one_row': temporal_joins.hive__tj_from_joined_one_row,
             'epoch': temporal_joins.hive__tj_epoch,
             'copies': temporal_joins.hive__tj_copies,
             'expands_struct': temporal_joins.hive__tj_expands_struct,
             'cores_query': temporal_joins.hive__tj_cores_query,
             'native_asof_query': temporal_joins.hive__tj_native_asof_query}) }}
{% endmacro %}

{#- {'name': name, fragment: the macro adapter.dispatch resolves tj_<fragment> to}. -#}
{% macro _tj_dispatched_table(name) %}
  {{ return({'name': name,
             'last_ignore_nulls': adapter.dispatch('tj_last_ignore_nulls', 'temporal_joins'),
             'row_id': adapter.dispatch('tj_row_id', 'temporal_joins'),
             'arg_extreme': adapter.dispatch('tj_arg_extreme', 'temporal_joins'),
             'flat_rows': adapter.dispatch('tj_flat_rows', 'temporal_joins'),
             'candidate_rank': adapter.dispatch('tj_candidate_rank', 'temporal_joins'),
             'absent': adapter.dispatch('tj_absent', 'temporal_joins'),
             'time_value': adapter.dispatch('tj_time_value', 'temporal_joins'),
             'key_value': adapter.dispatch('tj_key_value', 'temporal_joins'),
             'run_time_scalars': adapter.dispatch('tj_run_time_scalars', 'temporal_joins'),
             'join_grouped_keeping_all': adapter.dispatch('tj_join_grouped_keeping_all', 'temporal_joins'),
             'from_joined_one_row': adapter.dispatch('tj_from_joined_one_row', 'temporal_joins'),
             'epoch': adapter.dispatch('tj_epoch', 'temporal_joins'),
             'copies': adapter.dispatch('tj_copies', 'temporal_joins'),
             'expands_struct': adapter.dispatch('tj_expands_struct', 'temporal_joins'),
             'cores_query': adapter.dispatch('tj_cores_query', 'temporal_joins'),
             'native_asof_query': adapter.dispatch('tj_native_asof_query', 'temporal_joins')}) }}
{% endmacro %}

{#- Running "last non-null value": Hive 2.3's parser has no IGNORE NULLS keyword. -#}
{% macro tj_last_ignore_nulls(expr) %}
  {{ return(adapter.dispatch('tj_last_ignore_nulls', 'temporal_joins')(expr)) }}
{% endmacro %}
{% macro default__tj_last_ignore_nulls(expr) %}{{ return('last(' ~ expr ~ ') ignore nulls') }}{% endmacro %}
{% macro hive__tj_last_ignore_nulls(expr) %}{{ return('last_value(' ~ expr ~ ', true)') }}{% endmacro %}

{#- A per-row id that tells duplicate left rows apart (Hive has no monotonically_increasing_id). -#}
{% macro tj_row_id() %}{{ return(adapter.dispatch('tj_row_id', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_row_id() %}{{ return('monotonically_increasing_id()') }}{% endmacro %}
{% macro hive__tj_row_id() %}{{ return("reflect('java.util.UUID', 'randomUUID')") }}{% endmacro %}

{#-
  One aggregate that returns the row with the largest (agg='max') or smallest (agg='min')
  `order` as a struct of `values` named `names`. Spark: one max_by/min_by per value, which
  keeps a fixed-width aggregation buffer (hash aggregate) when the values are fixed-width;
  all of them see the same orderings, so they pick the same row. Hive 2.3 has no max_by:
  max/min of a struct that starts with the order (ties then go to the largest/smallest values);
  rows with a null order are skipped, as max_by/min_by skip them. candidate: Hive's condition for
  the rows that compete (default: a non-null order), e.g. a branch marker (tj_candidate_rank).
  skip_nulls: the indexes of the values taken from the extreme row where that value is not null (skip_nulls).
-#}
{% macro tj_arg_extreme(agg, order, values, names, candidate=none, skip_nulls=[]) %}
  {{ return(adapter.dispatch('tj_arg_extreme', 'temporal_joins')(agg=agg, order=order, values=values,
            names=names, candidate=candidate,
            skip_nulls=skip_nulls)) }}
{% endmacro %}

{% macro default__tj_arg_extreme(agg, order, values, names, candidate=none, skip_nulls=[]) %}
  {%- set fields = [] -%}
  {%- for v in values -%}
    {%- set by = ('case when ' ~ v ~ ' is not null then ' ~ order ~ ' end') if loop.index0 in skip_nulls else order -%}
    {%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ agg ~ '_by(' ~ v ~ ', ' ~ by ~ ')') -%}
  {%- endfor -%}
  {{ return('named_struct(' ~ fields | join(', ') ~ ')') }}
{% endmacro %}

{% macro hive__tj_arg_extreme(agg, order, values, names, candidate=none, skip_nulls=[]) %}
  {%- set fields = [] -%}
  {%- do fields.append("'tj__order', " ~ order) -%}
  {%- for v in values -%}{%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ v) -%}{%- endfor -%}
  {#- rows without an order (nothing to pick) must not compete: a struct of nulls is the minimum -#}
  {%- set candidate = order ~ ' is not null' if candidate is none else candidate -%}
  {%- set whole = agg ~ '(case when ' ~ candidate ~ ' then named_struct(' ~ fields | join(', ') ~ ') end)' -%}
  {%- if not skip_nulls -%}{{ return(whole) }}{%- endif -%}
  {#- a value that skips nulls: its own extreme among the rows where it is not null -#}
  {%- set picked = [] -%}
  {%- for v in values -%}
    {%- set name = names[loop.index0] -%}
    {%- if loop.index0 in skip_nulls -%}
      {%- do picked.append("'" ~ name ~ "', " ~ agg ~ '(case when ' ~ candidate ~ ' and ' ~ v
                           ~ " is not null then named_struct('tj__order', " ~ order ~ ", 'tj__v', " ~ v
                           ~ ') end).tj__v') -%}
    {%- else -%}
      {%- do picked.append("'" ~ name ~ "', " ~ whole ~ '.' ~ temporal_joins._tj_q(name)) -%}
    {%- endif -%}
  {%- endfor -%}
  {{ return('named_struct(' ~ picked | join(', ') ~ ')') }}
{% endmacro %}

{#-
  Whether rows cross UNION ALL and enter windows and aggregates as flat primitive columns. Hive 2.3
  rejects a struct against a bare NULL in UNION ALL ("Schema of both sides of union should match"),
  and its MR window reducer cannot read a struct from its input row (ClassCastException): on Hive
  only primitive columns travel, and structs are built inside the window's or aggregate's argument
  (tools/hive/FINDINGS.md). Spark packs each row into one struct column.
-#}
{% macro tj_flat_rows() %}{{ return(adapter.dispatch('tj_flat_rows', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_flat_rows() %}{{ return(false) }}{% endmacro %}
{% macro hive__tj_flat_rows() %}{{ return(true) }}{% endmacro %}

{#-
  How candidate rows carry their rank (_asof_candidate_order's {'order', 'fields'}) through a UNION ALL
  whose other branch has nulls, into the aggregate that keeps the extreme one (tj_arg_extreme).
  Returns {'columns': [[expr, name], ...] (the other branch selects `null as name`), 'order': the
  rank in the aggregate, 'candidate': which rows compete, 'matches': how many competed}.
  Spark: the order as one column `name` (a struct when it has several fields), counted where not null.
  Flat rows (Hive, tj_flat_rows): the fields travel as <name><i> and the struct is built inside the
  aggregate; `marker` (true on the candidate branch) says which rows compete.
-#}
{% macro tj_candidate_rank(order, marker, name='tj__order') %}
  {{ return(adapter.dispatch('tj_candidate_rank', 'temporal_joins')(order, marker, name=name)) }}
{% endmacro %}

{% macro default__tj_candidate_rank(order, marker, name='tj__order') %}
  {{ return({'columns': [[order.order, name]], 'order': name, 'candidate': none,
             'matches': 'count(' ~ name ~ ')'}) }}
{% endmacro %}

{% macro hive__tj_candidate_rank(order, marker, name='tj__order') %}
  {%- set columns = [] -%}
  {%- set named = [] -%}
  {%- for f in order.fields -%}
    {%- do columns.append([f, name ~ loop.index0]) -%}
    {%- do named.append("'o" ~ loop.index0 ~ "', " ~ name ~ loop.index0) -%}
  {%- endfor -%}
  {{ return({'columns': columns,
             'order': columns[0][1] if columns | length == 1 else 'named_struct(' ~ named | join(', ') ~ ')',
             'candidate': marker, 'matches': 'count(case when ' ~ marker ~ ' then 1 end)'}) }}
{% endmacro %}

{#- A struct named `names` of the flat columns `values`, or null where `present` is false. -#}
{% macro _tj_pack_flat(values, names, present) %}
  {%- set fields = [] -%}
  {%- for v in values -%}{%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ v) -%}{%- endfor -%}
  {{ return('case when ' ~ present ~ ' then named_struct(' ~ fields | join(', ') ~ ') end') }}
{% endmacro %}

{#- The value of a union column on the branches that have nothing there (a right row's struct on the
    left rows and on other entries' rows). A bare NULL today in both dialects: Spark coerces it
    to the struct; Hive 2.3's UNION ALL rejects NULL beside a struct, which is where its flavour
    would render a typed null instead (a hive__tj_absent). -#}
{% macro tj_absent() %}{{ return(adapter.dispatch('tj_absent', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_absent() %}{{ return('null') }}{% endmacro %}

{#-
  A time as the joins compare it: NaN becomes null, so a NaN time never matches, like a null (Spark and
  Hive both order NaN above every number and hold it equal to itself, so it would otherwise match the
  greatest times). state: _tj_nan_state; 'maybe' (a CTE's column of unknown type) tests the text, which
  works on any type. Hive also turns -0.0 into 0.0: its sort puts -0.0 before 0.0, which SQL holds equal.
  No `then null` branch on Hive: Hive 2.3 cannot type a bare null there beside a UNION ALL's null column
  ("tok_null encountered with 0 children"); a CASE without ELSE is null in the expression's type.
-#}
{% macro tj_time_value(expr, state) %}
  {{ return(adapter.dispatch('tj_time_value', 'temporal_joins')(expr, state)) }}
{% endmacro %}

{% macro _tj_time_value_any(expr, state) %}
  {%- if state is none -%}{{ return(expr) }}{%- endif -%}
  {%- if state == 'maybe' -%}
    {{ return("case when cast(" ~ expr ~ " as string) <> 'NaN' then " ~ expr ~ " end") }}
  {%- endif -%}
  {{ return(none) }}
{% endmacro %}

{% macro default__tj_time_value(expr, state) %}
  {%- set any = temporal_joins._tj_time_value_any(expr, state) -%}
  {%- if any is not none -%}{{ return(any) }}{%- endif -%}
  {{ return('case when isnan(' ~ expr ~ ') then null else ' ~ expr ~ ' end') }}
{% endmacro %}

{% macro hive__tj_time_value(expr, state) %}
  {%- set any = temporal_joins._tj_time_value_any(expr, state) -%}
  {%- if any is not none -%}{{ return(any) }}{%- endif -%}
  {{ return("case when " ~ expr ~ " <> cast('NaN' as double) then " ~ expr ~ " + 0.0 end") }}
{% endmacro %}

{#-
  A join key as a join or window compares it. Floating-point keys compare by value, NaN equal to NaN and
  -0.0 to 0.0, as Spark's joins, aggregates and windows normalize them. Hive 2.3 does not: its hash joins
  hold -0.0 and 0.0 apart and its map joins never match NaN, so a float key joins as its text
  (join=true) and partitions as itself plus 0.0 (tools/hive/FINDINGS.md). is_float: either side's key
  is a float or double column.
-#}
{% macro tj_key_value(expr, is_float, join=false) %}
  {{ return(adapter.dispatch('tj_key_value', 'temporal_joins')(expr, is_float, join=join)) }}
{% endmacro %}
{% macro default__tj_key_value(expr, is_float, join=false) %}{{ return(expr) }}{% endmacro %}
{% macro hive__tj_key_value(expr, is_float, join=false) %}
  {%- if not is_float -%}{{ return(expr) }}{%- endif -%}
  {{ return(('cast(' ~ expr ~ ' + 0.0 as string)') if join else '(' ~ expr ~ ' + 0.0)') }}
{% endmacro %}

{#-
  Whether the dialect computes an uncorrelated scalar subquery inside a query (a filter's bound, a bucket
  width), so what the joins measure of their inputs is measured when the query runs, not while dbt
  compiles. Hive 2.3 without CBO rejects scalar subqueries outside top-level conjuncts
  (tools/hive/FINDINGS.md): its flavour joins the aggregate in instead (time-to-live bounds, time
  ranges, the range joins' reach), and measures an interval join's bin on a bounded sample while
  compiling.
-#}
{% macro tj_run_time_scalars() %}{{ return(adapter.dispatch('tj_run_time_scalars', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_run_time_scalars() %}{{ return(true) }}{% endmacro %}
{% macro hive__tj_run_time_scalars() %}{{ return(false) }}{% endmacro %}
{#-
  ` inner join <relation> as <alias> on ...`: every row of the FROM clause so far meets the one row of
  `relation` (a measured aggregate, the Hive flavour's stand-in for a scalar subquery; on Spark the
  keyless time splits: one scalar subquery per place, not one per node of the binary search). An
  equi-join on a key that is 0 on both sides, not a cross join: Hive 2.3 refuses cartesian products
  (hive.strict.checks.cartesian.product), and both engines plan a map / broadcast hash join of the one
  row. The key is hash(a column) * 0 on each side (`probe`: any column of the rows; `column`: one of
  `relation`'s): hash() is never null, and Hive does not fold it to a constant, which its map-join
  planning refuses. Spark does fold it and plans a nested-loop join of the one broadcast row, as cheap
  (tools/hive/FINDINGS.md §10).
-#}
{% macro _tj_join_one_row(relation, alias, probe, column) %}
  {{ return(' inner join (select tj__onerow.*, hash(tj__onerow.' ~ column ~ ') * 0 as tj__zero from ' ~ relation
            ~ ' as tj__onerow) as ' ~ alias ~ ' on hash(' ~ probe ~ ') * 0 = ' ~ alias ~ '.tj__zero') }}
{% endmacro %}

{#- What a FROM clause adds to join a per-key aggregate (relation, alias) keeping every row of its side: on, pairs
    [the side's key, the aggregate's key]. Hive 2.3 turns a LEFT OUTER JOIN to a grouped subquery into a map join it
    then fails to plan ("Generate Map Join Task Error ... Index 0 out of bounds"); a FULL OUTER JOIN is never a map
    join, and its WHERE drops the aggregate's rows without a partner (the aggregate must leave null keys out: such a
    row has a null side key and a key of its own). -#}
{% macro tj_join_grouped_keeping_all(relation, alias, on) %}
  {{ return(adapter.dispatch('tj_join_grouped_keeping_all', 'temporal_joins')(relation, alias, on)) }}
{% endmacro %}

{% macro _tj_on(on) %}
  {%- set conditions = [] -%}
  {%- for pair in on -%}{%- do conditions.append(pair[0] ~ ' = ' ~ pair[1]) -%}{%- endfor -%}
  {{ return(conditions | join(' and ')) }}
{% endmacro %}

{% macro default__tj_join_grouped_keeping_all(relation, alias, on) %}
  {{ return(' left outer join ' ~ relation ~ ' as ' ~ alias ~ ' on ' ~ temporal_joins._tj_on(on)) }}
{% endmacro %}

{% macro hive__tj_join_grouped_keeping_all(relation, alias, on) %}
  {{ return(' full outer join ' ~ relation ~ ' as ' ~ alias ~ ' on ' ~ temporal_joins._tj_on(on) ~ ' where '
            ~ on[0][0] ~ ' is not null or ' ~ on[0][1] ~ ' is null') }}
{% endmacro %}

{#- `relation` as `alias`, every row of it joined to the one row of `one_row` as `one_alias` (a measured
    aggregate; `probe`: a column of the relation, `column`: one of the aggregate's). Spark: the one-row join.
    Hive 2.3 fails to plan that map join inside the bucket copies' LATERAL VIEW (tools/hive/FINDINGS.md §10):
    a FULL OUTER JOIN on the same never-null zero key (never a map join), whose WHERE drops the aggregate's
    row when the relation is empty. -#}
{% macro tj_from_joined_one_row(relation, alias, one_row, one_alias, probe, column) %}
  {{ return(adapter.dispatch('tj_from_joined_one_row', 'temporal_joins')(relation=relation, alias=alias,
            one_row=one_row, one_alias=one_alias, probe=probe, column=column)) }}
{% endmacro %}

{% macro default__tj_from_joined_one_row(relation, alias, one_row, one_alias, probe, column) %}
  {{ return(relation ~ ' as ' ~ alias
            ~ temporal_joins._tj_join_one_row(relation=one_row, alias=one_alias, probe=alias ~ '.' ~ probe,
                                              column=column)) }}
{% endmacro %}

{% macro hive__tj_from_joined_one_row(relation, alias, one_row, one_alias, probe, column) %}
  {{ return('(select tj__all.*, hash(tj__all.' ~ probe ~ ') * 0 as tj__zero from ' ~ relation ~ ' as tj__all) as '
            ~ alias ~ ' full outer join (select tj__onerow.*, hash(tj__onerow.' ~ column ~ ') * 0 as tj__zero from '
            ~ one_row ~ ' as tj__onerow) as ' ~ one_alias ~ ' on ' ~ alias ~ '.tj__zero = ' ~ one_alias
            ~ '.tj__zero where ' ~ alias ~ '.tj__zero is not null') }}
{% endmacro %}

{#-
  The exact epoch number of a time expression (range/_range_spec.sql's header: timestamps as microseconds,
  dates as days, numbers as themselves). Hive 2.3 has no unix_micros: timestamp -> decimal seconds is exact
  to the microsecond, and a zoned timestamp is already one on Hive.
-#}
{% macro tj_epoch(expr, epoch_kind) %}
  {{ return(adapter.dispatch('tj_epoch', 'temporal_joins')(expr, epoch_kind)) }}
{% endmacro %}

{#- The epoch kinds both dialects write alike (none for the timestamps). -#}
{% macro _tj_epoch_any(expr, epoch_kind) %}
  {%- if epoch_kind == 'days' -%}{{ return("datediff(" ~ expr ~ ", cast('1970-01-01' as date))") }}
  {%- elif epoch_kind == 'integral' -%}{{ return('cast(' ~ expr ~ ' as decimal(20,0))') }}
  {%- elif epoch_kind == 'decimal' -%}{{ return(expr) }}
  {%- elif epoch_kind in ['micros', 'micros_zoned'] -%}{{ return(none) }}
  {%- else -%}{{ return('cast(' ~ expr ~ ' as double)') }}
  {%- endif -%}
{% endmacro %}

{% macro default__tj_epoch(expr, epoch_kind) %}
  {%- if epoch_kind == 'micros_zoned' -%}{{ return('unix_micros(cast(' ~ expr ~ ' as timestamp))') }}
  {%- elif epoch_kind == 'micros' -%}{{ return('unix_micros(' ~ expr ~ ')') }}
  {%- endif -%}
  {{ return(temporal_joins._tj_epoch_any(expr, epoch_kind)) }}
{% endmacro %}

{% macro hive__tj_epoch(expr, epoch_kind) %}
  {%- if epoch_kind in ['micros', 'micros_zoned'] -%}
    {{ return('cast(cast(' ~ expr ~ ' as decimal(24,6)) * 1000000 as bigint)') }}
  {%- endif -%}
  {{ return(temporal_joins._tj_epoch_any(expr, epoch_kind)) }}
{% endmacro %}

{#-
  Copy a row into buckets lo..hi: a LATERAL VIEW clause and the bucket expression ({'clause', 'bucket'}).
  Spark: explode(sequence(lo, hi)). Hive 2.3 has no sequence(): posexplode hi - lo + 1 empty
  strings (_tj_blanks) and add the position to lo.
  `valid` false or null gives no copy (or, with outer, one row whose bucket is null).
-#}
{% macro tj_copies(lo, hi, valid, outer) %}
  {{ return(adapter.dispatch('tj_copies', 'temporal_joins')(lo=lo, hi=hi, valid=valid, outer=outer)) }}
{% endmacro %}

{% macro default__tj_copies(lo, hi, valid, outer) %}
  {{ return({
      'clause': 'lateral view ' ~ ('outer ' if outer else '') ~ 'explode(case when ' ~ valid ~ ' then sequence('
                ~ lo ~ ', ' ~ hi ~ ') end) tj__copies as tj__copy_bucket',
      'bucket': 'tj__copy_bucket'}) }}
{% endmacro %}

{% macro hive__tj_copies(lo, hi, valid, outer) %}
  {{ return({
      'clause': 'lateral view ' ~ ('outer ' if outer else '') ~ "posexplode(case when " ~ valid ~ " then "
                ~ temporal_joins._tj_blanks('cast(' ~ hi ~ ' - ' ~ lo ~ ' as int)')
                ~ " end) tj__copies as tj__pos, tj__unused",
      'bucket': '(' ~ lo ~ ' + tj__pos)'}) }}
{% endmacro %}

{#-
  Whether the dialect expands a packed struct column with `struct.*`, so a CTE input (whose columns dbt
  cannot look up) can be joined. HiveQL cannot: its flavour needs the left side as a Relation.
-#}
{% macro tj_expands_struct() %}{{ return(adapter.dispatch('tj_expands_struct', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_expands_struct() %}{{ return(true) }}{% endmacro %}
{% macro hive__tj_expands_struct() %}{{ return(false) }}{% endmacro %}

{#- Fails unless the dialect can render without the left columns (tj_expands_struct); the plans call it. The
    Hive flavour needs a Relation on the left. grouped: the SQL also groups by the left row (window_aggregate). -#}
{% macro _tj_check_left_columns(plan, grouped=false) %}
  {%- if not plan.dialect.expands_struct() and plan.left_columns is none and execute -%}
    {{ temporal_joins._tj_fail(macro_name=plan.macro, argument='left',
                               allowed='a Relation (ref/source) or schema.table for the Hive flavour,'
         ~ ' whose columns can be looked up (HiveQL cannot '
         ~ ('group or expand a struct of the left row)' if grouped else 'expand a struct column with .*)'),
         received=plan.left) }}
  {%- endif -%}
{% endmacro %}

{#- The session's cores, for the hot-key rule (asof/_asof_hot_keys_plan.sql): range()'s slices are its leaf
    parallelism (executors' cores), also over Thrift and Connect. Spark refuses a non-deterministic
    aggregate argument, so the id is projected first. Hive: none (it never splits a key). -#}
{% macro tj_cores_query() %}{{ return(adapter.dispatch('tj_cores_query', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_cores_query() %}
  {{ return('select max(tj__slice) + 1 from (select spark_partition_id() as tj__slice from range(0, 65536)) s') }}
{% endmacro %}
{% macro hive__tj_cores_query() %}{{ return(none) }}{% endmacro %}

{#- asof_join's strategy='native' (ASOF JOIN): a statement whose 2nd column is the setting (`<undefined>` before
    Spark 4.3); none where the dialect has no ASOF JOIN (Hive). -#}
{% macro tj_native_asof_query() %}
  {{ return(adapter.dispatch('tj_native_asof_query', 'temporal_joins')()) }}{% endmacro %}
{% macro default__tj_native_asof_query() %}{{ return('set spark.sql.join.asofJoin.enabled') }}{% endmacro %}
{% macro hive__tj_native_asof_query() %}{{ return(none) }}{% endmacro %}
