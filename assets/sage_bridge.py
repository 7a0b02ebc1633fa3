# bgedit's bridge to Open Sage (the `bgsage` package, MPL-2.0): run as
# `python3 -u THIS_FILE`.
#
# The same protocol as the gnubg bridge: one JSON request a line on standard
# input, one JSON answer a line on standard output, each carrying the
# request's "id"; {"ready": true, "version": V} first, or {"missing": "..."}
# when bgsage cannot be imported (bgedit then says how to install it).
#
# Request: {"id": N, "board": [26 ints], "dice": [d1, d2] | null,
#           "double": bool, "cube": V, "owner": "centered"|"player"|"opponent",
#           "away1": A, "away2": B, "crawford": bool, "jacoby": bool,
#           "beavers": bool, "no_cube": bool, "plies": P, "moves": K,
#           "rollout": {"trials", "seed", "truncate", "truncate_plies", "plies",
#                       "threads", "candidates", "chunk_ms"} | absent}
#           truncate_plies: the depth at the truncation point, gnubg's count
#           (bgsage's truncation_ply, one more); the players' when absent
#   board   Sage's own 26 points, from the side of the player on roll (for a
#           double on offer: the doubler): [0] the opponent's bar, 1..24 the
#           points (the roller's positive), [25] the roller's bar
#   plies   gnubg's count (0 = the network alone), which Sage calls P+1-ply
# Answer:  {"id": N, "kind": "moves"|"cube"|"take"|"eval", "level": "2-ply", ...}
#   moves carry Sage's post-move boards ("board"); bgedit names the moves.
#
# {"stop": N} stops a running rollout through Sage's own cancellation (no
# restart): the moves rolled out so far come back marked stopped. While a
# rollout runs, its answer so far comes about every chunk_ms with
# "partial": true.
import json
import sys
import threading
import time

out_lock = threading.Lock()


def send(obj):
    with out_lock:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()


try:
    import bgsage
    from bgsage import BgBotAnalyzer, RolloutCancelled
except Exception as e:  # ImportError, or a broken install
    send({"missing": "%s: %s" % (type(e).__name__, e)})
    sys.exit(0)

try:
    from importlib.metadata import version as _version
    VERSION = _version("bgsage")
except Exception:
    VERSION = "unknown"


class Failure(Exception):
    pass


ANALYZERS = {}


def analyzer(plies):
    # gnubg counts the network alone as 0-ply; Sage calls it 1-ply.
    level = "%dply" % (min(max(int(plies), 0), 3) + 1)
    if level not in ANALYZERS:
        ANALYZERS[level] = BgBotAnalyzer(eval_level=level)
    return ANALYZERS[level]


def probs(p):
    return [float(p.win), float(p.gammon_win), float(p.backgammon_win),
            float(p.gammon_loss), float(p.backgammon_loss)]


def level_plies(level):
    """gnubg's count for one of Sage's levels ("2-ply" is 1); a rollout is
    the depth asked for."""
    if level and level[0].isdigit():
        return int(level.split("-")[0]) - 1
    return None


def context(req):
    return dict(cube_value=int(req.get("cube", 1)),
                cube_owner=req.get("owner", "centered"),
                away1=int(req.get("away1", 0)), away2=int(req.get("away2", 0)),
                is_crawford=bool(req.get("crawford", False)),
                jacoby=bool(req.get("jacoby", True)),
                beaver=bool(req.get("beavers", True)))


def action_words(c, owner):
    """Sage's verdict in gnubg's words, so both engines' actions compare."""
    re = "re" if owner == "player" else ""
    if not c.should_double:
        if not c.should_take:
            return "Too good to %sdouble, pass" % re
        if c.is_beaver:
            return "No %sdouble, beaver" % re
        return "No %sdouble, take" % re
    if c.is_beaver:
        return "%souble, beaver" % ("Red" if re else "D")
    if c.should_take:
        return "%souble, take" % ("Red" if re else "D")
    return "%souble, pass" % ("Red" if re else "D")


def move_entry(m):
    e = {"board": list(m.board), "equity": float(m.equity), "probs": probs(m.probs),
         "level": m.eval_level}
    p = level_plies(m.eval_level)
    if p is not None:
        e["plies"] = p
    if m.std_error is not None:
        e["std_error"] = float(m.std_error)
    return e


