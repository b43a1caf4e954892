#!/usr/bin/python3
"""Trains the card-family net (models/family.tsnet) that `--game auto` asks
which family a read card looks like (vision/auto_family.c).

Every reader judges a card by its own family's marks and may be sure of
another family's card (a playing-card index reader on a Gang of Four
corner); this net looks at the whole face instead: beige with one big
coloured numeral, white with black/red corner indices, white with 1-3
shapes, one symbol on a dark tile, pips in two halves.

Classes: S SET card, P playing card, G Gang of Four, Q Qwirkle card,
T Qwirkle tile, D Chinese domino card, W western domino tile, X no card.
The input is the card's quad warped upright to 64 x 96 (portrait, its first
side a short side) and shrunk to 32 x 48, as the pipeline does.

Data (cached in --data):
- rendered tables of each family (`tablesight render`), the true quads of
  cards at least half visible, a little off and either way up; X: quads of
  card shape on the table away from the cards; and every quad each reader's
  finder offers on the first 20 tables (the card when it covers one, IoU >=
  0.75, else no card: parts of cards, two cards, table). Seeds 22000..
  train, 23000.. held aside.
- the shared photos: the cards each family's own reader reads there whose
  code is in the image's labels (`tablesight scan --game G`); on the SET
  boards and playing photos whose every labelled card is so read, every
  quad each reader's finder offers (the card it covers, else no card: a
  hand, a face, a part of a card); and the whole frame (one card filling
  a close-up is that card, a table of small pieces no card). Photo series
  (a game, a source, a session) are split whole: about a quarter of each
  data set is held aside (HELD; the webcam-held and phone playing series
  by time, the later half of each).
Everything is seeded: the same command gives the same model.

  /usr/bin/python3 models/train_family.py --build build \
      --shared ../shared --data /tmp/familydata --out models/family.tsnet
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tsnet  # noqa: E402

IW, IH = 32, 48  # net input
WW, WH = 64, 96  # warp size (the pipeline's, see auto_family.c)
LETTERS = "SPGQTDWX"
RENDER = {"set": "S", "playing": "P", "gof": "G", "qwirkle": "Q", "domino": "D"}
# label file, game, profile, class letter
REAL = [("set/crops.tsv", "set", None, "S"),
        ("set/boards.tsv", "set", None, "S"),
        ("playing/labels.tsv", "playing", None, "P"),
        ("qwirkle/labels.tsv", "qwirkle", "tiles", "T"),
        ("domino/labels.tsv", "domino", "double-six", "W")]


def warp(img, quad):
    src = np.float32(quad)
    dst = np.float32([[0, 0], [WW, 0], [WW, WH], [0, WH]])
    m = cv2.getPerspectiveTransform(src, dst)
    w = cv2.warpPerspective(img, m, (WW, WH), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(w, (IW, IH), interpolation=cv2.INTER_AREA)


def jitter(quad, rng, amount):
    """Moves each corner by up to amount of the short side; half the time
    the card is turned (upside down: corners two places on)."""
    q = np.float32(quad)
    short = min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[3] - q[2]))
    q = q + rng.uniform(-amount, amount, q.shape).astype(np.float32) * short
    if rng.random() < 0.5:
        q = np.roll(q, 2, axis=0)
    return q


def inside(pt, quad):
    return cv2.pointPolygonTest(np.float32(quad).reshape(-1, 1, 2), (float(pt[0]), float(pt[1])),
                                False) >= 0


def render_dir(data, fam, first, count, layout):
    """Where the rendered tables are cached (the default layout's as ever)."""
    return os.path.join(data, f"r_{fam}_{first}_{count}" + (f"_{layout}" if layout else ""))


def render_set(build, data, fam, first, count, rng, tag, layout=None):
    out = render_dir(data, fam, first, count, layout)
    if not os.path.exists(out):
        cmd = [os.path.join(build, "tablesight"), "render", "--game", fam, "--seed",
               str(first), "--count", str(count), "--quiet", out + ".tmp"]
        subprocess.run(cmd + (["--layout", layout] if layout else []),
                       check=True, stdout=subprocess.DEVNULL)
        os.rename(out + ".tmp", out)
    xs, ys = [], []
    for js in sorted(glob.glob(os.path.join(out, "*.json"))):
        d = json.load(open(js))
        img = cv2.imread(js[:-5] + ".jpg")
        quads = [c["quad"] for c in d["cards"]]
        h, w = img.shape[:2]
        # The whole frame of a table of many cards is no card (auto_family.c
        # asks about it; a fan's or a pile's frame must not pass for one
        # card of another family).
        for upright in (True, False):
            xs.append(warp(img, whole_frame(w, h, upright)))
            ys.append(LETTERS.index("X"))
        sides = []
        for c in d["cards"]:
            if c["visible"] < 0.5:
                continue
            q = np.float32(c["quad"])
            sides.append(np.linalg.norm(q[1] - q[0]))
            for _ in range(2):
                xs.append(warp(img, jitter(q, rng, 0.06)))
                ys.append(LETTERS.index(RENDER[fam]))
        # no card: card-shaped quads on the table, off every card
        if not sides or w < 3 * max(sides) or h < 3 * max(sides):
            continue
        s = float(np.median(sides))
        made = 0
        for _ in range(40):
            if made == 3:
                break
            cx, cy = rng.uniform(s, w - s), rng.uniform(1.5 * s, h - 1.5 * s)
            a = rng.uniform(0, np.pi)
            hw, hh = s / 2, s * rng.uniform(0.6, 0.9)
            u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
            q = np.float32([[cx, cy] - hw * u - hh * v, [cx, cy] + hw * u - hh * v,
                            [cx, cy] + hw * u + hh * v, [cx, cy] - hw * u + hh * v])
            if any(inside(p, cq) for p in list(q) + [(cx, cy)] for cq in quads):
                continue
            xs.append(warp(img, q))
            ys.append(LETTERS.index("X"))
            made += 1
    print(f"  {tag} {fam} {first}+{count}: {len(xs)} cards", flush=True)
    return xs, ys


# Every reader --game auto runs (game, profile): what their finders offer
# on other families' tables is what the net is asked about.
READERS = [("set", None), ("playing", None), ("gof", None), ("qwirkle", None),
           ("qwirkle", "tiles"), ("domino", None), ("domino", "double-six")]


def iou(a, b):
    a, b = np.float32(a), np.float32(b)
    inter, _ = cv2.intersectConvexConvex(a, b)
    union = cv2.contourArea(a) + cv2.contourArea(b) - inter
    return inter / union if union > 0 else 0.0


def offered_set(build, data, fam, first, count, tables, rng, tag, layout=None):
    """What every reader's finder makes of the first `tables` rendered
    tables of fam: a quad on a true card (IoU >= 0.75) is that card, any
    other (a part of a card, two cards, table) is no card."""
    out = render_dir(data, fam, first, count, layout)
    imgs = sorted(glob.glob(os.path.join(out, "*.jpg")))[:tables]
    xs, ys = [], []
    for game, prof in READERS:
        lay = f"_{layout}" if layout else ""
        cache = os.path.join(data, f"offered_{fam}_{first}_{tables}{lay}_{game}_{prof}.json")
        scan_cached(build, cache, game, prof, imgs)
        for line in open(cache):
            d = json.loads(line)
            truth = json.load(open(d["source"][:-4] + ".json"))["cards"]
            img = cv2.imread(d["source"])
            for c in d["cards"]:
                best = max([iou(c["quad"], t["quad"]) for t in truth if t["visible"] >= 0.5] or [0])
                xs.append(warp(img, jitter(c["quad"], rng, 0)))
                ys.append(LETTERS.index(RENDER[fam] if best >= 0.75 else "X"))
    print(f"  {tag} {fam} offered by every reader on {tables} tables: {len(xs)} quads, "
          f"{ys.count(LETTERS.index('X'))} no card", flush=True)
    return xs, ys


# Photo series held aside whole (a game, a source, a session), about a
# quarter of each data set. The playing photos are two long sessions split
# by time: the phone photos from 19:50 on, and the later half of the
# webcam-held cards (by the time in their names' UUID1).
HELD = re.compile(r"qwirkle/images/tr3_|domino/images/g3_|"
                  r"IMG_20220921_(195|20)|mathsvlog_|tomwhite.*_2017031[57]_|pclewis_")
WEBCAM = re.compile(r"cardcounter_webcam_[0-9a-z]+-([0-9a-f]{8})-([0-9a-f]{4})-1([0-9a-f]{3})-")
# UUID1 time (100 ns since 1582) from which on the webcam photos are held
# aside: the median of the series' 111 photos.
WEBCAM_HELD_FROM = 0x1ed3991c5fedc5b


def uuid1_time(path):
    m = WEBCAM.search(path)
    return int(m.group(3) + m.group(2) + m.group(1), 16) if m else None


def held(path):
    t = uuid1_time(path)
    if t is not None:
        return t >= WEBCAM_HELD_FROM
    return HELD.search(path) is not None


def whole_frame(w, h, upright):
    """The whole frame as a quad, its first side the top: as it stands, or
    turned a quarter (the left side the top: a card lying across)."""
    if upright:
        return [[0, 0], [w, 0], [w, h], [0, h]]
    return [[0, h], [0, 0], [w, 0], [w, h]]


def scan_cached(build, cache, game, profile, images):
    """`tablesight scan --game game` of images as JSON lines in cache,
    unless cache is there already (written whole or not at all)."""
    if os.path.exists(cache):
        return
    cmd = [os.path.join(build, "tablesight"), "scan", "--game", game]
    if profile:
        cmd += ["--profile", profile]
    with open(cache + ".tmp", "w") as o:
        subprocess.run(cmd + images, check=False, stdout=o, stderr=subprocess.DEVNULL)
    os.rename(cache + ".tmp", cache)


def read_labels(shared, rel):
    """A label file of the shared data: each image's path -> its codes."""
    labels = os.path.join(shared, "data", rel)
    base = os.path.dirname(labels)
    want = {}
    for line in open(labels):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#") or len(f) < 2:
            continue
        want[os.path.join(base, f[0])] = f[1].split()
    return want


def real_set(build, shared, data, rel, game, profile, letter, rng):
    want = read_labels(shared, rel)
    cache = os.path.join(data, "scan_" + rel.replace("/", "_") + ".json")
    scan_cached(build, cache, game, profile, sorted(want))
    tr, va = ([], []), ([], [])
    nwhole = 0
    for line in open(cache):
        d = json.loads(line)
        path = d["source"]
        if path not in want:
            continue
        img = cv2.imread(path)
        left = list(want[path])
        dst = va if held(path) else tr
        found = []
        for c in d["cards"]:
            if not c["read"] or c["code"] not in left:
                continue
            left.remove(c["code"])
            found.append(c["quad"])
            for _ in range(1 if dst is va else 2):
                dst[0].append(warp(img, jitter(c["quad"], rng, 0.04 if dst is tr else 0)))
                dst[1].append(LETTERS.index(letter))
        if rel == "set/crops.tsv":
            continue  # the crop is the card
        # The whole frame, which auto_family.c also asks about: one card
        # filling a close-up photo (turned as the card lies) is that card;
        # a table of small pieces is no card.
        h, w = img.shape[:2]
        area = sum(cv2.contourArea(np.float32(q)) for q in found)
        if len(want[path]) == 1 and len(found) == 1 and area >= 0.3 * w * h:
            q = np.float32(found[0])
            top = q[1] - q[0]
            upright = abs(top[0]) >= abs(top[1])
            dst[0].append(warp(img, whole_frame(w, h, upright)))
            dst[1].append(LETTERS.index(letter))
            nwhole += 1
        elif len(want[path]) == 1:
            # A photo of one card, its reader lost or the card small: a
            # card held up to a webcam (a face, a room), one in a hand or
            # lying alone. The frame shows that family and no other, which
            # auto_family.c asks when the readings say little; either way
            # up, as the card may lie.
            for upright in (True, False):
                dst[0].append(warp(img, whole_frame(w, h, upright)))
                dst[1].append(LETTERS.index(letter))
                nwhole += 1
        elif len(want[path]) >= 4 and area < 0.15 * w * h:
            for upright in (True, False):
                dst[0].append(warp(img, whole_frame(w, h, upright)))
                dst[1].append(LETTERS.index("X"))
                nwhole += 1
    print(f"  real {rel}: {len(tr[0])} train, {len(va[0])} held aside ({nwhole} whole frames)",
          flush=True)
    return tr, va


# Photo sets whose every reader's outlines are learnt (real_offered): the
# playing photos (hands, faces, rooms, a table's grain) and the SET boards.
# The SET crops are one card each; the Qwirkle and domino boards hold ~60
# pieces each (slow to scan seven times) and no other family claims them.
OFFERED_REAL = ("set/boards.tsv", "playing/labels.tsv")


def real_offered(build, shared, data, rel, game, profile, letter, rng):
    """What every reader's finder offers on the shared photos of rel whose
    every labelled card its own reader reads (so every card's outline is
    known): a quad on one of them (IoU >= 0.75) is that card, any other (a
    part of a card, two cards, a hand, a face, the room) is no card. Real
    cameras' clutter and other readers' views of real cards, which rendered
    tables lack. Split like real_set."""
    want = read_labels(shared, rel)
    truth = {}
    for line in open(os.path.join(data, "scan_" + rel.replace("/", "_") + ".json")):
        d = json.loads(line)
        left = list(want.get(d["source"], []))
        quads = []
        for c in d["cards"]:
            if c["read"] and c["code"] in left:
                left.remove(c["code"])
                quads.append(c["quad"])
        if d["source"] in want and not left:
            truth[d["source"]] = quads
    tr, va = ([], []), ([], [])
    for rgame, rprof in READERS:
        cache = os.path.join(data, f"offered_real_{rel.replace('/', '_')}_{rgame}_{rprof}.json")
        scan_cached(build, cache, rgame, rprof, sorted(truth))
        for line in open(cache):
            d = json.loads(line)
            if d["source"] not in truth or not d["cards"]:
                continue
            img = cv2.imread(d["source"])
            dst = va if held(d["source"]) else tr
            for c in d["cards"]:
                best = max([iou(c["quad"], t) for t in truth[d["source"]]] or [0])
                dst[0].append(warp(img, jitter(c["quad"], rng, 0)))
                dst[1].append(LETTERS.index(letter if best >= 0.75 else "X"))
    nx = sum(y == LETTERS.index("X") for y in tr[1] + va[1])
    print(f"  real {rel} offered by every reader on {len(truth)} photos: {len(tr[0])} train, "
          f"{len(va[0])} held aside, {nx} no card", flush=True)
    return tr, va


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 12, 3, padding=1)
        self.b1 = nn.BatchNorm2d(12)
        self.c2 = nn.Conv2d(12, 24, 3, padding=1)
        self.b2 = nn.BatchNorm2d(24)
        self.c3 = nn.Conv2d(24, 32, 3, padding=1)
        self.b3 = nn.BatchNorm2d(32)
        self.fc = nn.Linear(32 * 6 * 4, 48)
        self.drop = nn.Dropout(0.2)
        self.family = nn.Linear(48, len(LETTERS))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)  # 24 x 16
        x = F.max_pool2d(F.relu(self.b2(self.c2(x))), 2)  # 12 x 8
        x = F.max_pool2d(F.relu(self.b3(self.c3(x))), 2)  # 6 x 4
        x = self.drop(F.relu(self.fc(torch.flatten(x, 1))))
        return self.family(x)


