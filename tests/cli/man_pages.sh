#!/usr/bin/env bash
# The man pages (daemon/man): each renders without a warning, there is one
# per command, and every long option a command's --help lists is in its page.
set -u
ts=$1 src=$2
command -v man > /dev/null || { echo "SKIP: no man"; exit 77; }
. "$(dirname "$0")/lib/check.sh"
dir="$src/daemon/man"
renders() { # page: text with NAME and SYNOPSIS or DESCRIPTION, no troff warning
    local out warn
    out=$(MANWIDTH=80 man -l "$1" 2> /dev/null) || return 1
    warn=$(MANWIDTH=80 man -l --warnings=all "$1" 2>&1 > /dev/null)
    [ -z "$warn" ] || { echo "  $warn"; return 1; }
    grep -q "^NAME" <<< "$out" && grep -q "^DESCRIPTION\|^CARD CODES" <<< "$out"
}
for page in "$dir"/*.[157]; do
    check "$(basename "$page") renders" renders "$page"
done
check "tablesight.1" test -f "$dir/tablesight.1"
for c in run scan eval bench rules render referee; do
    page="$dir/tablesight-$c.1"
    check "page for $c" test -f "$page"
    [ -f "$page" ] || continue
    text=$(MANWIDTH=200 man -l "$page" 2> /dev/null)
    for opt in $("$ts" $c --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        check "$c page has $opt" grep -q -- "$opt" <<< "$text"
    done
done
check "json format page" test -f "$dir/tablesight-json.5"
check "card codes page" test -f "$dir/tablesight-cards.7"
check "pages name the RULINGS" grep -q "RULINGS.md" "$dir/tablesight-cards.7"

finish man_pages
