# The yardstick for `bgedit analyse`: gnubg doing the same work with no
# bgedit around it. Run as
#     gnubg -t -q -r -p benches/plain_gnubg.py < positions.txt > /dev/null
# Reads GNUBG IDs on standard input; for each, the 0-ply top 5 moves with
# dice or the cube decision without, printed as JSON.
import json
import os
import sys

import gnubg

out = os.fdopen(os.dup(1), "w")
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
for c in ("set player 0 human", "set player 1 human", "set automatic roll off",
          "set evaluation chequerplay evaluation plies 0",
          "set evaluation cubedecision evaluation plies 0"):
    gnubg.command(c)
for line in sys.stdin:
    gid = line.strip()
    if not gid:
        continue
    gnubg.command("set gnubgid " + gid)
    try:
        h = gnubg.hint(5)
        res = [(m["move"], m["equity"], m["details"]["probs"]) for m in h["hint"]]
    except Exception:
        res = [gnubg.cfevaluate(), gnubg.evaluate()]
    out.write(json.dumps({"gnubg_id": gid, "r": res}, default=str) + "\n")
out.flush()
