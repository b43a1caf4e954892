#!/usr/bin/python3
"""Labels index patches in the training halves of the real scene photos
(webcam frames before the time split, phone photos before 19:50) for
train_playing.py, and writes them as models/playing_frame_index.tsv.

The labels give each frame's cards but not where they are. The corner-index
finder's glyph pairs (build/ts-playing-index-dump --list) are read by a
fixed teacher net (the session 6 models/playing.tsnet, sha1 6315fcdb...,
kept at git commit e12989f); per labelled card the pair that reads as that
card most surely (>= 0.5) is its anchor, and:
  * positives: pairs reading as that card (>= 0.3) whose glyphs both lie on
    the anchor's card (its other index corner, the other stretches);
  * negatives, only in frames where every labelled card was anchored: pairs
    the teacher takes for an index (>= 0.3) lying well off every anchored
    card (faces, shirts, window bars, fingers: what the webcam frames'
    confident wrong readings were).
Held-out frames are never read. Each line: image (basename in
../shared/data/playing/images), the card's code or '-', and the patch's quad
(4 corners, frame px, top-left first, clockwise) as the reader cuts it.

  /usr/bin/python3 models/playing_frame_labels.py --build build \\
      --teacher /tmp/playing-s6.tsnet [--out models/playing_frame_index.tsv]
  (git show e12989f:models/playing.tsnet > /tmp/playing-s6.tsnet)
"""
import argparse
import collections
import os
import random
import re
import subprocess
import sys
import tempfile

import cv2
import numpy as np

RANKS, SUITS = "A23456789TJQK", "CDHS"
ANCHOR, POS, NEG_INDEX = 0.5, 0.3, 0.3
NEG_PER_FRAME = 10


def uuid1_time(name):
    m = re.search(r"([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-[0-9a-f]{4}-[0-9a-f]{12}", name)
    lo, mid, hi = m.groups()
    return (int(hi, 16) & 0xFFF) << 48 | int(mid, 16) << 32 | int(lo, 16)


def splits(labels):
    """(train, held) lists of (image path, codes) per kind: webcam frames in
    UUID1 time order, the earlier half (a run of one card kept whole)
    training; phone photos taken before 19:50 training."""
    rows = []
    for line in open(labels):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows.append((os.path.join(os.path.dirname(labels), f[0]), f[1].split(), f[2]))
    web = sorted([r for r in rows if r[2] == "webcam_held_card"], key=lambda r: uuid1_time(r[0]))
    h = len(web) // 2
    while 0 < h < len(web) and web[h][1] == web[h - 1][1]:
        h += 1
    phone = [r for r in rows if r[2] == "phone_photo"]
    early = [r for r in phone if re.search(r"IMG_\d{8}_(\d{4})", r[0]).group(1) < "1950"]
    late = [r for r in phone if r not in early]
    return {"webcam": (web[:h], web[h:]), "phone": (early, late)}


def load_net(path):
    b = open(path, "rb").read()
    i, size = 0, None
    while True:
        j = b.index(b"\n", i)
        line = b[i:j].decode()
        i = j + 1
        if line.startswith("input"):
            size = tuple(int(x) for x in line.split()[1:3])
        if line.startswith("onnx"):
            n = int(line.split()[1])
            return cv2.dnn.readNetFromONNX(np.frombuffer(b[i:i + n], np.uint8)), size


def run_net(net, patches):
    net, (w, h) = net
    outs = [[], [], []]
    for i in range(0, len(patches), 512):
        x = np.stack([cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA)
                      for p in patches[i:i + 512]]).astype(np.float32) / 255
        net.setInput(x.transpose(0, 3, 1, 2).copy())
        for k, o in enumerate(net.forward(["rank", "suit", "index"])):
            e = np.exp(o - o.max(1, keepdims=True))
            outs[k].append(e / e.sum(1, keepdims=True))
    return [np.concatenate(o) for o in outs]


def inside(quad, x, y, grow):
    c = quad.mean(0)
    q = ((quad - c) * grow + c).astype(np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(q, (float(x), float(y)), False) >= 0


def label(build, teacher, frames, rng):
    tmp = tempfile.mkdtemp(prefix="playing_frames_")
    lst = os.path.join(tmp, "list.tsv")
    subprocess.run([os.path.join(build, "ts-playing-index-dump"), "--list", lst, tmp] +
                   [f for f, _, _ in frames], check=True)
    rows = [line.rstrip("\n").split("\t") for line in open(lst)]
    pats = [cv2.imread(r[0], cv2.IMREAD_COLOR) for r in rows]
    rk, st, ix = run_net(teacher, pats)
    geo = np.array([[float(v) for v in r[2].split()] for r in rows])  # rank suit card patch
    codes = {f: c for f, c, _ in frames}
    by = collections.defaultdict(list)
    for k, r in enumerate(rows):
        by[r[1]].append(k)
    out, nanch = [], 0
    for img in sorted(by):
        ks = by[img]
        score = {}
        for k in ks:
            score[k] = max(((rk[k, RANKS.index(c[0])] * st[k, SUITS.index(c[1])] * ix[k, 1], c)
                            for c in codes[img]), key=lambda t: t[0])
        anchors = {}
        for k in ks:
            v, c = score[k]
            if v > ANCHOR and v > anchors.get(c, (0,))[0]:
                anchors[c] = (v, k)
        nanch += len(anchors)
        cards = [(c, geo[k, 4:12].reshape(4, 2)) for c, (_, k) in anchors.items()]
        base = os.path.basename(img)
        for k in ks:
            v, c = score[k]
            if v > POS and any(cc == c and inside(q, geo[k, 0], geo[k, 1], 1.05) and
                               inside(q, geo[k, 2], geo[k, 3], 1.05) for cc, q in cards):
                out.append((base, c, geo[k, 12:20]))
        if len(anchors) < len(set(codes[img])):
            continue
        neg = [k for k in ks if ix[k, 1] >= NEG_INDEX and
               not any(inside(q, geo[k, 0], geo[k, 1], 1.6) for _, q in cards)]
        for k in rng.sample(neg, min(NEG_PER_FRAME, len(neg))):
            out.append((base, "-", geo[k, 12:20]))
    npos = sum(1 for o in out if o[1] != "-")
    ncards = sum(len(set(codes[f])) for f in codes)
    print(f"{len(frames)} frames, {nanch}/{ncards} cards anchored, {npos} positive and "
          f"{len(out) - npos} negative patches", file=sys.stderr)
    return out


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--build", default="build")
    ap.add_argument("--shared", default=os.path.join(here, "..", "..", "shared", "data"))
    ap.add_argument("--teacher", required=True)
    ap.add_argument("--out", default=os.path.join(here, "playing_frame_index.tsv"))
    args = ap.parse_args()
    rng = random.Random(1)
    teacher = load_net(args.teacher)
    sp = splits(os.path.join(args.shared, "playing", "labels.tsv"))
    with open(args.out, "w") as f:
        f.write("# index patches of the training halves of the playing webcam and phone photos;\n"
                "# made by models/playing_frame_labels.py (teacher: session 6 playing.tsnet)\n")
        for kind in ("webcam", "phone"):
            train, held = sp[kind]
            print(f"{kind}: {len(train)} training frames, {len(held)} held out", file=sys.stderr)
            for base, c, q in label(args.build, teacher, train, rng):
                f.write(f"{base}\t{c}\t{' '.join('%.1f' % v for v in q)}\n")


if __name__ == "__main__":
    main()
