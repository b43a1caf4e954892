#!/usr/bin/env bash
# Re-renders the bundled samples, which are synthetic (drawn by tablesight
# render, never photographed) and deterministic: the same build gives the same
# bytes. samples/demo/ holds four SET tables for `make demo`; samples/clip/ the
# deal that `tablesight run` plays when no camera is attached; samples/picture/
# the README's picture (an annotated demo table).
# Usage: samples/regenerate.sh   (TABLESIGHT=path/to/tablesight to pick a build)
set -euo pipefail
cd "$(dirname "$0")/.."
ts=${TABLESIGHT:-build/tablesight}

rm -f samples/demo/*.jpg samples/demo/*.json samples/demo/labels.tsv
demo="--game set --layout grid --size 1280x720 --quality 85 --quiet"
"$ts" render $demo --random 12 --seed 1 --count 2 samples/demo
"$ts" render $demo --random 15 --seed 4 samples/demo
"$ts" render $demo --random 12 --seed 10 samples/demo

rm -f samples/clip/frame_*.jpg samples/clip/frame_*.json samples/clip/labels.tsv
"$ts" render --sequence deal --seed 1 --size 640x360 --quality 75 --quiet samples/clip

# The README's picture: the annotated demo table with six Sets (rendered, not
# photographed), as `scan --annotate` draws it, re-encoded smaller (< 200 KB)
# with libjpeg-turbo's djpeg/cjpeg.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$ts" scan --annotate "$tmp" samples/demo/set_4.jpg > /dev/null
djpeg "$tmp/set_4.annotated.jpg" | cjpeg -quality 75 -optimize > samples/picture/set_4_annotated.jpg

du -sh samples/demo samples/clip samples/picture
