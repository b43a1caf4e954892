#!/usr/bin/python3
"""Trains the playing-card face net (models/playing-face.tsnet): the whole
rectified card (TS_PLAYING_CARD_W x _H, shrunk to 40 x 56, grey) read for
rank (13: the pips' count and layout, or a court figure), suit (4: the pips'
shape, not their colour) and whether it is a card's face at all. The reader
(vision/readers/playing.c) uses it as a second opinion on the corner index:
agreement lifts a reading over the floor, a sure disagreement keeps it
unread. Grey, so colour cannot carry the suit (the trained webcam half is all
red cards, the held-out half all black).

Training data (rebuilt from the project and ../shared, cached as for
train_playing.py, whose build_data() it reuses):
  * cards drawn by `tablesight render --game playing --crops` (seeds 20000+);
  * real rectified cards: vosloo_* crops, phone photos before 19:50 cut by the
    reader's own finder (build/ts-playing-crops);
  * the training halves of the scene photos: each labelled index patch of
    models/playing_frame_index.tsv (webcam frames of the earlier half by
    UUID1 time, phone photos before 19:50) gives the card it sits on, cut
    from the frame; its not-an-index patches give not-a-card places (faces,
    shirts, window bars) of a card's size;
  * not a card: other games' false index patches (ts-playing-index-dump),
    a card mostly covered by another (fans, piles: the face then seen is the
    other card's), parts of cards (a quarter, a half: a loose quad), plain
    and noisy patches.
Every card is also seen turned half a circle (the reader warps a card
either way up) and a few pixels off (found quads are loose).
Held out: guillex7_* and mathsvlog_* (other decks), phone photos from 19:50,
the later webcam half, rendered grid seeds 29000+.

  /usr/bin/python3 models/train_playing_face.py --build build [--cache /tmp/playing_train]
  /usr/bin/python3 models/train_playing_face.py --build build --arch s2 --epochs 20 \
      --teacher models/playing-face.tsnet [--cache ...]

The second is the reader's fast face net (models/playing-face-fast.tsnet): a
first conv of stride 2, about a third of the face net's cost, trained on the
face net's soft outputs (run by OpenCV's dnn, as the reader runs it) as well
as the labels; the reader takes its reading of a face it is sure of, else
the face net's (playing_face.c).

Prints the held-out accuracy (rank and suit, argmax) on the held-out real
single cards and rendered cards; with --teacher also how many held-out cards
the net is sure of and how many of those the teacher reads alike.
"""
import argparse
import os
import random
import sys

import cv2
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train_playing as tp  # noqa: E402
import tsnet  # noqa: E402

CARD_W, CARD_H = tp.CARD_W, tp.CARD_H
IN_W, IN_H = 40, 56
SEED = 1
RANKS, SUITS = tp.RANKS, tp.SUITS
FRAME_SHARE = 0.15  # of positives and negatives cut from the scene photos


def card_quad(patch):
    """The whole card implied by an index patch quad (the patch is the
    card's top-left CORNER_W x CORNER_H, as the reader cuts it)."""
    p = np.asarray(patch, np.float32).reshape(4, 2)
    u = (p[1] - p[0]) / tp.CORNER_W
    v = (p[3] - p[0]) / tp.CORNER_H
    return np.array([p[0], p[0] + u, p[0] + u + v, p[0] + v], np.float32)


def warp(img, quad, rng, jitter=0.06):
    """The card of quad as a CARD_W x CARD_H image, its corners moved by up
    to jitter of the card's size (a loose quad)."""
    q = quad.copy()
    if rng is not None:
        w = np.linalg.norm(q[1] - q[0])
        h = np.linalg.norm(q[3] - q[0])
        q += np.array([[rng.uniform(-jitter, jitter) * w, rng.uniform(-jitter, jitter) * h]
                       for _ in range(4)], np.float32)
    dst = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
    m = cv2.getPerspectiveTransform(q, dst)
    return cv2.warpPerspective(img, m, (CARD_W, CARD_H), flags=cv2.INTER_AREA,
                               borderMode=cv2.BORDER_REPLICATE)


