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
#   rollout  {"trials", "seed", "truncate", "truncate_plies", "plies", "cubeful",
#             "vr", "quasi", "candidates", "chunk"}: roll out the candidates (or
#             the cube) with gnubg's own rollout instead of evaluating;
#             "truncate_plies" is the depth of the evaluation at the truncation
#             point (gnubg's own 2-ply when not given)
# Answer:  {"id": N, "kind": "moves"|"cube"|"take", ...} or {"id": N, "error": "..."}
#
# Games:   {"id": N, "games": {"path": SGF, "count": C,
#                               "plies": P, "luck": bool}}: gnubg loads the
#          match (C games), clears any analysis the file carries, runs its
#          own `analyse match` at P plies, and answers {"id": N, "kind":
#          "games", "games": [{"records": [...], "players": {"O": {...},
#          "X": {...}}}, ...]}, a game each in the file's order: each record
#          as gnubg stores it (action, player, dice, Position ID before; the cube's equities
#          "nd"/"dt" as gnubg keeps them, MWC in match play; the move list
#          with gnubg's notation, normalised equities and each move's depth;
#          "imove", the move played; the roll's luck) and the game's luck
#          totals, players named as bgedit does.
#
# A rollout runs in chunks of trials (gnubg continues a rollout where it
# stopped, with the same dice: the chunks add up to the one rollout gnubg
# would do), and after each chunk the bridge sends the answer so far with
# "partial": true and reads {"stop": N} if it was sent.
import ctypes
import json
import os
import re
import select
import sys
import tempfile
import time

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
              "set evaluation cubedecision evaluation cubeful on",
              # Rollout results are read from `hint`'s text: in equity,
              # with all the digits gnubg prints.
              "set output mwc off", "set output digits 6",
              "set rollout rng mersenne", "set rollout initial off",
              "set rollout later enable off", "set rollout limit enable off",
              "set rollout jsd stop off"):
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
    set_filter("analysis" if "played_after" in req else "evaluation")
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
        played = req.get("played_after")
        plies = int(req.get("plies", 0))
        shallow = [e for e in moves if e["after"] == played and e.get("plies", plies) < plies]
        if shallow and not req.get("widened"):
            # gnubg's `analyse match` keeps the played move through its move
            # filter, so it has the full depth however bad it is; `hint`
            # leaves it in the 0-ply tail. Every move at full depth ranks
            # the leaders the same and gives the played move gnubg's number.
            return widened(req, board, match, plies)
        return {"kind": "moves", "moves": moves}
    ev = gnubg.evaluate()
    cf = gnubg.cfevaluate()
    # `optimal` is gnubg's FindCubeDecision: what the match analysis
    # measures a cube error against (the beaver and too-good cases included).
    out = {"kind": "cube", "no_double": float(cf[1]), "double_take": float(cf[2]),
           "double_pass": float(cf[3]), "optimal": float(cf[0]), "action": cf[5],
           "probs": probs(ev), "cubeless": float(ev[5])}
    if match:
        for key in ("no_double", "double_take", "double_pass"):
            out[key + "_mwc"] = mwc(out[key])
    return out


# gnubg's move filters, ply by ply and level by level: (accept, extra,
# threshold). `hint` ranks with the evaluation filter; `analyse match` with
# the analysis filter, which keeps twice the moves (gnubg 1.07's defaults,
# as `show evaluation` and `show analysis` print them); "all" evaluates every
# move at the full depth.
FILTERS = {
    "evaluation": {1: [(0, 8, 0.16)], 2: [(0, 8, 0.16), (-1, 0, 0)],
                   3: [(0, 8, 0.16), (-1, 0, 0), (0, 2, 0.04)]},
    "analysis": {1: [(0, 16, 0.32)], 2: [(0, 16, 0.32), (-1, 0, 0)],
                 3: [(0, 16, 0.32), (-1, 0, 0), (0, 4, 0.08)]},
    "all": {p: [(1000, 0, 0.0)] * p for p in (1, 2, 3)},
}


def set_filter(name):
    set_once("filter", name, [
        "set evaluation movefilter %d %d %d %d %g" % (p, l, a, e, t)
        for p, levels in FILTERS[name].items()
        for l, (a, e, t) in enumerate(levels)])


def widened(req, board, match, plies):
    """The move list with every move at `plies` (the position set again:
    `hint` answers from its cache until it is)."""
    set_filter("all")
    command("set gnubgid " + req["gnubgid"])
    return moves_or_cube(dict(req, widened=True), board, match)


