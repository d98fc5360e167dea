"""The as-of benchmark's scenarios, as data: one row per scenario, read by generate.py (which files),
run.py (keys, bucketing, the sizes each preset runs) and report.py (table order, plots, targets).

A new scenario is one row of SCENARIOS (and, for a new data set, a branch in generate.ensure).
"""

from __future__ import annotations

from dataclasses import dataclass, field

POWERLAW_EXPONENTS = (1.6, 2.0, 2.5)  # label counts per id ~ Zipf(a): smaller a, heavier tail
BUCKETS = (20, 40, 80, 160)
HOT_PERCENTS = (60, 90)
DATA_SETS = ("asc", "desc", "random", "left20", "left20_nulls", "left20_wide", "hotkey", "powerlaw", "hot")
WIDE_PAYLOAD = ("value", "n", "score", "rate")  # left20_wide's right columns besides id and ts (rate 10% null)


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

    @property
    def payload(self) -> tuple[str, ...]:
        """The right side's columns besides id and ts: every contender carries each of them."""
        return WIDE_PAYLOAD if self.data == "left20_wide" else ("value",)

    def __post_init__(self):
        if self.data not in DATA_SETS:
            raise ValueError(f"scenario {self.name}: data must be one of {DATA_SETS}, got {self.data!r}")
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

# the scenarios report.py's targets read
BASELINE = "asc"  # one label per id: the speed targets, the memory plot
MANY_LABELS = "left20"  # 20 labels per id: the memory target against BASELINE
HOT_KEY = "hotkey"  # one id with 10% of the right rows: the longest task's share


def get(name: str) -> Scenario:
    """The scenario of that name; ValueError naming the known ones."""
    if name not in SCENARIOS:
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(SCENARIOS)}")
    return SCENARIOS[name]


def sizes() -> dict[str, dict[str, list[int]]]:
    """{preset: {scenario: [N, ...]}}: what `python -m benchmarks.run --size preset` runs."""
    out: dict[str, dict[str, list[int]]] = {}
    for s in SCENARIOS.values():
        for preset, ns in s.sizes.items():
            out.setdefault(preset, {})[s.name] = list(ns)
    return out
