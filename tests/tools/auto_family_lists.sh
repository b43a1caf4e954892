#!/usr/bin/env bash
# Writes auto_family.sh lists ('family<TAB>path') to stdout: every image of
# the shared label files, and every image of the render directories given.
#
#   auto_family_lists.sh SHARED_DIR [RENDER_DIR...]
#
# A render directory's family is the prefix of its images' names (render
# names them <game>_<seed>.jpg).
set -u
shared=$1
shift
lab() { # family, label file: its images, relative to the label file
    local dir
    dir=$(dirname "$2")
    awk -F'\t' -v f="$1" -v d="$dir" '/^#/ || NF == 0 { next } { print f "\t" d "/" $1 }' "$2"
}
lab set "$shared/data/set/boards.tsv"
lab set "$shared/data/set/crops.tsv"
lab playing "$shared/data/playing/labels.tsv"
lab qwirkle "$shared/data/qwirkle/labels.tsv"
lab domino "$shared/data/domino/labels.tsv"
for d in "$@"; do
    for img in "$d"/*.jpg; do
        name=$(basename "$img")
        printf '%s\t%s\n' "${name%%_*}" "$img"
    done
done
