#!/usr/bin/env bash
# tablesight run: the window under Xvfb (started here): screenshot shows outlines, Set rings, status band; stale marker.
# Args: $1 tablesight binary, $2 source dir, $3 shared dir. Needs python3 (stdlib).
set -euo pipefail
[ -d "$3/data/set" ] || { echo "SKIP: no shared data at $3"; exit 77; }
exec python3 "$(dirname "$0")/run_check.py" window "$1" "$2" "$3"
