"""Argument checks shared by the Python API, in the macros' error shape.

The twin of macros/_validation.sql: every message names the function (as the macro of the
same name), the argument, what is allowed and what was received, so a dbt Python model and
a SQL model fail alike. Pure Python (no Spark), so it is unit-tested on its own.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from decimal import Decimal
from typing import Any, NoReturn

IDENTIFIER = r"^[A-Za-z_][A-Za-z0-9_]*$"
PREFIX = r"^[A-Za-z0-9_]*$"
BY_ALLOWED = "a column name, a list of column names and/or [left, right] pairs, or a {left: right} mapping"

_INTERVAL = re.compile(r"^\s*(?:interval\s+)?(\d+(?:\.\d+)?)\s+(second|minute|hour|day|week)s?\s*$")
UNIT_MICROS = {
    "second": 10**6,
    "minute": 60 * 10**6,
    "hour": 3600 * 10**6,
    "day": 86400 * 10**6,
    "week": 7 * 86400 * 10**6,
}
_INTEGRAL_TYPES = {"tinyint", "smallint", "int", "integer", "bigint", "byte", "short", "long"}


def describe(value: Any) -> str:
    """How a received value is echoed: strings quoted, None as `none` (as in Jinja)."""
    if value is None:
        return "none"
    if isinstance(value, str):
        return f"'{value}'"
    return str(value)


class Scope(str):
    """A macro name that also names one entry of a list argument (asof_join_many's `rights`):
    every check given it as `macro` names the entry's argument, `rights[1].direction`, as the
    macros' _tj_fail does with a scope."""

    def __new__(cls, macro: str, argument_prefix: str):
        scope = super().__new__(cls, macro)
        scope.argument_prefix = argument_prefix
        return scope


def fail(
    macro: str, argument: str, allowed: str, received: Any, detail: str | None = None, received_type: str | None = None
) -> NoReturn:
    """Raise the one error shape (macros/_validation.sql's _tj_fail) as a ValueError;
    received_type, when known, follows the received value: `Received: 'label_ts' (string).`"""
    if isinstance(macro, Scope):
        argument = macro.argument_prefix + argument
    shown = describe(received) + (f" ({received_type})" if received_type else "")
    raise ValueError(
        f"temporal_joins.{macro}: invalid argument `{argument}`"
        + (f": {detail}" if detail else "")
        + f". Allowed: {allowed}. Received: {shown}."
    )


def required(macro: str, argument: str, value: Any, allowed: str) -> None:
    if value is None or (isinstance(value, str) and value.strip() == ""):
        fail(macro, argument, allowed, None, "this argument is required")


def choice(macro: str, argument: str, value: Any, allowed) -> str:
    normalized = value.lower() if isinstance(value, str) else value
    if normalized not in allowed:
        fail(macro, argument, ", ".join(allowed), value)
    return normalized


def boolean(macro: str, argument: str, value: Any) -> bool:
    if value is not True and value is not False:
        fail(macro, argument, "true, false", value)
    return value


def identifier(macro: str, argument: str, value: Any) -> str:
    if not isinstance(value, str) or not re.match(IDENTIFIER, value):
        fail(macro, argument, f"a column name matching {IDENTIFIER}", value)
    return value


def identifier_list(macro: str, argument: str, value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [identifier(macro, argument, value)]
    if isinstance(value, (list, tuple)):
        return [identifier(macro, argument, v) for v in value]
    fail(macro, argument, "a column name or a list of column names", value)


def prefix(macro: str, value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str) or not re.match(PREFIX, value) or (value and value[0].isdigit()):
        fail(
            macro, "prefix", "'' or a name prefix of letters, digits and underscores, not starting with a digit", value
        )
    return value


def by_pairs(macro: str, value: Any) -> list[tuple[str, str]]:
    """`by` as [(left name, right name), ...]: 'id', ['id', 'region'], [['l', 'r']] or {'l': 'r'}."""
    if value is None:
        return []
    if isinstance(value, str):
        name = identifier(macro, "by", value)
        return [(name, name)]
    if isinstance(value, dict):
        return [(identifier(macro, "by", left), identifier(macro, "by", right)) for left, right in value.items()]
    if isinstance(value, (list, tuple)):
        pairs = []
        for item in value:
            if isinstance(item, str):
                name = identifier(macro, "by", item)
                pairs.append((name, name))
            elif isinstance(item, (list, tuple)) and len(item) == 2:
                pairs.append((identifier(macro, "by", item[0]), identifier(macro, "by", item[1])))
            else:
                fail(macro, "by", BY_ALLOWED, value)
        return pairs
    fail(macro, "by", BY_ALLOWED, value)


def find_column(macro: str, argument: str, columns: list[str], relation: str, name: str) -> str:
    """The relation's spelling of `name` (Spark resolves names case-insensitively)."""
    for c in columns:
        if c.lower() == name.lower():
            return c
    fail(macro, argument, f"columns of `{relation}` ({', '.join(columns)})", name, f"column not found in {relation}")


def time_kind(type_name: str) -> str:
    """numeric_integral | numeric | timestamp | date | other, from a type's simple string
    (`bigint`, `decimal(10,2)`, `timestamp_ntz`...), as the macros' _tj_time_kind."""
    t = type_name.lower()
    if t in _INTEGRAL_TYPES:
        return "numeric_integral"
    if t in ("float", "double", "real") or t.startswith(("decimal", "numeric")):
        return "numeric"
    if t.startswith("timestamp"):
        return "timestamp"
    if t == "date":
        return "date"
    return "other"


def kind_family(kind: str) -> str:
    return "numeric" if kind.startswith("numeric") else kind


def common_time_kind(macro: str, left_time: str, left_type: str, right_time: str, right_type: str) -> str:
    """The kind two time columns share: both numeric, both timestamp or both date."""
    lk, rk = time_kind(left_type), time_kind(right_type)
    for argument, kind, column, type_name in (
        ("left_time", lk, left_time, left_type),
        ("right_time", rk, right_time, right_type),
    ):
        if kind == "other":
            fail(
                macro,
                argument,
                "a numeric, timestamp or date column",
                column,
                "unsupported column type",
                received_type=type_name,
            )
    if kind_family(lk) != kind_family(rk):
        fail(
            macro,
            "right_time",
            f"a column of the same kind as left_time `{left_time}` ({lk})",
            right_time,
            f"time columns of different kinds ({lk} vs {rk})",
        )
    # integral only when both sides are: its arithmetic goes through decimal(20,0)
    return lk if lk == rk else kind_family(lk)


def distance(macro: str, argument: str, value: Any, kind: str) -> Decimal | None:
    """A non-negative distance parsed as the macros' _tj_distance does, in the join's units:
    the number itself; epoch microseconds for timestamps; days for dates. None stays None."""
    family = kind_family(kind)
    if value is None:
        return None
    negative = (isinstance(value, (int, float, Decimal)) and not isinstance(value, bool) and value < 0) or (
        isinstance(value, str) and value.strip().startswith("-")
    )
    hint = negative_distance_hint(argument) if negative else None
    if family == "numeric":
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float, Decimal))
            or value < 0
            or (isinstance(value, float) and math.isnan(value))
        ):
            fail(macro, argument, "a non-negative number for numeric time columns", value, hint)
        return Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    allowed = (
        "an interval string such as '90 seconds', '7 days', 'interval 1 hour' (units: second, minute, "
        f"hour, day, week) for {family} time columns" + ("; whole days or weeks for dates" if family == "date" else "")
    )
    if isinstance(value, dt.timedelta) and family == "timestamp" and value >= dt.timedelta(0):
        # a Python convenience the macro cannot take: exact, in microseconds
        return Decimal(value // dt.timedelta(microseconds=1))
    if not isinstance(value, str):
        fail(macro, argument, allowed, value, hint)
    m = _INTERVAL.match(value.lower())
    if m is None:
        fail(macro, argument, allowed, value, hint)
    amount, unit = m.group(1), m.group(2)
    if "." in amount and unit != "second":
        fail(macro, argument, allowed, value, "fractions are only allowed for seconds")
    if family == "date":
        if unit not in ("day", "week"):
            fail(macro, argument, allowed, value, "date columns take whole days or weeks")
        return Decimal(int(amount) * (7 if unit == "week" else 1))
    return Decimal(amount) * UNIT_MICROS[unit]


def negative_distance_hint(argument: str) -> str:
    """What to say about a negative distance (the macros' _tj_negative_distance_hint)."""
    return {
        "lower": "distances are non-negative; `lower` reaches before left_time, use `upper` for after it",
        "upper": "distances are non-negative; `upper` reaches after left_time, use `lower` for before it",
        "tolerance": "a tolerance is non-negative; `direction` says on which side of left_time to look",
    }.get(argument, "distances are non-negative")


def right_output_columns(
    macro: str,
    left_columns: list[str],
    right_columns: list[str],
    by: list[tuple[str, str]],
    prefix_: str,
    columns: Any,
    always: list[str],
) -> list[tuple[str, str]]:
    """[(right source, output name)]: `columns` (default: every right column but the keys), with
    the `always` columns first unless listed; each gets the prefix. An output name that collides
    with a left column is an error naming both (the macros' _tj_right_output_columns)."""
    if columns is None:
        right_keys = {r.lower() for _, r in by}
        wanted = [c for c in right_columns if c.lower() not in right_keys]
    else:
        wanted = [
            find_column(macro, "columns", right_columns, "right", c) for c in identifier_list(macro, "columns", columns)
        ]
    listed = {w.lower() for w in wanted}
    wanted = [a for a in always if a.lower() not in listed] + wanted
    seen, out = set(), []
    for name in wanted:
        if name.lower() not in seen:
            seen.add(name.lower())
            out.append((name, prefix_ + name))
    check_output_names(macro, left_columns, [(output, f"right column `{source}`") for source, output in out], prefix_)
    return out


def check_output_names(macro: str, left_columns: list[str], outputs: list[tuple[str, str]], prefix_: str) -> None:
    """Output names added beside the left columns ([(name, where it comes from)]) must be
    distinct from the left columns and from each other (macros: _tj_check_output_names)."""
    taken = {c.lower(): f"left column `{c}`" for c in left_columns}
    for name, what in outputs:
        if name.lower() in taken:
            fail(
                macro,
                "prefix",
                "a prefix that keeps the output names apart from the left columns and from each other",
                prefix_,
                f"{what} would be output as `{name}`, which collides with {taken[name.lower()]}",
            )
        taken[name.lower()] = f"{what} (output as `{name}`)"
