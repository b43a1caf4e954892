# Sourced by the shell tests in tests/cli: a scratch directory removed on exit,
# named checks that are counted, and the tally as the exit status.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0
check() { # name, then a command that must succeed
    local name=$1
    shift
    if "$@"; then passes=$((passes + 1)); else echo "FAIL: $name"; fails=$((fails + 1)); fi
}
finish() { # test name: prints the tally, exits 0 only if every check passed
    echo "$1: $passes passed, $fails failed"
    [ $fails -eq 0 ]
    exit
}
start_xvfb() { # screen WxHxD: an Xvfb of our own as $DISPLAY, stopped on exit
    exec 3> "$tmp/displayfd"
    Xvfb -displayfd 3 -screen 0 "$1" -nolisten tcp > /dev/null 2>&1 &
    xvfb=$!
    exec 3>&-
    trap 'kill $xvfb 2> /dev/null; wait $xvfb 2> /dev/null; rm -rf "$tmp"' EXIT
    for _ in $(seq 300); do [ -s "$tmp/displayfd" ] && break; sleep 0.1; done # 30 s: a loaded machine
    [ -s "$tmp/displayfd" ] || { echo "Xvfb gave no display within 30 s"; exit 1; }
    export DISPLAY=:$(tr -d '\n' < "$tmp/displayfd")
}
