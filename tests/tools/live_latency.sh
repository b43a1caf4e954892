#!/usr/bin/env bash
# Live latency of `tablesight run` with its window: one still table image shown
# as a 30 fps camera for SECONDS, either raw (decoded once, then repeated by
# imagefreeze), MJPEG (the JPEG handed over every frame as image/jpeg, as a
# USB webcam's 1080p stream comes from v4l2src: tablesight decodes it) or
# jpegdec (the same, decoded by GStreamer's jpegdec named in the source), then
# stopped with SIGINT; prints the run's statistics (latency p50/p95, frames
# dropped, stage medians) and its CPU time.
# Usage: tests/tools/live_latency.sh TABLESIGHT raw|mjpeg|jpegdec IMAGE.jpg [SECONDS]
# Needs $DISPLAY (e.g. `xvfb-run -a -s '-screen 0 1920x1080x24' tests/tools/live_latency.sh ...`).
# TRACE=FILE also writes the run's per-frame stage stamps (`run --trace`, builds
# from session 6 on) and prints where the latency went (tests/tools/live_trace.py).
set -euo pipefail
ts=$1 kind=$2 image=$3 seconds=${4:-20}
case $kind in
raw) src=(--source "$image" --fps 30) ;;
mjpeg) src=(--source "multifilesrc location=$image loop=true caps=image/jpeg,framerate=30/1") ;;
jpegdec) src=(--source "multifilesrc location=$image loop=true caps=image/jpeg,framerate=30/1 ! jpegdec") ;;
*) echo "usage: $0 TABLESIGHT raw|mjpeg|jpegdec IMAGE [SECONDS]" >&2; exit 2 ;;
esac
# The run's CPU time (both cores, every thread) is printed last: on a shared
# host, latency follows the load, CPU seconds per frame much less.
trace=()
[ -n "${TRACE:-}" ] && trace=(--trace "$TRACE")
/usr/bin/time -f "cpu: %U s user, %S s system" \
    timeout -s INT -k 10 "$seconds" "$ts" run "${src[@]}" "${trace[@]}" --quiet 2>&1 >/dev/null |
    grep -v '^capture:' || true
[ -n "${TRACE:-}" ] && python3 "$(dirname "$0")/live_trace.py" "$TRACE"
exit 0
