#!/usr/bin/python3
"""Trains the Gang of Four nets the reader (vision/readers/gof.c) multiplies:

--net index (models/gof-index.tsnet): the corner index. The data are corner patches cut by build/ts-gof-patches (models/gof_patches.c)
from rendered tables: the same cut the reader makes (vision/readers/gof.h),
from true quads a little off, either way up, plus "none" patches (covered
corners, table, card middles). Training tables use seeds 20000.. ; the
held-aside tables use seeds 30000.. (never trained on); the floors in
models/README.md are measured on seeds 40000.. with build/ts-render-eval --game gof.
It also prints, on held-aside patches of quads off the card (`ts-gof-patches
SEED N OUT --off`: the true quad shifted by up to 0.3 of the card and scaled
0.6-1.25, "none" where the index region lies 0.12 of the card or more from the
card's own index), how often the net still calls a card there; --off trains
on such patches of tables 21500.. too, --sixnine N shows small 6 and 9 index
patches N times an epoch (neither in the shipped net, models/README.md).

--net card (models/gof-card.tsnet): the whole card. The corner index alone
does not read on a card 40-70 px wide in a 1280x720 frame (its numeral is
5-7 px tall); the big brush numeral does, and the layout of the two corner
indices (numeral over symbol) says which way up the card lies, which is all
that tells 6 from 9. The net sees the rectified card shrunk to 32 x 50 (area
mean: what tscv_net_run does). Its data are whole cards cut by
`ts-gof-patches SEED N OUT --cards`: each card at least half visible, from its
true quad a little off, either way up (labelled with its card: it must read
upside down the same), and quads off the cards (labelled "none"); --part
adds quads of half to two thirds of a card as "none" (not in the shipped net). Training
tables are seeds 22000..; held aside 30000..; the reader's floors are
measured on 44000.. and above with `tablesight eval --game gof`.

Both have two heads: number (1..9, T=10, P phoenix, D dragon, X no index /
not a card) and colour (G Y R, M multicoloured), and the same layers at
their input sizes. Everything is seeded: the same command gives the same model.

  /usr/bin/python3 models/train_gof.py --net index --build build
  /usr/bin/python3 models/train_gof.py --net card --build build
"""
import argparse
import os
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tsnet  # noqa: E402

# What differs between the two nets (the training loop and layers are one).
NETS = {
    "index": dict(size=(28, 44), cut=[], data="/tmp/gofdata", out="models/gof-index.tsnet",
                  train="20000:750,20750:750", val="30000:60", epochs=9,
                  off="21500:600", offval="30000:60",
                  batch=256, shift=2, turn=False, small=True, sixnine=1,
                  what="Gang of Four corner index", right="patches right"),
    "card": dict(size=(32, 50), cut=["--cards"], data="/tmp/gofc", out="models/gof-card.tsnet",
                 train="22000:480", val="30000:40", epochs=14, batch=128, shift=1, turn=True,
                 off="", offval="",
                 small=False, sixnine=1,
                 what="Gang of Four whole card", right="right"),
}
NUM_LETTERS = "123456789TPDX"
COL_LETTERS = "GYRM"
LAYOUTS = ["grid", "touching", "fan", "pile", "scatter", "row"]


def patches(build, data, name, spec, net, cut=None):
    """Renders (once, cached in data) and loads the patches of the tables in
    spec: "SEED:TABLES[:RECORDS],..." - ts-gof-patches SEED TABLES [cut],
    keeping its first RECORDS patches when given (the same bytes on every
    run). cut: the tool's mode (the net's own by default)."""
    cut = net["cut"] if cut is None else cut
    pw, ph = net["size"]
    parts, procs = [], []
    for part in spec.split(","):
        f = part.split(":")
        first, count = int(f[0]), int(f[1])
        keep = int(f[2]) if len(f) > 2 else None
        path = os.path.join(data, f"{name}_{first}_{count}.bin")
        parts.append((path, keep))
        if not os.path.exists(path):
            procs.append((path, subprocess.Popen([os.path.join(build, "ts-gof-patches"),
                                                  str(first), str(count), path + ".tmp"]
                                                 + cut)))
    for path, p in procs:
        if p.wait() != 0:
            sys.exit("ts-gof-patches failed")
        os.rename(path + ".tmp", path)
    d = []
    for path, keep in parts:
        r = np.fromfile(path, np.uint8).reshape(-1, 4 + pw * ph * 3)
        d.append(r[:keep] if keep else r)
    d = np.concatenate(d)
    lab = d[:, :4].astype(np.int64)
    img = d[:, 4:].reshape(-1, ph, pw, 3)
    return img, lab


