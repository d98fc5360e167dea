{#-
  The few SQL fragments where Spark SQL and HiveQL 2.3 differ. The public macros'
  spark__/hive__ (default__/hive__) versions pass the dialect down explicitly, so the
  Hive flavour can be rendered and checked on a Spark target too.
-#}

{#- Running "last non-null value": Hive 2.3's parser has no IGNORE NULLS keyword. -#}
{% macro _tj_last_ignore_nulls(expr, dialect) %}
  {%- if dialect == 'hive' -%}{{ return('last_value(' ~ expr ~ ', true)') }}
  {%- else -%}{{ return('last(' ~ expr ~ ') ignore nulls') }}
  {%- endif -%}
{% endmacro %}

{#-
  n + 1 empty strings, for posexplode to count 0..n: HiveQL 2.3 has no sequence(). Not space(n): Hive 2.3's
  UDFSpace reuses its Text buffer, which Hadoop 3's Text grows by half, so after a shorter call space(n) can end
  in NUL bytes instead of blanks and split gives fewer elements (tools/hive/FINDINGS.md). repeat writes every byte.
-#}
{% macro _tj_hive_blanks(n) %}
  {{ return("split(repeat(' ', " ~ n ~ "), ' ')") }}
{% endmacro %}

{#- A per-row id that tells duplicate left rows apart (Hive has no monotonically_increasing_id). -#}
{% macro _tj_row_id(dialect) %}
  {%- if dialect == 'hive' -%}{{ return("reflect('java.util.UUID', 'randomUUID')") }}
  {%- else -%}{{ return('monotonically_increasing_id()') }}
  {%- endif -%}
{% endmacro %}

{#-
  One aggregate that returns the row with the largest (agg='max') or smallest (agg='min')
  `order` as a struct of `values` named `names`. Spark: one max_by/min_by per value, which
  keeps a fixed-width aggregation buffer (hash aggregate) when the values are fixed-width;
  all of them see the same orderings, so they pick the same row. Hive 2.3 has no max_by:
  max/min of a struct that starts with the order (ties then go to the largest/smallest values);
  rows with a null order are skipped, as max_by/min_by skip them. candidate: Hive's condition for
  the rows that compete (default: a non-null order), e.g. a branch marker (_tj_candidate_rank).
-#}
{% macro _tj_arg_extreme(agg, order, values, names, dialect, candidate=none) %}
  {%- set fields = [] -%}
  {%- if dialect == 'hive' -%}
    {%- do fields.append("'tj__order', " ~ order) -%}
    {%- for v in values -%}{%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ v) -%}{%- endfor -%}
    {#- rows without an order (nothing to pick) must not compete: a struct of nulls is the minimum -#}
    {%- set candidate = order ~ ' is not null' if candidate is none else candidate -%}
    {{ return(agg ~ '(case when ' ~ candidate ~ ' then named_struct(' ~ fields | join(', ') ~ ') end)') }}
  {%- else -%}
    {%- for v in values -%}
      {%- do fields.append("'" ~ names[loop.index0] ~ "', " ~ agg ~ '_by(' ~ v ~ ', ' ~ order ~ ')') -%}
    {%- endfor -%}
    {{ return('named_struct(' ~ fields | join(', ') ~ ')') }}
  {%- endif -%}
{% endmacro %}

{#-
  Whether rows cross UNION ALL and enter windows and aggregates as flat primitive columns. Hive 2.3
  rejects a struct against a bare NULL in UNION ALL ("Schema of both sides of union should match"),
  and its MR window reducer cannot read a struct from its input row (ClassCastException): on Hive
  only primitive columns travel, and structs are built inside the window's or aggregate's argument
  (tools/hive/FINDINGS.md). Spark packs each row into one struct column.
-#}
{% macro _tj_flat_rows(dialect) %}
  {{ return(dialect == 'hive') }}
{% endmacro %}

{#-
  How candidate rows carry their rank (_asof_candidate_order's {'order', 'fields'}) through a UNION ALL
  whose other branch has nulls, into the aggregate that keeps the extreme one (_tj_arg_extreme).
  Returns {'columns': [[expr, name], ...] (the other branch selects `null as name`), 'order': the
  rank in the aggregate, 'candidate': which rows compete, 'matches': how many competed}.
  Spark: the order as one column `name` (a struct when it has several fields), counted where not null.
  Flat rows (Hive): the fields travel as <name><i> and the struct is built inside the aggregate;
  `marker` (true on the candidate branch) says which rows compete.
-#}
{% macro _tj_candidate_rank(order, marker, dialect, name='tj__order') %}
  {%- if not temporal_joins._tj_flat_rows(dialect) -%}
    {{ return({'columns': [[order.order, name]], 'order': name, 'candidate': none,
               'matches': 'count(' ~ name ~ ')'}) }}
  {%- endif -%}
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
    would render a typed null instead. -#}
{% macro _tj_absent(dialect) %}
  {{ return('null') }}
{% endmacro %}

{#-
  A time as the joins compare it: NaN becomes null, so a NaN time never matches, like a null (Spark and
  Hive both order NaN above every number and hold it equal to itself, so it would otherwise match the
  greatest times). state: _tj_nan_state; 'maybe' (a CTE's column of unknown type) tests the text, which
  works on any type. Hive also turns -0.0 into 0.0: its sort puts -0.0 before 0.0, which SQL holds equal.
-#}
{% macro _tj_time_value(expr, state, dialect) %}
  {%- if state is none -%}{{ return(expr) }}{%- endif -%}
  {#- no `then null` branch: Hive 2.3 cannot type a bare null there beside a UNION ALL's null column
      ("tok_null encountered with 0 children"); a CASE without ELSE is null in the expression's type -#}
  {%- if state == 'maybe' -%}
    {{ return("case when cast(" ~ expr ~ " as string) <> 'NaN' then " ~ expr ~ " end") }}
  {%- elif dialect == 'hive' -%}
    {{ return("case when " ~ expr ~ " <> cast('NaN' as double) then " ~ expr ~ " + 0.0 end") }}
  {%- endif -%}
  {{ return('case when isnan(' ~ expr ~ ') then null else ' ~ expr ~ ' end') }}
{% endmacro %}

{#-
  A join key as a join or window compares it. Floating-point keys compare by value, NaN equal to NaN and
  -0.0 to 0.0, as Spark's joins, aggregates and windows normalize them. Hive 2.3 does not: its hash joins
  hold -0.0 and 0.0 apart and its map joins never match NaN, so a float key joins as its text
  (join=true) and partitions as itself plus 0.0 (tools/hive/FINDINGS.md). is_float: either side's key
  is a float or double column.
-#}
{% macro _tj_key_value(expr, is_float, dialect, join=false) %}
  {%- if dialect != 'hive' or not is_float -%}{{ return(expr) }}{%- endif -%}
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
{% macro _tj_run_time_scalars(dialect) %}
  {{ return(dialect != 'hive') }}
{% endmacro %}

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
{% macro _tj_join_grouped_keeping_all(relation, alias, on, dialect) %}
  {%- set conditions = [] -%}
  {%- for pair in on -%}{%- do conditions.append(pair[0] ~ ' = ' ~ pair[1]) -%}{%- endfor -%}
  {%- if dialect != 'hive' -%}
    {{ return(' left outer join ' ~ relation ~ ' as ' ~ alias ~ ' on ' ~ conditions | join(' and ')) }}
  {%- endif -%}
  {{ return(' full outer join ' ~ relation ~ ' as ' ~ alias ~ ' on ' ~ conditions | join(' and ') ~ ' where '
            ~ on[0][0] ~ ' is not null or ' ~ on[0][1] ~ ' is null') }}
{% endmacro %}

{#- `relation` as `alias`, every row of it joined to the one row of `one_row` as `one_alias` (a measured
    aggregate; `probe`: a column of the relation, `column`: one of the aggregate's). Spark: the one-row join.
    Hive 2.3 fails to plan that map join inside the bucket copies' LATERAL VIEW (tools/hive/FINDINGS.md §10):
    a FULL OUTER JOIN on the same never-null zero key (never a map join), whose WHERE drops the aggregate's
    row when the relation is empty. -#}
{% macro _tj_from_joined_one_row(relation, alias, one_row, one_alias, probe, column, dialect) %}
  {%- if dialect != 'hive' -%}
    {{ return(relation ~ ' as ' ~ alias
              ~ temporal_joins._tj_join_one_row(one_row, one_alias, alias ~ '.' ~ probe, column)) }}
  {%- endif -%}
  {{ return('(select tj__all.*, hash(tj__all.' ~ probe ~ ') * 0 as tj__zero from ' ~ relation ~ ' as tj__all) as '
            ~ alias ~ ' full outer join (select tj__onerow.*, hash(tj__onerow.' ~ column ~ ') * 0 as tj__zero from '
            ~ one_row ~ ' as tj__onerow) as ' ~ one_alias ~ ' on ' ~ alias ~ '.tj__zero = ' ~ one_alias
            ~ '.tj__zero where ' ~ alias ~ '.tj__zero is not null') }}
{% endmacro %}
