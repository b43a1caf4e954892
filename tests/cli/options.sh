#!/usr/bin/env bash
# GNU-style command lines: --opt=value, options after the files, '--', '-' for
# standard input, --version everywhere, one-line usage errors with exit 2.
set -u
ts=$1 src=$2
. "$(dirname "$0")/lib/check.sh"
img="$src/samples/demo/set_1.jpg"
version=$(sed -n 's/^project(tablesight VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

# --version: the CMake project version, on the program and on every command.
check "tablesight --version" test "$("$ts" --version)" = "tablesight $version"
for c in scan eval bench render run referee rules "rules set" "rules gof" "rules qwirkle" \
    "rules eleusis" "rules sapngwu"; do
    check "$c --version" test "$("$ts" $c --version)" = "tablesight $version"
    check "$c --help exits 0" bash -c "'$ts' $c --help | grep -q usage"
done

# Usage errors: exactly one line on stderr, naming the option, exit 2.
usage_error() { # expected text, then the command line
    local want=$1
    shift
    "$@" > "$tmp/out" 2> "$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/err")" -eq 1 ] && grep -qF -- "$want" "$tmp/err" ||
        { echo "  rc=$rc stderr: $(cat "$tmp/err")"; return 1; }
}
check "scan unknown option" usage_error "tablesight scan: unknown option '--x' (see --help)" "$ts" scan --x "$img"
check "scan unknown after file" usage_error "unknown option '--nope'" "$ts" scan "$img" --nope
check "scan missing value" usage_error "option '--annotate' needs a value" "$ts" scan "$img" --annotate
check "eval flag with value" usage_error "option '--json' takes no value" "$ts" eval --json=1 x.tsv
check "run ambiguous prefix" usage_error "option '--s' is ambiguous" "$ts" run --s x
check "run bad number" usage_error "--fps needs a number" "$ts" run --fps=abc
check "run stray operand" usage_error "unexpected argument 'extra'" "$ts" run extra
check "bench bad repeat" usage_error "--repeat takes a whole number 1..10000" "$ts" bench --repeat=0
check "render unknown option" usage_error "unknown option '--colour'" "$ts" render --colour red x
check "unknown command" usage_error "tablesight: unknown command 'scna'" "$ts" scna
check "unknown top option" usage_error "tablesight: unknown option '--bogus'" "$ts" --bogus
check "scan without files" usage_error "no image given" "$ts" scan
check "stdin twice" usage_error "standard input (-) can be read only once" "$ts" scan - -

# --opt=value, options after files, '--': the same answer as the plain form.
strip() { sed 's/"timing_ms".*//' "$1"; }
"$ts" scan --annotate "$tmp/a1" "$img" > "$tmp/plain.json"
check "plain scan exits 0" test $? -eq 0
"$ts" scan "$img" --annotate="$tmp/a2" > "$tmp/after.json"
check "--opt=value after the file" test "$(strip "$tmp/after.json")" = "$(strip "$tmp/plain.json")"
check "annotated with --opt=value" test -s "$tmp/a2/set_1.annotated.jpg"
"$ts" scan --game=set --profile=classic -- "$img" > "$tmp/dd.json"
check "-- ends options" test "$(strip "$tmp/dd.json")" = "$(strip "$tmp/plain.json")"
cp "$img" "$tmp/--odd.jpg"
(cd "$tmp" && "$ts" scan -- --odd.jpg > "$tmp/odd.json")
check "a file named --odd.jpg after --" grep -q '"source":"--odd.jpg"' "$tmp/odd.json"

# '-': an image on standard input for scan, a label file for eval.
"$ts" scan --annotate "$tmp/a3" - < "$img" > "$tmp/stdin.json"
check "scan - exits 0" test $? -eq 0
check "scan - source is -" grep -q '"source":"-"' "$tmp/stdin.json"
check "scan - reads the same cards" test "$(sed 's/"source":"[^"]*"//; s/"timing_ms".*//' "$tmp/stdin.json")" = "$(sed 's/"source":"[^"]*"//; s/"timing_ms".*//' "$tmp/plain.json")"
check "scan - annotated as stdin" test -s "$tmp/a3/stdin.annotated.jpg"
"$ts" scan - < /dev/null > /dev/null 2> "$tmp/empty.err"
check "scan - empty input exits 1" test $? -eq 1
check "scan - empty input said" grep -q "empty standard input" "$tmp/empty.err"
(cd "$src/samples/demo" && "$ts" eval - --json < labels.tsv) > "$tmp/eval.json"
check "eval - exits 0" test $? -eq 0
check "eval - labels named -" grep -q '"labels":"-"' "$tmp/eval.json"
check "eval - read every image" grep -q '"failed_images":0' "$tmp/eval.json"
check "eval - scored cards" grep -q '"correct":51' "$tmp/eval.json"

# The rules CLI: --opt=value, options after the cards, one-line errors.
check "rules set --hint=1 after the cards" bash -c "'$ts' rules set 1RDS 2GOT 3PSO --hint=1 | grep -q 'hint 1: 1RDS'"
check "rules gof --trick=..." bash -c "'$ts' rules gof --hand='G3 Y3 R3' --trick='G2 Y2' | grep -q 'pair'"
check "rules unknown option" usage_error "tablesight rules set: unknown option '--x' (see --help)" "$ts" rules set --x 1RDS
check "rules missing value" usage_error "tablesight rules gof: option '--hand' needs a value" "$ts" rules gof --hand
check "rules unknown game" usage_error "tablesight rules: unknown game 'poker' (see --help)" "$ts" rules poker

# render and bench with --opt=value.
"$ts" render --game=set --seed=3 --size=640x360 --quiet "$tmp/r" && test -s "$tmp/r/set_3.jpg"
check "render --opt=value" test $? -eq 0
"$ts" bench "$img" --repeat=1 --json > "$tmp/bench.json"
check "bench options after files" grep -q '"runs":1' "$tmp/bench.json"

finish options
