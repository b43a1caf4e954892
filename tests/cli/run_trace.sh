#!/usr/bin/env bash
# tablesight run --trace under Xvfb (started here): every frame captured has a
# decode row, every frame vision read a vision row after it, and results reach
# the window's draw callback; tests/tools/live_trace.py reads the file and
# splits the capture -> hints-in-window latency. Also --size's usage error.
# Args: $1 tablesight binary, $2 source dir.
set -u
ts=$1 src=$2
command -v Xvfb > /dev/null || { echo "SKIP: needs Xvfb"; exit 77; }
source "$(dirname "$0")/lib/check.sh"
start_xvfb 1920x1080x24

# The bundled clip (JPEG frames: the capture's own decoder) at 10 fps.
"$ts" run --source "$src/samples/clip/frame_%04d.jpg" --fps 10 --frames 25 --quiet \
    --trace "$tmp/t.tsv" > /dev/null 2> "$tmp/err"
check "run --trace exits 0" test $? -eq 0
check "a header line" grep -q "^stage	seq	t_frame	t_start	t_end	cpu_ms	minflt	nivcsw	aux$" "$tmp/t.tsv"
count() { awk -F'\t' -v s="$1" '$1 == s' "$tmp/t.tsv" | wc -l; }
check "25 vision rows" test "$(count vision)" -eq 25
check "decode rows for at least every frame read" test "$(count decode)" -ge 25
check "frames handed to the window" test "$(count show)" -ge 1
check "frames drawn in the window" test "$(count draw)" -ge 1
# Each frame vision read was decoded and published (t_frame) before vision took it.
# Rows are written when a stage ends, so a decode thread descheduled after
# publishing writes its row after vision's: the decode rows are read first.
check "decode before vision, per frame" awk -F'\t' '
    NR == FNR { if ($1 == "decode") dec[$2] = $3; next }
    $1 == "vision" { if (!($2 in dec) || dec[$2] > $4 + 0.01) bad++ }
    END { exit bad > 0 }' "$tmp/t.tsv" "$tmp/t.tsv"
# CPU time never exceeds wall time by more than the clocks' grain.
check "cpu <= wall" awk -F'\t' 'NR > 1 && $6 > $5 - $4 + 5 { bad++ } END { exit bad > 0 }' "$tmp/t.tsv"
python3 "$src/tests/tools/live_trace.py" "$tmp/t.tsv" 100 > "$tmp/report"
check "live_trace.py finds results drawn in the window" grep -q "capture -> hints in window: n=[1-9]" "$tmp/report"

"$ts" run --size 1920 --headless > /dev/null 2> "$tmp/err"
check "--size without x is a usage error (2)" test $? -eq 2
check "--size says what it needs" grep -q "WIDTHxHEIGHT" "$tmp/err"
finish run_trace