class Net(nn.Module):
    def __init__(self, pw, ph, widths=(12, 24, 32)):
        super().__init__()
        a, b, c = widths
        self.c1 = nn.Conv2d(3, a, 3, padding=1)
        self.b1 = nn.BatchNorm2d(a)
        self.c2 = nn.Conv2d(a, b, 3, padding=1)
        self.b2 = nn.BatchNorm2d(b)
        self.c3 = nn.Conv2d(b, c, 3, padding=1)
        self.b3 = nn.BatchNorm2d(c)
        self.fc = nn.Linear(c * (ph // 8) * (pw // 8), 64)
        self.drop = nn.Dropout(0.2)
        self.number = nn.Linear(64, len(NUM_LETTERS))
        self.colour = nn.Linear(64, len(COL_LETTERS))

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.b1(self.c1(x))), 2)  # each halves the size
        x = F.max_pool2d(F.relu(self.b2(self.c2(x))), 2)
        x = F.max_pool2d(F.relu(self.b3(self.c3(x))), 2)
        x = self.drop(F.relu(self.fc(torch.flatten(x, 1))))
        return self.number(x), self.colour(x)


def augment(x, g, net):
    """x: N,3,H,W float 0..1. Light, white balance, blur, noise, a small shift:
    what differs between these renders and a real camera."""
    n = x.shape[0]
    gain = torch.empty(n, 3, 1, 1).uniform_(0.85, 1.15, generator=g)
    bright = torch.empty(n, 1, 1, 1).uniform_(0.6, 1.3, generator=g)
    x = x * gain * bright
    contrast = torch.empty(n, 1, 1, 1).uniform_(0.7, 1.2, generator=g)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * contrast + mean
    gamma = torch.empty(n, 1, 1, 1).uniform_(0.75, 1.35, generator=g)
    x = x.clamp(1e-4, 1) ** gamma
    # blur a third of them
    k = torch.tensor([0.25, 0.5, 0.25])
    k2 = (k[:, None] * k[None, :]).expand(3, 1, 3, 3)
    blur = torch.rand(n, generator=g) < 0.33
    if blur.any():
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k2, groups=3)
    # shift a little; whole cards also half a turn (the same card)
    k = net["shift"]
    dx, dy = (torch.randint(-k, k + 1, (2,), generator=g)).tolist()
    x = torch.roll(x, shifts=(dy, dx), dims=(2, 3))
    if net["turn"]:
        turn = torch.rand(n, generator=g) < 0.5
        x[turn] = torch.flip(x[turn], dims=(2, 3))
    if net["small"]:
        x = smaller(x, g)
    sigma = torch.empty(n, 1, 1, 1).uniform_(0, 0.03, generator=g)
    x = x + torch.randn(x.shape, generator=g) * sigma
    return x.clamp(0, 1)


def smaller(x, g):
    """Corner patches of cards smaller in the frame than they were rendered:
    half of them through fewer pixels (the area mean to 1/1.3-1/2.6 of the
    side, back up bilinear: a card 40-65 px wide where one of 80-150 was
    cut), and a third with their colour washed towards grey (a yellow index
    on beige stock in dim or tinted light). Small cards' indices, above all
    yellow 5, 6, 8 and 9, are what the net read worst (held aside, cards
    under 70 px: 62-79% of index patches)."""
    n, _, h, w = x.shape
    few = torch.rand(n, generator=g) < 0.5
    if few.any():
        f = float(torch.empty(1).uniform_(1.3, 2.6, generator=g))
        lo = F.interpolate(x[few], size=(max(4, round(h / f)), max(3, round(w / f))), mode="area")
        x[few] = F.interpolate(lo, size=(h, w), mode="bilinear", align_corners=False)
    wash = torch.rand(n, generator=g) < 0.33
    if wash.any():
        a = torch.empty(int(wash.sum()), 1, 1, 1).uniform_(0, 0.5, generator=g)
        grey = x[wash].mean(dim=1, keepdim=True)
        x[wash] = x[wash] * (1 - a) + grey * a
    return x


def six_nine_small(lab):
    """Index patches of a 6 or a 9 on a card under 90 px wide in the frame:
    there the index numeral alone tells 6 from 9 (the reader's 6/9 rule
    needs both corners sure), and these are what the net read worst."""
    return ((lab[:, 0] == 5) | (lab[:, 0] == 8)) & (lab[:, 3] < 90)


