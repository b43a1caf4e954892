#!/usr/bin/env bash
# tablesight referee / run --referee end to end: a rendered SET deal with a Set
# taken (assembled into a clip that holds each position as a camera would) gives
# exactly one verdict, "valid Set", with its before/after JPEGs; --replay reads
# the session back; control commands on the socket; refusals of bad zones and
# secret rules. Args: $1 tablesight binary, $2 source dir, $3 shared dir (unused).
set -u
BIN=$1
SRC=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# ---- a SET deal, the Set taken ---------------------------------------------------
"$BIN" render --sequence deal --seed 3 "$T/seq" >/dev/null 2>&1 || fail "render"
mkdir "$T/clip"
n=0
add() { n=$((n + 1)); ln -s "$T/seq/$(printf frame_%04d.jpg "$1")" "$T/clip/$(printf f_%04d.jpg "$n")"; }
for i in $(seq 1 28); do add "$i"; done
for k in $(seq 1 20); do add 28; done          # the table dealt, at rest
for i in 29 30 31; do add "$i"; add "$i"; done   # the Set taken, a card at a time
for k in $(seq 1 24); do add 40; done          # the nine left, at rest
"$BIN" referee --source "$T/clip/f_%04d.jpg" --fast --headless --json --log "$T/log" \
    >"$T/out.jsonl" 2>"$T/err.txt"
rc=$?
[ $rc = 0 ] || { fail "referee exit $rc"; cat "$T/err.txt"; }
verdicts=$(grep -c '"type":"verdict"' "$T/out.jsonl")
[ "$verdicts" = 1 ] || fail "want 1 verdict, got $verdicts: $(grep verdict "$T/out.jsonl")"
grep -q '"kind":"legal","verdict":"valid Set"' "$T/out.jsonl" || fail "no valid Set verdict"
grep -q '"zone":"table"' "$T/out.jsonl" || fail "no zone in the verdict"
[ -s "$T/log/move_0001_before.jpg" ] && [ -s "$T/log/move_0001_after.jpg" ] || fail "no evidence JPEGs"
[ "$(wc -l <"$T/log/verdicts.jsonl")" = 1 ] || fail "verdicts.jsonl"
"$BIN" referee --replay "$T/log" >"$T/replay.txt" || fail "replay exit"
grep -q 'valid Set' "$T/replay.txt" && grep -q '^1 verdict in' "$T/replay.txt" || fail "replay: $(cat "$T/replay.txt")"
"$BIN" referee --replay "$T/nowhere" >/dev/null 2>&1; [ $? = 2 ] || fail "replay of a missing log"
# the stable-table lines carry the game's headline
grep -q '"headline":"' "$T/out.jsonl" || fail "no headline in the table lines"

# ---- control commands on the socket ------------------------------------------------
python3 - "$BIN" "$SRC" "$T" <<'PY' || fail "socket commands"
import socket, subprocess, sys, time, os
bin_, src, tmp = sys.argv[1:4]
sock = os.path.join(tmp, "ctl.sock")
p = subprocess.Popen([bin_, "run", "--source", os.path.join(src, "samples/demo/set_1.jpg"),
                      "--fps", "10", "--headless", "--socket", sock, "--frames", "40"],
                     stderr=subprocess.PIPE, text=True)
for _ in range(200):
    if os.path.exists(sock):
        break
    time.sleep(0.05)
c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
c.connect(sock)
c.sendall(b"hint 1\nbogus\nh\n")
_, err = p.communicate(timeout=300)
if "unknown command 'bogus'" not in err or "unknown command 'hint 1'" in err \
        or "unknown command 'h'" in err:
    print(err)
    sys.exit(1)
PY

# ---- refusals ------------------------------------------------------------------------
"$BIN" run --source "$SRC/samples/demo/set_1.jpg" --headless --frames 1 --zone 'pocket:0,0,1,1' \
    >/dev/null 2>"$T/e1"
[ $? = 1 ] && grep -q "'pocket' is not a zone" "$T/e1" || fail "bad zone: $(cat "$T/e1")"
# seats: hand1-hand4 are zones; a climbing game seats at most 4
"$BIN" run --game gof --source "$SRC/samples/demo/set_1.jpg" --headless --frames 1 \
    --zone 'hand2:0,0,1,0.3' --zone 'trick:0,0.3,1,1' >/dev/null 2>"$T/e3" || fail "hand2 zone: $(cat "$T/e3")"
"$BIN" run --game gof --players 5 --source "$SRC/samples/demo/set_1.jpg" --headless --frames 1 \
    >/dev/null 2>"$T/e4"
[ $? = 1 ] && grep -q 'seats at most 4 players' "$T/e4" || fail "--players 5: $(cat "$T/e4")"
printf 'value >\n' >"$T/bad.rule"
"$BIN" run --game eleusis --source "$SRC/samples/demo/set_1.jpg" --headless --frames 1 \
    --rule "$T/bad.rule" >/dev/null 2>"$T/e2"
[ $? = 1 ] && grep -q 'bad.rule: secret rule' "$T/e2" || fail "bad rule: $(cat "$T/e2")"
"$BIN" run --hint 7 --headless >/dev/null 2>&1; [ $? = 2 ] || fail "--hint 7 accepted"

[ $fails = 0 ] && echo "referee_games: ok"
exit $((fails > 0))
