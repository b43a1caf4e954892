#!/usr/bin/python3
"""Trains the playing-card corner-index nets: the reader's (models/playing.tsnet,
--arch large, the default) and the small one that screens the corner-index
finder's patches (models/playing-find.tsnet, --arch tiny: 24 x 40 input,
patches placed from the glyphs alone so more jitter, and hard negatives).

The reader (vision/readers/playing.c) cuts the top-left corner of the
rectified card (TS_PLAYING_CARD_W x _H = 128 x 180) and the bottom-right one
turned 180 degrees, each 0.24 x 0.31 of the card, and the net reads each:
rank (13), suit (4) and whether the patch shows an index at all (2).

Training data (all rebuilt by this script from the project and ../shared):
  * cards drawn by `tablesight render --game playing --crops`, seeds >= 20000
    (layouts grid, scatter, touching, row);
  * real rectified cards: the vosloo_* crops (one deck, 24 cards x 3 photos)
    and the one-card phone photos cardcounter_phone_IMG_20220921_19[34]*
    (taken before 19:50), cut out by build/ts-playing-crops --dump, which
    uses the reader's own finder;
  * not-an-index patches: other places on those cards (centre, edge middle),
    plain/noisy/textured patches; for --arch tiny also the patches the
    reader's corner-index finder and outline finder cut from the shared SET,
    Qwirkle and domino photos (build/ts-playing-index-dump: no playing cards
    there, so every one is a false index).
  * index patches cut from the training halves of the real scene photos
    (models/playing_frame_index.tsv, made by playing_frame_labels.py: the
    webcam frames of the earlier half in UUID1 time order, the phone photos
    taken before 19:50), cards and not-an-index places (faces, shirts,
    window bars); each cut from the frame itself with the same jitter.
  * optionally (--other-cards, --other-patches; off in the shipped nets)
    other families' index corners: their rendered cards (render --game G
    --crops) cut where a playing card's index is, and the pairs the
    corner-index finder cuts from their rendered tables (see models/README.md).
Held out (never trained on): guillex7_* and mathsvlog_* (other decks),
cardcounter_phone_*_195*/_20* (later series), the later half of
cardcounter_webcam_* (split by time; --no-frames: no webcam frame at all).

  /usr/bin/python3 models/train_playing.py --build build [--cache /tmp/playing_train]
  /usr/bin/python3 models/train_playing.py --build build --arch tiny [--cache ...]
  /usr/bin/python3 models/train_playing.py --build build --arch s2 --epochs 30 \
      --teacher models/playing.tsnet --out models/playing-fast.tsnet [--cache ...]

The last is the reader's fast net (models/playing-fast.tsnet): a quarter of
the large net's cost, trained on the large net's soft outputs (run by
OpenCV's dnn, as the reader runs it) as well as the labels; the reader
takes its reading of a first corner when it is sure, else the large net's.

Prints the held-aside accuracy on held-out real corner patches (the rectified
mathsvlog and guillex7 cards) and on held-out rendered cards (seed 29000+).
"""
import argparse
import os
import random
import subprocess
import sys

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tsnet  # noqa: E402

CARD_W, CARD_H = 128, 180
CORNER_W, CORNER_H = 0.24, 0.31
IN_W, IN_H = 32, 56
RANKS, SUITS = "A23456789TJQK", "CDHS"
SEED = 1
# Webcam effects in augmentation (--webcam): squeezed low resolution and
# drawn boxes. Off reproduces the nets trained before session 6.
WEBCAM = False
# How far off the patches of found cards are: the reader net's (card
# outlines) and the finder net's (patches placed from an index's glyphs alone).
JITTER = {"scale": (0.88, 1.15), "dx": 0.035, "dy": 0.03}
FINDER_JITTER = {"scale": (0.85, 1.2), "dx": 0.045, "dy": 0.04}
# Quads found in phone close-ups can be far off the card's shape: a quad of
# half the card (its index twice as wide in the patch), a card guessed from
# a large index too small or too large. --stretch SHARE: this share of the
# positives cut from cards is scaled by its own factor along each axis
# (log-uniform in "axis") instead of the reader's jitter. Off (0) in the
# shipped nets: at 0.3 the reader read held-out phone photos worse
# (models/README.md).
STRETCH = {"share": 0.0, "axis": (0.55, 1.3)}
# The labelled webcam frames' boxes (--boxes SHARE): a rectangle drawn
# tight round the index's glyphs at the frame's scale (1-2 px, a light
# line, a dark one or a light and a dark side by side, touching the glyphs),
# on this share of the patches, positives and negatives alike (round the
# ink a negative shows: a pip, a figure), and DIM_SHARE of them dimmed to a
# dark room's paper (a fifth to a half of its light). Off (0) reproduces
# the nets before session 18.
BOXES = {"share": 0.0, "dim": 0.5}
# Share of positives (and of negatives) cut from the real scene photos'
# training halves (playing_frame_index.tsv).
FRAME_SHARE = 0.1
# Share of the negatives drawn from other families (--other-cards: the
# index corners of their rectified cards, cut as a playing card's; and
# --other-patches: the pairs the corner-index finder cuts from their
# tables), so their printed numbers are not read as a playing index.
# Off (no such dirs) reproduces the nets before session 18.
OTHER = {"share": 0.25}