def small_index(lab):
    """Index patches (not "none") of a card under 90 px wide in the frame."""
    return (lab[:, 0] != 12) & (lab[:, 3] < 90)


def epoch_order(lab, sixnine, every, g):
    """Every patch once and the small index patches (only the 6 and 9 ones
    unless every) sixnine times in all, shuffled (each copy augmented
    afresh). Only 6 and 9 made the net call a small 5 a 6 (87000-87039)."""
    order = np.arange(len(lab))
    extra = np.nonzero(small_index(lab) if every else six_nine_small(lab))[0]
    order = np.concatenate([order] + [extra] * (sixnine - 1))
    return torch.from_numpy(order)[torch.randperm(len(order), generator=g)]


def to_tensor(img):
    return torch.from_numpy(img).permute(0, 3, 1, 2).float() / 255.0


def evaluate(model, img, lab, tag):
    model.eval()
    pn, pc = [], []
    with torch.no_grad():
        for i in range(0, len(img), 2048):
            a, b = model(to_tensor(img[i:i + 2048]))
            pn.append(a.argmax(1))
            pc.append(b.argmax(1))
    pn, pc = torch.cat(pn).numpy(), torch.cat(pc).numpy()
    num, col, lay = lab[:, 0], lab[:, 1], lab[:, 2]
    idx = num != 12
    both = (pn == num) & ((col == 255) | (pc == col))
    print(f"{tag}: {len(num)} patches: number {100 * (pn == num).mean():.2f}%  "
          f"colour {100 * (pc[idx] == col[idx]).mean():.2f}% (of {idx.sum()} indices)  "
          f"both {100 * both.mean():.2f}%  index read {100 * both[idx].mean():.2f}%  "
          f"none kept none {100 * (pn[~idx] == 12).mean():.2f}%")
    for lo, hi in ((0, 60), (60, 70), (70, 85), (85, 110), (110, 256)):
        m = idx & (lab[:, 3] >= lo) & (lab[:, 3] < hi)
        if m.any():
            print(f"   cards {lo:3d}-{hi:3d} px wide: {m.sum():5d} index patches, "
                  f"both right {100 * both[m].mean():.2f}%")
    m = six_nine_small(lab)
    if m.any():
        print(f"   6 and 9 on cards < 90 px: {m.sum():5d} index patches, "
              f"both right {100 * both[m].mean():.2f}%, "
              f"read as the other {100 * (((pn == 5) & (num == 8)) | ((pn == 8) & (num == 5)))[m].mean():.2f}%")
    for li, name in enumerate(LAYOUTS):
        m = lay == li
        if m.any():
            print(f"   {name:9s} {m.sum():6d} patches, both right {100 * both[m].mean():.2f}%")
    return both.mean()


