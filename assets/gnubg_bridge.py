# bgedit's bridge to gnubg 1.07: run as `gnubg -t -q -r -p THIS_FILE`.
#
# Reads one JSON request a line on standard input and writes one JSON answer
# a line, each carrying the request's "id". gnubg's own printing (boards,
# messages) goes to /dev/null: the answers use a private copy of the original
# standard output, so nothing gnubg says can be mistaken for an answer.
#
# Request: {"id": N, "gnubgid": "POS:MATCH", "double": bool, "expect": "POS:MATCH",
#           "plies": 0-3, "moves": K, "beavers": bool, "no_cube": bool}
#   gnubgid  the position without a double on offer (`set gnubgid` drops it)
#   double   make the double after setting the position
#   expect   the GNUBG ID gnubg must report once everything is set
#   no_cube  the player on roll cannot double: give the chances only
# Answer:  {"id": N, "kind": "moves"|"cube"|"take", ...} or {"id": N, "error": "..."}
import json
import os
import sys

import gnubg

answers = os.fdopen(os.dup(1), "w")
_quiet = os.open(os.devnull, os.O_WRONLY)
os.dup2(_quiet, 1)


def send(obj):
    answers.write(json.dumps(obj, separators=(",", ":")) + "\n")
    answers.flush()


def command(text):
    gnubg.command(text)


def setup():
    # Both players human: gnubg never moves or doubles on its own, and lets
    # us make the double a position on offer needs.
    for c in ("set automatic roll off", "set automatic game off", "set automatic move off",
              "set automatic bearoff off", "set automatic doubles 0",
              "set confirm new off", "set confirm save off",
              "set player 0 human", "set player 1 human",
              "set evaluation chequerplay evaluation cubeful on",
              "set evaluation cubedecision evaluation cubeful on"):
        command(c)


_settings = {}


def set_once(key, value, commands):
    """Runs `commands` when `value` differs from the last one set: the
    position is set again on every request, so no stale hint survives."""
    if _settings.get(key) != value:
        for c in commands:
            command(c)
        _settings[key] = value


def set_plies(plies):
    set_once("plies", plies, [
        "set evaluation %s evaluation %s" % (kind, what)
        for kind in ("chequerplay", "cubedecision")
        for what in ("plies %d" % plies, "prune on")])
    if gnubg.evalcontext().get("plies") != plies:
        _settings.pop("plies", None)
        raise Failure("gnubg did not take the depth %d-ply" % plies)


class Failure(Exception):
    pass


def set_position(req):
    gid = req["gnubgid"]
    # The hint cache answers for the last position after a failed `set`:
    # every step is checked against what gnubg reports back.
    beavers = "on" if req.get("beavers", True) else "off"
    set_once("beavers", beavers, ["set beavers " + beavers])
    command("set gnubgid " + gid)
    if req.get("double"):
        command("double")
    got = gnubg.gnubgid()
    want = req.get("expect") or gid
    if got != want:
        raise Failure("gnubg did not take the position %s (it has %s)" % (want, got))


def apply_move(board, move):
    """The board after `move` (gnubg's pairs: 1-based points, 25 the bar, 0 off),
    from the opponent's side, who is on roll next."""
    opp, own = list(board[0]), list(board[1])
    for src, dst in move:
        own[src - 1] -= 1
        if dst > 0:
            own[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return (own, opp)


def finished(board):
    return sum(board[0]) == 0 or sum(board[1]) == 0


def probs(seq):
    return [float(x) for x in seq[:5]]


def mwc(eq):
    try:
        return float(gnubg.eq2mwc(eq))
    except Exception:
        return None


def analyse(req):
    set_plies(int(req.get("plies", 0)))
    set_position(req)
    board = gnubg.board()
    if finished(board):
        return {"kind": "over", "reason": "the game is over: a player has borne off every checker"}
    info = gnubg.cubeinfo()
    match = info.get("matchto", 0) > 0
    if req.get("double"):
        # cfevaluate gives (optimal, no double, double/take, double/pass,
        # decision, words), from the doubler's side.
        nd, dt, dp = gnubg.cfevaluate()[1:4]
        ev = gnubg.evaluate()
        # evaluate() speaks for the doubler; the answer is for the taker.
        w, wg, wbg, lg, lbg = probs(ev)
        out = {"kind": "take", "take": -dt, "pass": -dp, "proper": "take" if dt <= dp else "pass",
               "probs": [1.0 - w, lg, lbg, wg, wbg], "cubeless": -float(ev[5])}
        if match:
            # eq2mwc converts from the doubler's side (gnubg's cube info
            # is the roller's while the double is on offer): the taker's
            # chances are the rest. gnubg 1.07's own `hint` in MWC mode
            # converts the negated equities instead, which is neither
            # player's chances at an uneven score.
            out["take_mwc"] = 1.0 - mwc(dt)
            out["pass_mwc"] = 1.0 - mwc(dp)
        return out
    if req.get("no_cube") and not current_dice():
        # gnubg's `hint` only says "You cannot double."; the chances still help.
        ev = gnubg.evaluate()
        return {"kind": "eval", "probs": probs(ev), "cubeless": float(ev[5])}
    return moves_or_cube(req, board, match)


def moves_or_cube(req, board, match):
    roll = current_dice()
    if roll:
        k = int(req.get("moves", 0)) or 10000
        hint = gnubg.hint(k)
        moves = []
        for m in hint["hint"]:
            tup = gnubg.parsemove(m["move"])
            after = gnubg.positionid(apply_move(board, tup))
            entry = {"move": m["move"], "equity": float(m["equity"]),
                     "probs": probs(m["details"]["probs"]), "after": after}
            # Each move's own depth: at 2-ply gnubg's move filter leaves the
            # tail of the list at 0-ply ("Cubeful 0-ply" in `hint`).
            ctx = m.get("context") or {}
            if "plies" in ctx:
                entry["plies"] = int(ctx["plies"])
            if match:
                entry["mwc"] = mwc(m["equity"])
            moves.append(entry)
        if not moves:
            return {"kind": "moves", "moves": [], "note": "no legal move: the roll is forfeit"}
        return {"kind": "moves", "moves": moves}
    ev = gnubg.evaluate()
    cf = gnubg.cfevaluate()
    out = {"kind": "cube", "no_double": float(cf[1]), "double_take": float(cf[2]),
           "double_pass": float(cf[3]), "action": cf[5], "probs": probs(ev), "cubeless": float(ev[5])}
    if match:
        for key in ("no_double", "double_take", "double_pass"):
            out[key + "_mwc"] = mwc(out[key])
    return out


def current_dice():
    mid = gnubg.matchid()
    # Bits 15-20 of the Match ID are the dice.
    import base64
    key = base64.b64decode(mid + "=" * (-len(mid) % 4))
    bits = int.from_bytes(key, "little")
    d0, d1 = (bits >> 15) & 7, (bits >> 18) & 7
    return (d0, d1) if d0 and d1 else None


def main():
    setup()
    send({"ready": True})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            send({"id": None, "error": "the bridge got a request that is not JSON"})
            continue
        rid = req.get("id")
        try:
            ans = analyse(req)
            ans["id"] = rid
            ans["plies"] = int(req.get("plies", 0))
            send(ans)
        except Failure as e:
            send({"id": rid, "error": str(e)})
        except Exception as e:
            send({"id": rid, "error": "gnubg raised %s: %s" % (type(e).__name__, e)})


main()
