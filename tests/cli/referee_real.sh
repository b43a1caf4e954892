#!/usr/bin/env bash
# The referee on sequences assembled from real photos (../shared/data, linked
# into a temporary clip at test time, never copied into the project): each
# photo is held for 25 frames, as a camera would see the table at rest.
#   - a SET board taken from twice (pclewis test1 -> test2 -> test3): exactly
#     two verdicts, each naming the cards the labels say left, with the verdict
#     the rules core gives for those labelled cards (`rules set`); the stable
#     table's headline is what the rules say of the labelled board;
#   - the same board dealt back (test3 -> test2 -> test1): cards dealt onto
#     fewer than 12 are no claim, no verdict;
#   - a finger over a card (finger1 -> finger2 -> finger3): no move;
#   - a real Qwirkle game with tiles on a board, turn by turn (qwirkle tr1_00 ..
#     tr1_20, 15 frames each, --game qwtiles): every verdict is either "legal"
#     with exactly the tiles the labels say were laid that turn, or "cannot
#     judge" - never "illegal", never other tiles - and at least 19 of the 20
#     turns are judged legal (measured: 19; the other is an unread tile);
#   - an Eleusis mainline of real card photos (mathsvlog, 52 photographed
#     cards) laid one by one on a table by tests/tools/ts_composite, the dealer
#     holding a secret rule: the starter, each card judged right or wrong as
#     `rules eleusis` judges it, a wrong card taken to the sideline is no move.
# Args: $1 tablesight binary, $2 source dir, $3 shared dir. Skips without ../shared.
set -u
BIN=$1
SHARED=$3
BOARDS=$SHARED/data/set/boards
[ -d "$BOARDS" ] || { echo "SKIP: no shared data at $SHARED"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# clip NAME PHOTO...: NAME/f_0001.jpg ... linking each photo 25 times
clip() {
    local d=$T/$1 n=0
    shift
    mkdir -p "$d"
    for p in "$@"; do
        for _ in $(seq 1 25); do
            n=$((n + 1))
            ln -s "$BOARDS/pclewis_set-solver_resources_$p.jpg" "$d/$(printf f_%04d.jpg $n)"
        done
    done
}
referee() { # referee NAME: verdicts and table lines in NAME.jsonl
    "$BIN" referee --source "$T/$1/f_%04d.jpg" --fast --headless --json --log "$T/$1.log" \
        >"$T/$1.jsonl" 2>"$T/$1.err" || { fail "$1: referee exit $?"; cat "$T/$1.err"; }
}
labels() { grep "resources_$1.jpg" "$SHARED/data/set/boards.tsv" | cut -f2; }

# ---- a SET board taken from twice -------------------------------------------------
clip claims test1 test2 test3
referee claims
python3 - "$T/claims.jsonl" "$BIN" "$(labels test1)" "$(labels test2)" "$(labels test3)" <<'PY' || fail "claims"
import collections, json, subprocess, sys
path, bin_, *boards = sys.argv[1:]
boards = [b.split() for b in boards]
lines = [json.loads(l) for l in open(path)]
verdicts = [l for l in lines if l.get("type") == "verdict"]
ok = True
if len(verdicts) != 2:
    print("want 2 verdicts, got", len(verdicts), [v["cards"] for v in verdicts]); ok = False
for k, v in enumerate(verdicts[:2]):
    taken = collections.Counter(boards[k]) - collections.Counter(boards[k + 1])
    if collections.Counter(v["cards"]) != taken:
        print("verdict", k + 1, "cards", v["cards"], "labels say", sorted(taken.elements())); ok = False
    rules = json.loads(subprocess.run([bin_, "rules", "set", "--json", *sorted(taken.elements())],
                                      capture_output=True, text=True).stdout)
    want = "valid Set" if rules["count"] == 1 else "not a Set"
    if v["verdict"] != want:
        print("verdict", k + 1, v["verdict"], "- the rules say", want); ok = False
# the stable table's headline at rest on each photo: what the rules say of its labels
heads = [l["headline"] for l in lines if l.get("type") != "verdict" and "headline" in l]
for b in boards:
    rules = json.loads(subprocess.run([bin_, "rules", "set", "--json", *b],
                                      capture_output=True, text=True).stdout)
    n = rules["count"]
    want = "no Set: deal three more" if n == 0 else "%d Set%s" % (n, "" if n == 1 else "s")
    if want not in heads:
        print("no table line says", repr(want), "- got", heads); ok = False
print("claims:", [(v["verdict"], v["cards"], v["reason"]) for v in verdicts])
sys.exit(0 if ok else 1)
PY

# ---- the board dealt back: no claim --------------------------------------------------
clip deals test3 test2 test1
referee deals
n=$(grep -c '"type":"verdict"' "$T/deals.jsonl")
[ "$n" = 0 ] || fail "deals: want no verdict, got $(grep verdict "$T/deals.jsonl")"

# ---- a finger over a card: no move ------------------------------------------------------
clip finger finger1 finger2 finger3
referee finger
n=$(grep -c '"type":"verdict"' "$T/finger.jsonl")
[ "$n" = 0 ] || fail "finger: want no verdict, got $(grep verdict "$T/finger.jsonl")"

# ---- Qwirkle tiles, a real game turn by turn ---------------------------------------------
QW=$SHARED/data/qwirkle
if [ -d "$QW/images" ]; then
    mkdir -p "$T/qw"
    n=0
    for i in $(seq -w 0 20); do
        for _ in $(seq 1 15); do
            n=$((n + 1))
            ln -s "$QW/images/tr1_$i.jpg" "$T/qw/$(printf f_%04d.jpg $n)"
        done
    done
    "$BIN" referee --game qwtiles --source "$T/qw/f_%04d.jpg" --fast --headless --json \
        --log "$T/qw.log" >"$T/qw.jsonl" 2>"$T/qw.err" || fail "qwirkle: referee exit $?"
    python3 - "$T/qw.jsonl" "$QW/labels.tsv" tr1 <<'PY' || fail "qwirkle turns"
import collections, json, sys
path, labels, game = sys.argv[1:4]
board = {}
for line in open(labels):
    if line.startswith("#"):
        continue
    img, codes = line.rstrip("\n").split("\t")
    name = img.split("/")[-1]
    if name.startswith(game + "_"):
        # the tile set has white where Qwirkle Cards have purple: the rules name it P
        board[int(name[len(game) + 1:-4])] = collections.Counter(c.replace("W", "P") for c in codes.split())
turns = [board[i] - board[i - 1] for i in range(1, len(board))]
verdicts = [json.loads(l) for l in open(path) if '"type":"verdict"' in l]
ok, legal = True, 0
for v in verdicts:
    if v["kind"] == "cannot judge":
        continue
    if v["kind"] != "legal" or collections.Counter(v["cards"]) not in turns:
        print("wrong verdict:", v["kind"], v["cards"], v["reason"]); ok = False
    else:
        legal += 1
print("qwirkle: %d of %d turns legal with the labelled tiles, %d verdicts" % (legal, len(turns), len(verdicts)))
sys.exit(0 if ok and legal >= 19 else 1)
PY
fi

# ---- Eleusis: a mainline of real card photos ----------------------------------------------
CARDS=$SHARED/data/playing/images
COMPOSITE=$(dirname "$BIN")/tests/ts_composite
if [ -f "$CARDS/mathsvlog_card_5H.jpg" ] && [ -x "$COMPOSITE" ]; then
    RULE='odd(value) != odd(prev.value)'
    printf '%s\n' "$RULE" >"$T/secret.rule"
    main() { echo "$CARDS/mathsvlog_card_$1.jpg $((60 + $2 * 190)) 60 150 210"; }
    side() { echo "$CARDS/mathsvlog_card_$1.jpg $((60 + $2 * 190)) 450 150 210"; }
    # the table after each move: the starter, three cards, the wrong one to the sideline, one more
    states=("$(main 5H 0)"
        "$(main 5H 0) $(main 8C 1)"
        "$(main 5H 0) $(main 8C 1) $(main 3D 2)"
        "$(main 5H 0) $(main 8C 1) $(main 3D 2) $(main 7S 3)"
        "$(main 5H 0) $(main 8C 1) $(main 3D 2) $(side 7S 0)"
        "$(main 5H 0) $(main 8C 1) $(main 3D 2) $(side 7S 0) $(main QD 3)")
    mkdir -p "$T/el"
    n=0
    for k in "${!states[@]}"; do
        # shellcheck disable=SC2086 # the state is the tool's argument list
        "$COMPOSITE" "$T/state_$k.jpg" 1280 720 ${states[$k]} || fail "composite $k"
        for _ in $(seq 1 25); do
            n=$((n + 1))
            ln -s "$T/state_$k.jpg" "$T/el/$(printf f_%04d.jpg $n)"
        done
    done
    "$BIN" referee --game eleusis --rule "$T/secret.rule" --players 2 --source "$T/el/f_%04d.jpg" \
        --fast --headless --json --log "$T/el.log" >"$T/el.jsonl" 2>"$T/el.err" ||
        fail "eleusis: referee exit $?"
    want="starter"
    line="5H"
    for c in 8C 3D 7S QD; do
        w=$("$BIN" rules eleusis --json --rule "$RULE" --mainline "$line" --play "$c" |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["verdict"])')
        want="$want $c:$w"
        [ "$w" = right ] && line="$line $c"
    done
    got=$(python3 -c '
import json, sys
out = []
for l in open(sys.argv[1]):
    v = json.loads(l)
    if v.get("type") != "verdict":
        continue
    out.append(v["verdict"] if v["verdict"] == "starter" else "%s:%s" % (",".join(v["cards"]), v["verdict"]))
print(" ".join(out))' "$T/el.jsonl")
    echo "eleusis: the rules say: $want; the dealer: $got"
    [ "$got" = "$want" ] || fail "eleusis: the dealer's verdicts differ from the rules"
fi

[ $fails = 0 ] && echo "referee_real: ok"
exit $((fails > 0))