def full_quad(img):
    h, w = img.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def negative(cards, hard, fneg, rng):
    """A card-sized view of something that is not one whole card face."""
    k = rng.random()
    if fneg and k < FRAME_SHARE:
        img, q, _ = fneg[rng.randrange(len(fneg))]
        return warp(img, card_quad(q), rng, 0.1)
    if hard and k < 0.3:
        return cv2.resize(hard[rng.randrange(len(hard))], (CARD_W, CARD_H))
    if k < 0.55:
        return covered(cards, rng)
    if k < 0.75:  # part of a card: a corner quarter, a half, or two cards' seam
        img, _ = cards[rng.randrange(len(cards))]
        fw, fh = rng.uniform(0.35, 0.6), rng.uniform(0.35, 0.6)
        x0, y0 = rng.uniform(-0.1, 1 - fw) * CARD_W, rng.uniform(-0.1, 1 - fh) * CARD_H
        q = np.array([[x0, y0], [x0 + fw * CARD_W, y0], [x0 + fw * CARD_W, y0 + fh * CARD_H],
                      [x0, y0 + fh * CARD_H]], np.float32)
        return warp(img, q, rng, 0.03)
    p = np.zeros((CARD_H, CARD_W, 3), np.float32)  # table, cloth, skin, wall
    p[:] = [rng.uniform(0, 255) for _ in range(3)]
    n = cv2.resize(np.random.default_rng(rng.randrange(1 << 30)).normal(
        0, rng.uniform(2, 50), (CARD_H // 8 + 1, CARD_W // 8 + 1, 3)).astype(np.float32),
        (CARD_W, CARD_H))
    return np.clip(p + n, 0, 255).astype(np.uint8)


def covered(cards, rng):
    """A card with another one lying over a third to four fifths of it (a
    fan, a pile, cards edge to edge under a loose quad): the face seen is
    mostly the other card's, so it must not vouch for or against the
    index's reading."""
    a, _ = cards[rng.randrange(len(cards))]
    b, _ = cards[rng.randrange(len(cards))]
    base = warp(a, full_quad(a), rng, 0.03)
    top = cv2.resize(b, (CARD_W, CARD_H))
    if rng.random() < 0.5:
        top = cv2.rotate(top, cv2.ROTATE_180)
    f = rng.uniform(0.33, 0.8)  # share of the base card covered
    ang = rng.uniform(-25, 25)
    side = rng.randrange(4)
    dx = [(1 - f) * CARD_W, -(1 - f) * CARD_W, 0, 0][side]
    dy = [0, 0, (1 - f) * CARD_H, -(1 - f) * CARD_H][side]
    m = cv2.getRotationMatrix2D((CARD_W / 2, CARD_H / 2), ang, 1.0)
    m[0, 2] += dx + rng.uniform(-0.1, 0.1) * CARD_W
    m[1, 2] += dy + rng.uniform(-0.1, 0.1) * CARD_H
    img = cv2.warpAffine(top, m, (CARD_W, CARD_H))
    mask = cv2.warpAffine(np.full((CARD_H, CARD_W), 255, np.uint8), m, (CARD_W, CARD_H)) > 127
    base[mask] = img[mask]
    return base


def augment(card, rng):
    """Light, shadow, blur, low resolution, noise, JPEG; then grey at the
    net's size."""
    p = card.astype(np.float32) * rng.uniform(0.5, 1.25) + rng.uniform(-40, 30)
    if rng.random() < 0.3:  # a shadow or a thumb over part of the card
        y = rng.randrange(CARD_H)
        p[y:] *= rng.uniform(0.4, 0.85)
    p = np.clip(p, 0, 255).astype(np.uint8)
    if rng.random() < 0.2:  # boxes drawn round the indices (labelled webcam sets)
        for _ in range(2):
            x, y = rng.randrange(0, 30), rng.randrange(0, 40)
            c = (rng.randrange(0, 80),) * 3
            cv2.rectangle(p, (x, y), (x + rng.randrange(20, 40), y + rng.randrange(30, 60)), c, 1)
    if rng.random() < 0.5:  # seen small: a webcam card is 60-120 px wide
        f = rng.uniform(0.3, 0.8)
        fx, fy = f * rng.uniform(0.7, 1.0), f * rng.uniform(0.7, 1.0)
        p = cv2.resize(cv2.resize(p, (max(8, int(CARD_W * fx)), max(8, int(CARD_H * fy))),
                                  interpolation=cv2.INTER_AREA), (CARD_W, CARD_H))
    if rng.random() < 0.4:
        p = cv2.GaussianBlur(p, (0, 0), rng.uniform(0.5, 2.0))
    g = cv2.cvtColor(p, cv2.COLOR_BGR2GRAY).astype(np.float32)
    if rng.random() < 0.5:
        g += np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(1, 10), g.shape)
    g = np.clip(g, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, b = cv2.imencode(".jpg", g, [cv2.IMWRITE_JPEG_QUALITY, rng.randrange(30, 90)])
        g = cv2.imdecode(b, cv2.IMREAD_GRAYSCALE)
    return shrink(g)


def shrink(grey):
    """As the reader feeds the net: the card resized to the input (OpenCV's
    blobFromImage, bilinear)."""
    return cv2.resize(grey, (IN_W, IN_H), interpolation=cv2.INTER_LINEAR)


class FaceNet(nn.Module):
    def __init__(self):
        super().__init__()

        def block(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.Conv2d(o, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(),
                                 nn.MaxPool2d(2))
        # about 5 M multiply-adds a card: it runs on every card the reader reads
        self.features = nn.Sequential(block(1, 8), block(8, 16), block(16, 32))  # 5 x 7
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(32 * 5 * 7, 64), nn.ReLU())
        self.rank, self.suit, self.card = nn.Linear(64, 13), nn.Linear(64, 4), nn.Linear(64, 2)

    def forward(self, x):
        h = self.fc(self.features(x))
        return self.rank(h), self.suit(h), self.card(h)


class StrideFaceNet(FaceNet):
    """The reader's fast face net (--arch s2): a first conv of stride 2 (a
    quarter of the positions at full size, where most of FaceNet's cost is),
    one conv and a pool at 20 x 28, one at 10 x 14, one at 5 x 7: about 1.7M
    multiply-adds a card (FaceNet 5.4M). Trained on FaceNet's soft outputs
    as well as the labels (--teacher)."""
    def __init__(self):
        super().__init__()

        def conv(i, o, stride=1):
            return [nn.Conv2d(i, o, 3, stride=stride, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
        self.features = nn.Sequential(*conv(1, 8, 2), *conv(8, 16), nn.MaxPool2d(2),
                                      *conv(16, 32), nn.MaxPool2d(2), *conv(32, 32))  # 5 x 7
        self.fc = nn.Sequential(nn.Flatten(), nn.Dropout(0.2), nn.Linear(32 * 5 * 7, 64), nn.ReLU())
        self.rank, self.suit, self.card = nn.Linear(64, 13), nn.Linear(64, 4), nn.Linear(64, 2)


def to_tensor(greys):
    a = np.stack(greys).astype(np.float32)[:, None] / 255.0
    return torch.from_numpy(a)


def make_epoch(cards, fpos, fneg, hard, rng, n_pos, n_neg):
    xs, r, s, c = [], [], [], []
    for _ in range(n_pos):
        if fpos and rng.random() < FRAME_SHARE:
            img, q, (rk, st) = fpos[rng.randrange(len(fpos))]
            card = warp(img, card_quad(q), rng)
        else:
            img, (rk, st) = cards[rng.randrange(len(cards))]
            card = warp(img, full_quad(img), rng)
        if rng.random() < 0.5:
            card = cv2.rotate(card, cv2.ROTATE_180)
        xs.append(augment(card, rng))
        r.append(rk)
        s.append(st)
        c.append(1)
    for _ in range(n_neg):
        xs.append(augment(negative(cards, hard, fneg, rng), rng))
        r.append(0)
        s.append(0)
        c.append(0)
    return to_tensor(xs), torch.tensor(r), torch.tensor(s), torch.tensor(c)


def evaluate(model, cards):
    """Rank and suit right (argmax) per card, read upright."""
    if not cards:
        return 0.0, 0.0, 0
    model.eval()
    xs = [shrink(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)) for img, _ in cards]
    with torch.no_grad():
        rl, sl, cl = model(to_tensor(xs))
    ok_r = sum(int(rl[i].argmax()) == rk for i, (_, (rk, _s)) in enumerate(cards))
    ok = sum(int(rl[i].argmax()) == rk and int(sl[i].argmax()) == st
             for i, (_, (rk, st)) in enumerate(cards))
    return ok_r / len(cards), ok / len(cards), len(cards)


def sure_agree(model, teacher, cards, sure):
    """Of cards (read upright), how many the net is sure of (as the reader's
    cascade takes it: rank, suit and card, or no card, each at least sure)
    and how many of those the teacher reads alike (rank, suit and card or
    not, argmax)."""
    model.eval()
    x = to_tensor([shrink(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)) for img, _ in cards])
    with torch.no_grad():
        p = [F.softmax(o, 1) for o in model(x)]
    t = teacher(x)
    n_sure = n_same = 0
    for i in range(len(cards)):
        r, s_, c = (float(h[i].max()) for h in p)
        if not (p[2][i, 0] >= sure or (c >= sure and r >= sure and s_ >= sure)):
            continue
        n_sure += 1
        same = int(p[2][i].argmax()) == int(t[2][i].argmax())
        if int(p[2][i].argmax()) == 1:
            same = same and int(p[0][i].argmax()) == int(t[0][i].argmax()) and \
                int(p[1][i].argmax()) == int(t[1][i].argmax())
        n_same += same
    return n_sure, n_same


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--shared", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                      "..", "..", "shared", "data"))
    ap.add_argument("--cache", default="/tmp/playing_train")
    ap.add_argument("--out", help="default: models/playing-face.tsnet, for --arch s2 "
                    "models/playing-face-fast.tsnet")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--arch", choices=["full", "s2"], default="full",
                    help="full: the face net (playing-face.tsnet); s2: the fast face net that "
                    "reads each face first (playing-face-fast.tsnet, with --teacher)")
    ap.add_argument("--teacher", help="a .tsnet of the same input and heads (the face net) "
                    "whose soft outputs the net also learns (distillation)")
    ap.add_argument("--temp", type=float, default=2.0, help="distillation temperature")
    ap.add_argument("--sure", type=float, default=0.999, help="with --teacher: the reader's "
                    "cascade threshold the held-out agreement is counted at")
    args = ap.parse_args()
    args.out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                        "playing-face-fast.tsnet" if args.arch == "s2" else
                                        "playing-face.tsnet")
    random.seed(SEED)
    np.random.seed(SEED)
    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    here = os.path.dirname(os.path.abspath(__file__))
    layouts, real, held, neg = tp.build_data(args.build, args.shared, args.cache)
    rendered, rendered_test = [], []
    for lay, seed, _ in layouts:
        d = os.path.join(args.cache, f"render_{lay}_{seed}")
        items = [(tp.load_card(p), c) for p, c in tp.read_labels(os.path.join(d, "labels.tsv"))]
        (rendered_test if seed >= 29000 else rendered).extend(items)
    real_all = tp.read_labels(os.path.join(args.shared, "playing", "labels.tsv"))
    vosloo = [(tp.load_card(p), c) for p, c in real_all if "/vosloo_" in p]
    held_single = [(tp.load_card(p), c) for p, c in real_all if "/mathsvlog_card" in p]
    held_single += [(tp.load_card(p), c) for p, c in tp.read_labels(os.path.join(held, "labels.tsv"))]
    phone_cut = tp.read_labels(os.path.join(real, "labels.tsv"))
    phone = [(tp.load_card(p), c) for p, c in phone_cut if tp.phone_train_series(p)]
    phone_held = [(tp.load_card(p), c) for p, c in phone_cut if not tp.phone_train_series(p)]
    fr = tp.load_frame_patches(args.shared, os.path.join(here, "playing_frame_index.tsv"))
    fpos = [f for f in fr if f[2] is not None]
    fneg = [f for f in fr if f[2] is None]
    hard = [cv2.imread(os.path.join(neg, f), cv2.IMREAD_COLOR)
            for f in sorted(os.listdir(neg)) if f.endswith(".png")]
    print(f"rendered {len(rendered)} (+{len(rendered_test)} held out), vosloo {len(vosloo)}, "
          f"phone before 19:50 {len(phone)}, scene patches {len(fpos)} card / {len(fneg)} not, "
          f"other games' false indices {len(hard)}; held out: real single cards "
          f"{len(held_single)}, phone 19:50+ cuts {len(phone_held)}", file=sys.stderr)
    rep = max(1, len(rendered) // (2 * max(1, len(vosloo) + len(phone))))
    cards = rendered + (vosloo + phone) * rep
    model = StrideFaceNet() if args.arch == "s2" else FaceNet()
    teacher = tp.Teacher(args.teacher, ("rank", "suit", "card")) if args.teacher else None
    steps = 100
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * steps)
    rng = random.Random(SEED)
    for ep in range(args.epochs):
        x, r, s, c = make_epoch(cards, fpos, fneg, hard, rng, 9600, 3200)
        soft = teacher(x) if teacher else None
        model.train()
        perm = torch.randperm(len(x))
        tot = 0.0
        for b in range(steps):
            j = perm[b * 128:(b + 1) * 128]
            rl, sl, cl = model(x[j])
            pos = c[j] == 1
            loss = F.cross_entropy(cl, c[j])
            if pos.any():
                loss = loss + F.cross_entropy(rl[pos], r[j][pos]) + F.cross_entropy(sl[pos], s[j][pos])
            if teacher:  # the card head on every view, rank and suit where there is a card
                loss = loss + tp.distill(cl, soft[2][j], args.temp)
                if pos.any():
                    loss = loss + tp.distill(rl[pos], soft[0][j][pos], args.temp) + \
                        tp.distill(sl[pos], soft[1][j][pos], args.temp)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += float(loss)
        _, acc_r, n_r = evaluate(model, rendered_test)
        hr, acc_h, n_h = evaluate(model, held_single)
        print(f"epoch {ep + 1}: loss {tot / steps:.3f}  held-out rendered {100 * acc_r:.1f}% "
              f"({n_r})  held-out real single cards rank {100 * hr:.1f}% rank+suit "
              f"{100 * acc_h:.1f}% ({n_h})", file=sys.stderr)
    pr, pa, pn = evaluate(model, phone_held)
    print(f"held-out real single cards (mathsvlog_card + guillex7): rank {100 * hr:.1f}%, "
          f"rank+suit {100 * acc_h:.1f}% ({n_h})")
    print(f"held-out phone 19:50+ (cut by the reader's finder, some loose): rank {100 * pr:.1f}%, "
          f"rank+suit {100 * pa:.1f}% ({pn})")
    print(f"held-out rendered cards (grid seeds 29000-29029): rank+suit {100 * acc_r:.1f}% ({n_r})")
    if teacher:
        for name, cs in (("real single cards", held_single), ("phone 19:50+", phone_held),
                         ("rendered", rendered_test)):
            n_sure, n_same = sure_agree(model, teacher, cs, args.sure)
            print(f"held-out {name}: sure ({args.sure}) of {n_sure}/{len(cs)}, "
                  f"the teacher reads {n_same} of them alike")
    tsnet.export(model, args.out, "playing-face-fast" if args.arch == "s2" else "playing-face",
                 IN_W, IN_H, 1,
                 [("rank", RANKS), ("suit", SUITS), ("card", "NY")],
                 comments=[f"trained by models/train_playing_face.py --arch {args.arch} (seed "
                           f"{SEED}, {args.epochs} epochs"
                           + (f", teacher {os.path.basename(args.teacher)}" if teacher else "")
                           + "); held out: guillex7, mathsvlog, phone 19:50+, later webcam half",
                           f"held-out real single cards rank+suit {100 * acc_h:.1f}% ({n_h})"])
    print(f"wrote {args.out} ({os.path.getsize(args.out)} bytes)")


if __name__ == "__main__":
    main()
