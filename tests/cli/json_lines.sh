#!/usr/bin/env bash
# Every line scan, eval and bench print is valid JSON (checked with a second,
# independent parser: Python's), file names with quotes, control characters
# and bytes that are not UTF-8 included.
set -u
ts=$1 src=$2
py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
. "$(dirname "$0")/lib/check.sh"
img="$src/samples/demo/set_1.jpg"
mkdir -p "$tmp/in"
names=('quote"d.jpg' 'back\slash.jpg' $'tab\there.jpg' $'new\nline.jpg' $'bell\a.jpg' $'latin1-\xe9t\xe9.jpg' $'bad-\xc3\x28.jpg' 'caf'$'\xc3\xa9''-♠.jpg')
for n in "${names[@]}"; do cp "$img" "$tmp/in/$n"; done
(cd "$tmp/in" && "$ts" scan -- "${names[@]}") > "$tmp/scan.jsonl" 2> "$tmp/scan.err"
check "scan exits 0" test $? -eq 0
check "one line per image" test "$(wc -l < "$tmp/scan.jsonl")" -eq ${#names[@]}
# Each line parses; its source is the file name (bytes that are not UTF-8 as U+FFFD).
printf '%s\0' "${names[@]}" > "$tmp/names"
check "every line parses, names as given" "$py" - "$tmp/scan.jsonl" "$tmp/names" <<'PY'
import json, sys
lines = open(sys.argv[1], 'rb').read().split(b'\n')[:-1]
names = open(sys.argv[2], 'rb').read().split(b'\0')[:-1]
assert len(lines) == len(names), (len(lines), len(names))
for raw, name in zip(lines, names):
    line = raw.decode('utf-8')          # strict: the line itself is UTF-8
    obj = json.loads(line)
    want = name.decode('utf-8', errors='replace')
    assert obj['source'] == want, (obj['source'], want)
    assert len(obj['cards']) == 12, len(obj['cards'])
    assert all(isinstance(c['conf'], (int, float)) for c in obj['cards'])
PY
# eval and bench summaries parse too; eval's label file name is odd as well.
printf '%s\t%s\n' "${names[0]}" "$(sed -n 's/^set_1.jpg\t//p' "$src/samples/demo/labels.tsv")" > "$tmp/in/l\"abels"$'\x01'".tsv"
"$ts" eval --json "$tmp/in/l\"abels"$'\x01'".tsv" > "$tmp/eval.json" 2> /dev/null
check "eval summary parses" "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["correct"] == 12, d' "$tmp/eval.json"
"$ts" bench --repeat 1 --json "$img" > "$tmp/bench.json"
check "bench summary parses" "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["runs"] == 1, d' "$tmp/bench.json"

# run --json on a table with no cards says so: one line, no cards, no events.
"$ts" run --headless --json --quiet --source 'videotestsrc num-buffers=20 pattern=black' > "$tmp/empty.jsonl" 2> /dev/null
check "run on an empty table exits 0" test $? -eq 0
check "run says the table is empty, once" "$py" -c '
import json, sys
lines = open(sys.argv[1]).read().splitlines()
assert len(lines) == 1, lines
d = json.loads(lines[0])
assert d["cards"] == [] and d["events"] == [] and d["w"] == 320, d' "$tmp/empty.jsonl"

finish json_lines
