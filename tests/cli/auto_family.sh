#!/usr/bin/env bash
# --game auto picks each image's family: a CI-sized sample of the shared
# photos (every Nth image of each label file) and fresh renders of each
# family. The whole measurement (every shared image, more renders) is
# tests/tools/auto_family.sh over tests/tools/auto_family_lists.sh.
#
# Must be right: SET boards and crops, single playing cards and their
# crops, Qwirkle tile and domino photos, rendered tables of every family
# (Gang of Four and playing cards, whose readers read each other's cards,
# are told apart by the card-face net, models/family.tsnet).
# Printed, not yet asserted (README, Honest limits): playing cards in real
# scenes (phone, webcam-held, scene photos).
set -u
[ -d "$3/data/set" ] || { echo "SKIP: no shared data at $3"; exit 77; }
ts=$1 src=$2 shared=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for g in set qwirkle gof domino playing; do
    "$ts" render --game "$g" --seed 96000 --count 2 --quiet "$tmp/r_$g" > /dev/null ||
        { echo "FAIL: render $g"; exit 1; }
done
"$src/tests/tools/auto_family_lists.sh" "$shared" "$tmp"/r_* > "$tmp/all.list"
# every render; of the shared photos every 8th board, single card, Qwirkle
# and domino photo, and every 200th SET crop
awk -F'\t' -v must="$tmp/must.list" -v later="$tmp/later.list" '
    $2 ~ /\/r_/ { print > must; next }
    $2 ~ /set\/crops\// { if (++crop % 200 == 1) print > must; next }
    $1 == "playing" && $2 ~ /_phone_|_webcam_|_scene_/ { if (++scene % 40 == 1) print > later; next }
    { if (++n[$1] % 8 == 1) print > must }' "$tmp/all.list"
echo "must be right ($(wc -l < "$tmp/must.list") images):"
"$src/tests/tools/auto_family.sh" "$ts" "$tmp/must.list"
rc=$?
echo "known weak, not asserted ($(wc -l < "$tmp/later.list") images):"
"$src/tests/tools/auto_family.sh" "$ts" "$tmp/later.list"
exit $rc
