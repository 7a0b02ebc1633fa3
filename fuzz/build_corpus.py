#!/usr/bin/env python3
"""Builds the fuzz seed corpus from the committed gnubg fixtures.

    python3 fuzz/build_corpus.py [--bgedit target/debug/bgedit] [--per-target 40]

Reads tests/fixtures/gnubg_boards.jsonl (gnubg 1.07's own IDs and boards)
and writes, per target, files named by their SHA-1 (libFuzzer's way) under
fuzz/corpus/<target>/: bare IDs, labelled IDs, gnubg's header lines, whole
`show board` blocks, XGIDs, JSON (made by `bgedit convert --to json|xgid`
when the binary is given or built), and prompt entries. Deterministic: the
same fixtures give the same corpus. A new target: add its seeds to `seeds` in main().
"""

import argparse
import glob
import hashlib
import json
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "gnubg_boards.jsonl")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")

# The prompt target reads: one byte (bit 0: match play; the rest: which
# prompt), editing operations up to a 0xff byte, one more byte, the text.
PROMPT_KINDS = ["import", "goto", "count", "dice", "match", "score", "name_o",
                "name_x", "crawford_o", "crawford_x"]
PROMPT_TEXTS = {
    "import": ["4HPwATDgc/ABMA:cAkAAAAAAAAA", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"],
    "goto": ["6", "25", "0", "19"],
    "count": ["5", "x12", "o3", "3o", "0"],
    "dice": ["52", "6-6", "", "25"],
    "match": ["7", "0", "25"],
    "score": ["2-4", "3-away 5-away", "-3 -5", "x -2", "o 3", "1a 2a"],
    "name_o": ["alice"],
    "name_x": ["bob"],
    "crawford_o": ["y", "n"],
    "crawford_x": ["y", "n"],
}


def convert(bgedit, to, ids):
    """`bgedit convert --to TO` over ids, one output line each ('' if bad)."""
    if not bgedit:
        return []
    out = subprocess.run([bgedit, "convert", "--to", to, "-q"], input="\n".join(ids) + "\n",
                         capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if line]


FORMATS = os.path.join(ROOT, "tests", "fixtures", "gnubg_formats.jsonl")
MOVES = ["24/21 13/9", "24/18*/14", "bar/22*", "6/off", "8/2(2) 6/off(2)",
         "13-7 8-7", "b/20", "6/0", "bar/20", "13/7(2)", "  13/7   8/7 "]


def convert_file(bgedit, to, ids):
    """Each ID written as `to` by bgedit: one seed per ID (multi-line)."""
    if not bgedit:
        return []
    out = []
    for i in ids:
        r = subprocess.run([bgedit, "convert", "-q", "--to", to, i],
                           capture_output=True, text=True)
        if r.returncode == 0:
            out.append(r.stdout)
    return out


def xg_records(path):
    """temp.xg's 2,560-byte records, out of an XG file's zlib archive."""
    import struct
    import zlib
    raw = open(path, "rb").read()
    trailer = len(raw) - 36
    _crc, files, _v, reg_size, data_size = struct.unpack_from("<iiiii", raw, trailer)
    reg_start = trailer - reg_size
    data_start = reg_start - data_size
    registry = zlib.decompress(raw[reg_start:trailer]) if raw[trailer + 20] else raw[reg_start:trailer]
    for i in range(files):
        rec = registry[i * 532:(i + 1) * 532]
        if rec[1:1 + rec[0]] == b"temp.xg":
            size, start = struct.unpack_from("<ii", rec, 516)
            data = zlib.decompress(raw[data_start + start:data_start + start + size])
            return [data[o:o + 2560] for o in range(0, len(data) - 2559, 2560)]
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bgedit", default=os.path.join(ROOT, "target", "debug", "bgedit"))
    ap.add_argument("--per-target", type=int, default=40)
    args = ap.parse_args()
    bgedit = args.bgedit if os.path.exists(args.bgedit) else None
    if not bgedit:
        print(f"note: no {args.bgedit}; JSON and extra XGID seeds left out "
              "(cargo build first)", file=sys.stderr)

    rows = [json.loads(line) for line in open(FIXTURES)]
    rng = random.Random(6)
    rng.shuffle(rows)
    rows = rows[: args.per_target]
    ids = [r["input"] for r in rows if not r["input"].startswith("XGID")]
    xgids = [r["input"] for r in rows if r["input"].startswith("XGID")]
    xgids += convert(bgedit, "xgid", ids)
    boards = [r["board"] for r in rows]
    jsons = convert(bgedit, "json", ids[:10])

    seeds = {
        "position_id": [i.split(":")[0] for i in ids],
        "match_id": [i.split(":")[1] for i in ids],
        "gnubg_id": ids + [f"GNUBG ID: {i}" for i in ids[:10]]
        + ["\n".join(b.splitlines()[:2]) for b in boards[:10]] + boards[:10],
        "xgid": xgids,
        "json": jsons,
        "parse_any": ids + xgids[:10] + boards[:10] + jsons[:5]
        + [f"GNUBG ID: {i}" for i in ids[:5]] + [i.split(":")[0] for i in ids[:5]]
        + [i.split(":")[1] for i in ids[:5]],
        "prompt": [],
    }
    # The exchange formats, as gnubg 1.07 wrote them (gnubg_formats.jsonl),
    # XG text as bgedit writes it, and moves as players type them.
    formats = [json.loads(line) for line in open(FORMATS)][: args.per_target]
    seeds["sgf"] = [r["sgf"] for r in formats if r.get("sgf")]
    seeds["fibs"] = [r["fibs"] for r in formats if r.get("fibs")]
    seeds["snowie"] = [r["snowie"] for r in formats if r.get("snowie")]
    seeds["xg_text"] = convert_file(bgedit, "xgtext", ids[:10])
    seeds["move_notation"] = MOVES
    # The .mat reader: the fixture matches, whole and cut into their games.
    mats = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "mat", "*.mat"))):
        with open(path, "rb") as f:
            data = f.read()
        mats.append(data)
        head, _, rest = data.partition(b" Game ")
        for game in rest.split(b" Game ")[:6]:
            mats.append(head + b" Game " + game)
    seeds["mat"] = mats
    # XG's files: the records of the fixture matches out of their archive
    # (the target puts a match header in front), a few records at a time
    # from each game's start and end.
    xg = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "xg", "*.xg"))):
        records = xg_records(path)
        starts = [i for i in range(1, len(records)) if records[i][8] == 1]
        for i in starts[:4]:
            xg.append(b"".join(records[i:i + 5]))
            xg.append(b"".join(records[max(i - 4, 1):i + 1]))
    seeds["xg_file"] = xg
    for k, kind in enumerate(PROMPT_KINDS):
        for text in PROMPT_TEXTS[kind]:
            for match in (0, 1):
                ops = bytes([0, 4, 6, 7, 3])
                seeds["prompt"].append(bytes([k << 1 | match]) + ops + b"\xff\x00" + text.encode())

    for target, items in seeds.items():
        d = os.path.join(CORPUS, target)
        os.makedirs(d, exist_ok=True)
        for item in items:
            data = item if isinstance(item, bytes) else item.encode()
            name = hashlib.sha1(data).hexdigest()
            with open(os.path.join(d, name), "wb") as f:
                f.write(data)
        print(f"{target}: {len(set(items))} seeds", file=sys.stderr)


if __name__ == "__main__":
    main()
