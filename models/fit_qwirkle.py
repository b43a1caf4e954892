#!/usr/bin/python3
"""Fits a Qwirkle deck profile's colour and shape prototypes.

    build/ts-qwirkle dump --profile P LABELS.tsv > feats.tsv
    /usr/bin/python3 models/fit_qwirkle.py --profile models/qwirkle_P.profile \
        --labels LABELS.tsv feats.tsv [--per-piece] > new.profile

feats.tsv: one line per piece the reader found (ts-qwirkle dump): image, the
code read, conf, 2 colour features (saturation x cos, sin of hue), 4 shape features, centre, ...

--per-piece: each image holds one piece (render crops): its label is the
piece's label. --render-labels: scenes drawn by tablesight render; each piece
found takes the label of the card its centre lies on (ts-qwirkle dump reads
the JSON beside each image). Otherwise labels are per image (an unordered multiset, as in
the shared photo set): each piece's label is found by matching the current
profile's readings to the image's labels (a reading that is in the multiset
keeps its code; a leftover piece takes the leftover label that differs in one
attribute, if just one does), and the prototypes are refitted from those; a
few rounds. Deterministic: no randomness anywhere.
"""
import argparse
import collections
import math
import sys

import numpy as np


def read_profile(path):
    head, protos = [], {}
    letters = None
    for line in open(path):
        w = line.split('#')[0].split()
        if not w:
            continue
        if w[0] in ('colour', 'shape'):
            protos.setdefault((w[0], w[1]), []).append(line.strip())
        else:
            head.append(line.rstrip('\n'))
            if w[0] == 'letters':
                letters = (w[1], w[2])
    return head, letters


def label_set(labels_path, white_as):
    out = {}
    for line in open(labels_path):
        if line.startswith('#') or '\t' not in line:
            continue
        img, codes = line.rstrip('\n').split('\t', 1)
        out[img.split('/')[-1]] = codes.split()
    return out


def classify(x, means, spreads):
    return dist2(x, means, spreads).argmin(1)


def robust(sel, floor):
    m = np.median(sel, 0)
    return m, np.maximum(1.4826 * np.median(np.abs(sel - m), 0) * 1.5, floor)


def fit(X, y, n, floor, modes=1):
    """Per value: one prototype, or with modes=2 and enough pieces, two: the
    pieces split at the median of the feature that spreads them most
    (relative to its floor), e.g. sharp and blurred stars."""
    means, spreads = [], []
    for v in range(n):
        sel = X[y == v]
        if modes == 1 or len(sel) < 40:
            m, s = robust(sel, floor)
            means.append([m])
            spreads.append([s])
            continue
        k = np.argmax(sel.std(0) / floor)
        cut = np.median(sel[:, k])
        parts = [sel[sel[:, k] <= cut], sel[sel[:, k] > cut]]
        ms = [robust(p, floor) for p in parts if len(p) >= 10]
        means.append([m for m, _ in ms])
        spreads.append([s for _, s in ms])
    return means, spreads


def dist2(x, means, spreads):
    return np.stack([np.min(np.stack([(((x - m) / s) ** 2).sum(-1) for m, s in zip(mv, sv)]), 0)
                     for mv, sv in zip(means, spreads)], 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--profile', required=True)
    ap.add_argument('--labels', required=True)
    ap.add_argument('--per-piece', action='store_true')
    ap.add_argument('--render-labels', action='store_true',
                    help='scenes drawn by tablesight render: label each piece from its JSON')
    ap.add_argument('--rounds', type=int, default=4)
    ap.add_argument('--modes', type=int, default=1, choices=(1, 2))
    ap.add_argument('feats')
    a = ap.parse_args()
    head, (cl, sl) = read_profile(a.profile)
    labels = label_set(a.labels, cl[5])
    rows = [l.rstrip('\n').split('\t') for l in open(a.feats)]
    rows = [r for r in rows if len(r) >= 15 and r[11] == '1']
    if a.render_labels:  # each piece's own label, from the render's JSON
        rows = [r for r in rows if r[14] != '-']
    imgs = [r[0].split('/')[-1] for r in rows]
    read = [r[1] for r in rows]
    C = np.array([[float(v) for v in r[3:5]] for r in rows])
    S = np.array([[float(v) for v in r[5:9]] for r in rows])
    cfloor = np.array([0.04, 0.04])
    sfloor = np.array([0.03, 0.03, 0.02, 0.05])

    def code_idx(code):
        return cl.index(code[0]), sl.index(code[1])

    if a.render_labels:
        yc = np.array([code_idx(r[14])[0] for r in rows])
        ys = np.array([code_idx(r[14])[1] for r in rows])
        keep = np.ones(len(rows), bool)
    elif a.per_piece:
        yc = np.array([code_idx(labels[i][0])[0] for i in imgs])
        ys = np.array([code_idx(labels[i][0])[1] for i in imgs])
        keep = np.ones(len(rows), bool)
    else:
        pred = [code_idx(c) if c != '--' else (-1, -1) for c in read]
        for rnd in range(a.rounds):
            yc = np.full(len(rows), -1)
            ys = np.full(len(rows), -1)
            byimg = collections.defaultdict(list)
            for k, i in enumerate(imgs):
                byimg[i].append(k)
            for i, ks in byimg.items():
                left = collections.Counter(code_idx(c) for c in labels[i])
                rest = []
                for k in ks:
                    if pred[k] in left and left[pred[k]] > 0:
                        left[pred[k]] -= 1
                        yc[k], ys[k] = pred[k]
                    else:
                        rest.append(k)
                for k in rest:
                    cands = [lb for lb, m in left.items() if m > 0 and
                             (lb[0] == pred[k][0]) + (lb[1] == pred[k][1]) == 1]
                    if len(cands) == 1:
                        left[cands[0]] -= 1
                        yc[k], ys[k] = cands[0]
            keep = yc >= 0
            cm, cs = fit(C[keep], yc[keep], 6, cfloor)
            sm, ss = fit(S[keep], ys[keep], 6, sfloor)
            pc, ps = classify(C, cm, cs), classify(S, sm, ss)
            pred = list(zip(pc.tolist(), ps.tolist()))
            print('round %d: %d of %d pieces labelled' % (rnd, keep.sum(), len(rows)), file=sys.stderr)
    cm, cs = fit(C[keep], yc[keep], 6, cfloor, a.modes)
    sm, ss = fit(S[keep], ys[keep], 6, sfloor, a.modes)
    acc_c = (classify(C[keep], cm, cs) == yc[keep]).mean()
    acc_s = (classify(S[keep], sm, ss) == ys[keep]).mean()
    print('fit on %d pieces: colour %.4f shape %.4f (training agreement)' % (keep.sum(), acc_c, acc_s),
          file=sys.stderr)
    for line in head:
        print(line)
    for v in range(6):
        for m, s in zip(cm[v], cs[v]):
            print('colour %s mean %s spread %s' % (cl[v], ' '.join('%.3f' % x for x in m),
                                                    ' '.join('%.4f' % x for x in s)))
    for v in range(6):
        for m, s in zip(sm[v], ss[v]):
            print('shape %s mean %s spread %s' % (sl[v], ' '.join('%.4f' % x for x in m),
                                                   ' '.join('%.4f' % x for x in s)))


if __name__ == '__main__':
    main()
