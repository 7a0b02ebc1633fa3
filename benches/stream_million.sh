#!/usr/bin/env bash
# Streams a million IDs through the release binary on one core and reports
# IDs (or boards) a second and the peak resident memory: the figures the
# README quotes for `bgedit convert` and `bgedit show`.
#
#   cargo build --release && benches/stream_million.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=target/release/bgedit
N=${N:-1000000}
INPUT=$(mktemp)
trap 'rm -f "$INPUT"' EXIT
python3 - "$N" > "$INPUT" <<'PY'
import sys
ids = ["4NvBA0DGzooBBg:QYkqASAAIAAA", "4HPwATDgc/ABMA:cAkAAAAAAAAA",
       "XGID=a-B--BC-BAA-dB---cbe-B----:1:-1:1:52:4:2:0:9:10",
       "GNUBG ID: 2x0AAOi2AQAAAA:cAkAAAAAAAAA",
       "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"]
n = int(sys.argv[1])
sys.stdout.write("\n".join(ids[i % len(ids)] for i in range(n)) + "\n")
PY
run() {
  local label=$1; shift
  local t0 t1 rss
  t0=$(date +%s.%N)
  rss=$( { /usr/bin/time -f '%M' taskset -c 0 "$BIN" "$@" < "$INPUT" > /dev/null; } 2>&1 | tail -1)
  t1=$(date +%s.%N)
  python3 -c "import sys; n,t0,t1,rss=int(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3]),int(sys.argv[4]); print(f'{sys.argv[5]:<22} {n/(t1-t0):>12,.0f} per second   peak RSS {rss/1024:.1f} MiB')" "$N" "$t0" "$t1" "$rss" "$label"
}
run "convert --to gnubg" convert -q --to gnubg
run "convert --to xgid" convert -q --to xgid
run "show" show -q
