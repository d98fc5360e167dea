"""Randomized times on a grid, shared by the range and window differential cases: most times on
the grid (so window edges tie), a few just off it."""


def grid_time(rng, kind, center, unit):
    """center + (-12..12) grid steps of unit[kind]; 15% of doubles off the grid, 15% of timestamps
    a microsecond off an edge or half a second."""
    e = center + int(rng.integers(-12, 13)) * unit[kind]
    if kind == "dbl" and rng.random() < 0.15:
        e += float(rng.choice([0.1, 0.3, 1 / 3]))  # off the grid
    if kind == "ts" and rng.random() < 0.15:
        e += int(rng.choice([1, -1, 500_000]))  # a microsecond off an edge, or half a second
    return e
