#!/usr/bin/env python3
"""Seeds for the game_answer fuzz target: gnubg's own analysis of the two
games of tests/fixtures/analysis/m7_noisy.sgf, as the bridge answers it,
each move list cut to the best move and the move played (so that a whole
game fits the fuzzer's input size) and numbers to 5 decimals.

    fuzz/make_game_answer_seed.py   (needs gnubg; run from anywhere)
"""
import json
import os
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
match = os.path.join(ROOT, "tests/fixtures/analysis/m7_noisy.sgf")
requests = json.dumps({"id": 1, "games": {"path": match, "count": 2,
                                          "plies": 0, "luck": True}}) + "\n"
out = subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r", "-p",
                      os.path.join(ROOT, "assets/gnubg_bridge.py")],
                     input=requests, capture_output=True, text=True, check=True).stdout


def short(x):
    if isinstance(x, float):
        return round(x, 5)
    if isinstance(x, list):
        return [short(v) for v in x]
    if isinstance(x, dict):
        return {k: short(v) for k, v in x.items()}
    return x


os.makedirs(os.path.join(HERE, "corpus/game_answer"), exist_ok=True)
# One seed a game, each the bridge's answer for a file of that game alone.
line = next(l for l in out.splitlines() if l.startswith("{") and '"kind":"games"' in l)
for g, answer in enumerate(json.loads(line)["games"]):
    for r in answer["records"]:
        if "moves" in r:
            i = r["imove"]
            r["moves"] = [r["moves"][0]] + ([r["moves"][i]] if i > 0 else [])
            r["imove"] = min(i, 1)
    seed = {"id": 1, "kind": "games", "games": [answer]}
    with open(os.path.join(HERE, "corpus/game_answer", "game%d" % (g + 1)), "w") as f:
        f.write(json.dumps(short(seed), separators=(",", ":")))