def augment(x, g):
    """Light, white balance, blur, noise: what differs between cameras."""
    n = x.shape[0]
    gain = torch.empty(n, 3, 1, 1).uniform_(0.9, 1.1, generator=g)
    bright = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.3, generator=g)
    x = x * gain * bright
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.2, generator=g)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * contrast + mean
    k = torch.tensor([0.25, 0.5, 0.25])
    k2 = (k[:, None] * k[None, :]).expand(3, 1, 3, 3)
    blur = torch.rand(n, generator=g) < 0.33
    if blur.any():
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k2, groups=3)
    sigma = torch.empty(n, 1, 1, 1).uniform_(0, 0.03, generator=g)
    x = x + torch.randn(x.shape, generator=g) * sigma
    return x.clamp(0, 1)


def to_tensor(img):
    return torch.from_numpy(img).permute(0, 3, 1, 2).float() / 255.0


def evaluate(model, x, y, tag):
    model.eval()
    with torch.no_grad():
        p = torch.cat([model(to_tensor(x[i:i + 1024])).argmax(1)
                       for i in range(0, len(x), 1024)]).numpy()
    ok = p == y
    per = "  ".join(f"{LETTERS[k]} {ok[y == k].sum()}/{(y == k).sum()}"
                    for k in range(len(LETTERS)) if (y == k).any())
    print(f"{tag}: {100 * ok.mean():.2f}% of {len(y)}  ({per})", flush=True)
    return ok.mean()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--shared", default="../shared")
    ap.add_argument("--data", default="/tmp/familydata", help="where renders and scans are cached")
    ap.add_argument("--out", default="models/family.tsnet")
    ap.add_argument("--tables", type=int, default=60, help="rendered training tables per family")
    ap.add_argument("--fans", type=int, default=12, help="rendered fan tables per family")
    ap.add_argument("--epochs", type=int, default=5)
    a = ap.parse_args()
    torch.manual_seed(1)
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(1)
    rng = np.random.default_rng(1)
    os.makedirs(a.data, exist_ok=True)
    xtr, ytr, xva, yva, xrv, yrv = [], [], [], [], [], []
    for fam in RENDER:
        x, y = render_set(a.build, a.data, fam, 22000, a.tables, rng, "train")
        xtr += x
        ytr += y
        x, y = render_set(a.build, a.data, fam, 23000, 10, rng, "held aside")
        xva += x
        yva += y
        x, y = offered_set(a.build, a.data, fam, 22000, a.tables, 20, rng, "train")
        xtr += x
        ytr += y
        x, y = offered_set(a.build, a.data, fam, 23000, 10, 10, rng, "held aside")
        xva += x
        yva += y
        # Fans: a whole top card over strips the readers read as cards of
        # their own (the net must call the strips no card and know the
        # top card).
        for first, count, dst in ((22500, a.fans, (xtr, ytr)), (23500, 4, (xva, yva))):
            x, y = render_set(a.build, a.data, fam, first, count, rng, "fan", "fan")
            dst[0].extend(x)
            dst[1].extend(y)
            x, y = offered_set(a.build, a.data, fam, first, count, count, rng, "fan", "fan")
            dst[0].extend(x)
            dst[1].extend(y)
    for rel, game, prof, letter in REAL:
        tr, va = real_set(a.build, a.shared, a.data, rel, game, prof, letter, rng)
        xtr += tr[0]
        ytr += tr[1]
        xrv += va[0]
        yrv += va[1]
        if rel not in OFFERED_REAL:
            continue
        tr, va = real_offered(a.build, a.shared, a.data, rel, game, prof, letter, rng)
        xtr += tr[0]
        ytr += tr[1]
        xrv += va[0]
        yrv += va[1]
    xtr, ytr = np.stack(xtr), np.array(ytr)
    xva, yva = np.stack(xva), np.array(yva)
    xrv, yrv = np.stack(xrv), np.array(yrv)
    print(f"train {len(xtr)}, held aside: rendered {len(xva)}, real {len(xrv)}")
    # every class weighs the same in the loss, however many examples it has
    counts = np.bincount(ytr, minlength=len(LETTERS)).astype(np.float32)
    weight = torch.from_numpy(counts.sum() / np.maximum(counts, 1) / len(LETTERS))
    model = Net()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-4)
    steps = a.epochs * ((len(xtr) + 127) // 128)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    yt = torch.from_numpy(ytr)
    for ep in range(a.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=g)
        total = 0.0
        for i in range(0, len(xtr), 128):
            b = perm[i:i + 128]
            loss = F.cross_entropy(model(augment(to_tensor(xtr[b.numpy()]), g)), yt[b],
                                   weight=weight)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(b)
        print(f"epoch {ep + 1}: loss {total / len(xtr):.4f}", flush=True)
        evaluate(model, xva, yva, "  held aside, rendered")
        evaluate(model, xrv, yrv, "  held aside, real")
    rend = evaluate(model, xva, yva, "held aside, rendered (final)")
    real = evaluate(model, xrv, yrv, "held aside, real series (final)")
    tsnet.export(model, a.out, "family", IW, IH, 3, [("family", LETTERS)],
                 comments=[f"card family of a warped card; rendered tables 22000+{a.tables} "
                           f"per family and three quarters of the shared photo series; held "
                           f"aside: rendered 23000+10 {100 * rend:.2f}%, real series "
                           f"{100 * real:.2f}%",
                           "rebuild: /usr/bin/python3 models/train_family.py (models/README.md)"])
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
