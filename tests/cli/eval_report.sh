#!/usr/bin/env bash
# eval --report / --json: what was misread as what, read cards in label
# order, confusion matrices, the wrong images; thumbnails open the full image.
# The bundled demo photos are read perfectly, so the labels are doctored: one
# card relabelled (it is then "read as" its true code) and one card added
# (it is then "missed").
set -u
ts=$1 src=$2
py=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
. "$(dirname "$0")/lib/check.sh"
demo="$src/samples/demo"
codes=$(sed -n 's/^set_1.jpg\t//p' "$demo/labels.tsv")
first=${codes%% *}
rest=${codes#* }
# Relabel the first card: same count, colour and shape, another shading.
sh=${first:3:1}
case $sh in S) other=O ;; O) other=T ;; *) other=S ;; esac
fake=${first:0:3}$other
printf 'set_1.jpg\t%s %s 3GOT\nset_2.jpg\t%s\n' "$fake" "$rest" "$(sed -n 's/^set_2.jpg\t//p' "$demo/labels.tsv")" > "$tmp/labels.tsv"
cp "$demo/set_1.jpg" "$demo/set_2.jpg" "$tmp/"

"$ts" eval --json --report "$tmp/rep" "$tmp/labels.tsv" > "$tmp/eval.json" 2> /dev/null
check "eval exits 0" test $? -eq 0
check "json: misread, missed, order, matrices, wrong images" "$py" - "$tmp/eval.json" "$fake" "$first" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
fake, true = sys.argv[2], sys.argv[3]
assert d["wrong_images"] == 1, d["wrong_images"]
assert set(d["confusion"]) == {"count", "colour", "shape", "shading"}, d["confusion"].keys()
m = d["confusion"]["shading"]["matrix"]
assert len(m) == 3 and all(len(r) == 4 for r in m), m
assert sum(map(sum, m)) == d["cards"], (m, d["cards"])
assert sum(m[i][i] for i in range(3)) == d["cards"] - 2, m  # one misread, one missed
assert d["attribute_counts"]["shading"]["correct"] == d["attribute_counts"]["shading"]["paired"] - 1
mis = {(x["label"], x["as"], x["how"]) for x in d["misread_as"]}
assert (fake, true, "read") in mis, mis
assert ("3GOT", None, "missed") in mis, mis
(w,) = d["wrong"]
assert w["image"] == "set_1.jpg", w["image"]
assert w["labelled"][0] == fake and w["read"][0]["code"] == true, w
assert w["read"][-1] is None, w["read"][-1]  # the added card: missed
# In label order: every other card was read as its own label.
assert all(r["code"] == l for l, r in zip(w["labelled"][1:-1], w["read"][1:-1])), w
assert f"{fake} read as {true}" in w["misreads"], w["misreads"]
assert "3GOT missed" in w["misreads"], w["misreads"]
assert w["annotated"] == "wrong/set_1.annotated.jpg", w["annotated"]
PY
html="$tmp/rep/index.html"
check "thumbnail opens the full image" grep -q '<a href="wrong/set_1.annotated.jpg"><img src="wrong/set_1.annotated.jpg"' "$html"
check "annotated image written" test -s "$tmp/rep/wrong/set_1.annotated.jpg"
check "caption says what was misread as what" grep -q "<li>$fake read as $first" "$html"
check "caption says what was missed" grep -q "<li>3GOT missed" "$html"
check "caption lists reads in label order" grep -q "read $first ${rest} -<" "$html"
check "code-level table" grep -q "Misread as" "$html"
# Text output: the same line.
"$ts" eval "$tmp/labels.tsv" > "$tmp/eval.txt" 2> /dev/null
check "text names the misread" grep -q "set_1.jpg: .*$fake read as $first, 3GOT missed" "$tmp/eval.txt"

# Renders: the truth beside each image scores cards by how much of them shows.
# set_1's truth holds its real first card, not the relabelled one; a broken
# truth file is named on stderr and its image still counts in the main tally.
cp "$demo/set_1.json" "$tmp/"
echo '{"cards":[' > "$tmp/set_2.json"
"$ts" eval --json "$tmp/labels.tsv" > "$tmp/vis.json" 2> "$tmp/vis.err"
check "broken truth: exit 0" test $? -eq 0
check "broken truth named" grep -q "set_2.json" "$tmp/vis.err"
check "by visibility from the render truth" "$py" - "$tmp/vis.json" "$demo/set_1.json" <<'PY'
import json, sys
d, truth = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
full = sum(c.get("visible", 1) >= 0.99 for c in truth["cards"])
v = d["by_visibility"]["fully_visible"]
assert v["cards"] == full and v["correct"] == full and v["wrong"] == 0, (v, full)
assert d["images"] == 2 and d["failed_images"] == 0, d
PY
"$ts" eval "$tmp/labels.tsv" 2> /dev/null | grep -q "^fully visible   100.00%"
check "text: fully visible line" test $? -eq 0

finish eval_report
