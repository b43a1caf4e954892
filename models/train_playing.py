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

  /usr/bin/python3 models/train_playing.py --build build --arch s2 \
      --teacher models/playing.tsnet --fans FAN_DIR --fans PILE_DIR \
      --fan-held HELD_DIR --out models/playing-view.tsnet [--cache ...]

is the view net (models/playing-view.tsnet): the fast net's kind, trained
on index views too (FANS: the corner-index finder's pairs on rendered fans
and piles, labelled by the render's truth, cut as the reader cuts a view),
so it reads a card others lie over on its index; the teacher's outputs
are learnt on the other patches only. See models/README.md.

Prints the held-aside accuracy on held-out real corner patches (the rectified
mathsvlog and guillex7 cards) and on held-out rendered cards (seed 29000+).
"""
import argparse
import json
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
# Index views (--fans DIR: rendered playing tables with .json truth, fans
# and piles). A card others lie over is read on its index alone, cut from
# the quad its glyph pair implies at VIEW_CUTS scales about the card's
# corner (playing.c index_again); a fan's index is blurred, small and
# cut by the next card's edge, which no card crop shows. The corner-index
# finder's pairs on those tables (ts-playing-index-dump --pairs-only)
# are matched to the card whose index corner each implies: where that
# index shows (FAN_SHOWN of it under no later card) a positive of that
# card, where the pair lies on no card's index a negative. "share" of the
# positives and of the negatives come from them; the tables of the
# --fan-held dirs are held out. Off (share 0) gives the nets before
# session 24.
FANS = {"share": 0.0}
VIEW_CUTS = (1.0, 0.9, 1.1, 0.8, 1.2)
# Each training view cut at a scale in "cut" about the corner, moved by up
# to dx card widths and dy card lengths and turned up to deg degrees.
VIEW_JITTER = {"cut": (0.75, 1.25), "dx": 0.02, "dy": 0.015, "deg": 3}
VIEW_VARIANTS = 6  # jittered cuts kept per training pair
FAN_SHOWN = 0.6
VIEW_STEADY = 0.7  # playing.c INDEX_STEADY


def code_index(code):
    code = code.replace("10", "T")
    return RANKS.index(code[0]), SUITS.index(code[1])


# ---- Data -------------------------------------------------------------------

def run(cmd):
    print("+", " ".join(cmd[:4]), "..." if len(cmd) > 4 else "", file=sys.stderr)
    subprocess.run(cmd, check=True)


def render_dir(cache, lay, seed, count):
    """A render --crops dir of the cache (the default counts' as before)."""
    return os.path.join(cache, f"render_{lay}_{seed}" + ("" if count in (200, 30) else
                                                          f"_{count}"))


def build_data(build, shared, cache, tables=200, negatives=True):
    """Renders the synthetic crops (tables scenes a layout), cuts the real
    phone cards and, with negatives, the finder's patches of other games'
    photos (once)."""
    tablesight = os.path.join(build, "tablesight")
    layouts = [("grid", 20000, tables), ("scatter", 21000, tables), ("touching", 22000, tables),
               ("row", 23000, tables), ("grid", 29000, 30)]  # last: held-out rendered
    for lay, seed, count in layouts:
        out = render_dir(cache, lay, seed, count)
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
    if negatives and not os.path.exists(os.path.join(neg, "done")):
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


# ---- Index views on fanned tables (--fans) -----------------------------------

def quad_point(q, u, v):
    """Point (u, v) of quad q (TL, TR, BR, BL) by bilinear steps, as geom.h's
    ts_quad_point."""
    a = q[0] + (q[1] - q[0]) * u
    b = q[3] + (q[2] - q[3]) * u
    return a + (b - a) * v


def index_corners(quad, turned):
    """A truth card's corners seen from one index corner (turned: the
    bottom-right one, the card half a turn round)."""
    q = np.array(quad, np.float32)
    return np.roll(q, -2, axis=0) if turned else q


def fan_pair_list(build, cache, d):
    """[(image path, card quad 4 x 2)]: the card each of the corner-index
    finder's glyph pairs implies on the tables in d (the frame's own
    stretch), by ts-playing-index-dump --pairs-only, cached."""
    lst = os.path.join(cache, "fans_" + os.path.basename(os.path.normpath(d)) + ".tsv")
    if not os.path.exists(lst):
        imgs = sorted(os.path.join(d, f) for f in os.listdir(d)
                      if f.startswith("playing_") and f.endswith(".jpg") and
                      os.path.exists(os.path.join(d, f[:-4] + ".json")))
        out = os.path.join(cache, "fans_none")
        os.makedirs(out, exist_ok=True)
        run([os.path.join(build, "ts-playing-index-dump"), "--max", "128", "--pairs-only", "1",
             "--list", lst + ".part", out] + imgs)
        os.rename(lst + ".part", lst)
    pairs = []
    for line in open(lst):
        f = line.rstrip("\n").split("\t")
        v = [float(x) for x in f[2].split()]
        pairs.append((f[1], np.array(v[4:12], np.float32).reshape(4, 2)))
    return pairs


def match_index(card, truth):
    """(card number, turned) of the truth card whose index corner the
    implied card quad lies on (corner within 0.15 of a card width, sides
    within 20 degrees, width within 0.7-1.4), the nearest; else None."""
    best, arg = 0.15, None
    e = card[1] - card[0]
    for i, t in enumerate(truth):
        for turned in (0, 1):
            c = index_corners(t["quad"], turned)
            w = c[1] - c[0]
            wl = float(np.hypot(*w))
            dist = float(np.hypot(*(card[0] - c[0]))) / wl
            cos = float(np.dot(e, w)) / (float(np.hypot(*e)) * wl + 1e-6)
            ratio = float(np.hypot(*e)) / wl
            if dist < best and cos > np.cos(np.deg2rad(20)) and 0.7 < ratio < 1.4:
                best, arg = dist, (i, turned)
    return arg


def index_box(c, grow=0.0):
    """The index's box on card corners c (frame px), grown by grow card widths."""
    uv = ((0.03 - grow, 0.03 - grow), (0.2 + grow, 0.03 - grow), (0.2 + grow, 0.3 + grow),
          (0.03 - grow, 0.3 + grow))
    return np.array([quad_point(c, u, v) for u, v in uv], np.float32)


def index_shown(truth, i, c, shape):
    """Share of card i's index box (corners c) that no later card covers."""
    box = np.round(index_box(c)).astype(np.int32)
    x0, y0 = np.maximum(box.min(0) - 1, 0)
    x1, y1 = np.minimum(box.max(0) + 2, (shape[1], shape[0]))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    off = np.array([x0, y0], np.int32)
    cv2.fillPoly(m, [box - off], 1)
    area = int(m.sum())
    for t in truth[i + 1:]:
        cv2.fillPoly(m, [np.round(np.array(t["quad"], np.float32)).astype(np.int32) - off], 0)
    return m.sum() / max(area, 1)


def on_any_index(pt, truth):
    """Whether frame point pt lies on or near a truth card's index box."""
    return any(cv2.pointPolygonTest(index_box(index_corners(t["quad"], turned), 0.1),
                                    (float(pt[0]), float(pt[1])), False) >= 0
               for t in truth for turned in (0, 1))


def view_patch(img, q, k, rng=None):
    """The index patch of card quad q cut at k times its corner box about
    the corner, as index_again cuts a view; moved and turned a little
    (VIEW_JITTER) when rng."""
    box = [(0, 0), (CORNER_W, 0), (CORNER_W, CORNER_H), (0, CORNER_H)]
    pts = np.array([quad_point(q, u * k, v * k) for u, v in box], np.float32)
    if rng:
        a = np.deg2rad(rng.uniform(-VIEW_JITTER["deg"], VIEW_JITTER["deg"]))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        pts = (pts - pts[0]) @ rot.T + pts[0]
        pts += rng.uniform(-VIEW_JITTER["dx"], VIEW_JITTER["dx"]) * (q[1] - q[0]) + \
            rng.uniform(-VIEW_JITTER["dy"], VIEW_JITTER["dy"]) * (q[3] - q[0])
    # the reader's patch (31 x 56 on the 128 x 180 card), shrunk to the net's input by it
    pw, ph = round(CARD_W * CORNER_W), round(CARD_H * CORNER_H)
    rect = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float32)
    m = cv2.getPerspectiveTransform(pts.astype(np.float32), rect)
    p = cv2.warpPerspective(img, m, (pw, ph), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(p, (IN_W, IN_H), interpolation=cv2.INTER_AREA)


def load_fans(build, cache, dirs, held_dirs, rng):
    """The finder's pairs on the tables of dirs and held_dirs, labelled by the truth:
    (train positives [(variants, (rank, suit))], train negatives
    [variants], held-out positives [(cuts, (rank, suit))], held-out
    negatives [cuts]); a training pair keeps VIEW_VARIANTS jittered cuts,
    a held-out one the VIEW_CUTS cuts."""
    tp, tn, hp, hn = [], [], [], []
    skipped = 0
    for d in dirs + held_dirs:
        held = d in held_dirs
        by_img = {}
        for img, card in fan_pair_list(build, cache, d):
            by_img.setdefault(img, []).append(card)
        for path, cards in sorted(by_img.items()):
            truth = json.load(open(path[:-4] + ".json"))["cards"]
            img = cv2.imread(path, cv2.IMREAD_COLOR)
            for card in cards:
                m = match_index(card, truth)
                if m is None:
                    if on_any_index(quad_point(card, 0.10, 0.112), truth):
                        skipped += 1  # near an index, but not its card's: unsure
                        continue
                    label = None
                elif index_shown(truth, m[0], index_corners(truth[m[0]]["quad"], m[1]),
                                 img.shape) < FAN_SHOWN:
                    skipped += 1
                    continue
                else:
                    label = code_index(truth[m[0]]["code"])
                if held:
                    cuts = [view_patch(img, card, k) for k in VIEW_CUTS]
                    (hn.append(cuts) if label is None else hp.append((cuts, label)))
                else:
                    var = [view_patch(img, card, rng.uniform(*VIEW_JITTER["cut"]), rng)
                           for _ in range(VIEW_VARIANTS)]
                    (tn.append(var) if label is None else tp.append((var, label)))
    print(f"fan index views: train {len(tp)} index, {len(tn)} not; held out {len(hp)} "
          f"index, {len(hn)} not; {skipped} pairs unsure, left out", file=sys.stderr)
    return tp, tn, hp, hn


def view_probs(run_net, cuts_list):
    """Each held-out view's probabilities (rank 13, suit 4, index 2) as the
    mean over its cuts, as index_again takes them; run_net maps a tensor
    of patches to (rank, suit, index) logits."""
    if not cuts_list:
        return np.zeros((0, 19), np.float32)
    x = to_tensor([p for cuts in cuts_list for p in cuts])
    rl, sl, il = run_net(x)
    p = torch.cat([F.softmax(rl, 1), F.softmax(sl, 1), F.softmax(il, 1)], 1).numpy()
    return p.reshape(len(cuts_list), len(VIEW_CUTS), -1).mean(1)


def view_score(run_net, hp, hn):
    """(right, sure wrong, sure on no index) of the held-out views at
    VIEW_STEADY (rank x suit x index of the cuts' mean)."""
    pp = view_probs(run_net, [c for c, _ in hp])
    right = wrong = 0
    for p, (_, (rk, st)) in zip(pp, hp):
        conf = p[:13].max() * p[13:17].max() * p[18]
        if conf >= VIEW_STEADY:
            ok = int(p[:13].argmax()) == rk and int(p[13:17].argmax()) == st
            right, wrong = right + ok, wrong + (not ok)
    pn = view_probs(run_net, hn)
    false = int(sum(p[:13].max() * p[13:17].max() * p[18] >= VIEW_STEADY for p in pn))
    return right, wrong, false


def torch_runner(model):
    def run_net(x):
        model.eval()
        with torch.no_grad():
            return model(x)
    return run_net


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


def make_epoch(cards, rng, n_pos, n_neg, hard=(), fpos=(), fneg=(), other=(), fans=()):
    """An epoch's patches, labels and which are fan views (fans: load_fans'
    training lists, FANS["share"] of each side)."""
    xs, r, s, ix, fan = [], [], [], [], []
    for _ in range(n_pos):
        fan.append(bool(fans and fans[0] and rng.random() < FANS["share"]))
        if fan[-1]:  # a fanned card's index view
            var, (rk, st) = fans[0][rng.randrange(len(fans[0]))]
            xs.append(augment(var[rng.randrange(len(var))], rng))
        elif fpos and rng.random() < FRAME_SHARE:  # a real scene's index, cut from the frame
            img, q, (rk, st) = fpos[rng.randrange(len(fpos))]
            xs.append(augment(frame_patch(img, q, rng, JITTER), rng))
        else:
            img, (rk, st) = cards[rng.randrange(len(cards))]
            xs.append(augment(corner_patch(img, rng.random() < 0.5, rng, True), rng))
        r.append(rk)
        s.append(st)
        ix.append(1)
    for _ in range(n_neg):
        fan.append(bool(fans and fans[1] and rng.random() < FANS["share"]))
        if fan[-1]:
            var = fans[1][rng.randrange(len(fans[1]))]
            xs.append(augment(var[rng.randrange(len(var))], rng))
        elif fneg and rng.random() < FRAME_SHARE:
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
    return to_tensor(xs), torch.tensor(r), torch.tensor(s), torch.tensor(ix), torch.tensor(fan)


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
    ap.add_argument("--fans", action="append", default=[], help="dir of rendered playing "
                    "tables with .json truth (fans, piles): the index finder's pairs there, "
                    "labelled by the truth, are index views (FANS)")
    ap.add_argument("--fan-share", type=float, default=0.3, help="share of the positives and "
                    "of the negatives cut from --fans (default 0.3)")
    ap.add_argument("--fan-held", action="append", default=[], help="a dir as --fans whose "
                    "views are held out: their score is printed")
    ap.add_argument("--compare", action="append", default=[], help="a .tsnet whose score on "
                    "the held-out views is printed beside the new net's")
    ap.add_argument("--tables", type=int, default=200, help="rendered scenes of card crops a "
                    "layout (default 200, as the shipped nets)")
    args = ap.parse_args()
    global IN_W, IN_H, JITTER, WEBCAM
    FANS["share"] = args.fan_share if args.fans else 0.0
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
    layouts, real, held, neg = build_data(args.build, args.shared, args.cache, args.tables,
                                          finder and not args.negatives)

    rendered, rendered_test = [], []
    for lay, seed, count in layouts:
        d = render_dir(args.cache, lay, seed, count)
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
    fans = load_fans(args.build, args.cache, args.fans, args.fan_held,
                     random.Random(SEED + 1)) if args.fans else ()
    for path in args.compare:
        def run_net(x, net=Teacher(path)):
            return net(x)
        print("held-out views, %s: right %d, sure wrong %d, sure on no index %d (of %d, %d)"
              % ((path,) + view_score(run_net, fans[2], fans[3]) + (len(fans[2]), len(fans[3]))))
    model = {"tiny": TinyIndexNet, "small": SmallIndexNet, "large": IndexNet,
             "medium": lambda: IndexNet((12, 24, 40)), "s2": StrideIndexNet}[args.arch]()
    teacher = Teacher(args.teacher) if args.teacher else None
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * 100)
    rng = random.Random(SEED)
    for ep in range(args.epochs):
        x, r, s, ix, fan = (make_epoch(cards, rng, 8000, 4800, hard, fpos, fneg, other, fans)
                            if finder else
                            make_epoch(cards, rng, 9600, 3200, (), fpos, fneg, other, fans))
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
            # the teacher's outputs: the index head on every patch, rank and suit where
            # there is an index; not on fan views (it reads few of them right)
            taught = ~fan[j]
            if teacher and taught.any():
                loss = loss + distill(il[taught], soft[2][j][taught], args.temp)
                tp = pos & taught
                if tp.any():
                    loss = loss + distill(rl[tp], soft[0][j][tp], args.temp) + \
                        distill(sl[tp], soft[1][j][tp], args.temp)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss)
        acc_r, n_r = evaluate(model, rendered_test)
        acc_h, n_h = evaluate(model, held_single)
        views = " held-out views right %d, sure wrong %d, sure on no index %d" % \
            view_score(torch_runner(model), fans[2], fans[3]) if fans else ""
        print(f"epoch {ep + 1}: loss {tot / 100:.3f}  held-out rendered {100 * acc_r:.1f}% "
              f"({n_r})  held-out real single cards {100 * acc_h:.1f}% ({n_h}){views}",
              file=sys.stderr)
        if args.checkpoints:  # a usable model after every epoch
            save(model, args.out + f".epoch{ep + 1}", acc_h, n_h)
    acc_v, n_v = evaluate(model, vosloo + phone)
    print(f"seen real cards (vosloo + early phone): {100 * acc_v:.1f}% ({n_v})")
    print(f"held-out real single cards (mathsvlog_card + guillex7): {100 * acc_h:.1f}% ({n_h})")
    print(f"held-out rendered cards (grid seeds 29000-29029): {100 * acc_r:.1f}% ({n_r})")
    more = []
    if fans:
        more.append("held-out index views (%s): right %d, sure wrong %d, sure on no index %d "
                    "(of %d index views, %d not) at %.1f on the mean of %d cuts" %
                    ((" ".join(os.path.basename(d) for d in args.fan_held),) +
                     view_score(torch_runner(model), fans[2], fans[3]) +
                     (len(fans[2]), len(fans[3]), VIEW_STEADY, len(VIEW_CUTS))))
        print(more[-1])
    save(model, args.out, acc_h, n_h, more)
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


def save(model, path, acc_h, n_h, more=()):
    """Writes the net with its header: what it was trained on, its held-out
    figures (more: further comment lines)."""
    tsnet.export(model, path, "playing-index", IN_W, IN_H, 3,
                 [("rank", RANKS), ("suit", SUITS), ("index", "NY")],
                 comments=[f"trained by models/train_playing.py (seed {SEED}); held out: "
                           "guillex7, mathsvlog, phone 19:50+, webcam",
                           f"held-out real single cards {100 * acc_h:.1f}% ({n_h})"] + list(more))


if __name__ == "__main__":
    main()
