#!/usr/bin/env bash
# Phone close-ups whose cards run past the frame (../shared/data/playing, the
# 19:41 series): their large index glyphs pair only on the corner-index
# finder's coarse level, where the card's white lies nearer beside a
# stretched index, the frame's stretch comes from the surest of 16 probed
# pairs, and a card mostly beyond the frame read surely is not vetoed by its
# face. Each card listed is read (above the floor), and no card read is one
# the photo's label does not hold.
set -u
[ -d "$3/data/playing" ] || { echo "SKIP: no shared data at $3"; exit 77; }
ts=$1 shared=$3
. "$(dirname "$0")/lib/check.sh"

img="$shared/data/playing/images/cardcounter_phone_IMG_20220921"
labels="$shared/data/playing/labels.tsv"

# photo (time in its name), the cards it must read
while read -r t want; do
    f="${img}_${t}_jpg.jpg"
    "$ts" scan --game playing "$f" > "$tmp/$t.json" 2> /dev/null
    check "$t scanned" test $? -eq 0
    read_codes=$(grep -o '"code":"[^"]*","conf":[^,]*,"read":true' "$tmp/$t.json" |
        sed 's/"code":"\([^"]*\)".*/\1/')
    label=$(grep "IMG_20220921_${t}_jpg" "$labels" | cut -f2)
    for c in ${want//,/ }; do
        check "$t reads $c" grep -qx "$c" <<< "$read_codes"
    done
    for c in $read_codes; do
        check "$t: $c is in the label ($label)" grep -qw "$c" <<< "$label"
    done
done << 'EOF'
194129 8H
194141 8S,9S
194155 3C
194159 5S,7C
EOF

finish playing_closeups
