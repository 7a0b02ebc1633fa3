#!/usr/bin/env python3
"""Grows a bgedit library holding one analysed match into N matches, for
benches/stats_player.sh: match 1 copied N-1 times in SQL, each copy's file
with the opponent renamed (so its bytes, hash and identity differ) and its
date a day later, with its games, decisions, bgedit's verdicts and luck.
The copies' decisions make no position entries (entry_id NULL).

    python3 benches/gen_stats_library.py LIBRARY N
"""
import datetime
import hashlib
import sqlite3
import sys


def main(path, n):
    # bgedit's ANALYZE, taken when the library held one match, tells the
    # planner every decision is match 1's, so each copy would scan all the
    # decisions copied before it: the statistics go, and come back at the end.
    db = sqlite3.connect(path)
    if db.execute("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").fetchone():
        with db:
            db.execute("DELETE FROM sqlite_stat1")
    db.close()
    db = sqlite3.connect(path)
    # One big transaction through a write-ahead log of a gigabyte slows
    # every page read down: a rollback journal (off: a bench's scratch
    # library) and a large page cache instead. bgedit's WAL mode comes
    # back when it opens the library.
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    db.execute("PRAGMA cache_size = -262144")
    db.execute("PRAGMA foreign_keys = ON")
    cols = ("player_o, player_x, event, place, length, result, format, path, "
            "imported")
    row = db.execute(f"SELECT {cols}, content, identity, date FROM matches "
                     "WHERE id = 1").fetchone()
    *fixed, content, identity, _ = row
    opponent = fixed[1]
    start = datetime.date(2020, 1, 1)
    with db:
        for k in range(1, n):
            name = f"{opponent}_{k:05d}"
            body = content.replace(opponent.encode(), name.encode())
            values = list(fixed)
            values[1] = name
            values[7] = f"copies/{k:05d}.mat"
            date = (start + datetime.timedelta(days=k % 2000)).isoformat()
            cur = db.execute(
                f"INSERT INTO matches ({cols}, content, hash, identity, date) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                values + [body, hashlib.sha256(body).hexdigest(),
                          hashlib.sha256(f"{identity} {k}".encode()).hexdigest(),
                          date])
            new = cur.lastrowid
            db.execute(
                "INSERT INTO games SELECT ?, number, score_o, score_x, crawford, "
                "winner, points FROM games WHERE match_id = 1", (new,))
            db.execute(
                "INSERT INTO decisions (match_id, seq, game, number, player, name, "
                "kind, dice, played, gnubg_id, xgid, entry_id) SELECT ?, seq, game, "
                "number, player, name, kind, dice, played, gnubg_id, xgid, NULL "
                "FROM decisions WHERE match_id = 1", (new,))
            db.execute(
                # CROSS JOIN keeps this order: match 1's decisions, then
                # their verdicts by key (not a scan of every verdict).
                "INSERT INTO analyses SELECT d2.id, a.engine, a.plies, a.depth, "
                "a.from_file, a.error, a.analysis, a.created FROM decisions d1 "
                "CROSS JOIN analyses a ON a.decision_id = d1.id "
                "CROSS JOIN decisions d2 ON d2.match_id = ? AND d2.seq = d1.seq "
                "WHERE d1.match_id = 1", (new,))
            for table in ("match_luck", "game_luck"):
                c = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
                rest = ", ".join(x for x in c if x != "match_id")
                db.execute(f"INSERT INTO {table} (match_id, {rest}) SELECT ?, {rest} "
                           f"FROM {table} WHERE match_id = 1", (new,))
    db.execute("ANALYZE")
    db.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
