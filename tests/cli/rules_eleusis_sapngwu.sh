#!/usr/bin/env bash
# `tablesight rules eleusis` and `tablesight rules sapngwu`: answers, JSON, and
# error exits (seed 003 and 004 examples).
# Args: $1 tablesight binary, $2 source dir, $3 shared dir.
set -u
TS=${1:?usage: rules_eleusis_sapngwu.sh TABLESIGHT SOURCE_DIR SHARED_DIR}
failures=0
OUT=$(mktemp)
ERR=$(mktemp)
trap 'rm -f "$OUT" "$ERR"' EXIT

# run WANT_RC ARGS...: runs tablesight, checks the exit status.
run() {
    local want=$1
    shift
    "$TS" "$@" >"$OUT" 2>"$ERR"
    local rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL: tablesight $* -> exit $rc, want $want"
        sed 's/^/  stdout: /' "$OUT"
        sed 's/^/  stderr: /' "$ERR"
        failures=$((failures + 1))
        return 1
    fi
}

# has FILE TEXT: the output (stdout or stderr file) contains TEXT.
has() {
    if ! grep -qF -- "$2" "$1"; then
        echo "FAIL: expected '$2' in output of the last command:"
        sed 's/^/  /' "$1"
        failures=$((failures + 1))
    fi
}

# equals TEXT: stdout is exactly TEXT.
equals() {
    local got
    got=$(cat "$OUT")
    if [ "$got" != "$1" ]; then
        echo "FAIL: expected output '$1', got '$got'"
        failures=$((failures + 1))
    fi
}

json_ok() {
    if command -v python3 >/dev/null; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$OUT" ||
            { echo "FAIL: not one JSON object: $(cat "$OUT")"; failures=$((failures + 1)); }
    fi
    [ "$(wc -l <"$OUT")" -eq 1 ] || { echo "FAIL: JSON is not one line"; failures=$((failures + 1)); }
}

# ---- Eleusis: the seed's three mainlines ----------------------------------------
LINE1="8H JS 4H AC 2C 9S 8D 7C QS JH 6S AD 4S 5D TH 3S 4C 3D 6D 9H"
LINE2="2D AC KH 9D 2H 4D 5S 7S 3C 2C AD JH 6S 8H 8S QH KC 9S 3S 6D"
LINE3="7C 5S QS 4D 2C AH JC 5H 3C AS 8D 2D TS QH JD TC 9S 8C AD 6H"
RULE1='odd(value) != odd(prev.value)'
RULE2='if prev.colour == prev2.colour then value in 1..7 else value in 7..K'
RULE3='value mod 4 == (if prev.suit == clubs then 1 else if prev.suit == diamonds then 2 else if prev.suit == hearts then 3 else 0)'

run 0 rules eleusis --rule "$RULE1" --mainline "$LINE1" && equals "right"
run 0 rules eleusis --rule "$RULE2" --mainline "$LINE2" && equals "right"
run 0 rules eleusis --rule "$RULE3" --mainline "$LINE3" && equals "right"
run 1 rules eleusis --rule "$RULE2" --mainline "$LINE1" && equals "wrong: card 3 (4H) breaks the rule"
run 1 rules eleusis --rule "$RULE3" --mainline "$LINE2" && equals "wrong: card 2 (AC) breaks the rule"

# Single cards and strings (New Eleusis: the wrong card of a string stays secret).
run 0 rules eleusis --rule "$RULE1" --mainline "$LINE1" --play QD && equals "right"
run 1 rules eleusis --rule "$RULE1" --mainline "$LINE1" --play KD && equals "wrong"
run 0 rules eleusis --rule "$RULE1" --mainline "$LINE1" --play "2C 3C 4D" && equals "right"
run 1 rules eleusis --rule "$RULE1" --mainline "$LINE1" --play "2C 4C" && equals "wrong"
run 0 rules eleusis --rule "$RULE2" --mainline "KS 9S" --hand "7H 8H AC KD" &&
    equals "right: 7H AC
wrong: 8H KD"
# Seed note 2: with fewer cards than the rule needs, anything goes.
run 0 rules eleusis --rule "$RULE2" --mainline "KS" --play "8H" && equals "right"

run 1 rules eleusis --rule "$RULE1" --mainline "$LINE1" --play "2C 4C" --json && json_ok
has "$OUT" '"verdict":"wrong"'
has "$OUT" '"first_wrong":1'
has "$OUT" '"needs_history":1'
run 0 rules eleusis --rule "$RULE2" --mainline "KS 9S" --hand "7H 8H" --json && json_ok
has "$OUT" '"right":["7H"]'

# Scoring: the seed's examples, and New Eleusis as an option.
run 0 rules eleusis --score "wrong=10,5,3" && equals "dealer: 9"
run 0 rules eleusis --score "left=2,3,10,0" &&
    equals "player 1: 7
player 2: 3
player 3: 0
player 4: 21"
run 0 rules eleusis --score "wrong=10,5,3; left=0,0,5" --json && json_ok
has "$OUT" '"dealer":9,"players":[8,8,0]'
run 0 rules eleusis --scoring new --score "left=13,11,2,0 prophet=2 prophet-right=11 prophet-wrong=4 before-marker=21" --json
has "$OUT" '"scoring":"new","dealer":21,"players":[0,21,11,17]'

