#!/usr/bin/env python3
"""Where the capture -> hints-in-window latency goes, from `run --trace FILE`.

For every result (a frame vision read), the time from its capture to the first
window draw carrying it, split into: decode (on the capture thread, before the
capture stamp: not in the latency, shown for the CPU), queue (captured ->
vision takes it), vision (wall, and the vision thread's CPU), pickup (results
published -> handed to the window by the display thread), window (handed ->
drawn by cairooverlay: the appsrc queue, BGR->BGRx, scaling; split per frame
pushed when the trace has the window's wconv stamps). Vision's row is stamped
after its results are published, so pickup can read -0.0. For each stage,
wall time against the thread's CPU time and its involuntary context switches
says whether a slow stage worked more or waited (preempted, or on a lock).

Usage: live_trace.py TRACE.tsv [INTERVAL_MS (33.3)]
Standard library only (the tool runs with any python3).
"""
import sys
from collections import defaultdict


def pct(xs, p):
    if not xs:
        return float("nan")
    xs = sorted(xs)
    k = max(0, min(len(xs) - 1, int(round(p / 100.0 * len(xs) + 0.5)) - 1))
    return xs[k]


def main():
    path = sys.argv[1]
    interval = float(sys.argv[2]) if len(sys.argv) > 2 else 1000.0 / 30
    rows = defaultdict(list)
    with open(path) as f:
        next(f)
        for line in f:
            p = line.rstrip("\n").split("\t")
            if len(p) < 9:
                continue
            rows[p[0]].append(dict(seq=int(p[1]), tf=float(p[2]), t0=float(p[3]), t1=float(p[4]),
                                   cpu=float(p[5]), flt=int(p[6]), ivcs=int(p[7]), aux=float(p[8])))

    def key(t):
        return round(t, 2)

    handed = {}  # result's capture time -> first hand-over to the window carrying it
    for r in sorted(rows["show"] + rows["again"], key=lambda r: r["t1"]):
        if r["aux"] >= 0:
            handed.setdefault(key(r["aux"]), r)
    drawn = {}  # result's capture time -> first draw carrying it
    for r in sorted(rows["draw"], key=lambda r: r["t1"]):
        if r["aux"] >= 0:
            drawn.setdefault(key(r["aux"]), r)
    decode = {r["seq"]: r for r in rows["decode"]}

    print("stage    n     wall p50/p95/max ms      cpu p50/p95 ms   preempted  faults/frame")
    for st in ("decode", "vision", "show", "again", "ovcopy", "push", "draw"):
        rs = rows.get(st, [])
        if not rs:
            continue
        wall = [r["t1"] - r["t0"] for r in rs]
        cpu = [r["cpu"] for r in rs]
        pre = sum(1 for r in rs if r["ivcs"] > 0)
        print("%-7s %4d  %6.1f %6.1f %6.1f     %6.2f %6.2f   %5.0f%%   %8.1f" % (
            st, len(rs), pct(wall, 50), pct(wall, 95), max(wall), pct(cpu, 50), pct(cpu, 95),
            100.0 * pre / len(rs), sum(r["flt"] for r in rs) / len(rs)))

    # The window's own pipeline, per frame pushed: waiting in the appsrc queue
    # behind the frame being shown, BGR->BGRx and scaling, the overlay's draw.
    def first(stage):
        out = {}
        for r in rows.get(stage, []):
            out.setdefault(round(r["tf"], 1), r)
        return out
    conv, draws = first("wconv"), first("draw")
    parts = defaultdict(list)
    for tf, p in first("push").items():
        c, d = conv.get(tf), draws.get(tf)
        if c and d:
            parts["queued"].append(c["t1"] - p["t1"])
            parts["convert"].append(d["t0"] - c["t1"])
            parts["draw"].append(d["t1"] - d["t0"])
    if parts:
        print("\nwindow, per frame pushed (n=%d): " % len(parts["draw"]) + "; ".join(
            "%s p50 %.1f p95 %.1f ms" % (k, pct(parts[k], 50), pct(parts[k], 95))
            for k in ("queued", "convert", "draw")))

    res = []
    for v in rows["vision"]:
        T = v["tf"]
        d = drawn.get(key(T))
        h = handed.get(key(T))
        if not d or not h:
            continue
        res.append(dict(seq=v["seq"], total=d["t1"] - T, queue=v["t0"] - T, vision=v["t1"] - v["t0"],
                        vcpu=v["cpu"], vivcs=v["ivcs"], pickup=h["t1"] - v["t1"],
                        window=d["t1"] - h["t1"], hand=h, draw=d,
                        dec=decode.get(v["seq"])))
    if not res:
        print("no result was drawn in the window")
        return
    tot = [r["total"] for r in res]
    print("\ncapture -> hints in window: n=%d p50 %.1f p95 %.1f max %.1f ms; late (> %.1f ms): %d" % (
        len(res), pct(tot, 50), pct(tot, 95), max(tot), interval,
        sum(1 for t in tot if t > interval)))
    arr = [r["draw"]["t1"] - r["dec"]["t0"] for r in res if r["dec"]]
    if arr:  # the capture stamp is taken after tablesight's own JPEG decoding
        print("  from the frame's arrival at the appsink (JPEG: before decoding): p50 %.1f p95 %.1f ms"
              % (pct(arr, 50), pct(arr, 95)))
    for part in ("queue", "vision", "pickup", "window"):
        xs = [r[part] for r in res]
        late = [r[part] for r in res if r["total"] > interval]
        print("  %-7s p50 %6.1f p95 %6.1f   in late results: p50 %6.1f" % (
            part, pct(xs, 50), pct(xs, 95), pct(late, 50) if late else float("nan")))
    late = sorted((r for r in res if r["total"] > interval), key=lambda r: -r["total"])
    if late:
        print("\nlatest results (ms): seq total = queue + vision (cpu, preempted) + pickup + window")
        for r in late[:12]:
            print("  %5d %6.1f = %5.1f + %5.1f (%5.1f, %d) + %5.1f + %5.1f" % (
                r["seq"], r["total"], r["queue"], r["vision"], r["vcpu"], r["vivcs"], r["pickup"],
                r["window"]))
        # What dominates the part above the interval, per late result.
        blame = defaultdict(int)
        for r in late:
            blame[max(("queue", "vision", "pickup", "window"), key=lambda k: r[k])] += 1
        print("  largest part in late results: " + ", ".join(
            "%s %d" % (k, n) for k, n in sorted(blame.items(), key=lambda kv: -kv[1])))


if __name__ == "__main__":
    main()
