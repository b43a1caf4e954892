#!/usr/bin/env bash
# `tablesight rules` for SET, Gang of Four and Qwirkle Cards: answers, JSON,
# and exit codes (0 answer, 1 none, 2 usage or bad code).
# Args: $1 tablesight binary, $2 source dir, $3 shared dir (unused here).
set -u
BIN=$1
fails=0

# expect CODE PATTERN ARGS...: runs `tablesight ARGS`, checks the exit code and
# that stdout+stderr matches the extended regex PATTERN.
expect() {
    local want=$1 pattern=$2
    shift 2
    local out rc
    out=$("$BIN" "$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL (exit $rc, want $want): tablesight $*"
        echo "$out" | head -5
        fails=$((fails + 1))
    elif ! printf '%s\n' "$out" | grep -Eq -- "$pattern"; then
        echo "FAIL (no /$pattern/): tablesight $*"
        echo "$out" | head -5
        fails=$((fails + 1))
    fi
}

# ---- dispatcher ------------------------------------------------------------------
expect 0 '^  qwirkle +Qwirkle Cards' rules --help
expect 2 'usage' rules
expect 2 "unknown game 'poker'" rules poker

# ---- SET ---------------------------------------------------------------------------
# set.md Board A in classic codes: 6 Sets
BOARD_A='3PSS 3PDO 2RDS 3PST 3GDO 1RST 2GSO 1PSS 3PSO 3ROO 3ROT 2ROT'
expect 0 '^12 cards, 6 Sets' rules set $BOARD_A
expect 0 '"count":6' rules set --json $BOARD_A
expect 0 '"decision":"take"' rules set --json $BOARD_A
expect 0 '^hint 1: [0-9A-Z]{4} \(card [0-9]+\)$' rules set --hint 1 $BOARD_A
expect 1 'deal 3 more' rules set 1RDS 1RDO 1ROS 1ROO
expect 1 'round is over' rules set --deck 0 1RDS 1RDO
expect 0 'warning: cards 0 and 3 are both 1RDS' rules set 1RDS 2GOT 3PSO 1RDS
expect 0 '"duplicates":\[\[0,3\]\]' rules set --json 1RDS 2GOT 3PSO 1RDS
expect 2 "'4XYZ' is not a set card code" rules set 1RDS 4XYZ
expect 2 'usage' rules set
expect 0 'usage: tablesight rules set' rules set --help
# connection grid: one card completes the row at either end
expect 0 '^  \+1  3PSO at row 0 col -1' rules set --grid '1RDS 2GOT' --hand '3PSO 1GDO'
expect 0 '"row":0,"col":2' rules set --json --grid '1RDS 2GOT' --hand 3PSO
expect 1 'draw a card' rules set --grid '1RDS 2GOT 3PSO' --hand 1GDO
expect 2 "row 1: 'ZZ' is not a set card code" rules set --grid '1RDS / ZZ' --hand 3PSO
expect 2 '--hand goes with --grid' rules set --hand 3PSO 1RDS

# ---- Gang of Four ----------------------------------------------------------------------
expect 0 'gang of 4 +R7 R7 Y7 G7' rules gof --hand 'R7 R7 Y7 G7 G8 G9' --trick 'G5 Y5'
expect 0 '"count":3' rules gof --json --hand 'M1 G1 G2 G3 G4 Y9' --first-lead
expect 1 'first lead is 1-5 cards containing M1' rules gof --hand 'G1 G2' --first-lead
expect 1 'gangs of 6 and 7 cannot open' rules gof --play 'M1 G1 G1 Y1 Y1 R1' --first-lead
expect 0 'count":[0-9]+' rules gof --json --hand 'M1 G1 G1 Y1 Y1 R1 R1' --first-lead
expect 1 '^pass' rules gof --hand 'G3 Y4' --trick R9
expect 0 '^legal: straight' rules gof --play 'G2 Y3 G4 G5 G6'
expect 1 'do not wrap around' rules gof --play 'G9 Y10 R1 G2 Y3'
expect 1 'equal is not enough' rules gof --play 'Y7 Y7' --trick 'Y7 Y7'
expect 1 'illegal: it is lower than the trick$' rules gof --play Y5 --trick R5
expect 2 "'X9' is not a gof card code" rules gof --hand 'R7 X9'
expect 2 'trick is no combination: a pair needs' rules gof --hand R7 --trick 'G7 Y8'
expect 2 'holds 3 x R7' rules gof --hand 'R7 R7 R7'
expect 0 'median [0-9.]+ us' rules gof --bench 50
expect 0 'usage: tablesight rules gof' rules gof --help

# ---- Qwirkle Cards ---------------------------------------------------------------------
# seed 002: George's Qwirkle by rearranging
expect 0 'QWIRKLE rearrange: lay YX BL' rules qwirkle --table 'YL RL GL; YC YD YS YT' --hand 'YX BL'
expect 0 '"qwirkles":1' rules qwirkle --json --table 'YL RL GL; YC YD YS YT' --hand 'YX BL'
expect 0 'new group \(diamonds\): RD YD GD' rules qwirkle --table 'BC BX BD' --hand 'RD GD YD'
expect 1 'a group needs at least 3 cards' rules qwirkle --table 'RC RX; BD BS BT'
expect 0 'blue' rules qwirkle --table 'BD BS BT'
expect 1 'no play' rules qwirkle --table 'RC RX RD' --hand 'BL PT'
expect 2 "group 2: 'QQ' is not a qwirkle card code" rules qwirkle --table 'RC RX RD; QQ'
expect 2 'more than 3 copies of RC' rules qwirkle --table 'RC RX RD; RC OC YC; RC GC BC' --hand RC
expect 0 'median [0-9.]+ us' rules qwirkle --bench 20
expect 0 'usage: tablesight rules qwirkle' rules qwirkle --help

if [ "$fails" -gt 0 ]; then
    echo "$fails check(s) failed"
    exit 1
fi
echo "rules_abc: all checks passed"
