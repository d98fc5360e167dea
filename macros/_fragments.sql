{#-
  SQL fragments every macro family shares (dialect-free; what differs lives in _dialect.sql).

  Internal names, one meaning each across the package (HiveQL identifiers cannot start
  with an underscore, hence `tj__`):
    tj__lsrc, tj__rsrc      the left / right input relation
    tj__bsrc                as-of time-to-live pruning: the left relation its bounds are computed from
    tj__k<i>                the i-th join key (the left key on left rows, the right key on right rows)
    tj__t                   an event's time (union, sweep line), or the left time (exploding)
    tj__side                which input an event row comes from (union, sweep line, measured reach)
    tj__o<i>                the i-th order_by tie-breaker of a right row (union: numbered across its entries)
    tj__l, tj__r            the packed left / right row (one struct each; union: tj__r<i>, entry i's)
    tj__l__<n>, tj__r<i>__<j>  flat union (Hive): the n-th left column / entry i's j-th right column
    tj__m                   the right row matched to a left row (a struct, null for none; union and
                            broadcast: tj__m<i>, entry i's)
    tj__back<i>, tj__fwd<i> union: entry i's running backward / forward candidate of each row
    tj__trange              keyless union: the time range an event falls in
    tj__carry_back/_fwd     keyless union: per time range, the nearest right row in earlier / later ranges
    tj__passes              asof_join_many: the chained passes' output, before its columns are put in order
    tj__e, tj__s            range family: a time (or interval end) / interval start as an exact epoch number
    tj__bucket              range family: a bucket number; tj__lo / tj__hi the first / last bucket of a copied row
    tj__row                 range family: the packed row of the side a subquery holds
    tj__raw, tj__one        range family: a copied side, one row per input row, before / after its span is clamped
    tj__nlo, tj__nhi        range family: a copied row's own first / last bucket (null: an open bound, unbounded)
    tj__clo, tj__chi        range family: the first / last bucket the other side reaches (the clamp)
    tj__bs                  range family: a copied row's start bucket (overlaps: lifted to tj__floor's), kept-pair rule
    tj__rng                 range family: the measured reach of the sides, per key, joined to the copies of a CTE input
    tj__bounds              range family: the rows whose reach is measured (both sides, tj__side 0 left / 1 right)
    tj__lsmin, tj__lsmax    range family: the least / greatest start (a point's time) of the left rows that can match
    tj__lsopen              range family: 1 when a left row with an open start can match (tj__rs*: the right side's)
    tj__floor               range family: the least end of both sides' rows that can match (overlap starts lift to it)
    tj__lc<i>, tj__v<i>     broadcast, window_aggregate: the i-th left column / carried right value
    tj__order               broadcast: how candidates rank (the extreme wins)
    tj__olast, tj__ofirst   keyless union's range edges: how the last / first right row of a range ranks
    tj__order<i>, tj__olast<i>, tj__ofirst<i>   flat rows: the i-th field of that rank
    tj__last, tj__first     keyless union: per time range, its last / first right row
    tj__last<i>, tj__first<i>, tj__nlast, tj__nfirst   flat rows: its i-th value / how many right rows competed
    tj__order<i>[__<j>]     broadcast: entry i's rank (flat, Hive: its j-th field)
    tj__matches<i>          broadcast: how many candidates of entry i a left row has
    tj__dup                 broadcast, window_aggregate: how many copies of a left row the input holds
    tj__c                   window_aggregate: a row's place among equal times (0 marker before, 1 right row, 2 after)
    tj__wi                  window_aggregate: which marker a row is (0 the anchor at left_time, i window i's shift)
    tj__n<i>, tj__sum<i>    window_aggregate: the running count / sum of the i-th value (tj__rows: of right rows)
    tj__p<i>_<w>            window_aggregate: the i-th value of a pair that lies in window w (else null)
  Flat rows: Hive's layout, only primitive columns through UNION ALL and windows (tj_flat_rows, _dialect.sql).
-#}

{#- Pack every left column into one struct so the left row travels whole (and duplicates stay distinct rows).
    carried: {lowercase left column: expression} of columns that travel outside the struct; none if nothing
    is left to pack. -#}
{% macro _tj_pack_left(alias, left_columns, carried={}) %}
  {%- if left_columns is none -%}{{ return('struct(' ~ alias ~ '.*)') }}{%- endif -%}
  {%- set fields = [] -%}
  {%- for c in left_columns if (c | lower) not in carried -%}
    {%- do fields.append("'" ~ c ~ "', " ~ alias ~ '.' ~ temporal_joins._tj_q(c)) -%}
  {%- endfor -%}
  {{ return(('named_struct(' ~ fields | join(', ') ~ ')') if fields else none) }}
{% endmacro %}

{#- The right output columns packed into one struct, named as they are output. -#}
{% macro _tj_pack_right(alias, right_columns) %}
  {%- set fields = [] -%}
  {%- for rc in right_columns -%}
    {%- do fields.append("'" ~ rc.output ~ "', " ~ alias ~ '.' ~ temporal_joins._tj_q(rc.source)) -%}
  {%- endfor -%}
  {{ return('named_struct(' ~ fields | join(', ') ~ ')') }}
{% endmacro %}

{#- The output list: left columns in their order and names, then the matched right columns. -#}
{% macro _tj_unpack(left_struct, left_columns, right_struct, right_columns, carried={}) %}
  {%- set out = [] -%}
  {%- if left_columns is none -%}
    {%- do out.append(left_struct ~ '.*') -%}
  {%- else -%}
    {%- for c in left_columns -%}
      {%- set source = carried[c | lower] if (c | lower) in carried else left_struct ~ '.' ~ temporal_joins._tj_q(c) -%}
      {%- do out.append(source ~ ' as ' ~ temporal_joins._tj_q(c)) -%}
    {%- endfor -%}
  {%- endif -%}
  {%- for rc in right_columns -%}
    {%- do out.append(right_struct ~ '.' ~ temporal_joins._tj_q(rc.output)
                      ~ ' as ' ~ temporal_joins._tj_q(rc.output)) -%}
  {%- endfor -%}
  {{ return(out | join(',\n  ')) }}
{% endmacro %}

{#- later - earlier for a time kind; integral numbers go through decimal(20,0) so extreme values cannot overflow. -#}
{% macro _tj_gap(later, earlier, kind) %}
  {%- if kind == 'numeric_integral' -%}
    {{ return('(cast(' ~ later ~ ' as decimal(20,0)) - cast(' ~ earlier ~ ' as decimal(20,0)))') }}
  {%- elif kind == 'date' -%}{{ return('datediff(' ~ later ~ ', ' ~ earlier ~ ')') }}
  {%- else -%}{{ return('(' ~ later ~ ' - ' ~ earlier ~ ')') }}
  {%- endif -%}
{% endmacro %}

{#- A parsed distance (see _tj_distance) as a literal comparable with _tj_gap. -#}
{% macro _tj_distance_literal(distance) %}
  {%- if 'number' in distance -%}{{ return(distance.number) }}
  {%- elif 'days' in distance -%}{{ return(distance.days | string) }}
  {%- else -%}{{ return("INTERVAL '" ~ distance.amount ~ "' " ~ distance.unit) }}
  {%- endif -%}
{% endmacro %}

{#- Is a right time within `tolerance` of a left time? side: where the right time lies (backward: before). -#}
{% macro _tj_within(left_t, right_t, kind, tolerance, side) %}
  {%- if tolerance is none -%}{{ return('true') }}{%- endif -%}
  {%- set gap = temporal_joins._tj_gap(left_t, right_t, kind) if side == 'backward'
           else temporal_joins._tj_gap(right_t, left_t, kind) -%}
  {{ return(gap ~ ' <= ' ~ temporal_joins._tj_distance_literal(tolerance)) }}
{% endmacro %}

{#-
  n + 1 empty strings, for posexplode to count 0..n: HiveQL 2.3 has no sequence(). Not space(n): Hive 2.3's
  UDFSpace reuses its Text buffer, which Hadoop 3's Text grows by half, so after a shorter call space(n) can end
  in NUL bytes instead of blanks and split gives fewer elements (tools/hive/FINDINGS.md). repeat writes every byte.
  Both dialects run it (duplicate rows posexplode it in either).
-#}
{% macro _tj_blanks(n) %}
  {{ return("split(repeat(' ', " ~ n ~ "), ' ')") }}
{% endmacro %}