def current_dice():
    mid = gnubg.matchid()
    # Bits 15-20 of the Match ID are the dice.
    import base64
    key = base64.b64decode(mid + "=" * (-len(mid) % 4))
    bits = int.from_bytes(key, "little")
    d0, d1 = (bits >> 15) & 7, (bits >> 18) & 7
    return (d0, d1) if d0 and d1 else None


class Input:
    """Standard input a line at a time, with a look without waiting: a
    rollout checks between chunks whether it was asked to stop. Python's
    own buffered reader would hide a line it had read ahead from select."""

    def __init__(self):
        self.buf = b""
        self.closed = False
        self.held = []

    def _fill(self, wait):
        if self.closed:
            return False
        if not wait and not select.select([0], [], [], 0)[0]:
            return False
        data = os.read(0, 65536)
        if not data:
            self.closed = True
            return False
        self.buf += data
        return True

    def _take(self):
        if b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            return line.decode("utf-8", "replace")
        return None

    def readline(self):
        """The next line, waiting for it; None at the end."""
        if self.held:
            return self.held.pop(0)
        while True:
            line = self._take()
            if line is not None:
                return line
            if not self._fill(True):
                if self.buf:
                    line, self.buf = self.buf.decode("utf-8", "replace"), b""
                    return line
                return None

    def stop_asked(self, rid):
        """Whether a stop for `rid`, or any newer request, has come. A newer
        request is kept for after the rollout."""
        while self._fill(False):
            pass
        asked = False
        while True:
            line = self._take()
            if line is None:
                break
            try:
                msg = json.loads(line)
            except ValueError:
                msg = None
            if isinstance(msg, dict) and "stop" in msg:
                asked = asked or msg.get("stop") == rid
                continue
            self.held.append(line)
            asked = True
        return asked or self.closed


INPUT = Input()
_libc = ctypes.CDLL(None)


def captured(text):
    """What gnubg prints for the command `text` (its standard output goes
    to /dev/null otherwise). C's buffer is flushed on both sides."""
    with tempfile.TemporaryFile() as f:
        _libc.fflush(None)
        saved = os.dup(1)
        os.dup2(f.fileno(), 1)
        try:
            gnubg.command(text)
            _libc.fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        f.seek(0)
        return f.read().decode("utf-8", "replace")


NUM = r"([-+]?\d+\.\d+)"
DETAIL = re.compile(r"^\s*" + r"\s+".join([NUM] * 3) + r"\s+-\s+" + r"\s+".join([NUM] * 3)
                    + r"\s+CL\s+" + NUM + r"(?:\s+CF\s+" + NUM + r")?")
# A cubeless rollout prints no CF figure.
SPREAD = re.compile(r"^\s*\[.*CL\s+" + NUM + r"(?:\s+CF\s+" + NUM + r")?\]")


def details(text):
    """The rollout detail lines of a `hint` text, in order: each a pair
    (probabilities and equities, their standard errors)."""
    out, last = [], None
    for line in text.splitlines():
        m = DETAIL.match(line)
        if m:
            last = numbers(m.groups())
            continue
        m = SPREAD.match(line)
        if m and last is not None:
            out.append((last, numbers(m.groups())))
            last = None
    return out


def numbers(groups):
    """The figures of a detail line; a cubeless rollout's missing CF is its
    CL."""
    vals = [float(x) if x is not None else None for x in groups]
    return [v if v is not None else vals[-2] for v in vals]


# gnubg's depth at a rollout's truncation point when none is asked for
# (`show rollout`: "Truncation point Chequer play evaluation: 2-ply").
TRUNCATE_PLIES = 2


def set_rollout(ro):
    plies = int(ro.get("plies", 0))
    trunc = int(ro.get("truncate", 0))
    at_cut = int(ro.get("truncate_plies", TRUNCATE_PLIES))
    onoff = lambda b: "on" if b else "off"
    cmds = ["set rollout seed %d" % int(ro.get("seed", 1)),
            "set rollout cubeful " + onoff(ro.get("cubeful", True)),
            "set rollout varredn " + onoff(ro.get("vr", True)),
            "set rollout quasirandom " + onoff(ro.get("quasi", True)),
            "set rollout truncation enable " + onoff(trunc > 0)]
    if trunc > 0:
        cmds.append("set rollout truncation plies %d" % trunc)
    cmds += ["set rollout %s plies %d" % (k, plies) for k in ("chequerplay", "cubedecision")]
    # Always set, to gnubg's own default when not asked: a former
    # request's depth would stay otherwise.
    cmds += ["set rollout truncation %s plies %d" % (k, at_cut)
             for k in ("chequerplay", "cubedecision")]
    # A cubeless rollout leaves gnubg's rollout players cubeless, and `set
    # rollout cubeful on` does not turn them back: their own flags are set
    # to gnubg's start-up ones here.
    cmds += ["set rollout %s%s cubeful on" % (late, k)
             for late in ("", "later ", "truncation ") for k in ("chequerplay", "cubedecision")]
    set_once("rollout", json.dumps(ro, sort_keys=True), cmds)
    # gnubg starts with one calculation thread; a rollout shares its trials
    # out to as many as it is given, and is then not reproducible (its
    # cubeful numbers vary in the last digits from run to run).
    threads = max(1, int(ro.get("threads", 1)))
    set_once("threads", threads, ["set threads %d" % threads])


