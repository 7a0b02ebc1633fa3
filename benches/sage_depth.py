#!/usr/bin/env python3
"""Where Open Sage's time goes at gnubg's 2-ply (Sage's 3-ply): bgedit's
in-process Sage against Sage's own Python loops on the same positions, in
one run (issue 43).

    BGEDIT=target/release/bgedit target/sage-venv/bin/python benches/sage_depth.py [N]

N checker-play positions (default 20) from benches/gen_positions.py (its
fixed seed), each timed
  - by bgedit: `bgedit analyse --engine sage --plies 2 --moves 0 --jobs 1`
    over all N in one process, less a one-position run (the start and the
    networks' load), divided by N;
  - by Sage's own Python `BgBotAnalyzer(eval_level="3ply").checker_play`
    (the cubeful analysis bgedit's shim copies call for call: every legal
    move through Sage's cube-aware 3-ply tree), on one thread and on
    Sage's default threads;
  - by Sage's cubeless 3-ply with its TINY filter (`cubeful=False`: 1-ply
    for every move, 3-ply for at most 5 within 0.08), the loop its
    MODEL_BENCHMARKS.md figures time, on one thread.
Also the legal moves a position has. Prints one line per measure.
"""

import base64
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "fixtures"))
from sage_boards import sage_board  # noqa: E402

from bgsage import BgBotAnalyzer  # noqa: E402


def bits(text, nbytes):
    key = base64.b64decode(text + "=" * (-len(text) % 4))
    return int.from_bytes(key[:nbytes], "little")


def decode(gid):
    """(Sage's board, dice, BgBotAnalyzer's keywords) of a GNUBG ID."""
    pos, mid = gid.split(":")
    b = bits(pos, 10)
    sides, i = [], 0
    for _ in range(2):
        side = []
        for _ in range(25):
            n = 0
            while (b >> i) & 1:
                n, i = n + 1, i + 1
            i += 1
            side.append(n)
        sides.append(side)
    opponent, roller = sides
    m = bits(mid, 9)
    field = lambda at, n: (m >> at) & ((1 << n) - 1)
    cube, owner, on_roll = 1 << field(0, 4), field(4, 2), field(6, 1)
    dice = (field(15, 3), field(18, 3))
    length, score = field(21, 15), (field(36, 15), field(51, 15))
    owner = "centered" if owner == 3 else "player" if owner == on_roll else "opponent"
    args = dict(cube_value=cube, cube_owner=owner,
                away1=length - score[on_roll] if length else 0,
                away2=length - score[1 - on_roll] if length else 0,
                is_crawford=bool(field(7, 1)) and length > 0,
                jacoby=length == 0, beaver=length == 0)
    return sage_board(roller, opponent), dice, args


def positions(n):
    out = subprocess.run([sys.executable, os.path.join(HERE, "gen_positions.py"), str(n * 4)],
                         capture_output=True, text=True, check=True).stdout.split()
    picked = []
    for gid in out:
        board, dice, args = decode(gid)
        # Moves only; Sage's table stops at 25 away.
        if dice[0] and dice[1] and max(args["away1"], args["away2"]) <= 25:
            picked.append((gid, board, dice, args))
    return picked[:n]


def timed(analyzer, cases):
    """Seconds a position, and the moves each list holds."""
    times, counts = [], []
    for _, board, dice, args in cases:
        t = time.perf_counter()
        r = analyzer.checker_play(board, dice[0], dice[1], **args)
        times.append(time.perf_counter() - t)
        counts.append(len(r.moves))
    return times, counts


def bgedit_seconds(ids):
    exe = os.environ.get("BGEDIT", os.path.join(HERE, "..", "target", "release", "bgedit"))
    t = time.perf_counter()
    subprocess.run([exe, "analyse", "--engine", "sage", "--plies", "2", "--moves", "0",
                    "--jobs", "1", "--format", "json"] + ids,
                   capture_output=True, text=True, check=True)
    return time.perf_counter() - t


def say(name, times):
    print("%-58s %7.3f s a position (median %.3f, %d positions, %.1f s)"
          % (name, statistics.mean(times), statistics.median(times), len(times), sum(times)))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    cases = positions(n)
    ids = [c[0] for c in cases]
    start = bgedit_seconds(ids[:1])
    whole = bgedit_seconds(ids)
    per = (whole - start) / max(1, len(ids) - 1)
    print("%-58s %7.3f s a position (%d positions in %.1f s, start %.1f s)"
          % ("bgedit in-process (one thread)", per, len(ids), whole, start))
    one = BgBotAnalyzer(eval_level="3ply", parallel_threads=1)
    t1, counts = timed(one, cases)
    say("Sage's Python cubeful 3ply, 1 thread (every move)", t1)
    dflt = BgBotAnalyzer(eval_level="3ply")
    t2, _ = timed(dflt, cases)
    say("Sage's Python cubeful 3ply, default threads", t2)
    tiny = BgBotAnalyzer(eval_level="3ply", cubeful=False, parallel_threads=1)
    t3, _ = timed(tiny, cases)
    say("Sage's cubeless 3ply, TINY filter, 1 thread (benchmarks)", t3)
    print("legal moves a position: mean %.1f, median %d, max %d"
          % (statistics.mean(counts), statistics.median(counts), max(counts)))
    print(json.dumps({"bgedit": per, "cubeful_1t": statistics.mean(t1),
                      "cubeful_default": statistics.mean(t2), "tiny_1t": statistics.mean(t3),
                      "moves": statistics.mean(counts), "cpus": os.cpu_count()}))


if __name__ == "__main__":
    main()