def code_index(code):
    code = code.replace("10", "T")
    return RANKS.index(code[0]), SUITS.index(code[1])


# ---- Data -------------------------------------------------------------------

def run(cmd):
    print("+", " ".join(cmd[:4]), "..." if len(cmd) > 4 else "", file=sys.stderr)
    subprocess.run(cmd, check=True)


def build_data(build, shared, cache):
    """Renders the synthetic crops and cuts the real phone cards (once)."""
    tablesight = os.path.join(build, "tablesight")
    layouts = [("grid", 20000, 200), ("scatter", 21000, 200), ("touching", 22000, 200),
               ("row", 23000, 200), ("grid", 29000, 30)]  # last: held-out rendered
    for lay, seed, count in layouts:
        out = os.path.join(cache, f"render_{lay}_{seed}")
        if not os.path.exists(os.path.join(out, "labels.tsv")):
            os.makedirs(out, exist_ok=True)
            run([tablesight, "render", "--game", "playing", "--crops", "--random", "13",
                 "--layout", lay, "--seed", str(seed), "--count", str(count), "--quiet", out])
    real = os.path.join(cache, "phone_cut")
    if not os.path.exists(os.path.join(real, "labels.tsv")):
        os.makedirs(real, exist_ok=True)
        run([os.path.join(build, "ts-playing-crops"), "--match", "cardcounter_phone",
             "--dump", real, os.path.join(shared, "playing", "labels.tsv")])
    held = os.path.join(cache, "guillex7_cut")
    if not os.path.exists(os.path.join(held, "labels.tsv")):
        os.makedirs(held, exist_ok=True)
        run([os.path.join(build, "ts-playing-crops"), "--match", "guillex7_",
             "--dump", held, os.path.join(shared, "playing", "labels.tsv")])
    neg = os.path.join(cache, "index_neg")
    if not os.path.exists(os.path.join(neg, "done")):
        os.makedirs(neg, exist_ok=True)
        imgs = []
        for sub in ("set/boards", "qwirkle/images", "domino/images"):
            d = os.path.join(shared, sub)
            imgs += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".jpg"))
        run([os.path.join(build, "ts-playing-index-dump"), neg] + imgs)
        open(os.path.join(neg, "done"), "w").close()
    return layouts, real, held, neg


def read_labels(path, base=None):
    base = base or os.path.dirname(path)
    items = []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        codes = f[1].split()
        if len(codes) != 1:
            continue
        items.append((os.path.join(base, f[0]), code_index(codes[0])))
    return items


