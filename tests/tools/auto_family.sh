#!/usr/bin/env bash
# How often `tablesight scan --game auto` picks the right family.
#
#   auto_family.sh TABLESIGHT LIST
#
# LIST has one line per image: 'family<TAB>path' (family as scan's "game"
# prints it: set, playing, gof, qwirkle, domino). Prints, per family, right /
# images and every wrong pick ('path: chose X (want Y)'; "none": no family
# found a card, "error": the image was not answered); exits 1 if any pick is
# wrong.
# A whole list is one scan call (the readers load once). The lists of the
# shared photos and renders are made by auto_family_lists.sh.
set -u
ts=$1 list=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cut -f2 "$list" > "$tmp/paths"
# xargs keeps the argument list within limits; each image gives one JSON line.
xargs -d '\n' "$ts" scan --game auto < "$tmp/paths" > "$tmp/scan.json" 2> "$tmp/scan.err"
# source -> chosen game ("none" when no family read a card)
sed -n 's/^{"source":"\([^"]*\)","frame":[0-9]*,"game":"\([a-z]*\)".*/\1\t\2/p' "$tmp/scan.json" \
    > "$tmp/chosen"
awk -F'\t' '
    NR == FNR { chosen[$1] = $2; next }
    {
        want = $1; got = ($2 in chosen) ? chosen[$2] : "error"
        n[want]++
        if (got == want) ok[want]++
        else { bad++; printf "%s: chose %s (want %s)\n", $2, got, want }
    }
    END {
        for (f in n) { printf "%-8s %d/%d\n", f, ok[f], n[f]; tot += n[f]; good += ok[f] }
        printf "all      %d/%d\n", good, tot
        exit bad > 0
    }' "$tmp/chosen" "$list"
