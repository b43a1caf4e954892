#!/usr/bin/env bash
# The live window under Xvfb (started here): small video shown scaled up,
# F11 toggles fullscreen (video scaled to the screen, aspect kept), q and Esc
# quit with exit 0, --fullscreen starts so; a camera that is not there fails
# at once with a message instead of a window.
set -u
ts=$1 src=$2
xkey=$(dirname "$ts")/tests/ts_xkey
command -v Xvfb > /dev/null && command -v xwininfo > /dev/null && command -v xwd > /dev/null ||
    { echo "SKIP: needs Xvfb, xwininfo and xwd"; exit 77; }
[ -x "$xkey" ] || { echo "SKIP: no $xkey"; exit 77; }
source "$(dirname "$0")/lib/check.sh"
start_xvfb 1920x1200x24

size() { # the tablesight window's WxH, or nothing
    xwininfo -root -tree 2> /dev/null | sed -n 's/.*"tablesight[^"]*": ("tablesight".* \([0-9]*x[0-9]*\)+.*/\1/p' | head -1
}
wait_size() { # want, within 30 s (a loaded machine starts late)
    for _ in $(seq 300); do [ "$(size)" = "$1" ] && return 0; sleep 0.1; done
    echo "  window is '$(size)', not $1"
    return 1
}
wait_exit() { # pid, within 30 s; its status in $status
    for _ in $(seq 300); do kill -0 "$1" 2> /dev/null || break; sleep 0.1; done
    kill -0 "$1" 2> /dev/null && { kill "$1"; echo "  did not quit"; }
    wait "$1"
    status=$?
}
# A screen pixel's brightness (0-255 sum/3), from xwd's 32-bit ZPixmap.
pixel() {
    xwd -root -silent | python3 -c '
import struct, sys
d = sys.stdin.buffer.read(); h = struct.unpack(">25I", d[:100])
x, y = int(sys.argv[1]), int(sys.argv[2])
i = h[0] + h[19] * 12 + y * h[12] + x * 4
print(sum(d[i:i + 3]) // 3)' "$1" "$2"
}
# Waits up to 30 s for a screen pixel to turn non-black (the first frame drawn
# at a new size can be late on a loaded machine).
wait_lit() { # x y
    for _ in $(seq 300); do [ "$(pixel "$1" "$2")" -gt 0 ] && return 0; sleep 0.1; done
    return 1
}

# The bundled clip is 640x360: shown at twice that.
"$ts" run --loop --quiet 2> "$tmp/run.err" &
pid=$!
check "640x360 clip shown at 1280x720" wait_size 1280x720
"$xkey" tablesight F11
check "F11: fullscreen" wait_size 1920x1200
# 16:9 on 16:10: the video fills the width, black bars above and below.
check "fullscreen video reaches the far corner" wait_lit 1900 1100
check "fullscreen keeps the aspect (bar at the top)" test "$(pixel 960 20)" -eq 0
"$xkey" tablesight h   # a game's key (SET hint ladder): passed on, not the window's
sleep 0.5
check "other keys leave the window as it is" wait_size 1920x1200
"$xkey" tablesight F11
check "F11 again: back to 1280x720" wait_size 1280x720
"$xkey" tablesight q
wait_exit $pid
check "q quits with exit 0" test "$status" -eq 0
check "q said" grep -q "window closed (quit key)" "$tmp/run.err"

"$ts" run --loop --quiet --fullscreen 2> "$tmp/run2.err" &
pid=$!
check "--fullscreen starts fullscreen" wait_size 1920x1200
"$xkey" tablesight Escape
wait_exit $pid
check "Esc quits with exit 0" test "$status" -eq 0

# A 1280x720 source is shown at its own size (no scaling, no added cost).
"$ts" run --loop --quiet --source "$src/samples/demo/set_1.jpg" 2> /dev/null &
pid=$!
check "1280x720 shown as it is" wait_size 1280x720
"$xkey" tablesight q
wait_exit $pid

# No camera and --source auto: said, not mistaken for a working camera.
if ! ls /dev/video* > /dev/null 2>&1; then
    "$ts" run --headless --frames 1 --fast 2> "$tmp/auto.err" > /dev/null
    check "auto without a camera says so" grep -q "no camera found (/dev/video\*): playing the bundled sample clip" "$tmp/auto.err"
fi

# A camera that was never there: fails at once, with a clear message.
start=$(date +%s)
"$ts" run --source /dev/video-tablesight-none 2> "$tmp/cam.err"
status=$?
check "missing camera exits 1" test $status -eq 1
check "missing camera said" grep -q "/dev/video-tablesight-none: no such camera" "$tmp/cam.err"
check "missing camera fails fast" test $(($(date +%s) - start)) -le 3

finish window_keys
