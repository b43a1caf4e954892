#!/usr/bin/env bash
# make install: the program, models, samples and man pages land under a
# prefix, and the installed program finds its data there, with the source
# tree out of reach (hidden by a private mount when the test may make one).
set -u
ts=$1 src=$2
build=$(dirname "$ts")
. "$(dirname "$0")/lib/check.sh"
cards() { grep -o '"code"' "$1" | wc -l; }

# Staged as a package build would (DESTDIR), and straight into a prefix.
DESTDIR="$tmp/stage" cmake --install "$build" --prefix /usr/local > "$tmp/install.log"
check "DESTDIR install exits 0" test $? -eq 0
check "DESTDIR staged under /usr/local" test -x "$tmp/stage/usr/local/bin/tablesight"
cmake --install "$build" --prefix "$tmp/p" > "$tmp/install.log"
check "install exits 0" test $? -eq 0
p=$tmp/p
check "program in bin" test -x "$p/bin/tablesight"
check "profiles in share/tablesight/models" test -s "$p/share/tablesight/models/classic.profile"
check "demo samples installed" test -s "$p/share/tablesight/samples/demo/set_1.jpg"
check "clip installed" test -s "$p/share/tablesight/samples/clip/frame_0001.jpg"
check "no sources among the models" bash -c "! ls '$p/share/tablesight/models' | grep -q '\.c$\|\.py$\|CMakeLists'"
check "man page installed" test -s "$p/share/man/man1/tablesight.1"
check "a man page per command" test -s "$p/share/man/man1/tablesight-scan.1"

# Run from the prefix, from another directory.
(cd / && "$p/bin/tablesight" scan "$p/share/tablesight/samples/demo/set_1.jpg") > "$tmp/scan.json" 2> "$tmp/scan.err"
check "installed scan exits 0" test $? -eq 0
check "installed scan reads 12 cards" test "$(cards "$tmp/scan.json")" -eq 12

# Moved elsewhere, the install still finds its own data (relative to itself),
# and looks there before the source tree: a broken profile in the copy is the
# one complained about.
cp -a "$p" "$tmp/moved"
(cd / && "$tmp/moved/bin/tablesight" scan "$src/samples/demo/set_1.jpg") > "$tmp/moved.json"
check "moved install scans" test "$(cards "$tmp/moved.json")" -eq 12
echo "profile 1" > "$tmp/moved/share/tablesight/models/classic.profile"
"$tmp/moved/bin/tablesight" scan "$src/samples/demo/set_1.jpg" > /dev/null 2> "$tmp/broken.err"
check "installed data comes first" grep -q "$tmp/moved/share/tablesight/models/classic.profile" "$tmp/broken.err"
# $TABLESIGHT_DATA comes before both.
mkdir -p "$tmp/alt/models"
cp "$src/models/classic.profile" "$tmp/alt/models/"
TABLESIGHT_DATA="$tmp/alt" "$tmp/moved/bin/tablesight" scan "$src/samples/demo/set_1.jpg" > "$tmp/alt.json"
check "TABLESIGHT_DATA overrides" test "$(cards "$tmp/alt.json")" -eq 12

# The source tree hidden (a private mount namespace, as root): scan, bench's
# default samples and run's default clip all come from the prefix.
if unshare -m true 2> /dev/null; then
    unshare -m bash -c "mount -t tmpfs none '$src' && cd / &&
        '$p/bin/tablesight' scan '$p/share/tablesight/samples/demo/set_2.jpg' > '$tmp/hidden.json' &&
        '$p/bin/tablesight' bench --repeat 1 --json > '$tmp/bench.json' &&
        '$p/bin/tablesight' scan --game auto '$p/share/tablesight/samples/demo/set_2.jpg' > '$tmp/auto.json' &&
        '$p/bin/tablesight' run --headless --fast --frames 12 --json --quiet > '$tmp/run.json' 2> '$tmp/run.err'"
    check "scan with the source tree hidden" test "$(cards "$tmp/hidden.json")" -gt 0
    check "bench's default samples from the prefix" grep -q '"files":4' "$tmp/bench.json"
    check "every reader's models from the prefix (--game auto)" test "$(cards "$tmp/auto.json")" -gt 0
    check "run's default clip from the prefix" grep -q "$p/share/tablesight/samples/clip" "$tmp/run.json"
else
    echo "note: cannot make a private mount here; the source tree stayed visible"
fi

finish install
