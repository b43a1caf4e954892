#!/usr/bin/env bash
# The page at / of `run --http`, loaded in a real headless browser (Debian's
# chromium): its screenshot must show the live stream (the video's pixels over
# most of the page), not an empty page or a broken-image icon.
# Args: $1 tablesight binary, $2 source dir.
set -u
ts=$1 src=$2
command -v djpeg > /dev/null || { echo "SKIP: needs djpeg"; exit 77; }
browser=$(command -v chromium || command -v chromium-browser) ||
    { echo "SKIP: needs chromium (make deps installs it)"; exit 77; }
tmp=$(mktemp -d)
"$ts" run --headless --loop --quiet --source "$src/samples/clip/frame_%04d.jpg" \
    --http 127.0.0.1:0 2> "$tmp/run.err" &
pid=$!
trap 'kill $pid 2> /dev/null; wait $pid 2> /dev/null; rm -rf "$tmp"' EXIT
port=
for _ in $(seq 100); do
    port=$(sed -n 's/.*HTTP on port \([0-9]*\).*/\1/p' "$tmp/run.err")
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || { echo "FAIL: run --http did not say its port"; cat "$tmp/run.err"; exit 1; }

# The multipart stream never ends: the virtual time budget lets the page settle
# with its first frames shown, then the screenshot is taken.
HOME=$tmp timeout 120 "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$tmp/profile" --window-size=480,300 --virtual-time-budget=4000 \
    --screenshot="$tmp/page.jpg" "http://127.0.0.1:$port/" > "$tmp/browser.log" 2>&1
[ -s "$tmp/page.jpg" ] || { echo "FAIL: no screenshot"; tail -5 "$tmp/browser.log"; exit 1; }

# The bundled clip is a red felt table; the page's background is #111 and an
# error page or a broken-image icon is grey on white: coloured pixels over most
# of the page mean the stream is shown (it fills the page's width).
djpeg -pnm "$tmp/page.jpg" | python3 -c '
import sys
d = sys.stdin.buffer.read()
head = d.split(maxsplit=4)  # P6 w h maxval pixels
w, h, px = int(head[1]), int(head[2]), head[4]
video = sum(1 for i in range(0, 3 * w * h, 3) if max(px[i:i + 3]) - min(px[i:i + 3]) > 40)
print("page %dx%d: %.0f%% of it shows the stream" % (w, h, 100 * video / (w * h)))
sys.exit(0 if video > w * h // 2 else 1)'
status=$?
[ $status -eq 0 ] || echo "FAIL: the page does not show the stream"
kill -0 $pid 2> /dev/null || { echo "FAIL: run stopped"; cat "$tmp/run.err"; exit 1; }
exit $status
