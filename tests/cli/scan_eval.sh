#!/usr/bin/env bash
# scan / eval / bench from the command line: output contract, bad input, and
# accuracy floors on the shared photos (floors sit under the measured figures:
# they catch regressions, the closing notes report the real numbers).
set -u
[ -d "$3/data/set" ] || { echo "SKIP: no shared data at $3"; exit 77; }
ts=$1 src=$2 shared=$3
. "$(dirname "$0")/lib/check.sh"

board="$shared/data/set/boards/tomwhite_set-game_data_webcam_20170529_184024.jpg"

# --help everywhere, exit 0
for c in scan eval bench; do
    check "$c --help" bash -c "'$ts' $c --help | grep -q usage"
done

# One JSON object per image, with the contract's keys.
"$ts" scan --annotate "$tmp/ann" "$board" > "$tmp/scan.json" 2> "$tmp/scan.err"
check "scan exits 0" test $? -eq 0
check "scan prints one line" test "$(wc -l < "$tmp/scan.json")" -eq 1
for key in '"source"' '"frame"' '"game":"set"' '"w":960' '"h":720' '"cards"' '"code"' '"conf"' '"quad"' '"sets"' '"timing_ms"' '"decode"' '"detect"' '"classify"' '"rules"' '"total"'; do
    check "scan has $key" grep -q "$key" "$tmp/scan.json"
done
check "scan finds 12 cards" test "$(grep -o '"code"' "$tmp/scan.json" | wc -l)" -eq 12
check "annotated image written" test -s "$tmp/ann/tomwhite_set-game_data_webcam_20170529_184024.annotated.jpg"

# Bad files: a message naming the file, the batch goes on, exit 1.
: > "$tmp/empty.jpg"
head -c 5000 "$board" > "$tmp/truncated.jpg"
echo "not an image" > "$tmp/text.jpg"
"$ts" scan "$tmp/empty.jpg" "$tmp/truncated.jpg" "$tmp/text.jpg" "$board" "$tmp/missing.jpg" > "$tmp/bad.json" 2> "$tmp/bad.err"
check "bad files exit 1" test $? -eq 1
check "good file still scanned" test "$(wc -l < "$tmp/bad.json")" -eq 1
check "empty named" grep -q "empty.jpg: empty file" "$tmp/bad.err"
check "truncated named" grep -q "truncated.jpg: truncated JPEG" "$tmp/bad.err"
check "text named" grep -q "text.jpg: not a JPEG or PNG" "$tmp/bad.err"
check "missing named" grep -q "missing.jpg: No such file" "$tmp/bad.err"
check "one line per bad file" test "$(wc -l < "$tmp/bad.err")" -eq 4

# Usage errors exit 2.
"$ts" scan > /dev/null 2>&1
check "scan without files exits 2" test $? -eq 2
"$ts" scan --profile nosuch "$board" > /dev/null 2> "$tmp/prof.err"
check "unknown profile exits 2" test $? -eq 2
check "unknown profile named" grep -q "nosuch" "$tmp/prof.err"

# Malformed label files: fatal, the line named.
printf 'boards/x.jpg\t1RDS 9XYZ\n' > "$tmp/bad.tsv"
"$ts" eval "$tmp/bad.tsv" > /dev/null 2> "$tmp/label.err"
check "malformed label exits 2" test $? -eq 2
check "malformed label names line and token" grep -q "bad.tsv:1: '9XYZ' is not a set card code" "$tmp/label.err"
printf 'no tab here\n' > "$tmp/bad2.tsv"
"$ts" eval "$tmp/bad2.tsv" > /dev/null 2> "$tmp/label2.err"
check "label without tab exits 2" test $? -eq 2

# Accuracy floors on the shared photos, with an HTML report.
"$ts" eval --json --report "$tmp/report" "$shared/data/set/boards.tsv" > "$tmp/boards.json" 2> /dev/null
check "boards eval exits 0" test $? -eq 0
num() { grep -o "\"$1\":[0-9.]*" "$2" | head -1 | cut -d: -f2; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }
echo "boards: $(cat "$tmp/boards.json")"
check "boards card accuracy >= 0.93" at_least "$(num card_accuracy "$tmp/boards.json")" 0.93
check "boards detection recall >= 0.96" at_least "$(num detect_recall "$tmp/boards.json")" 0.96
check "boards false cards <= 5" at_least 5 "$(num false_cards "$tmp/boards.json")"
check "report written" grep -q "confusion" "$tmp/report/index.html"
check "report has thumbnails" bash -c "ls '$tmp/report/wrong/'*.jpg > /dev/null"

"$ts" eval --json "$shared/data/set/crops.tsv" > "$tmp/crops.json" 2> /dev/null
echo "crops: $(cat "$tmp/crops.json")"
check "crops card accuracy >= 0.98" at_least "$(num card_accuracy "$tmp/crops.json")" 0.98
# The half of crops.tsv models/classic.profile was not trained on (even lines).
crops_dir=$(cd "$shared/data/set" && pwd)
awk -v d="$crops_dir/" 'NR % 2 == 0 { print d $0 }' "$shared/data/set/crops.tsv" > "$tmp/heldout.tsv"
"$ts" eval --json "$tmp/heldout.tsv" > "$tmp/heldout.json" 2> /dev/null
echo "held-out crops: $(cat "$tmp/heldout.json")"
check "held-out crops card accuracy >= 0.98" at_least "$(num card_accuracy "$tmp/heldout.json")" 0.98

# bench prints its stages.
"$ts" bench --repeat 1 "$board" > "$tmp/bench.txt"
for stage in decode detect rectify read rules; do
    check "bench reports $stage" grep -q "$stage" "$tmp/bench.txt"
done

finish scan_eval
