#!/usr/bin/env python3
"""Varied positions for the analysis benchmarks, one GNUBG ID a line.

    python3 benches/gen_positions.py 10000 > positions.txt

Random boards (15 checkers a side in stacks of 1 to 5, now and then one on
the bar or some borne off) and the fixture generator's random match states
(tests/fixtures/gen_gnubg_fixtures.py), fixed seed, so every run analyses
the same positions. Cubes stay below 512 and stacks below 6: gnubg 1.07
crashes on some such positions, which would measure restarts rather than
analysis.
"""

import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures"))
from gen_gnubg_fixtures import match_id, position_id, random_match  # noqa: E402

SEED = 20261122


def random_board(rng):
    """(o, x): own-view counts, index 24 = the bar, one colour a point."""
    o, x = [0] * 25, [0] * 25
    taken = {}
    for name, side in (("x", x), ("o", o)):
        left = 15 - (rng.randint(1, 10) if rng.random() < 0.15 else 0)
        while left > 0:
            n = min(left, rng.choice([1, 2, 2, 3, 3, 4, 5]))
            slot = 24 if rng.random() < 0.03 else rng.randrange(24)
            if slot < 24:
                physical = slot + 1 if name == "x" else 24 - slot
                if taken.get(physical, name) != name or side[slot] + n > 5:
                    continue
                taken[physical] = name
            elif side[24] + n > 2:
                continue
            side[slot] += n
            left -= n
    return o, x


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    rng = random.Random(SEED)
    made = 0
    while made < n:
        o, x = random_board(rng)
        if sum(o) == 0 or sum(x) == 0:
            continue
        m = random_match(rng)
        m["cube_log"] = min(m["cube_log"], 6)
        roller, other = (x, o) if m["on_roll"] else (o, x)
        print("%s:%s" % (position_id(roller, other), match_id(**{
            "cube_log": m["cube_log"], "owner": m["owner"], "on_roll": m["on_roll"],
            "crawford": m["crawford"], "dice": m["dice"], "length": m["length"],
            "score": m["score"], "jacoby_off": m["jacoby_off"]})))
        made += 1


if __name__ == "__main__":
    main()