def rollout_info(ro, done, total, started, stopped):
    threads = max(1, int(ro.get("threads", 1)))
    # gnubg's threaded cubeful rollouts vary in their last digits from run
    # to run with the same seed; on one thread they do not.
    return {"threads": threads, "reproducible": threads == 1,
            "trials": done, "of": total, "seed": int(ro.get("seed", 1)),
            "truncate": int(ro.get("truncate", 0)),
            "truncate_plies": int(ro.get("truncate_plies", TRUNCATE_PLIES)),
            "plies": int(ro.get("plies", 0)),
            "cubeful": bool(ro.get("cubeful", True)), "vr": bool(ro.get("vr", True)),
            "quasi": bool(ro.get("quasi", True)), "elapsed": round(time.time() - started, 3),
            "stopped": stopped}


def run_rollout(req, chunk_step, collect):
    """Runs gnubg's rollout in chunks; `chunk_step()` extends it to the trials
    set, `collect()` reads the answer so far. Sends partial answers."""
    ro = req["rollout"]
    set_rollout(ro)
    total = max(1, int(ro.get("trials", 1296)))
    target_secs = float(ro.get("chunk_ms", 250)) / 1000.0
    done, chunk, started = 0, max(1, min(total, int(ro.get("first", 1)))), time.time()
    if not ro.get("cubeful", True):
        # gnubg 1.07 does not continue a cubeless rollout to the numbers it
        # gives in one go (cubeful ones it does, to the last digit): one go.
        chunk = total
    stopped = False
    while done < total:
        done = min(total, done + chunk)
        command("set rollout trials %d" % done)
        chunk_step()
        rate = done / max(time.time() - started, 1e-3)
        chunk = max(1, int(rate * target_secs))
        if done < total:
            ans = with_info(collect(), rollout_info(ro, done, total, started, False))
            ans["partial"] = True
            ans["id"] = req.get("id")
            ans["plies"] = int(req.get("plies", 0))
            send(ans)
            if INPUT.stop_asked(req.get("id")):
                stopped = True
                break
    return with_info(collect(), rollout_info(ro, done, total, started, stopped))


def with_info(ans, info):
    """The answer with its rollout's settings and progress; a cube's
    standard errors go with them."""
    info.update(ans.pop("spread", {}))
    ans["rollout"] = info
    return ans


def rollout_moves(req, board, match):
    k = max(1, int(req["rollout"].get("candidates", 5)))
    first = gnubg.hint(10000)["hint"]
    picks = list(range(1, min(k, len(first)) + 1))
    if not picks:
        return {"kind": "moves", "moves": [], "note": "no legal move: the roll is forfeit"}
    keys = [first[i - 1]["move"] for i in picks]

    def step():
        # gnubg re-sorts the list after each chunk: the rolled-out moves are
        # found again by their notation.
        listed = [m["move"] for m in gnubg.hint(10000)["hint"]]
        command("analyse rollout move " + " ".join(str(listed.index(key) + 1) for key in keys))

    def collect():
        hint = gnubg.hint(len(keys))["hint"]
        spreads = details(captured("hint %d" % len(keys)))
        moves = []
        for i, m in enumerate(hint):
            tup = gnubg.parsemove(m["move"])
            d = m.get("details") or {}
            entry = {"move": m["move"], "equity": float(m["equity"]),
                     "probs": probs(d.get("probs", [0, 0, 0, 0, 0])),
                     "after": gnubg.positionid(apply_move(board, tup)),
                     "trials": int(d.get("trials", 0))}
            if i < len(spreads):
                cl, cf = spreads[i][1]
                entry["std_error"] = cf if req["rollout"].get("cubeful", True) else cl
            if match:
                entry["mwc"] = mwc(m["equity"])
                if "std_error" in entry:
                    entry["mwc_std_error"] = mwc_spread(entry["std_error"])
            moves.append(entry)
        return {"kind": "moves", "moves": moves}

    return run_rollout(req, step, collect)


