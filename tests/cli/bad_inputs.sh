#!/usr/bin/env bash
# scan/eval on hostile and real-world inputs: special files among the inputs
# (refused at once, the batch goes on), a phone trailer after the JPEG end
# marker, a greyscale photo, a label file with a byte-order mark, image names
# that are HTML, two inputs with the same base name, a pixel limit.
# Args: $1 tablesight binary, $2 source dir, $3 shared dir.
set -euo pipefail
TS=$(realpath "$1") SRC=$(realpath "$2") SHARED=$3
PHOTO=$SHARED/data/set/boards/tomwhite_set-game_data_webcam_20170529_184024.jpg
[ -f "$PHOTO" ] || { echo "SKIP: no shared data at $SHARED"; exit 77; }
T=$(mktemp -d /tmp/ts_bad_inputs_XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
codes() { python3 -c 'import json,sys; [print(" ".join(sorted(c["code"] for c in json.loads(l)["cards"] if c["read"]))) for l in sys.stdin]'; }

# ---- Special files among the inputs: one line each, nothing hangs, the rest answered.
mkfifo "$T/pipe.jpg"
mkdir "$T/folder.jpg"
set +e
timeout 60 "$TS" scan "$T/pipe.jpg" /dev/null "$T/folder.jpg" "$PHOTO" > "$T/out" 2> "$T/err"
rc=$?
set -e
[ $rc -ne 124 ] || fail "scan hung on a FIFO"
[ $rc -eq 1 ] || fail "scan exit $rc with unreadable inputs, want 1"
grep -q "$T/pipe.jpg: a named pipe" "$T/err" || fail "FIFO not named: $(cat "$T/err")"
grep -q "/dev/null: a character device" "$T/err" || fail "device not named"
grep -q "$T/folder.jpg: a directory" "$T/err" || fail "directory not named"
[ "$(wc -l < "$T/err")" -eq 3 ] || fail "want one line per refused input: $(cat "$T/err")"
[ "$(wc -l < "$T/out")" -eq 1 ] || fail "the photo after the special files was not answered"
WANT=$(codes < "$T/out")
[ -n "$WANT" ] || fail "no cards read in $PHOTO"

# ---- A phone trailer after the end marker: the same cards.
{ cat "$PHOTO"; printf '\0\0\0\0SEFH'; head -c 30000 /dev/zero | tr '\0' 'x'; printf 'SEFT'; } > "$T/phone.jpg"
GOT=$("$TS" scan "$T/phone.jpg" | codes)
[ "$GOT" = "$WANT" ] || fail "trailer changed the reading: '$GOT' vs '$WANT'"
# Cut inside the image data: refused as truncated, naming the file.
head -c $(( $(stat -c %s "$PHOTO") / 2 )) "$PHOTO" > "$T/cut.jpg"
if "$TS" scan "$T/cut.jpg" > /dev/null 2> "$T/err"; then fail "a cut JPEG was read"; fi
grep -q "$T/cut.jpg: truncated JPEG" "$T/err" || fail "truncation not said: $(cat "$T/err")"

# ---- A greyscale photo: answered, with the reason no card is read.
jpegtran -grayscale "$PHOTO" > "$T/grey.jpg"
"$TS" scan "$T/grey.jpg" > "$T/out" 2> "$T/err" || fail "grey photo: exit $?"
grep -q "$T/grey.jpg: a greyscale image" "$T/err" || fail "grey photo: no reason given: $(cat "$T/err")"
[ -z "$(codes < "$T/out")" ] || fail "cards read from a greyscale photo"

# ---- A pixel limit, before decoding.
if "$TS" scan --max-pixels 0.5M "$PHOTO" > /dev/null 2> "$T/err"; then fail "--max-pixels 0.5M read a 0.7 MP photo"; fi
grep -q "too large" "$T/err" || fail "pixel limit reason: $(cat "$T/err")"
"$TS" scan --max-pixels 1M "$PHOTO" > /dev/null || fail "--max-pixels 1M refused a 0.7 MP photo"
if "$TS" scan --max-pixels lots "$PHOTO" > /dev/null 2>&1; then fail "--max-pixels lots accepted"; fi

# ---- Same base names: nothing overwritten (scan --annotate).
mkdir -p "$T/a" "$T/b"
ln -s "$PHOTO" "$T/a/IMG_1.jpg"
ln -s "$SRC/samples/demo/set_1.jpg" "$T/b/IMG_1.jpg"
"$TS" scan --annotate "$T/ann" "$T/a/IMG_1.jpg" "$T/b/IMG_1.jpg" > /dev/null 2> "$T/err"
[ -f "$T/ann/IMG_1.annotated.jpg" ] && [ -f "$T/ann/IMG_1-2.annotated.jpg" ] \
  || fail "same base names: $(ls "$T/ann")"
grep -q "annotated as .*IMG_1-2.annotated.jpg" "$T/err" || fail "the renaming is not said"

# ---- eval: BOM in the label file, names that are markup, same base names.
NAME='x<script>alert(1)<\script>.jpg'
ln -s "$PHOTO" "$T/a/$NAME"
ln -s "$PHOTO" "$T/b/$NAME"
ln -s "$PHOTO" "$T/a/q\"'&#?.jpg"
printf '\xef\xbb\xbfa/IMG_1.jpg\t%s\n' "$WANT" > "$T/labels.tsv"
printf 'a/%s\t1RDS\nb/%s\t1RDS\n' "$NAME" "$NAME" >> "$T/labels.tsv"
printf 'a/q"%s&#?.jpg\t1RDS\n' "'" >> "$T/labels.tsv"
"$TS" eval --json --report "$T/report" "$T/labels.tsv" > "$T/out" 2> "$T/err" || fail "eval: $(cat "$T/err")"
python3 - "$T" <<'EOF'
import json, os, re, sys, urllib.parse
t = sys.argv[1]
o = json.load(open(t + "/out"))
assert o["failed_images"] == 0, "the BOM line was not read: %r" % o
assert o["images"] == 4 and o["wrong_images"] == 3, o
html = open(t + "/report/index.html").read()
assert "<script>" not in html, "an image name was written as markup"
assert "x&lt;script&gt;alert(1)&lt;\\script&gt;.jpg" in html, "the name is not shown escaped"
srcs = re.findall(r'<img src="([^"]*)"', html)
assert len(srcs) == 3, srcs
files = [urllib.parse.unquote(s) for s in srcs]
assert len(set(files)) == 3, "two thumbnails share a file: %r" % files
for f in files:
    assert os.path.isfile(os.path.join(t, "report", f)), "thumbnail %s missing" % f
print("eval report: names escaped, 3 distinct thumbnails")
EOF
echo "bad inputs: special files, trailer, truncation, grey, pixel limit, same names, BOM, HTML ok"