def cube_answer(c, owner, taking):
    if taking:
        # Sage speaks for the doubler; the answer is for the taker.
        w, wg, wbg, lg, lbg = probs(c.probs)
        return {"kind": "take", "take": -float(c.equity_dt), "pass": -float(c.equity_dp),
                "proper": "take" if c.should_take else "pass",
                "probs": [1.0 - w, lg, lbg, wg, wbg], "cubeless": -float(c.cubeless_equity),
                "level": c.eval_level}
    return {"kind": "cube", "no_double": float(c.equity_nd), "double_take": float(c.equity_dt),
            "double_pass": float(c.equity_dp), "optimal": float(c.optimal_equity),
            "action": action_words(c, owner), "probs": probs(c.probs),
            "cubeless": float(c.cubeless_equity), "level": c.eval_level}


def analyse(req):
    a = analyzer(req.get("plies", 0))
    board = [int(x) for x in req["board"]]
    ctx = context(req)
    dice = req.get("dice")
    taking = bool(req.get("double"))
    if dice and not taking:
        r = a.checker_play(board, int(dice[0]), int(dice[1]), **ctx)
        k = int(req.get("moves", 0)) or len(r.moves)
        return {"kind": "moves", "moves": [move_entry(m) for m in r.moves[:k]],
                "level": r.eval_level}
    c = a.cube_action(board, **ctx)
    if req.get("no_cube") and not taking:
        return {"kind": "eval", "probs": probs(c.probs), "cubeless": float(c.cubeless_equity),
                "level": c.eval_level}
    return cube_answer(c, ctx["cube_owner"], taking)


RUNNING = {"id": None, "analyzer": None, "stop": False}
RUNNING_LOCK = threading.Lock()


ROLLOUT_ANALYZERS = {}


def truncate_plies(ro):
    """The depth at the truncation point, gnubg's count: the players' own
    unless asked (bgsage's truncation_ply -1 is the decision ply)."""
    return int(ro.get("truncate_plies", ro.get("plies", 0)))


def rollout_analyzer(ro, total):
    """A rollout analyzer for these settings, kept: making one loads the
    networks again (0.6 s). Reseeded and its cancellation cleared for each
    rollout, so the same seed gives the same numbers."""
    key = (total, int(ro.get("truncate", 0)), int(ro.get("plies", 0)),
           int(ro.get("threads", 0)), max(1, int(ro.get("candidates", 5))),
           truncate_plies(ro))
    a = ROLLOUT_ANALYZERS.get(key)
    if a is None:
        a = BgBotAnalyzer(eval_level="rollout", n_trials=total, truncation_depth=key[1],
                          decision_ply=key[2] + 1, seed=int(ro.get("seed", 42)),
                          parallel_threads=key[3], filter_max_moves=key[4],
                          truncation_ply=key[5] + 1)
        ROLLOUT_ANALYZERS[key] = a
    a.reset_cancel()
    a.set_seed(int(ro.get("seed", 42)))
    return a