def load_card(path):
    img = cv2.imread(path, cv2.IMREAD_COLOR)
    if img is None:
        raise SystemExit(f"{path}: unreadable")
    if img.shape[1] > img.shape[0]:  # landscape crop: turn it portrait
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    return cv2.resize(img, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def phone_train_series(name):
    """Phone photos taken before 19:50 train; later series are held out."""
    b = os.path.basename(name)
    i = b.find("IMG_20220921_")
    return i >= 0 and b[i + 13:i + 17] < "1950"


# ---- Patches ----------------------------------------------------------------

def load_frame_patches(shared, path):
    """[(frame image, patch quad, (rank, suit) or None)] from
    playing_frame_index.tsv; each frame is loaded once."""
    frames, out = {}, []
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        name, code, quad = line.rstrip("\n").split("\t")
        if name not in frames:
            img = cv2.imread(os.path.join(shared, "playing", "images", name), cv2.IMREAD_COLOR)
            if img is None:
                raise SystemExit(f"{name}: unreadable")
            frames[name] = img
        q = np.array([float(v) for v in quad.split()], np.float32).reshape(4, 2)
        out.append((frames[name], q, None if code == "-" else code_index(code)))
    return out


def frame_patch(img, quad, rng, jitter):
    """The patch of quad (as the reader cuts it from the frame), moved,
    scaled and turned a little as corner_patch does."""
    rect = np.array([[0, 0], [IN_W, 0], [IN_W, IN_H], [0, IN_H]], np.float32)
    s, dx, dy, a = rng.uniform(*jitter["scale"]), rng.uniform(-jitter["dx"], jitter["dx"]), \
        rng.uniform(-jitter["dy"], jitter["dy"]), np.deg2rad(rng.uniform(-4, 4))
    c, si = np.cos(a), np.sin(a)
    cx, cy = IN_W / 2, IN_H / 2
    moved = [[cx + s * (c * (x - cx) - si * (y - cy)) + dx * IN_W / CORNER_W,
              cy + s * (si * (x - cx) + c * (y - cy)) + dy * IN_H / CORNER_H] for x, y in rect]
    h = cv2.getPerspectiveTransform(rect, quad)
    q = cv2.perspectiveTransform(np.array([moved], np.float32), h)[0]
    m = cv2.getPerspectiveTransform(q.astype(np.float32), rect)
    return cv2.warpPerspective(img, m, (IN_W, IN_H), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def corner_patch(card, turned, rng, jitter):
    """The index patch as the reader cuts it, with a random small shift,
    scale and tilt when jitter (quads found in photos are a few px off)."""
    if turned:
        card = cv2.rotate(card, cv2.ROTATE_180)
    cw, ch = CORNER_W * CARD_W, CORNER_H * CARD_H
    sx = sy = 1.0
    if jitter:
        s = rng.uniform(*JITTER["scale"])
        dx = rng.uniform(-JITTER["dx"], JITTER["dx"]) * CARD_W
        dy = rng.uniform(-JITTER["dy"], JITTER["dy"]) * CARD_H
        a = np.deg2rad(rng.uniform(-4, 4))
        if STRETCH["share"] and rng.random() < STRETCH["share"]:
            lo, hi = np.log(STRETCH["axis"][0]), np.log(STRETCH["axis"][1])
            sx, sy = np.exp(rng.uniform(lo, hi)), np.exp(rng.uniform(lo, hi))
            s = 1.0
    else:
        s, dx, dy, a = 1.0, 0.0, 0.0, 0.0
    return cut(card, dx, dy, cw * s * sx, ch * s * sy, a)


def cut(img, x0, y0, w, h, a=0.0):
    """Patch IN_W x IN_H from img's rectangle (x0, y0, w, h) turned by a."""
    sx, sy = w / IN_W, h / IN_H
    c, s = np.cos(a), np.sin(a)
    m = np.array([[sx * c, -sy * s, x0], [sx * s, sy * c, y0]], np.float32)
    big = cv2.warpAffine(img, m, (IN_W, IN_H), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    return big


def negative_patch(card, rng):
    """A patch of a card that holds no index, or of something else."""
    k = rng.random()
    if k < 0.45:  # a place on the card away from the index corners
        cw, ch = CORNER_W * CARD_W, CORNER_H * CARD_H
        x = rng.uniform(0.25, 0.75) * CARD_W - cw / 2
        y = rng.uniform(0.3, 0.7) * CARD_H - ch / 2
        if rng.random() < 0.3:  # middle of a long edge
            x = rng.uniform(-0.05, 0.05) * CARD_W
        s = rng.uniform(0.8, 2.0)
        return cut(card, x, y, cw * s, ch * s, np.deg2rad(rng.uniform(-10, 10)))
    if k < 0.6:  # the card scaled far down: a patch of many small things
        cw, ch = rng.uniform(0.6, 1.0) * CARD_W, rng.uniform(0.6, 1.0) * CARD_H
        return cut(card, rng.uniform(0, CARD_W - cw), rng.uniform(0, CARD_H - ch), cw, ch)
    p = np.zeros((IN_H, IN_W, 3), np.float32)  # table, cloth, skin, wood
    p[:] = [rng.uniform(0, 255) for _ in range(3)]
    if rng.random() < 0.5:
        g = np.linspace(0, rng.uniform(-80, 80), IN_H)[:, None, None]
        p += g
    freq = rng.choice([1, 2, 4, 8])
    n = cv2.resize(np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(2, 40),
                   (IN_H // freq + 1, IN_W // freq + 1, 3)).astype(np.float32), (IN_W, IN_H))
    p += n
    if rng.random() < 0.3:  # a straight edge (another card's border, a table edge)
        x = rng.randrange(IN_W)
        p[:, x:] = p[:, x:] * 0.4 + 150
    return np.clip(p, 0, 255).astype(np.uint8)


def augment(p, rng):
    """Camera effects: light, white balance, blur, low resolution, noise,
    JPEG, and grey photos (some phone photos are black and white)."""
    p = p.astype(np.float32)
    p = p * rng.uniform(0.55, 1.25) + rng.uniform(-40, 30)
    p *= np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rng.random() < 0.3:  # a shadow over part of the patch
        y = rng.randrange(IN_H)
        p[y:] *= rng.uniform(0.4, 0.8)
    p = np.clip(p, 0, 255).astype(np.uint8)
    if WEBCAM and rng.random() < 0.15:  # a box drawn around the index (labelled webcam sets)
        box(p, rng)
    if BOXES["share"] and rng.random() < BOXES["share"]:
        tight_box(p, rng)
        if rng.random() < BOXES["dim"]:
            p = (p * rng.uniform(0.2, 0.5)).astype(np.uint8)
    if WEBCAM and rng.random() < 0.15:  # a dim room: the webcam's frame is dark
        p = (p * rng.uniform(0.25, 0.55)).astype(np.uint8)
    if rng.random() < 0.4:  # seen small (webcam): down and up again
        f = rng.uniform(0.3, 0.8)
        # a 16:9 frame squeezed to a square halves one direction's pixels
        fx, fy = (f, f) if not WEBCAM or rng.random() < 0.5 else \
            (f * rng.uniform(0.55, 1.0), f) if rng.random() < 0.5 else (f, f * rng.uniform(0.55, 1.0))
        w, h = max(4, int(IN_W * fx)), max(6, int(IN_H * fy))
        p = cv2.resize(cv2.resize(p, (w, h), interpolation=cv2.INTER_AREA), (IN_W, IN_H),
                       interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.3, 1.2))
    if rng.random() < 0.25:
        g = cv2.cvtColor(p, cv2.COLOR_BGR2GRAY)
        p = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    p = p.astype(np.float32)
    if rng.random() < 0.6:
        p += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, 10), p.shape)
    if rng.random() < 0.3:  # specks (the phone photos carry salt and pepper)
        m = np.random.default_rng(rng.randrange(1 << 30)).random(p.shape[:2])
        p[m < 0.01] = 0
        p[m > 0.99] = 255
    p = np.clip(p, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, b = cv2.imencode(".jpg", p, [cv2.IMWRITE_JPEG_QUALITY, rng.randrange(30, 90)])
        p = cv2.imdecode(b, cv2.IMREAD_COLOR)
    return p


def box(p, rng):
    """A thin rectangle drawn over the patch, as the labelled webcam frames
    carry around every index (on positives and negatives alike, so the
    box itself says nothing)."""
    h, w = p.shape[:2]
    x0, y0 = int(rng.uniform(0, 0.25) * w), int(rng.uniform(0, 0.2) * h)
    x1, y1 = int(rng.uniform(0.6, 1.0) * w), int(rng.uniform(0.45, 0.8) * h)
    c = [rng.randrange(0, 80)] * 3 if rng.random() < 0.7 else [rng.randrange(256) for _ in range(3)]
    cv2.rectangle(p, (x0, y0), (x1, y1), c, 1)


def ink_bounds(p):
    """The bounding box (x0, y0, x1, y1) of an index's glyphs in patch p:
    the ink (pixels far darker or more coloured than the paper) in blobs
    that touch no side of the patch (not the card's edge or what lies
    beyond it) and lie in its top-left part, where an index is; None where
    there are none."""
    h, w = p.shape[:2]
    g = cv2.cvtColor(p, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sat = cv2.cvtColor(p, cv2.COLOR_BGR2HSV)[:, :, 1].astype(np.float32)
    paper = np.percentile(g, 90)
    ink = ((g < 0.6 * paper) | ((sat > 90) & (g < 0.95 * paper))).astype(np.uint8)
    n, _, st, cen = cv2.connectedComponentsWithStats(ink, connectivity=8)
    box = None
    for k in range(1, n):
        x, y, bw, bh, area = st[k]
        if area < 4 or x == 0 or y == 0 or x + bw >= w or y + bh >= h:
            continue
        if cen[k][0] > 0.6 * w or cen[k][1] > 0.8 * h:
            continue
        b = (x, y, x + bw - 1, y + bh - 1)
        box = b if box is None else (min(box[0], b[0]), min(box[1], b[1]),
                                     max(box[2], b[2]), max(box[3], b[3]))
    return box


def tight_box(p, rng):
    """A rectangle drawn in place on p tight round its ink (ink_bounds),
    else round a random part of it, as the labelled webcam frames draw one
    round each index: its sides light, dark, or light beside dark."""
    h, w = p.shape[:2]
    b = ink_bounds(p)
    if b is None:
        b = (rng.uniform(0, 0.3) * w, rng.uniform(0, 0.2) * h,
             rng.uniform(0.5, 0.9) * w, rng.uniform(0.5, 0.9) * h)
    m = [rng.uniform(0, 3) for _ in range(4)]
    x0, y0 = int(round(b[0] - m[0])), int(round(b[1] - m[1]))
    x1, y1 = int(round(b[2] + m[2])), int(round(b[3] + m[3]))
    light = [rng.randrange(190, 256)] * 3
    dark = [rng.randrange(0, 70)] * 3
    style = rng.random()
    t = 1 if rng.random() < 0.7 else 2
    if style < 0.35:
        cv2.rectangle(p, (x0, y0), (x1, y1), light, t)
    elif style < 0.6:
        cv2.rectangle(p, (x0, y0), (x1, y1), dark, t)
    else:  # a light line with a dark one beside it (outside or on some sides)
        cv2.rectangle(p, (x0, y0), (x1, y1), light, 1)
        if rng.random() < 0.5:
            cv2.rectangle(p, (x0 - 1, y0 - 1), (x1 + 1, y1 + 1), dark, 1)
        else:
            cv2.line(p, (x1 + 1, y0), (x1 + 1, y1 + 1), dark, t)
            cv2.line(p, (x0, y1 + 1), (x1 + 1, y1 + 1), dark, 1)


# ---- Net --------------------------------------------------------------------

class HeadsNet(nn.Module):
    """What every index net ends in: features, one hidden layer (fc), and
    the rank, suit and is-an-index heads the reader reads. A subclass calls
    heads() last, so its layers are made (and seeded) in the same order."""
    def heads(self, hidden):
        self.rank = nn.Linear(hidden, 13)
        self.suit = nn.Linear(hidden, 4)
        self.index = nn.Linear(hidden, 2)

    def forward(self, x):
        h = self.fc(self.features(x))
        return self.rank(h), self.suit(h), self.index(h)


class IndexNet(HeadsNet):
    """Three blocks of two convs and a pool. large: widths 16-32-48, about
    15M multiply-adds per 32 x 56 patch; medium: 12-24-40, about 9M."""
    def __init__(self, widths=(16, 32, 48)):
        super().__init__()
        a, b, c = widths

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.MaxPool2d(2))
        self.features = nn.Sequential(block(3, a), block(a, b), block(b, c))  # 4 x 7
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(c * 7 * 4, 64),
                                nn.ReLU())
        self.heads(64)


class CompactIndexNet(HeadsNet):
    """Three pooled convs and one more at the last scale, then one hidden
    layer. tiny: widths 8-16-32-32, 48 hidden, about 0.9M multiply-adds per
    24 x 40 patch (a sixteenth of IndexNet: the 8 ms budget of a 12-card table
    leaves well under 1 ms a card). small: 12-24-48-48, 64 hidden, about 3.6M
    per patch (a quarter of IndexNet)."""
    def __init__(self, widths, hidden, cells, dropout):
        super().__init__()

        def block(i, o, pool=True):
            layers = [nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
            return nn.Sequential(*(layers + [nn.MaxPool2d(2)] if pool else layers))
        a, b, c = widths
        self.features = nn.Sequential(block(3, a), block(a, b), block(b, c),
                                      block(c, c, pool=False))
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(dropout), nn.Linear(c * cells, hidden),
                                nn.ReLU())
        self.heads(hidden)


class StrideIndexNet(HeadsNet):
    """The reader's fast net (--arch s2): a first conv of stride 2 (a
    quarter of IndexNet's first-layer positions, whose input unrolling was
    most of OpenCV's time), then two pooled convs at widths 16-32-48 and one
    hidden layer: about 3.9M multiply-adds per 32 x 56 patch (IndexNet 15M).
    Trained on the shipped net's soft outputs as well as the labels
    (--teacher)."""
    def __init__(self, widths=(16, 32, 48), hidden=64):
        super().__init__()
        a, b, c = widths

        def conv(i, o, stride=1):
            return [nn.Conv2d(i, o, 3, stride=stride, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
        self.features = nn.Sequential(*conv(3, a, 2), *conv(a, b), nn.MaxPool2d(2),
                                      *conv(b, c), nn.MaxPool2d(2))  # 4 x 7
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(c * 7 * 4, hidden),
                                nn.ReLU())
        self.heads(hidden)


def TinyIndexNet():
    return CompactIndexNet((8, 16, 32), 48, 5 * 3, 0.1)  # 24 x 40 input: 3 x 5 cells


def SmallIndexNet():
    return CompactIndexNet((12, 24, 48), 64, 7 * 4, 0.2)  # 4 x 7 cells


def to_tensor(patches):
    a = np.stack(patches).astype(np.float32) / 255.0  # BGR as the reader feeds it
    return torch.from_numpy(a.transpose(0, 3, 1, 2).copy())


def load_negatives(d):
    """Index patches the reader's corner-index finder cut from photos of
    other games (build/ts-playing-index-dump): glyph pairs that are not a
    playing card's index (domino pips, SET symbols, board print)."""
    if not d:
        return []
    out = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".png"):
            out.append(cv2.resize(cv2.imread(os.path.join(d, f), cv2.IMREAD_COLOR), (IN_W, IN_H),
                                  interpolation=cv2.INTER_AREA))
    return out


def load_other(card_dirs, patch_dirs):
    """Other families' negatives: (rectified cards from render --crops dirs
    (labels.tsv), patches from ts-playing-index-dump dirs)."""
    cards = []
    for d in card_dirs:
        for line in open(os.path.join(d, "labels.tsv")):
            if line.strip() and not line.startswith("#"):
                cards.append(load_card(os.path.join(d, line.split("\t")[0])))
    patches = [p for d in patch_dirs for p in load_negatives(d)]
    return (cards, patches) if cards or patches else ()


def other_patch(other, rng):
    """A not-an-index patch of another family, half of them (when there
    are both) a card's index corner cut as the reader cuts a playing
    card's (either end, jittered), half a pair the finder cut from a table."""
    cards, patches = other
    if cards and (not patches or rng.random() < 0.5):
        return corner_patch(cards[rng.randrange(len(cards))], rng.random() < 0.5, rng, True)
    return patches[rng.randrange(len(patches))]


class Teacher:
    """A shipped .tsnet run by OpenCV's dnn as the reader runs it: the
    logits of its heads (names: rank, suit, index for the index nets; the
    face net's third is card) are the soft targets of a student net."""
    def __init__(self, path, names=("rank", "suit", "index")):
        self.names = list(names)
        data = open(path, "rb").read()
        i = data.index(b"\nonnx ")
        j = data.index(b"\n", i + 1)
        self.net = cv2.dnn.readNetFromONNX(np.frombuffer(data[j + 1:], np.uint8))
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        cv2.setNumThreads(1)  # one core, as torch

    def __call__(self, x, chunk=512):
        outs = [[] for _ in self.names]
        for k in range(0, len(x), chunk):
            self.net.setInput(x[k:k + chunk].numpy())
            for h, o in enumerate(self.net.forward(self.names)):
                outs[h].append(torch.from_numpy(o.reshape(o.shape[0], -1).copy()))
        return [torch.cat(o) for o in outs]


def distill(student, teacher, temp):
    """KL divergence of the student's softened distribution from the
    teacher's, times temp^2 (Hinton et al.) so it weighs as the labels do."""
    return F.kl_div(F.log_softmax(student / temp, 1), F.softmax(teacher / temp, 1),
                    reduction="batchmean") * temp * temp


def make_epoch(cards, rng, n_pos, n_neg, hard=(), fpos=(), fneg=(), other=()):
    xs, r, s, ix = [], [], [], []
    for _ in range(n_pos):
        if fpos and rng.random() < FRAME_SHARE:  # a real scene's index, cut from the frame
            img, q, (rk, st) = fpos[rng.randrange(len(fpos))]
            xs.append(augment(frame_patch(img, q, rng, JITTER), rng))
        else:
            img, (rk, st) = cards[rng.randrange(len(cards))]
            xs.append(augment(corner_patch(img, rng.random() < 0.5, rng, True), rng))
        r.append(rk)
        s.append(st)
        ix.append(1)
    for _ in range(n_neg):
        if fneg and rng.random() < FRAME_SHARE:
            img, q, _ = fneg[rng.randrange(len(fneg))]
            xs.append(augment(frame_patch(img, q, rng, JITTER), rng))
        elif hard and rng.random() < 0.4:
            xs.append(augment(hard[rng.randrange(len(hard))], rng))
        elif other and rng.random() < OTHER["share"]:
            xs.append(augment(other_patch(other, rng), rng))
        else:
            img, _ = cards[rng.randrange(len(cards))]
            xs.append(augment(negative_patch(img, rng), rng))
        r.append(0)
        s.append(0)
        ix.append(0)
    return to_tensor(xs), torch.tensor(r), torch.tensor(s), torch.tensor(ix)


def evaluate(model, cards):
    """Per card, both corners pooled as the reader pools them."""
    if not cards:
        return 0.0, 0
    model.eval()
    xs = []
    for img, _ in cards:
        xs.append(corner_patch(img, False, None, False))
        xs.append(corner_patch(img, True, None, False))
    with torch.no_grad():
        rl, sl, il = model(to_tensor(xs))
    rp, sp, ip = F.softmax(rl, 1), F.softmax(sl, 1), F.softmax(il, 1)[:, 1]
    ok = 0
    for i, (_, (rk, st)) in enumerate(cards):
        w = ip[2 * i:2 * i + 2]
        lr = (w[:, None] * torch.log(rp[2 * i:2 * i + 2] + 1e-6)).sum(0)
        ls = (w[:, None] * torch.log(sp[2 * i:2 * i + 2] + 1e-6)).sum(0)
        ok += int(lr.argmax()) == rk and int(ls.argmax()) == st
    return ok / len(cards), len(cards)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "..", "shared", "data"))
    ap.add_argument("--cache", default="/tmp/playing_train")
    ap.add_argument("--out", help="default: models/playing-find.tsnet for --arch tiny, "
                    "models/playing-fast.tsnet for --arch s2, else models/playing.tsnet")
    ap.add_argument("--epochs", type=int, help="default: 30 for tiny, else 8")
    ap.add_argument("--arch", choices=["tiny", "small", "medium", "large", "s2"], default="large",
                    help="large: the reader's net (playing.tsnet); s2: the fast net that "
                    "reads each first corner first (playing-fast.tsnet, with --teacher); "
                    "tiny: the net that screens the corner-index finder's patches "
                    "(playing-find.tsnet)")
    ap.add_argument("--teacher", help="a .tsnet of the same input and heads (the large net) "
                    "whose soft outputs the net also learns (distillation)")
    ap.add_argument("--temp", type=float, default=2.0, help="distillation temperature")
    ap.add_argument("--negatives", help="dir of not-an-index patches (default: made by "
                    "ts-playing-index-dump from ../shared's SET, Qwirkle and domino photos)")
    ap.add_argument("--webcam", action="store_true", help="augment with webcam effects too: "
                    "one direction squeezed (16:9 frames stored square), boxes drawn round indices")
    ap.add_argument("--checkpoints", action="store_true", help="also write OUT.epochN")
    ap.add_argument("--no-frames", action="store_true", help="leave out the index patches of "
                    "the scene photos' training halves (playing_frame_index.tsv): the nets "
                    "of session 6")
    ap.add_argument("--boxes", type=float, default=0.0, help="share of the patches with a "
                    "box drawn tight round their ink, half of them dimmed (BOXES; default 0)")
    ap.add_argument("--other-cards", action="append", default=[], help="render --crops dir "
                    "of another family (labels.tsv): its cards' index corners are negatives "
                    "(--other-share of them, with --other-patches)")
    ap.add_argument("--other-patches", action="append", default=[], help="ts-playing-index-dump "
                    "dir of another family's tables: its finder pairs are negatives")
    ap.add_argument("--other-share", type=float, default=OTHER["share"], help="share of the "
                    "negatives drawn from --other-cards and --other-patches (default 0.25)")
    ap.add_argument("--stretch", type=float, default=0.0, help="share of the card patches "
                    "scaled along each axis on its own (STRETCH; default 0, as shipped)")
    args = ap.parse_args()
    global IN_W, IN_H, JITTER, WEBCAM
    STRETCH["share"] = args.stretch
    BOXES["share"] = args.boxes
    OTHER["share"] = args.other_share
    finder = args.arch == "tiny"
    WEBCAM = args.webcam
    here = os.path.dirname(os.path.abspath(__file__))
    args.out = args.out or os.path.join(here, "playing-find.tsnet" if finder else
                                        "playing-fast.tsnet" if args.arch == "s2" else
                                        "playing.tsnet")
    args.epochs = args.epochs or (30 if finder else 8)
    if finder:  # the net's input; the reader resizes to what the header says
        IN_W, IN_H = 24, 40
        JITTER = FINDER_JITTER
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    os.makedirs(args.cache, exist_ok=True)
    layouts, real, held, neg = build_data(args.build, args.shared, args.cache)

    rendered, rendered_test = [], []
    for lay, seed, _ in layouts:
        d = os.path.join(args.cache, f"render_{lay}_{seed}")
        items = [(load_card(p), c) for p, c in read_labels(os.path.join(d, "labels.tsv"))]
        (rendered_test if seed >= 29000 else rendered).extend(items)
    shared_labels = os.path.join(args.shared, "playing", "labels.tsv")
    real_all = read_labels(shared_labels)
    vosloo = [(load_card(p), c) for p, c in real_all if "/vosloo_" in p]
    held_single = [(load_card(p), c) for p, c in real_all if "/mathsvlog_card" in p]
    held_single += [(load_card(p), c) for p, c in read_labels(os.path.join(held, "labels.tsv"))]
    phone = [(load_card(p), c) for p, c in read_labels(os.path.join(real, "labels.tsv"))
             if phone_train_series(p)]
    print(f"rendered {len(rendered)} (+{len(rendered_test)} held out), vosloo {len(vosloo)}, "
          f"phone (19:3x-19:4x series) {len(phone)}; held-out real single cards "
          f"{len(held_single)}", file=sys.stderr)
    # real cards are few: repeat them so they weigh about a third of the data
    rep = max(1, len(rendered) // (2 * max(1, len(vosloo) + len(phone))))
    cards = rendered + (vosloo + phone) * rep

    # the finder net also learns the finder's false pairs in other games' photos
    hard = load_negatives(args.negatives or neg) if finder else []
    print(f"hard negatives {len(hard)}", file=sys.stderr)
    fr = [] if args.no_frames else load_frame_patches(
        args.shared, os.path.join(here, "playing_frame_index.tsv"))
    fpos = [f for f in fr if f[2] is not None]
    fneg = [f for f in fr if f[2] is None]
    print(f"scene photo patches (training halves): {len(fpos)} index, {len(fneg)} not",
          file=sys.stderr)
    other = load_other(args.other_cards, args.other_patches)
    print(f"other families' negatives: {len(other[0]) if other else 0} cards, "
          f"{len(other[1]) if other else 0} patches", file=sys.stderr)
    model = {"tiny": TinyIndexNet, "small": SmallIndexNet, "large": IndexNet,
             "medium": lambda: IndexNet((12, 24, 40)), "s2": StrideIndexNet}[args.arch]()
    teacher = Teacher(args.teacher) if args.teacher else None
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * 100)
    rng = random.Random(SEED)
    for ep in range(args.epochs):
        x, r, s, ix = (make_epoch(cards, rng, 8000, 4800, hard, fpos, fneg, other) if finder
                       else make_epoch(cards, rng, 9600, 3200, (), fpos, fneg, other))
        soft = teacher(x) if teacher else None
        model.train()
        perm = torch.randperm(len(x))
        tot = 0.0
        for b in range(100):
            j = perm[b * 128:(b + 1) * 128]
            rl, sl, il = model(x[j])
            pos = ix[j] == 1
            loss = F.cross_entropy(il, ix[j])
            if pos.any():
                loss = loss + F.cross_entropy(rl[pos], r[j][pos]) + F.cross_entropy(sl[pos], s[j][pos])
            if teacher:  # the index head on every patch, rank and suit where there is an index
                loss = loss + distill(il, soft[2][j], args.temp)
                if pos.any():
                    loss = loss + distill(rl[pos], soft[0][j][pos], args.temp) + \
                        distill(sl[pos], soft[1][j][pos], args.temp)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss)
        acc_r, n_r = evaluate(model, rendered_test)
        acc_h, n_h = evaluate(model, held_single)
        print(f"epoch {ep + 1}: loss {tot / 100:.3f}  held-out rendered {100 * acc_r:.1f}% "
              f"({n_r})  held-out real single cards {100 * acc_h:.1f}% ({n_h})", file=sys.stderr)
        if args.checkpoints:  # a usable model after every epoch
            save(model, args.out + f".epoch{ep + 1}", acc_h, n_h)
    acc_v, n_v = evaluate(model, vosloo + phone)
    print(f"seen real cards (vosloo + early phone): {100 * acc_v:.1f}% ({n_v})")
    print(f"held-out real single cards (mathsvlog_card + guillex7): {100 * acc_h:.1f}% ({n_h})")
    print(f"held-out rendered cards (grid seeds 29000-29029): {100 * acc_r:.1f}% ({n_r})")
    save(model, args.out, acc_h, n_h)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


def save(model, path, acc_h, n_h):
    tsnet.export(model, path, "playing-index", IN_W, IN_H, 3,
                 [("rank", RANKS), ("suit", SUITS), ("index", "NY")],
                 comments=[f"trained by models/train_playing.py (seed {SEED}); held out: "
                           "guillex7, mathsvlog, phone 19:50+, webcam",
                           f"held-out real single cards {100 * acc_h:.1f}% ({n_h})"])


if __name__ == "__main__":
    main()