def mwc_spread(se):
    """An equity's standard error in match winning chances: gnubg's
    conversion is linear in the equity."""
    a, b = mwc(0.0), mwc(1.0)
    return None if a is None or b is None else abs(b - a) * se


CUBE_LINE = re.compile(r"^\s*\d\.\s+(No double|Double, take|Double, pass|No redouble|Redouble, take|Redouble, pass)\s+" + NUM)


def cube_rollout_text():
    text = captured("hint")
    eq = {}
    action = ""
    for line in text.splitlines():
        m = CUBE_LINE.match(line)
        if m:
            eq[m.group(1).replace("Redouble", "Double").replace("No redouble", "No double")] = float(m.group(2))
        if line.startswith("Proper cube action:"):
            action = line.split(":", 1)[1].strip()
    return eq, action, details(text)


def rollout_cube(req, match, taking):
    # The cube rollout continues the decision `hint` made.
    captured("hint")

    def step():
        command("analyse rollout cube")

    def collect():
        eq, action, det = cube_rollout_text()
        if "No double" not in eq or "Double, take" not in eq or len(det) < 2:
            raise Failure("gnubg gave no cube rollout for this position")
        nd, dt, dp = eq["No double"], eq["Double, take"], eq.get("Double, pass", 1.0)
        (p, s), (p2, s2) = det[0], det[1]
        w, wg, wbg, l, lg, lbg, cl, cf = p
        cubeful = req["rollout"].get("cubeful", True)
        pick = lambda sp: sp[1] if cubeful else sp[0]
        if taking:
            out = {"kind": "take", "take": -dt, "pass": -dp, "proper": "take" if dt <= dp else "pass",
                   "probs": [l, lg, lbg, wg, wbg], "cubeless": -cl, "spread": {"double_take_se": pick(s2)}}
            if match:
                out["take_mwc"] = 1.0 - mwc(dt)
                out["pass_mwc"] = 1.0 - mwc(dp)
            return out
        out = {"kind": "cube", "no_double": nd, "double_take": dt, "double_pass": dp,
               "action": action, "probs": [w, wg, wbg, lg, lbg], "cubeless": cl,
               "spread": {"no_double_se": pick(s), "double_take_se": pick(s2)}}
        if match:
            for key in ("no_double", "double_take", "double_pass"):
                out[key + "_mwc"] = mwc(out[key])
        return out

    return run_rollout(req, step, collect)


def rollout(req):
    set_plies(int(req.get("plies", 0)))
    set_filter("evaluation")
    taking = bool(req.get("double"))
    # A take is rolled out as the doubler's cube decision: the position is
    # set without the double, as gnubg rolls out cube decisions.
    plain = dict(req, double=False, expect=req["gnubgid"])
    # Setting the same position again keeps gnubg's move record, with the
    # last rollout in it, which `analyse rollout` would continue: a new game
    # first gives a fresh record.
    command("new game")
    set_position(plain)
    board = gnubg.board()
    if finished(board):
        return {"kind": "over", "reason": "the game is over: a player has borne off every checker"}
    match = gnubg.cubeinfo().get("matchto", 0) > 0
    if current_dice() and not taking:
        return rollout_moves(req, board, match)
    if req.get("no_cube") and not taking:
        raise Failure("nothing to roll out: the player on roll has no cube action and no dice")
    return rollout_cube(req, match, taking)


# gnubg's Python names the players the other way round from its board and
# from every ID: its "X" is player 0, bgedit's O.
PLAYERS = {"X": "O", "O": "X"}


def quoted(path):
    """`path` for gnubg's command line, which splits at blanks: in double
    quotes, its own quotes and backslashes escaped."""
    return '"%s"' % path.replace("\\", "\\\\").replace('"', '\\"')


def load_match(spec):
    """Has gnubg load the SGF match in spec["path"] (bgedit's own SGF of
    the match it read, whatever the file): a file of `count` games."""
    command("load match %s" % quoted(spec["path"]))
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    if not m or not m.get("games"):
        raise Failure("gnubg read no game from the file")
    count = int(spec["count"])
    if len(m["games"]) != count:
        raise Failure("gnubg read %d games from the file, not %d" % (len(m["games"]), count))
    # A file's own analysis (gnubg's players store what they evaluated,
    # with their noise) is cleared: gnubg's Python reports each evaluation's
    # depth only where it differs from the first one it lists, which must
    # then be one of this analysis.
    command("analyse clear match")