# Errors name the token and position, exit 2.
run 2 rules eleusis --rule 'odd(value) != odd(prev.value) and' --mainline "$LINE1" --play 3C
has "$ERR" "bad rule: position 34: expected a value"
run 2 rules eleusis --rule 'valeu == 3' --play 3C
has "$ERR" "unknown word 'valeu' (did you mean 'value'?)"
run 2 rules eleusis --rule "$RULE1" --mainline "8H XX" --play 3C
has "$ERR" "bad --mainline: 'XX' is not a playing card code"
run 2 rules eleusis --rule "$RULE1" --play 1:3
has "$ERR" "'1:3' is not a playing card code"
run 2 rules eleusis --rule "$RULE1" --play ""
run 2 rules eleusis --score "left=2,x"
has "$ERR" "bad item 'left=2,x'"
run 2 rules eleusis --scoring new --score "left=1,2 prophet=3"
has "$ERR" "prophet=3 is not one of the 2 players"
run 2 rules eleusis --rule
has "$ERR" "missing value after '--rule'"
run 2 rules eleusis --frobnicate
has "$ERR" "unknown option '--frobnicate'"
run 2 rules eleusis
run 0 rules eleusis --help && has "$OUT" "usage: tablesight rules eleusis"

# ---- Sap Ng Wu: seed 004 examples ------------------------------------------------
# [5:6][5:6] is beaten by [1:3][1:3], not by [3:5][3:5], [4:4][6:6] or [5:5]x3.
run 0 rules sapngwu --hand "1:3 1:3 3:5 3:5 4:4 6:6 5:5 5:5 5:5" --trick "5:6 5:6"
has "$OUT" "1:3 1:3"
has "$OUT" "5:5 5:5 "
[ "$(wc -l <"$OUT")" -eq 2 ] || { echo "FAIL: want exactly two plays"; failures=$((failures + 1)); }
run 0 rules sapngwu --hand "3:5 3:5 4:4 6:6" --trick "5:6 5:6" && equals "pass"
# [1:3][1:3][1:4][2:3][2:3] is beaten only by [1:1][1:1][2:6][3:5][3:5].
run 0 rules sapngwu --hand "1:1 1:1 2:6 2:6 3:5 3:5 4:4 4:4 4:4 2:5 3:4 3:4 6:6 6:6" \
    --trick "1:3 1:3 1:4 2:3 2:3" --json && json_ok
has "$OUT" '"plays":[{"cards":["1:1","1:1","2:6","3:5","3:5"],"type":"mixed","size":5'
has "$OUT" '"pass":false'
run 2 rules sapngwu --hand "1:1" --trick "6:6 6:6 2:6 3:5 3:5"
has "$ERR" "bad --trick: not a play: 2:6 does not match 6:6"
run 2 rules sapngwu --hand "1:1" --trick "2:6 3:5"
has "$ERR" "without a civil card"
# The supreme leads first and is sure; nothing follows it.
run 0 rules sapngwu --hand "1:5 1:1 2:6 2:4 1:2 6:6"
has "$OUT" "2:4 1:2"
has "$OUT" "supreme: 1 x 2:4 + 1 x 1:2, sure"
[ "$(head -1 "$OUT" | cut -c1-7)" = "2:4 1:2" ] || { echo "FAIL: supreme not first"; failures=$((failures + 1)); }
run 0 rules sapngwu --hand "6:6 6:6 6:6 6:6" --trick "2:4 1:2" && equals "pass"
run 0 rules sapngwu --hand "1:1 2:6" --no-mixed
has "$OUT" "single 1:1"
if grep -q mixed "$OUT"; then echo "FAIL: --no-mixed listed a mixed play"; failures=$((failures + 1)); fi

# Payments: 15-17 wu 1 chip ... 27-28 5; after declining at 15, 17 may not declare.
run 0 rules sapngwu --wu 15 && has "$OUT" "chips: 1"
run 0 rules sapngwu --wu 28 && has "$OUT" "chips: 5"
run 1 rules sapngwu --wu 17 --declined-at 15 && has "$OUT" "may declare: no"
run 0 rules sapngwu --wu 18 --declined-at 15 --json && json_ok
has "$OUT" '"chips":2,"may_declare":true'

# Errors.
run 2 rules sapngwu --hand "1:1 7:7"
has "$ERR" "bad --hand: '7:7' is not a domino card code"
run 2 rules sapngwu --hand "1:1 0:4"
has "$ERR" "(0:4) has a blank end: Sap Ng Wu cards have 1 to 6 pips at each end"
run 2 rules sapngwu --hand "6:6 6:6 6:6" --trick "6:6 6:6"
has "$ERR" "hand and trick hold 5 copies of 6:6"
run 2 rules sapngwu --hand "6:6 6:6 6:6 6:6 6:6"
has "$ERR" "more than 4 copies of 6:6"
run 2 rules sapngwu --wu many
has "$ERR" "--wu takes a whole number"
run 2 rules sapngwu --trick
has "$ERR" "missing value after '--trick'"
run 2 rules sapngwu
run 0 rules sapngwu --help && has "$OUT" "usage: tablesight rules sapngwu"

# Bench: prints a median (the figure itself is not checked).
run 0 rules sapngwu --bench --samples 50 && has "$OUT" "us to list the legal plays of a 28-card hand"
run 0 rules sapngwu --bench --samples 50 --json && json_ok
has "$OUT" '"follow_median_us":'

if [ "$failures" -ne 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "ok"
