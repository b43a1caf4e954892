#!/usr/bin/env bash
# tablesight run under faults: a camera unplugged and replugged, a stalled source, the disk
# filling while recording, stdout closed (SIGPIPE), SIGTERM mid-write. Headless.
# Args: $1 tablesight binary, $2 source dir, $3 shared dir. Needs python3 (stdlib).
set -euo pipefail
[ -d "$3/data/set" ] || { echo "SKIP: no shared data at $3"; exit 77; }
exec python3 "$(dirname "$0")/run_check.py" faults "$1" "$2" "$3"
