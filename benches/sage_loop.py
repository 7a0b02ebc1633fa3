#!/usr/bin/env python3
"""Open Sage's own Python loop over the positions of
tests/fixtures/gen_sage_random.py (fixed seed), at its 1-ply: what
benches/sage_inproc.sh sets bgedit beside.

    python benches/sage_loop.py N ids   # the N GNUBG IDs, one a line
    python benches/sage_loop.py N loop  # BgBotAnalyzer over the same N
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "fixtures"))
from gen_sage_random import cases  # noqa: E402


def main():
    n, what = int(sys.argv[1]), sys.argv[2]
    todo = list(cases(n))
    if what == "ids":
        for c in todo:
            print(c["id"])
        return
    from bgsage import BgBotAnalyzer
    a = BgBotAnalyzer(eval_level="1ply")
    spent = {"moves": 0.0, "cube": 0.0}
    count = {"moves": 0, "cube": 0}
    for c in todo:
        start = time.time()
        if c["kind"] == "moves":
            a.checker_play(c["board"], c["dice"][0], c["dice"][1], **c["args"])
        else:
            # Sage's 1-ply cube_action loads its networks again each call.
            a.cube_action(c["board"], **c["args"])
        kind = "moves" if c["kind"] == "moves" else "cube"
        spent[kind] += time.time() - start
        count[kind] += 1
    print("loop only: %.2f s; %d checker plays %.2f s, %d cube decisions %.2f s"
          % (sum(spent.values()), count["moves"], spent["moves"], count["cube"], spent["cube"]),
          file=sys.stderr)


main()
