"""The as-of benchmark's scenarios, as data: one row per scenario, read by generate.py (which files),
run.py (keys, bucketing, the sizes each preset runs) and report.py (table order, plots, targets).

A new scenario is one row of SCENARIOS (and, for a new data set, a branch in generate.ensure).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

POWERLAW_EXPONENTS = (1.6, 2.0, 2.5)  # label counts per id ~ Zipf(a): smaller a, heavier tail
BUCKETS = (20, 40, 80, 160)
HOT_PERCENTS = (60, 90)
DATA_SETS = ("asc", "desc", "random", "left20", "left20_nulls", "left20_wide", "hotkey", "powerlaw", "hot")
WIDE_PAYLOAD = ("value", "n", "score", "rate")  # left20_wide's right columns besides id and ts (rate 10% null)
TIMES = ("bigint", "timestamp")  # the time columns' type: seconds, or those seconds as timestamps (generate.py)
# the right side's payload besides id and ts: the data set's own, or `value` and a string `kind` (10% null)
COLUMNS = ("data", "mixed")
MIXED_PAYLOAD = ("value", "kind")
STRING_PAYLOAD = ("kind",)  # the payload columns of type string (the checksum sums them another way)


@dataclass(frozen=True)
class Scenario:
    """One scenario: its name (the records' `scenario`), the data set generate.py makes for it, how it is
    joined and measured."""

    name: str
    data: str  # one of DATA_SETS (generate.py's module docstring describes each)
    sizes: dict[str, tuple[int, ...]] = field(default_factory=dict)  # {run.py --size preset: the N it runs}
    keyed: bool = True  # joined by `id`, else without keys
    buckets: int | None = None  # read from Spark tables bucketed (and sorted) by id into this many buckets
    exponent: float | None = None  # powerlaw: the Zipf exponent of the label counts per id
    hot_share: float | None = None  # hot: the hot id's share of the labels and of the features
    rank: int = 6  # RESULTS.md's table order: lower first, then by name
    sort_plot: bool = False  # a panel of elapsed_vs_n.png (the thesis's sort orders)
    times: str = "bigint"  # one of TIMES: timestamp converts the bigint files (the same rows, generate.py)
    columns: str = "data"  # one of COLUMNS: mixed adds the string `kind` to the data set's right rows

    @property
    def payload(self) -> tuple[str, ...]:
        """The right side's columns besides id and ts: every contender carries each of them."""
        if self.columns == "mixed":
            return MIXED_PAYLOAD
        return WIDE_PAYLOAD if self.data == "left20_wide" else ("value",)

    @property
    def same_rows(self) -> tuple:
        """What its rows are made of but the time's type: a bigint and a timestamp scenario with the same
        value hold the same rows (report.py puts them side by side)."""
        return (self.data, self.keyed, self.buckets, self.exponent, self.hot_share, self.columns)

    def __post_init__(self):
        if self.data not in DATA_SETS:
            raise ValueError(f"scenario {self.name}: data must be one of {DATA_SETS}, got {self.data!r}")
        if self.times not in TIMES or self.columns not in COLUMNS:
            raise ValueError(
                f"scenario {self.name}: times must be one of {TIMES} and columns one of {COLUMNS}, "
                f"got {self.times!r} and {self.columns!r}"
            )
        if (self.times != "bigint" or self.columns != "data") and (self.buckets or self.data == "left20_wide"):
            raise ValueError(
                f"scenario {self.name}: timestamp times and mixed columns need parquet files of "
                "one payload column (no buckets, not left20_wide)"
            )
        if (self.data == "powerlaw") != (self.exponent is not None) or (self.exponent or 2) <= 1:
            raise ValueError(f"scenario {self.name}: a powerlaw scenario needs an exponent above 1 (only it)")
        if (self.data == "hot") != (self.hot_share is not None) or not 0 < (self.hot_share or 0.5) < 1:
            raise ValueError(f"scenario {self.name}: a hot scenario needs a share between 0 and 1 (only it)")


SCENARIOS: dict[str, Scenario] = {
    s.name: s
    for s in [
        Scenario("asc", "asc", {"smoke": (300,), "quick": (1_000, 10_000, 100_000),
                                "full": (1_000, 10_000, 100_000, 1_000_000),
                                # the thesis's largest dataset (seed 004): 10M ids, about 0.5 billion feature rows,
                                # one label per id; hours with every contender: run it with --contenders and
                                # --timeout (benchmarks/README.md)
                                "largest": (10_000_000,)}, rank=0, sort_plot=True),
        Scenario("desc", "desc", {"smoke": (300,), "quick": (10_000,), "full": (100_000,)}, rank=1, sort_plot=True),
        Scenario("random", "random", {"quick": (10_000,), "full": (100_000,)}, rank=2, sort_plot=True),
        Scenario("left20", "left20", {"smoke": (300,), "quick": (10_000,), "full": (100_000, 1_000_000)}, rank=3),
        # 10% of the right values null: who keeps a matched row whole
        Scenario("left20_nulls", "left20_nulls", {"quick": (10_000,), "full": (1_000_000,)}),
        # four payload columns (a bigint, two doubles, one of them 10% null): a wider right row through the sort
        Scenario("left20_wide", "left20_wide", {"quick": (10_000,), "full": (1_000_000,)}),
        Scenario("hotkey", "hotkey", {"smoke": (300,), "quick": (10_000,), "full": (100_000, 1_000_000)}, rank=4),
        Scenario("nokey", "asc", {"smoke": (300,), "quick": (10_000,), "full": (100_000, 1_000_000)}, keyed=False,
                 rank=5),
        Scenario("bucketed4", "asc", {"smoke": (300,)}, buckets=4),
        *[Scenario(f"bucketed{b}", "asc", {**({"quick": (10_000,)} if b in (20, 160) else {}), "full": (100_000,)},
                   buckets=b) for b in BUCKETS],
        # both sides bucketed by id as the shuffle would partition them
        Scenario("left20_bucketed200", "left20", {"full": (1_000_000,)}, buckets=200),
        *[Scenario(f"powerlaw{a}", "powerlaw", {**({"quick": (100_000,)} if a == 2.0 else {}), "full": (1_000_000,)},
                   exponent=a) for a in POWERLAW_EXPONENTS],
        # one id holds 60% / 90% of both sides (benchmarks/generate.py, hot<p>)
        *[Scenario(f"hot{p}", "hot", {**({"quick": (100_000,)} if p == 60 else {}), "full": (1_000_000, 2_000_000)},
                   hot_share=p / 100) for p in HOT_PERCENTS],
    ]
}  # fmt: skip


def _twin(name: str, new_name: str, smoke: bool = False, **changes) -> Scenario:
    """A scenario on the same rows as `name` but for `changes` (timestamp times, mixed columns), run at the same
    sizes, next to it in the report's order."""
    s = SCENARIOS[name]
    sizes = {k: v for k, v in s.sizes.items() if k != "smoke"} | ({"smoke": (300,)} if smoke else {})
    return replace(s, name=new_name, sizes=sizes, sort_plot=False, **changes)


# users' types: timestamp times (the default folds the null flags into them), and a double and a string of
# which one is sometimes null (three right columns with the time: past temporal_joins_union_columns_max)
SCENARIOS.update(
    {
        s.name: s
        for s in [
            _twin("left20", "left20_ts", smoke=True, times="timestamp"),
            _twin("powerlaw2.0", "powerlaw2.0_ts", times="timestamp"),
            _twin("hot60", "hot60_ts", times="timestamp"),
            _twin("hot90", "hot90_ts", times="timestamp"),
            _twin("powerlaw2.0", "powerlaw2.0_mixed", columns="mixed"),
            _twin("powerlaw2.0", "powerlaw2.0_mixed_ts", smoke=True, times="timestamp", columns="mixed"),
        ]
    }
)

# the scenarios report.py's targets read
BASELINE = "asc"  # one label per id: the speed targets, the memory plot
MANY_LABELS = "left20"  # 20 labels per id: the memory target against BASELINE
HOT_KEY = "hotkey"  # one id with 10% of the right rows: the longest task's share


def get(name: str) -> Scenario:
    """The scenario of that name; ValueError naming the known ones."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(SCENARIOS)}")
    return SCENARIOS[name]


def bigint_twin(name: str) -> str | None:
    """The bigint scenario on the same rows as a timestamp one (None if none, or if `name` is bigint)."""
    s = get(name)
    if s.times == "bigint":
        return None
    found = [t.name for t in SCENARIOS.values() if t.times == "bigint" and t.same_rows == s.same_rows]
    return found[0] if found else None


def sizes() -> dict[str, dict[str, list[int]]]:
    """{preset: {scenario: [N, ...]}}: what `python -m benchmarks.run --size preset` runs."""
    out: dict[str, dict[str, list[int]]] = {}
    for s in SCENARIOS.values():
        for preset, ns in s.sizes.items():
            out.setdefault(preset, {})[s.name] = list(ns)
    return out