def rollout(req):
    ro = req["rollout"]
    total = max(1, int(ro.get("trials", 1296)))
    # The rollout is known as running before its analyzer is ready, so a
    # stop that comes while it is made is kept, not lost.
    with RUNNING_LOCK:
        RUNNING["id"], RUNNING["analyzer"], RUNNING["stop"] = req.get("id"), None, False
    a = rollout_analyzer(ro, total)
    with RUNNING_LOCK:
        RUNNING["analyzer"] = a
        if RUNNING["stop"]:
            a.cancel()
    board = [int(x) for x in req["board"]]
    ctx = context(req)
    dice = req.get("dice")
    taking = bool(req.get("double"))
    chunk = max(0.05, float(ro.get("chunk_ms", 250)) / 1000.0)
    started = time.time()
    state = {"done": 0, "moves": []}

    def info(stopped):
        return {"trials": min(state["done"], total), "of": total, "seed": int(ro.get("seed", 42)),
                "truncate": int(ro.get("truncate", 0)), "truncate_plies": truncate_plies(ro),
                "plies": int(ro.get("plies", 0)),
                "cubeful": True, "vr": False, "quasi": False,
                "elapsed": time.time() - started, "stopped": stopped}

    def partial_moves():
        return [{"board": list(m["board"]),
                 "equity": float(m.get("rollout_cubeful_equity", m["equity"])),
                 "probs": [float(x) for x in m["probs"]], "level": "Rollout",
                 "std_error": float(m.get("rollout_cubeful_se", m.get("std_error", 0.0)))}
                for m in list(state["moves"])]

    def progress(done, of, partial):
        # Called from Sage's worker threads, every thousand trials or so.
        state["moves"] = partial
        # Checker play counts the trials of every candidate in turn: the
        # share done, in trials of one candidate.
        state["done"] = int(done * total / max(of, 1))

    finished = threading.Event()

    def ticker():
        # The answer so far every chunk, whatever Sage's own callbacks do
        # (they come a thousand trials apart): bgedit shows it and can stop
        # the rollout between any two.
        while not finished.wait(chunk):
            moves = partial_moves() if dice and not taking else []
            # Until a candidate is done there are no numbers: a tick.
            ans = {"kind": "moves", "moves": moves} if moves else {"kind": "progress"}
            ans.update({"id": req.get("id"), "partial": True, "rollout": info(False),
                        "plies": int(req.get("plies", 0))})
            send(ans)

    send({"id": req.get("id"), "kind": "progress", "partial": True, "rollout": info(False),
          "plies": int(req.get("plies", 0))})
    tick = threading.Thread(target=ticker, daemon=True)
    tick.start()

    try:
        if dice and not taking:
            r = a.checker_play(board, int(dice[0]), int(dice[1]), progress_callback=progress, **ctx)
            state["done"] = total
            k = int(req.get("moves", 0)) or len(r.moves)
            ans = {"kind": "moves", "moves": [move_entry(m) for m in r.moves[:k]]}
        else:
            c = a.cube_action(board, progress_callback=progress, **ctx)
            state["done"] = total
            ans = cube_answer(c, ctx["cube_owner"], taking)
            ro_info = info(False)
            ro_info["no_double_se"] = c.equity_nd_se
            ro_info["double_take_se"] = c.equity_dt_se
            ans["rollout"] = ro_info
            return ans
        ans["rollout"] = info(False)
        return ans
    except RolloutCancelled:
        moves = partial_moves()
        if dice and not taking and moves:
            return {"kind": "moves", "moves": moves, "rollout": info(True)}
        # Stopped before any number was in: the evaluation at the depth
        # asked for, each move labelled with it, and the rollout marked
        # stopped (a cube's answer says nothing of a rollout).
        ans = analyse(req)
        if ans.get("kind") == "moves":
            ans["rollout"] = info(True)
        return ans
    finally:
        finished.set()
        tick.join()
        with RUNNING_LOCK:
            RUNNING["id"], RUNNING["analyzer"], RUNNING["stop"] = None, None, False


QUEUE = []
QUEUE_COND = threading.Condition()


def reader():
    """Reads requests while one runs, so a stop reaches a rollout at once."""
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            send({"id": None, "error": "the bridge got a request that is not JSON"})
            continue
        if isinstance(req, dict) and "stop" in req:
            with RUNNING_LOCK:
                if RUNNING["id"] == req["stop"]:
                    RUNNING["stop"] = True
                    if RUNNING["analyzer"] is not None:
                        RUNNING["analyzer"].cancel()
            continue
        with QUEUE_COND:
            QUEUE.append(req)
            QUEUE_COND.notify()
    with QUEUE_COND:
        QUEUE.append(None)
        QUEUE_COND.notify()


def main():
    # Load the network once before saying ready: the first answer is quick.
    analyzer(0)
    send({"ready": True, "version": VERSION})
    threading.Thread(target=reader, daemon=True).start()
    while True:
        with QUEUE_COND:
            while not QUEUE:
                QUEUE_COND.wait()
            req = QUEUE.pop(0)
        if req is None:
            break
        if not isinstance(req, dict):
            continue
        rid = req.get("id")
        try:
            ans = rollout(req) if req.get("rollout") else analyse(req)
            ans["id"] = rid
            ans["plies"] = int(req.get("plies", 0))
            send(ans)
        except Failure as e:
            send({"id": rid, "error": str(e)})
        except Exception as e:
            send({"id": rid, "error": "Sage raised %s: %s" % (type(e).__name__, e)})


main()