def games(req):
    """Every game of a match file analysed by gnubg's own `analyse match`
    (the decisions as it judges them, and the luck of its rolls), each
    game's records handed back as gnubg stores them, in the file's order.
    One `analyse match` for the file, not an `analyse game` per game:
    gnubg waits for its threads in 25 ms steps after each (multithread.c
    `MT_WaitForTasks`), as long as a game's whole analysis at 0-ply."""
    spec = req["games"]
    plies = int(spec.get("plies", 0))
    luck_on = bool(spec.get("luck"))
    set_once("analysis", (plies, luck_on), [
        "set analysis %s evaluation %s" % (kind, what)
        for kind in ("chequerplay", "cubedecision")
        for what in ("plies %d" % plies, "cubeful on", "prune on")] + [
        "set analysis moves on", "set analysis cube on",
        "set analysis luck %s" % ("on" if luck_on else "off")])
    load_match(spec)
    command("analyse match")
    m = gnubg.match(analysis=1, boards=1, statistics=1 if luck_on else 0, verbose=1)
    return {"kind": "games", "games": [game(g, plies) for g in m["games"]]}


def game(g, plies):
    """One analysed game's records: the cube's equities before a roll or
    at a double (MWC in match play, as gnubg keeps them), each move list
    (equities normalised, as `hint` gives them), the move played (`imove`),
    the luck of each roll, and the game's luck totals."""
    records = []
    # The board before each action, from the side of the player acting.
    # gnubg's own "board" after a set-up is player 0's side whoever is on
    # roll (gnubgmodule.c: "the board is always stored as if player 0 was
    # on roll"), and every board after it follows from that one: the board
    # is kept here instead, turned to the side of whoever acts.
    board, side = None, None
    for rec in g["game"]:
        action, who = rec.get("action"), rec.get("player")
        if action == "set" and "board" in rec:
            board, side = gnubg.positionfromid(rec["board"]), "X"
            continue
        out = {"action": action, "player": PLAYERS.get(who)}
        if rec.get("dice"):
            out["dice"] = list(rec["dice"])
        if action in ("move", "double") and (board is not None or "board" in rec):
            if board is None:
                board, side = gnubg.positionfromid(rec["board"]), who
            # A move is the roller's; a double (or a beaver, by the player
            # doubled) is on the roller's board as it stands.
            if action == "move" and side != who:
                board, side = (board[1], board[0]), who
            out["board"] = gnubg.positionid(board)
        a = rec.get("analysis") or {}
        if "nd-cubeful-eq" in a:
            ctx = a.get("eval-context") or {}
            out["cube"] = {"nd": float(a["nd-cubeful-eq"]), "dt": float(a["dt-cubeful-eq"]),
                           "probs": probs(a["probs"]), "cubeless": float(a.get("nd-match-eq", 0.0)),
                           "plies": int(ctx.get("plies", plies))}
        if "moves" in a and "board" in out:
            moves = []
            for mv in a["moves"]:
                ctx = mv.get("evalcontext") or {}
                moves.append({"move": gnubg.movetupletostring(mv["move"], board),
                              "equity": float(mv["score"]), "probs": probs(mv["probs"]),
                              "after": gnubg.positionid(apply_move(board, mv["move"])),
                              "plies": int(ctx.get("plies", plies))})
            out["moves"] = moves
            out["imove"] = int(a.get("imove", -1))
        if "luck-value" in a:
            out["luck"] = float(a["luck-value"])
        if action == "move" and "board" in out:
            # The opponent acts next, on the board after the move.
            board, side = apply_move(board, rec.get("move") or ()), PLAYERS[who]
        records.append(out)
    players = {}
    for p, st in (g.get("stats") or {}).items():
        dice = st.get("dice") or {}
        players[PLAYERS.get(p, p)] = {
            "luck": float(dice.get("luck", 0.0)), "cost": float(dice.get("luck-cost", 0.0)),
            "actual": float(dice.get("actual-result", 0.0)),
            "adjusted": float(dice.get("luck-adjusted-result", 0.0))}
    return {"records": records, "players": players}


def main():
    setup()
    send({"ready": True})
    while True:
        line = INPUT.readline()
        if line is None:
            break
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except ValueError:
            send({"id": None, "error": "the bridge got a request that is not JSON"})
            continue
        if not isinstance(req, dict) or "stop" in req:
            # A stop that came after its rollout ended.
            continue
        rid = req.get("id")
        try:
            if req.get("games"):
                ans = games(req)
            elif req.get("rollout"):
                ans = rollout(req)
            else:
                ans = analyse(req)
            ans["id"] = rid
            ans["plies"] = int(req.get("plies", 0))
            send(ans)
        except Failure as e:
            send({"id": rid, "error": str(e)})
        except Exception as e:
            send({"id": rid, "error": "gnubg raised %s: %s" % (type(e).__name__, e)})


main()
