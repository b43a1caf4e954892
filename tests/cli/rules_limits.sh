#!/usr/bin/env bash
# The ranges `tablesight rules ... --help` promises are enforced, with the real
# limit in the message; long Eleusis rules compile; errors never echo a whole rule.
# Args: $1 tablesight binary.
set -euo pipefail
TS=$1
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() { # expect CODE 'words on stderr' command...
  local want=$1 words=$2 rc=0; shift 2
  "$@" > /tmp/ts_rl_out.$$ 2> /tmp/ts_rl_err.$$ || rc=$?
  [ "$rc" -eq "$want" ] || fail "$* -> exit $rc, want $want: $(cat /tmp/ts_rl_err.$$)"
  grep -q -- "$words" /tmp/ts_rl_err.$$ || fail "$* -> '$(cat /tmp/ts_rl_err.$$)' lacks '$words'"
}
trap 'rm -f /tmp/ts_rl_out.$$ /tmp/ts_rl_err.$$' EXIT
expect 2 "--hint takes a whole number 1..3, not '9'" "$TS" rules set --hint 9 1RDS 2GOT 3PSO
expect 2 "--top takes a whole number" "$TS" rules gof --top x --hand 'G1 G2'
expect 2 "--hint takes a whole number 1..3, not '0'" "$TS" rules set --hint 0 1RDS 2GOT 3PSO
"$TS" rules set --hint 3 1RDS 2GOT 3PSO > /dev/null || fail "--hint 3 refused"
expect 2 "--deck takes a whole number 0..81" "$TS" rules set --deck 500 1RDS 2GOT 3PSO
expect 2 "too many cards (at most 162)" "$TS" rules set $(printf '1RDS %.0s' $(seq 163))
"$TS" rules set $(printf '1RDS %.0s' $(seq 162)) > /dev/null 2>&1 || [ $? -eq 1 ] || fail "162 cards refused"
expect 2 "string of 2 to 4 cards, not 30" "$TS" rules eleusis --rule 'value > 0' --play "$(printf 'AS %.0s' $(seq 30))"
"$TS" rules eleusis --rule 'value > 0' --play 'AS 2S 3S 4S' > /dev/null || fail "a 4-card string refused"
H="$(for a in 1 2 3 4 5 6; do for b in $(seq $a 6); do printf '%s:%s ' $a $b; done; done)"
expect 2 "a hand has at most 28" "$TS" rules sapngwu --hand "$H 1:1 1:2 1:3 1:4 1:5 1:6 2:2 2:3 2:4 2:5 2:6"
"$TS" rules sapngwu --hand "$H 1:1 1:2 1:3 1:4 1:5 1:6 2:2" > /dev/null || fail "a 28-card hand refused"
# 100 'and' terms: accepted and judged.
RULE="$(for i in $(seq 99); do printf 'value != 14 and '; done)value != 7"
[ "$("$TS" rules eleusis --rule "$RULE" --play 5D)" = right ] || fail "100-term chain"
[ "$("$TS" rules eleusis --rule "$RULE" --play 7D)" = wrong ] || fail "100-term chain, 7D"
# An error in a 65 KB rule: a short excerpt, not the rule.
BIG="$(for i in $(seq 4000); do printf 'value == 1 and '; done)valu == 2"
expect 2 "unknown word 'valu'" "$TS" rules eleusis --rule "$BIG" --play AS
[ "$(wc -c < /tmp/ts_rl_err.$$)" -lt 400 ] || fail "the error echoes the rule ($(wc -c < /tmp/ts_rl_err.$$) bytes)"
echo "rules limits ok"
