#!/usr/bin/env bash
# --game auto picks each image's family: a CI-sized sample of the shared
# photos (every Nth image of each label file) and two fresh renders of each
# family. The whole measurement (every shared image, more renders) is
# tests/tools/auto_family.sh over tests/tools/auto_family_lists.sh.
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
# every image of the renders; of the shared photos every 8th board, single
# card, Qwirkle and domino photo, and every 200th SET crop
awk -F'\t' '
    $2 ~ /\/r_/ { print; next }
    $2 ~ /set\/crops\// { if (++crop % 200 == 1) print; next }
    $2 ~ /_phone_|_webcam_|_scene_/ { next }
    { if (++n[$1] % 8 == 1) print }' "$tmp/all.list" > "$tmp/ci.list"
echo "$(wc -l < "$tmp/ci.list") images"
"$src/tests/tools/auto_family.sh" "$ts" "$tmp/ci.list"
