#!/usr/bin/env bash
# Re-renders the bundled samples (synthetic, deterministic): the demo photos
# and the clip `tablesight run` plays when no camera is attached.
set -euo pipefail
cd "$(dirname "$0")/.."
ts=${TABLESIGHT:-build/tablesight}
rm -rf samples/demo samples/clip
"$ts" render --game set --seed 1 --count 4 --random 12 samples/demo
"$ts" render --game set --sequence deal --seed 8 --size 640x360 samples/clip