def evaluate_off(model, img, lab, tag):
    """Index patches of quads off the card (ts-gof-patches --off, labelled
    "none" or, within a little of the index, their card): how often the net
    still calls a card, and how sure it is of one there. A reading the
    reader multiplies must not be sure on a corner that is not on an index."""
    model.eval()
    with torch.no_grad():
        pn, pc = [], []
        for i in range(0, len(img), 2048):
            a, b = model(to_tensor(img[i:i + 2048]))
            pn.append(F.softmax(a, 1))
            pc.append(F.softmax(b, 1))
    pn, pc = torch.cat(pn).numpy(), torch.cat(pc).numpy()
    none = lab[:, 0] == 12
    card = pn[:, 12] < 0.5  # the reader counts the corner (gof.c posterior)
    sure = card & (pn[:, :12].max(1) / np.maximum(1e-9, 1 - pn[:, 12]) >= 0.9)
    print(f"{tag}: {none.sum()} off-quad patches: called a card {100 * card[none].mean():.2f}%, "
          f"sure of a number there (>= 0.9) {100 * sure[none].mean():.2f}%, "
          f"mean P(none) {pn[none, 12].mean():.3f}; {(~none).sum()} near the index read "
          f"{100 * (pn[~none].argmax(1) == lab[~none, 0]).mean():.2f}%")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--net", choices=sorted(NETS), default="index")
    ap.add_argument("--build", default="build")
    ap.add_argument("--data", help="where rendered patches are cached (default per net)")
    ap.add_argument("--out", help="the .tsnet written (default per net)")
    ap.add_argument("--train", help="SEED:TABLES[:PATCHES kept],... (ts-gof-patches runs)")
    ap.add_argument("--val", help="the same, held aside")
    ap.add_argument("--epochs", type=int)
    ap.add_argument("--widths", default="12,24,32",
                    help="the three convolutions' channels (12,24,32: the shipped nets)")
    ap.add_argument("--sixnine", type=int,
                    help="times each small 6 or 9 index patch is seen an epoch (1: the shipped net)")
    ap.add_argument("--every-small", action="store_true",
                    help="repeat every small index patch, not only 6 and 9")
    ap.add_argument("--off", action="store_true",
                    help="index: train on the off-quad patches too (ts-gof-patches --off)")
    ap.add_argument("--part", action="store_true",
                    help="card: quads of part of a card as \"none\" too (ts-gof-patches --part)")
    ap.add_argument("--shift", action="store_true",
                    help="card: its quad moved 0.14-0.25 of the card as \"none\" too "
                         "(ts-gof-patches --shift)")
    a = ap.parse_args()
    net = NETS[a.net]
    if a.sixnine:
        net["sixnine"] = a.sixnine
    for k in ("data", "out", "train", "val", "epochs"):
        if getattr(a, k) is None:
            setattr(a, k, net[k])
    pw, ph = net["size"]
    bs = net["batch"]
    name = "gof-" + a.net
    torch.manual_seed(1)
    torch.set_num_threads(1)
    g = torch.Generator().manual_seed(1)
    os.makedirs(a.data, exist_ok=True)
    part = [f for f, on in (("--part", a.part), ("--shift", a.shift)) if on and net["cut"]]
    kind = "".join("_" + f[2:] for f in part)
    xtr, ytr = patches(a.build, a.data, "train" + kind, a.train, net, net["cut"] + part)
    xva, yva = patches(a.build, a.data, "val" + kind, a.val, net, net["cut"] + part)
    if a.off:
        xo, yo = patches(a.build, a.data, "off", net["off"], net, ["--off"])
        xtr, ytr = np.concatenate([xtr, xo]), np.concatenate([ytr, yo])
    xvo, yvo = (patches(a.build, a.data, "offval", net["offval"], net, ["--off"])
                if net["offval"] else (None, None))
    print(flush=True)
    print(f"train {len(xtr)} patches from tables {a.train}; held aside {len(xva)} from {a.val}")

    widths = tuple(int(w) for w in a.widths.split(","))
    model = Net(pw, ph, widths)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3, weight_decay=1e-4)
    extra = small_index(ytr) if a.every_small else six_nine_small(ytr)
    per_epoch = len(xtr) + (net["sixnine"] - 1) * int(extra.sum())
    steps = a.epochs * ((per_epoch + bs - 1) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    ynum = torch.from_numpy(ytr[:, 0])
    ycol = torch.from_numpy(ytr[:, 1])
    for ep in range(a.epochs):
        model.train()
        perm = epoch_order(ytr, net["sixnine"], a.every_small, g)
        total = 0.0
        for i in range(0, len(perm), bs):
            b = perm[i:i + bs]
            x = augment(to_tensor(xtr[b.numpy()]), g, net)
            on, oc = model(x)
            loss = F.cross_entropy(on, ynum[b])
            has = ycol[b] != 255
            if has.any():
                loss = loss + F.cross_entropy(oc[has], ycol[b][has])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item() * len(b)
            if (i // bs) % 40 == 0:
                print(f"  step {i // bs}: loss {loss.item():.3f}", flush=True)
        print(f"epoch {ep + 1}: loss {total / len(perm):.4f}", flush=True)
        evaluate(model, xva, yva, "  held aside")
        if xvo is not None:
            evaluate_off(model, xvo, yvo, "  held aside")
    acc = evaluate(model, xva, yva, "held aside (final)")
    if xvo is not None:
        evaluate_off(model, xvo, yvo, "held aside (final)")
    torch.save(model.state_dict(), os.path.join(a.data, name + ".pt"))
    tsnet.export(model, a.out, name, pw, ph, 3,
                 [("number", NUM_LETTERS), ("colour", COL_LETTERS)],
                 comments=[f"{net['what']} (convolutions {a.widths}); rendered tables {a.train} "
                           f"(ts-gof-patches{''.join(' ' + c for c in net['cut'])}), held aside "
                           f"{a.val}: {100 * acc:.2f}% {net['right']}",
                           f"rebuild: /usr/bin/python3 models/train_gof.py --net {a.net} "
                           f"--widths {a.widths}{' --off' * a.off}{' --part' * a.part}"
                           f"{' --shift' * a.shift}"
                           f"{f' --sixnine {a.sixnine}' if a.sixnine else ''} (models/README.md)"])
    print(f"wrote {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
