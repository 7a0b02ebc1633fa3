#!/usr/bin/env python3
"""gnubg 1.07 doing what benches/mat.rs times bgedit doing: `import mat`
of each file, then every record stepped (`next`) and its GNUBG ID asked.

    python3 benches/mat_gnubg.py [FILES]   (default 100 of the 1,000)
    python3 benches/mat_gnubg.py --xg-exports [FILES]

--xg-exports: only XG's own `.mat` exports of the real matches whose `.xg`
files benches/mat.rs times in its `xg` group (gnubg reads no `.xg`; this
is the same matches, the same positions, through gnubg's own reader).

Builds the same 1,000 files as benches/mat.rs (the fixtures under
tests/fixtures/mat/, the players renamed in each copy), runs one gnubg
process over the first FILES of them and prints positions per second
(time inside gnubg's Python, process start excluded).
"""
import glob
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
import gnubg, os, sys, time
files = open(os.environ["MAT_LIST"]).read().split("\n")
files = [f for f in files if f]
gnubg.command("set display off")
n = 0
t = time.time()
for path in files:
    gnubg.command("import mat " + path)
    m = gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)
    gnubg.command("first game")
    for gi, g in enumerate(m["games"]):
        if gi:
            gnubg.command("next game")
        for a in g["game"]:
            gnubg.command("next")
            try:
                gnubg.gnubgid()
            except ValueError:
                pass
            n += 1
dt = time.time() - t
sys.stderr.write("GNUBG %d files %d positions %.3f s %.0f positions/s\n" % (len(files), n, dt, n / dt))
'''


def is_utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def corpus(directory, pattern="*.mat"):
    fixtures = sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "mat", pattern)))
    texts = [open(p, "rb").read() for p in fixtures]
    # gnubg's Python module crashes on Latin-1 names: both benches read the
    # Latin-1 fixture as UTF-8.
    texts = [t if is_utf8(t) else t.decode("latin-1").encode("utf-8") for t in texts]
    paths = []
    for i in range(1000):
        out = []
        for line in texts[i % len(texts)].split(b"\n"):
            if b":" in line and b")" not in line and not line.startswith(b";"):
                line = line.replace(b"gnubg", b"player%d" % i, 1)
            out.append(line)
        path = os.path.join(directory, "m%04d.mat" % i)
        with open(path, "wb") as f:
            f.write(b"\n".join(out))
        paths.append(path)
    return paths


def main():
    args = [a for a in sys.argv[1:] if a != "--xg-exports"]
    pattern = "xg_export_*.mat" if "--xg-exports" in sys.argv else "*.mat"
    count = int(args[0]) if args else 100
    with tempfile.TemporaryDirectory() as d:
        paths = corpus(d, pattern)[:count]
        listing = os.path.join(d, "list.txt")
        with open(listing, "w") as f:
            f.write("\n".join(paths))
        script = os.path.join(d, "step.py")
        with open(script, "w") as f:
            f.write(SCRIPT)
        r = subprocess.run(["/usr/games/gnubg", "-t", "-q", "-r", "-p", script],
                           env=dict(os.environ, MAT_LIST=listing),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        lines = [l for l in r.stderr.splitlines() if l.startswith("GNUBG")]
        print("\n".join(lines) if lines else r.stderr[-2000:])


if __name__ == "__main__":
    main()
