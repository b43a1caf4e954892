#!/usr/bin/env python3
"""Checks of `tablesight run` over real pipelines, shared by tests/cli/run_*.sh.

    run_check.py CHECK TABLESIGHT SOURCE_DIR SHARED_DIR

CHECK is one of: clip, outputs, window, soak. Python 3 standard library only.
Frames are made at test time in a temporary directory: symbolic links to the
real photos in SHARED_DIR/data/set/boards (never copied), or downscaled copies
made with gst-launch-1.0 there. No timing assertions: every wait is bounded
only to keep a broken build from hanging.
"""
import json
import os
import re
import select
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

BOUND_S = 300  # longest any single wait may take before the check fails

# ---- Small helpers ----------------------------------------------------------


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def labels(shared):
    """image name -> sorted list of codes, from boards.tsv."""
    out = {}
    with open(os.path.join(shared, "data/set/boards.tsv")) as f:
        for line in f:
            if line.startswith("#") or "\t" not in line:
                continue
            image, codes = line.rstrip("\n").split("\t", 1)
            out[os.path.basename(image)] = sorted(codes.split())
    return out


def scan(ts, path):
    """Codes `tablesight scan` reads in one photo (read cards only)."""
    p = subprocess.run([ts, "scan", path], capture_output=True, text=True, timeout=BOUND_S)
    if p.returncode != 0 or not p.stdout.strip():
        return None
    o = json.loads(p.stdout.splitlines()[0])
    return sorted(c["code"] for c in o["cards"] if c["read"])


def photos_read_right(ts, shared, want, min_cards=6):
    """Board photos that process_frame reads exactly as labelled (the daemon is
    under test here, not the reader): the first `want`, in name order."""
    lab = labels(shared)
    boards = os.path.join(shared, "data/set/boards")
    found = []
    for name in sorted(lab):
        if len(lab[name]) < min_cards:
            continue
        if scan(ts, os.path.join(boards, name)) == lab[name]:
            found.append((os.path.join(boards, name), lab[name]))
            if len(found) == want:
                break
    check(len(found) >= 2, "fewer than 2 board photos are read exactly; the reader is broken")
    return found


def link_clip(d, segments):
    """frame_%04d.jpg in d: each (photo, n) as n links to the photo."""
    i = 0
    for photo, n in segments:
        for _ in range(n):
            os.symlink(photo, os.path.join(d, "frame_%04d.jpg" % i))
            i += 1
    return os.path.join(d, "frame_%04d.jpg")


def scaled_clip(d, segments, width, height):
    """Like link_clip, but each photo re-encoded at width x height with GStreamer."""
    i = 0
    for k, (photo, n) in enumerate(segments):
        small = os.path.join(d, "src_%d.jpg" % k)
        subprocess.run(["gst-launch-1.0", "-q", "filesrc", "location=" + photo, "!", "jpegdec", "!",
                        "videoconvert", "!", "videoscale", "!",
                        "video/x-raw,width=%d,height=%d" % (width, height), "!", "jpegenc", "!",
                        "filesink", "location=" + small], check=True, timeout=BOUND_S)
        for _ in range(n):
            os.symlink(small, os.path.join(d, "frame_%04d.jpg" % i))
            i += 1
    return os.path.join(d, "frame_%04d.jpg")


def run(ts, args, **kw):
    return subprocess.run([ts, "run"] + args, capture_output=True, text=True, timeout=BOUND_S, **kw)


# ---- The JSON line contract -------------------------------------------------

EVENT_TYPES = {"added", "removed", "moved", "reread"}
SET_LETTERS = ["123", "RGP", "DOS", "STO"]


def is_set(codes):
    for a in range(4):
        if sum(SET_LETTERS[a].index(c[a]) for c in codes) % 3:
            return False
    return len(set(codes)) == 3


def check_lines(lines):
    """Every line has the contract's shape; replaying the events gives the
    table each line reports. Returns the parsed objects."""
    objs = []
    table = {}  # id -> code ("" unread)
    last_frame = 0
    for n, line in enumerate(lines):
        try:
            o = json.loads(line)
        except ValueError:
            fail("line %d is not JSON: %r" % (n + 1, line[:200]))
        for key in ("source", "frame", "game", "w", "h", "cards", "sets", "timing_ms", "t", "ids",
                    "events"):
            check(key in o, "line %d has no %r" % (n + 1, key))
        check(o["game"] == "set", "game is %r" % o["game"])
        check(o["frame"] > last_frame, "frames do not increase at line %d" % (n + 1))
        last_frame = o["frame"]
        check(len(o["ids"]) == len(o["cards"]), "ids and cards differ in length")
        check(len(o["events"]) > 0, "line %d has no events: lines are per change" % (n + 1))
        for c in o["cards"]:
            check(len(c["quad"]) == 4 and all(len(p) == 2 for p in c["quad"]), "bad quad")
            check(0 <= c["conf"] <= 1, "conf out of range")
        for e in o["events"]:
            check(e["type"] in EVENT_TYPES, "unknown event %r" % e["type"])
            check(e["frame"] == o["frame"], "event frame differs from its line")
            i = e["id"]
            if e["type"] == "added":
                check(i not in table, "id %d added twice" % i)
                table[i] = e["code"]
            elif e["type"] == "removed":
                check(i in table, "id %d removed but never added" % i)
                del table[i]
            elif e["type"] == "reread":
                check(table.get(i) == e["from"], "reread of id %d from %r, table has %r" %
                      (i, e["from"], table.get(i)))
                table[i] = e["code"]
            else:
                check(i in table, "id %d moved but never added" % i)
                check(len(e["was"]) == 2, "moved without 'was'")
        now = {i: (c["code"] if c["read"] else "") for i, c in zip(o["ids"], o["cards"])}
        check(now == table, "line %d: events replay to %r, the line says %r" % (n + 1, table, now))
        read = [c["code"] if c["read"] else None for c in o["cards"]]
        for s in o["sets"]:
            check(len(s) == 3 and s[0] < s[1] < s[2] < len(read), "bad Set %r" % s)
            codes = [read[k] for k in s]
            check(None not in codes, "a Set uses an unread card")
            check(is_set(codes), "%r is not a Set" % codes)
        objs.append(o)
    return objs


def table_at(objs, frame):
    """Read codes of the stable table as of the given frame number."""
    cur = []
    for o in objs:
        if o["frame"] > frame:
            break
        cur = sorted(c["code"] for c in o["cards"] if c["read"])
    return cur


# ---- clip: JSON events match the clip's labels, and a recording --------------

def check_clip(ts, src, shared):
    photos = photos_read_right(ts, shared, 3)
    seg = 14  # frames per photo: > stable (4) + keep (8) + 1, so a change settles
    with tempfile.TemporaryDirectory(prefix="ts_run_clip_") as d:
        pattern = link_clip(d, [(p, seg) for p, _ in photos] + [(photos[0][0], seg)])
        rec = os.path.join(d, "annotated.mkv")
        p = run(ts, ["--source", pattern, "--headless", "--json", "--fast", "--quiet",
                     "--record", rec])
        check(p.returncode == 0, "run exited %d: %s" % (p.returncode, p.stderr))
        objs = check_lines(p.stdout.splitlines())
        truth = [lab for _, lab in photos] + [photos[0][1]]
        for k, want in enumerate(truth):
            got = table_at(objs, (k + 1) * seg)  # frame numbers start at 1
            check(got == want, "after photo %d the table is %r, labels say %r" % (k + 1, got, want))
        m = re.search(r"processed (\d+)", p.stderr)
        check(m and int(m.group(1)) == seg * len(truth), "not every frame was processed: " + p.stderr)
        check("dropped 0" in p.stderr, "--fast dropped frames: " + p.stderr)
        # The recording is a complete, decodable Matroska/MJPEG file.
        check(os.path.getsize(rec) > 10000, "recording is empty")
        dec = subprocess.run(["gst-launch-1.0", "-q", "filesrc", "location=" + rec, "!",
                              "matroskademux", "!", "jpegdec", "!", "fakesink"],
                             capture_output=True, text=True, timeout=BOUND_S)
        check(dec.returncode == 0, "recording does not decode: " + dec.stderr)
        # MP4 (H.264): a complete file, its index written at the end.
        mp4 = os.path.join(d, "annotated.mp4")
        p = run(ts, ["--source", pattern, "--headless", "--fast", "--quiet", "--frames", "20",
                     "--record", mp4])
        check(p.returncode == 0, "run --record .mp4 exited %d: %s" % (p.returncode, p.stderr))
        check(os.path.getsize(mp4) > 10000, "mp4 recording is empty")
        dec = subprocess.run(["gst-launch-1.0", "-q", "filesrc", "location=" + mp4, "!",
                              "qtdemux", "!", "fakesink"],
                             capture_output=True, text=True, timeout=BOUND_S)
        check(dec.returncode == 0, "mp4 recording does not demux: " + dec.stderr)
        # AVI (MJPEG): avimux wants a fixed frame rate (issue 12: it wrote 0 bytes).
        avi = os.path.join(d, "annotated.avi")
        p = run(ts, ["--source", pattern, "--headless", "--fast", "--quiet", "--frames", "20",
                     "--record", avi])
        check(p.returncode == 0, "run --record .avi exited %d: %s" % (p.returncode, p.stderr))
        data = open(avi, "rb").read()
        check(len(data) > 10000 and data[:4] == b"RIFF" and data[8:12] == b"AVI "
              and b"idx1" in data, "avi recording is empty or has no index")
        dec = subprocess.run(["gst-launch-1.0", "-q", "filesrc", "location=" + avi, "!",
                              "avidemux", "!", "jpegdec", "!", "fakesink"],
                             capture_output=True, text=True, timeout=BOUND_S)
        check(dec.returncode == 0, "avi recording does not decode: " + dec.stderr)
    print("clip: %d lines, %d photos, tables match labels; MKV, MP4 and AVI recordings" %
          (len(objs), len(truth)))


# ---- outputs: HTTP, UNIX socket, refusals, signals ----------------------------

class Daemon:
    """`tablesight run` in the background; stderr goes to a file that is
    searched, so nothing blocks on a full pipe."""

    def __init__(self, ts, args, d, env=None, stdout=subprocess.PIPE):
        self.log_path = os.path.join(d, "stderr-%d.log" % len(os.listdir(d)))
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen([ts, "run"] + args, stdout=stdout, stderr=self.log,
                                     text=True, env=env)

    def err(self):
        with open(self.log_path) as f:
            return f.read()

    def wait_log(self, pattern, start=0):
        """Waits until stderr (from offset start) matches; returns the match."""
        end = time.time() + BOUND_S
        while time.time() < end:
            m = re.search(pattern, self.err()[start:])
            if m:
                return m
            check(self.proc.poll() is None, "run ended early: " + self.err())
            time.sleep(0.1)
        fail("no %r on stderr: %s" % (pattern, self.err()))

    def stop(self):
        """SIGINT; returns (exit code, stdout, stderr)."""
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=BOUND_S)
        self.log.close()
        return self.proc.returncode, out, self.err()


def http_get(port, path):
    try:
        with urllib.request.urlopen("http://127.0.0.1:%d%s" % (port, path), timeout=BOUND_S) as r:
            return r.status, r.headers, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers, e.read()


def read_mjpeg_parts(port, parts):
    """Reads the stream until `parts` JPEG parts arrived; returns them."""
    s = socket.create_connection(("127.0.0.1", port), timeout=BOUND_S)
    s.sendall(b"GET /stream.mjpg HTTP/1.0\r\n\r\n")
    buf, got = b"", []
    while len(got) < parts:
        chunk = s.recv(65536)
        check(chunk, "stream closed early")
        buf += chunk
        while True:
            m = re.search(rb"--tablesightframe\r\nContent-Type: image/jpeg\r\nContent-Length: (\d+)\r\n\r\n",
                          buf)
            if not m or len(buf) < m.end() + int(m.group(1)):
                break
            got.append(buf[m.end():m.end() + int(m.group(1))])
            buf = buf[m.end() + int(m.group(1)):]
    check(buf.startswith(b"HTTP/1.") or got, "no HTTP header")
    s.close()
    return got


def check_outputs(ts, src, shared):
    photo, lab = photos_read_right(ts, shared, 2)[0]
    with tempfile.TemporaryDirectory(prefix="ts_run_out_") as d:
        # Refusals: nothing is written or replaced.
        p = run(ts, ["--source", photo, "--headless", "--http", "0.0.0.0:0"])
        check(p.returncode != 0 and "loopback" in p.stderr, "non-loopback HTTP was not refused")
        plain = os.path.join(d, "notes.txt")
        with open(plain, "w") as f:
            f.write("keep me\n")
        p = run(ts, ["--source", photo, "--headless", "--socket", plain])
        check(p.returncode != 0 and "not a socket" in p.stderr, "a regular file was taken as socket")
        check(open(plain).read() == "keep me\n", "the file was touched")
        p = run(ts, ["--source", photo, "--headless", "--record", os.path.join(d, "x.txt")])
        check(p.returncode != 0, "an unknown recording format was accepted")
        p = run(ts, ["--bogus"])
        check(p.returncode == 2, "unknown option is not a usage error")
        p = run(ts, ["--help"])
        for opt in ("--source", "--fast", "--loop", "--record", "--json", "--socket", "--http",
                    "--http-any", "--headless", "--watchdog", "SIGUSR1"):
            check(opt in p.stdout, "--help does not document " + opt)

        # A still photo as the source, every output on; started under umask 000
        # (the socket must still be owner-only).
        sock = os.path.join(d, "table.sock")
        old_mask = os.umask(0)
        run_ = Daemon(ts, ["--source", photo, "--fps", "10", "--headless", "--json",
                           "--socket", sock, "--http", "127.0.0.1:0"], d)
        os.umask(old_mask)
        port = int(run_.wait_log(r"HTTP on port (\d+)").group(1))
        mode = os.stat(sock).st_mode & 0o777
        check(mode == 0o600, "socket mode %o under umask 000, want 600" % mode)
        # The socket: a client connecting late first gets the current table.
        end = time.time() + BOUND_S
        line = b""
        while time.time() < end and not line.endswith(b"\n"):
            try:
                c = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                c.connect(sock)
                c.settimeout(2)
                line = b""
                while not line.endswith(b"\n"):
                    chunk = c.recv(65536)
                    if not chunk:
                        break
                    line += chunk
            except (OSError, socket.timeout):
                time.sleep(0.2)
            finally:
                c.close()
        o = json.loads(line.decode())
        check(sorted(x["code"] for x in o["cards"] if x["read"]) == lab, "socket table differs")
        # A client that never reads must not stall anything.
        lazy = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        lazy.connect(sock)
        # HTTP: one frame, the stream, a 404, a 405, an oversized request.
        status, headers, body = http_get(port, "/frame.jpg")
        check(status == 200 and body[:2] == b"\xff\xd8", "GET /frame.jpg gave no JPEG")
        parts = read_mjpeg_parts(port, 3)
        check(all(p[:2] == b"\xff\xd8" and p[-2:] == b"\xff\xd9" for p in parts), "bad MJPEG part")
        status, _, _ = http_get(port, "/etc/passwd")
        check(status == 404, "unknown path gave %d" % status)
        req = urllib.request.Request("http://127.0.0.1:%d/" % port, data=b"x", method="POST")
        try:
            urllib.request.urlopen(req, timeout=BOUND_S)
            fail("POST was answered")
        except urllib.error.HTTPError as e:
            check(e.code == 405, "POST gave %d" % e.code)
        for size in (5000, 100000):  # a long path; a request past the memory limit
            big = socket.create_connection(("127.0.0.1", port), timeout=BOUND_S)
            try:
                big.sendall(b"GET /" + b"a" * size + b" HTTP/1.0\r\n\r\n")
            except OSError:
                pass  # the server may close before reading it all
            try:
                answer = big.recv(4096)
            except OSError:
                answer = b""
            check(answer == b"" or re.match(rb"HTTP/1\.\d 4(14|31|13)", answer),
                  "an oversized request was answered: %r" % answer[:40])
            big.close()
        # The page at / shows the stream (a phone's browser is the user).
        status, headers, body = http_get(port, "/")
        check(status == 200 and "text/html" in headers.get("Content-Type", "")
              and b'src="/stream.mjpg"' in body, "GET / is not a page showing the stream")
        # Idle connections cannot hold the server: more than the limit are
        # refused, the idle ones are closed, and a viewer gets in again.
        idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(12)]
        end = time.time() + BOUND_S
        served = False
        while time.time() < end and not served:
            try:
                status, _, body = http_get(port, "/frame.jpg")
                served = status == 200 and body[:2] == b"\xff\xd8"
            except (OSError, urllib.error.URLError):
                time.sleep(0.5)
        check(served, "idle connections kept a viewer out")
        closed = 0
        for c in idle:
            c.settimeout(BOUND_S)
            try:
                closed += c.recv(1) == b""
            except OSError:
                closed += 1
            c.close()
        check(closed == len(idle), "idle connections were not closed (%d of %d)" % (closed, len(idle)))
        # SIGUSR1 prints statistics and the run goes on.
        run_.proc.send_signal(signal.SIGUSR1)
        run_.wait_log(r"stats: .* processed \d+")
        time.sleep(0.5)
        check(run_.proc.poll() is None, "SIGUSR1 ended the run")
        code, out, err = run_.stop()
        lazy.close()
        check(code == 0, "SIGINT did not stop cleanly (%d): %s" % (code, err))
        check(not os.path.exists(sock), "the socket was not removed")
        check(out.endswith("\n") and out.strip(), "JSON lines on stdout are missing or cut")
        check_lines(out.splitlines())
        check("stats:" in err and "p95" in err, "no statistics on exit")
    print("outputs: http, socket, refusals and signals ok")
    check_small_video_outputs(ts, src)


def jpeg_size(data):
    """(width, height) from a JPEG's frame header."""
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker, seg = data[i + 1], int.from_bytes(data[i + 2:i + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
        i += 2 + seg
    return None


def check_small_video_outputs(ts, src):
    """The bundled 640x360 clip: the HTTP stream and the recording come at
    1280x720 (the video scaled up, the overlay drawn at that size), so their
    text is not the 7 px of the video's own size."""
    clip = os.path.join(src, "samples", "clip", "frame_%04d.jpg")
    with tempfile.TemporaryDirectory(prefix="ts_run_small_") as d:
        rec = os.path.join(d, "small.mkv")
        run_ = Daemon(ts, ["--source", clip, "--fps", "10", "--loop", "--headless",
                           "--http", "127.0.0.1:0", "--record", rec], d)
        port = int(run_.wait_log(r"HTTP on port (\d+)").group(1))
        status, _, body = http_get(port, "/frame.jpg")
        check(status == 200 and jpeg_size(body) == (1280, 720),
              "a 640x360 source's HTTP frame is %r, want (1280, 720)" % (jpeg_size(body),))
        code, _, err = run_.stop()
        check(code == 0, "run with a recording did not stop cleanly (%d): %s" % (code, err))
        probe = subprocess.run(["gst-launch-1.0", "-v", "filesrc", "location=" + rec, "!",
                                "matroskademux", "!", "jpegdec", "!", "fakesink"],
                               capture_output=True, text=True, timeout=BOUND_S)
        check("width=(int)1280, height=(int)720" in probe.stdout,
              "the recording of a 640x360 source is not 1280x720")
    print("outputs: a 640x360 source is streamed and recorded at 1280x720")


# ---- window: the overlay on an X screen (Xvfb) -------------------------------

def start_xvfb():
    """Xvfb on a free display number; returns (proc, ':N')."""
    r, w = os.pipe()
    x = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1920x1200x24",
                          "-nolisten", "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    os.close(w)
    num = b""
    end = time.time() + BOUND_S
    while not num.endswith(b"\n") and time.time() < end:
        ready, _, _ = select.select([r], [], [], 1.0)
        if ready:
            chunk = os.read(r, 16)
            if not chunk:
                break
            num += chunk
    os.close(r)
    check(num.strip().isdigit(), "Xvfb did not start")
    return x, ":" + num.decode().strip()


def screenshot(display):
    """The root window as (width, height, pixel(x, y) -> (r, g, b)), from xwd."""
    data = subprocess.run(["xwd", "-root", "-silent", "-display", display], capture_output=True,
                          check=True, timeout=BOUND_S).stdout
    h = struct.unpack(">25I", data[:100])
    header, fmt, depth, w, ht = h[0], h[2], h[3], h[4], h[5]
    bpp, bpl, ncolors = h[11], h[12], h[19]
    check(fmt == 2 and bpp == 32 and depth == 24, "unexpected xwd format")
    byte_order = h[7]  # 0 = LSB first
    off = header + ncolors * 12
    pix = data[off:]

    def px(x, y):
        i = y * bpl + x * 4
        b0, b1, b2, b3 = pix[i:i + 4]
        return (b2, b1, b0) if byte_order == 0 else (b1, b2, b3)
    return w, ht, px


def window_origin(display):
    """Top-left of the tablesight window on the root (0, 0 without xwininfo)."""
    try:
        out = subprocess.run(["xwininfo", "-display", display, "-name", "tablesight"],
                             capture_output=True, text=True, timeout=BOUND_S).stdout
        x = int(re.search(r"Absolute upper-left X:\s+(-?\d+)", out).group(1))
        y = int(re.search(r"Absolute upper-left Y:\s+(-?\d+)", out).group(1))
        return x, y
    except (OSError, AttributeError):
        return 0, 0


def near(c, want, tol=45):
    return all(abs(a - b) <= tol for a, b in zip(c, want))


def check_window(ts, src, shared):
    photo, lab = photos_read_right(ts, shared, 2)[0]
    xvfb, display = start_xvfb()
    env = dict(os.environ, DISPLAY=display)
    try:
        with tempfile.TemporaryDirectory(prefix="ts_run_win_") as d:
            pattern = link_clip(d, [(photo, 3)])
            live = Daemon(ts, ["--source", pattern, "--loop", "--fps", "10", "--json"], d, env)
            # Wait for the stable table, then for a few more frames on screen.
            o = None
            end = time.time() + BOUND_S
            while time.time() < end:
                line = live.proc.stdout.readline()
                check(line, "run ended: " + live.err())
                o = json.loads(line)
                if sorted(c["code"] for c in o["cards"] if c["read"]) == lab:
                    break
            time.sleep(2)
            ox, oy = window_origin(display)
            w, h, px = screenshot(display)
            code, _, err = live.stop()
            check(code == 0, "run did not stop cleanly: " + err)
            # Each card's outline is white (with a dark edge) around its quad.
            for c in o["cards"]:
                q = c["quad"]
                hits = 0
                for a, b in ((0, 1), (1, 2), (2, 3), (3, 0)):
                    mx = ox + round((q[a][0] + q[b][0]) / 2)
                    my = oy + round((q[a][1] + q[b][1]) / 2)
                    hits += any(near(px(mx + dx, my + dy), (255, 255, 255), 30)
                                for dx in range(-3, 4) for dy in range(-3, 4)
                                if 0 <= mx + dx < w and 0 <= my + dy < h)
                check(hits >= 3, "card %s is not outlined on screen" % c["code"])
            # Set marks (numbered badges, rings for one or two) in their
            # colours (overlay.c's palette, R,G,B), if the table has a Set.
            palette = [(230, 159, 0), (86, 180, 233), (0, 158, 115), (240, 228, 66), (0, 114, 178)]
            ring = 0
            for y in range(oy, min(h, oy + o["h"]), 2):
                for x in range(ox, min(w, ox + o["w"]), 2):
                    ring += any(near(px(x, y), c, 20) for c in palette[:max(1, len(o["sets"]))])
            if o["sets"]:
                check(ring > 200, "no Set outlines on screen (%d pixels)" % ring)
            # The status band across the top is dark with light text.
            band = [px(x, oy + 3) for x in range(ox, ox + 400)]
            check(sum(1 for c in band if max(c) < 60) > 100, "no status band")
            text = [px(x, oy + y) for y in range(3, 24) for x in range(ox, ox + 400)]
            check(any(min(c) > 180 for c in text), "no status text")

            # A live source that sends nothing: the window stays up, marked
            # stale. (A camera that was never there fails at once instead:
            # window_keys.sh.)
            gone = Daemon(ts, ["--source", "videotestsrc is-live=true ! identity drop-probability=1.0",
                               "--watchdog", "1", "--quiet"], d, env)
            gone.wait_log(r"capture: .*retrying")
            time.sleep(2)
            ox, oy = window_origin(display)
            w, h, px = screenshot(display)
            code, _, err = gone.stop()
            check(code == 0, "stale run did not stop cleanly: " + err)
            red = sum(1 for y in range(oy + 40, oy + 600, 5) if near(px(ox + 2, y), (230, 40, 40)))
            check(red > 50, "no stale marker (red border) on screen")
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=BOUND_S)
    print("window: overlay and stale marker seen on the Xvfb screen")


# ---- soak: thousands of frames, every output on, RSS flat ------------------

def rss_kb(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1))


def check_soak(ts, src, shared, frames=3000):
    """A paced clip at 50 fps, looping: every frame goes through capture, the
    overlay and the HTTP encoder; vision takes what it can (newest wins)."""
    photos = photos_read_right(ts, shared, 2)
    with tempfile.TemporaryDirectory(prefix="ts_run_soak_") as d:
        pattern = scaled_clip(d, [(photos[0][0], 50), (photos[1][0], 50)], 640, 360)
        sock = os.path.join(d, "s.sock")
        lines_path = os.path.join(d, "lines.jsonl")
        with open(lines_path, "w") as out:
            soak = Daemon(ts, ["--source", pattern, "--loop", "--fps", "50", "--headless", "--json",
                               "--socket", sock, "--http", "127.0.0.1:0", "--stable", "2",
                               "--keep", "2"], d, stdout=out)
            port = int(soak.wait_log(r"HTTP on port (\d+)").group(1))
            soak.wait_log(r"-> http json socket")
            good = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # reads everything
            good.connect(sock)
            good.setblocking(False)
            lazy = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # never reads
            lazy.connect(sock)
            viewer = socket.create_connection(("127.0.0.1", port))  # watches the whole run
            viewer.sendall(b"GET /stream.mjpg HTTP/1.0\r\n\r\n")
            viewer.setblocking(False)
            stuck = socket.create_connection(("127.0.0.1", port))  # reads a little, then stops
            stuck.sendall(b"GET /stream.mjpg HTTP/1.0\r\n\r\n")
            stuck.recv(1000)
            samples, captured, streamed = [], 0, 0  # (frames captured, rss kB)
            end = time.time() + 3 * BOUND_S
            while captured < frames and time.time() < end:
                for s in (good, viewer):
                    try:
                        while True:
                            chunk = s.recv(1 << 16)
                            if not chunk:
                                break
                            streamed += len(chunk) if s is viewer else 0
                    except BlockingIOError:
                        pass
                rss = rss_kb(soak.proc.pid)
                mark = len(soak.err())
                soak.proc.send_signal(signal.SIGUSR1)
                captured = int(soak.wait_log(r"frames captured (\d+)", mark).group(1))
                samples.append((captured, rss))
                time.sleep(0.5)
            code, _, err = soak.stop()
            for s in (good, lazy, viewer, stuck):
                s.close()
        check(code == 0, "soak run exited %d: %s" % (code, err))
        # RSS once warmed up (after a third of the frames): its median over the
        # middle third against the last third (a leak is a trend), and no spike.
        warm = [(n, r) for n, r in samples if n >= frames // 3]
        check(len(warm) >= 6, "too few RSS samples: %r" % samples)
        mid = sorted(r for n, r in warm[:len(warm) // 2])
        last = sorted(r for n, r in warm[len(warm) // 2:])
        trend = last[len(last) // 2] - mid[len(mid) // 2]
        spike = max(last) - mid[0]
        processed = int(re.findall(r"processed (\d+)", err)[-1])
        print("soak: %d frames captured, %d processed, %.0f MB streamed over HTTP; RSS median "
              "%d kB, then %d kB (%+d kB), max %d kB; %d samples" %
              (captured, processed, streamed / 1e6, mid[len(mid) // 2], last[len(last) // 2],
               trend, max(last), len(samples)))
        check(trend < 4096, "RSS grows: median %+d kB over the run" % trend)
        check(spike < 16384, "RSS jumped by %d kB" % spike)
        check(streamed > 1e6, "the HTTP viewer got almost nothing")
        with open(lines_path) as f:
            objs = check_lines(f.read().splitlines())
        check(len(objs) >= 10, "too few table changes in the soak (%d)" % len(objs))


# ---- faults: sources that fail, outputs that fail, signals ------------------

def check_faults(ts, src, shared):
    import resource
    photos = photos_read_right(ts, shared, 2)
    with tempfile.TemporaryDirectory(prefix="ts_run_faults_") as d:
        # A camera unplugged and plugged back in, again and again: the source
        # errors after 20 frames each time it is opened. The run goes on.
        cam = ("videotestsrc is-live=true ! video/x-raw,width=640,height=360,framerate=30/1 ! "
               "identity error-after=20")
        p = run(ts, ["--source", cam, "--headless", "--json", "--frames", "50"])
        check(p.returncode == 0, "unplugged camera: exit %d: %s" % (p.returncode, p.stderr))
        check("retrying" in p.stderr and "frames again after" in p.stderr,
              "unplug/replug not reported: " + p.stderr)
        check(re.search(r"processed 50\b", p.stderr), "not every frame processed: " + p.stderr)
        print("faults: camera unplugged and replugged: went stale, came back, 50 frames")

        # A source that stalls (sends nothing): watchdog, retried; the daemon
        # stays up, serves the last frame marked stale, stops cleanly.
        stall = ("videotestsrc is-live=true ! video/x-raw,width=320,height=240,framerate=30/1 ! "
                 "identity drop-probability=1.0")
        dm = Daemon(ts, ["--source", stall, "--headless", "--watchdog", "0.5",
                         "--http", "127.0.0.1:0"], d)
        port = int(dm.wait_log(r"HTTP on port (\d+)").group(1))
        dm.wait_log(r"no frame for [\d.]+ s; retrying")
        status, _, body = http_get(port, "/frame.jpg")
        check(status == 200 and body[:2] == b"\xff\xd8", "a stalled source left HTTP without a frame")
        dm.proc.send_signal(signal.SIGTERM)
        code = dm.proc.wait(timeout=BOUND_S)
        check(code == 0, "SIGTERM during a stall: exit %d: %s" % (code, dm.err()))
        print("faults: stalled source: watchdog, retries, stale frame served, clean SIGTERM")

        # The disk fills while recording (a 400 kB file-size limit): the
        # recording stops with a message, the hints (JSON lines) go on.
        seg = 14
        pattern = link_clip(d, [(p_, seg) for p_, _ in photos] * 3)
        rec = os.path.join(d, "full.mkv")
        limit = 400 * 1024

        def small_disk():
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        p = subprocess.run([ts, "run", "--source", pattern, "--headless", "--fast", "--json",
                            "--record", rec], capture_output=True, text=True, timeout=BOUND_S,
                           preexec_fn=small_disk)
        check(p.returncode == 1, "disk full: exit %d (want 1, an output failed): %s" %
              (p.returncode, p.stderr))
        check(re.search(r"tablesight run: record: .*", p.stderr), "no message when the disk filled: "
              + p.stderr)
        frames = seg * 2 * 3
        check(re.search(r"processed %d\b" % frames, p.stderr), "processing stopped with the "
              "recording: " + p.stderr)
        objs = check_lines(p.stdout.splitlines())
        last = max(o["frame"] for o in objs)
        check(last > frames // 2, "no hints after the recording failed (last line frame %d)" % last)
        check(os.path.getsize(rec) <= limit, "the recording passed the limit")
        print("faults: disk full while recording: recording stopped with a message, hints went on "
              "to frame %d" % last)

        # SIGPIPE: the reader of stdout goes away. An error line, exit 1, not death.
        pr = subprocess.Popen([ts, "run", "--source", pattern, "--headless", "--fast", "--json",
                               "--loop", "--frames", "150"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
        pr.stdout.readline()
        pr.stdout.close()
        _, err = pr.communicate(timeout=BOUND_S)
        check(pr.returncode == 1, "closed stdout: exit %d (signal if < 0): %s" % (pr.returncode, err))
        check("cannot write JSON lines" in err, "closed stdout not reported: " + err)
        print("faults: stdout closed (SIGPIPE ignored): one line, exit 1")

        # SIGTERM mid-write: every output already written stays valid.
        rec = os.path.join(d, "term.mkv")
        lines = os.path.join(d, "term.jsonl")
        with open(lines, "w") as out:
            dm = Daemon(ts, ["--source", pattern, "--headless", "--fast", "--loop", "--json",
                             "--record", rec, "--stable", "2", "--keep", "2"], d, stdout=out)
            end = time.time() + BOUND_S
            while time.time() < end and os.path.getsize(lines) < 3000:
                time.sleep(0.2)
            dm.proc.send_signal(signal.SIGTERM)
            code = dm.proc.wait(timeout=BOUND_S)
        check(code == 0, "SIGTERM: exit %d: %s" % (code, dm.err()))
        text = open(lines).read()
        check(text.endswith("\n"), "JSON lines cut by SIGTERM")
        check_lines(text.splitlines())
        dec = subprocess.run(["gst-launch-1.0", "-q", "filesrc", "location=" + rec, "!",
                              "matroskademux", "!", "jpegdec", "!", "fakesink"],
                             capture_output=True, text=True, timeout=BOUND_S)
        check(os.path.getsize(rec) > 10000 and dec.returncode == 0,
              "recording cut by SIGTERM does not decode: " + dec.stderr)
        print("faults: SIGTERM mid-write: %d JSON lines whole, recording finished" %
              len(text.splitlines()))


def fd_count(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def thread_count(pid):
    with open("/proc/%d/status" % pid) as f:
        return int(re.search(r"Threads:\s+(\d+)", f.read()).group(1))


def check_longsoak(ts, src, shared):
    """The long run (make soak; not part of make test): a 1280x720 clip looping
    at SOAK_FPS (60) until SOAK_FRAMES (50000) frames were captured, with every
    output on and misbehaving clients: an HTTP viewer reading the whole run, one
    that stops reading, a socket client reading everything, one never reading,
    and a new HTTP snapshot every sample. Every SOAK_EVERY s (10) it samples
    RSS, open file descriptors, threads and the latency the daemon reports
    (SIGUSR1: its window is the last 4096 frames). Fails if memory or
    descriptors grow; latency is reported, not asserted (the host is shared)."""
    frames = int(os.environ.get("SOAK_FRAMES", "50000"))
    fps = int(os.environ.get("SOAK_FPS", "60"))
    every = float(os.environ.get("SOAK_EVERY", "10"))
    # SOAK_SOURCE=still: one 720p photo shown as a still camera (no decode per
    # frame), for a loaded host; default: a clip of two photos, the table changes.
    out_csv = os.environ.get("SOAK_CSV")
    photos = photos_read_right(ts, shared, 2)
    with tempfile.TemporaryDirectory(prefix="ts_longsoak_") as d:
        pattern = scaled_clip(d, [(photos[0][0], 60), (photos[1][0], 60)], 1280, 720)
        if os.environ.get("SOAK_SOURCE") == "still":  # one photo, decoded once: cheaper per frame
            pattern = os.path.join(d, "src_0.jpg")
        sock = os.path.join(d, "s.sock")
        with open(os.path.join(d, "lines.jsonl"), "w") as out:
            soak = Daemon(ts, ["--source", pattern, "--loop", "--fps", str(fps), "--headless",
                               "--json", "--socket", sock, "--http", "127.0.0.1:0",
                               "--stable", "2", "--keep", "2"], d, stdout=out)
            port = int(soak.wait_log(r"HTTP on port (\d+)").group(1))
            soak.wait_log(r"-> http json socket")
            good = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            good.connect(sock)
            good.setblocking(False)
            lazy = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            lazy.connect(sock)
            viewer = socket.create_connection(("127.0.0.1", port))
            viewer.sendall(b"GET /stream.mjpg HTTP/1.1\r\nHost: x\r\n\r\n")
            viewer.setblocking(False)
            stuck = socket.create_connection(("127.0.0.1", port))
            stuck.sendall(b"GET /stream.mjpg HTTP/1.0\r\n\r\n")
            stuck.recv(1000)
            rows, captured, snaps = [], 0, 0
            streamed = [0, 0]  # bytes read by the HTTP viewer, by the socket client
            done = []

            def read_all():  # the well-behaved clients read all the time
                import selectors
                sel = selectors.DefaultSelector()
                for k, s_ in enumerate((viewer, good)):
                    sel.register(s_, selectors.EVENT_READ, k)
                while not done:
                    for key, _ in sel.select(0.2):
                        try:
                            chunk = key.fileobj.recv(1 << 16)
                        except BlockingIOError:
                            continue
                        if chunk:
                            streamed[key.data] += len(chunk)
                        else:
                            sel.unregister(key.fileobj)
            import threading
            reader = threading.Thread(target=read_all, daemon=True)
            reader.start()
            t0 = time.time()
            while captured < frames:
                try:
                    status, _, body = http_get(port, "/frame.jpg")
                    snaps += status == 200 and body[:2] == b"\xff\xd8"
                except OSError:
                    pass
                mark = len(soak.err())
                soak.proc.send_signal(signal.SIGUSR1)
                soak.wait_log(r"stats: [^\n]*\n", mark)
                time.sleep(0.5)  # the rest of the report
                block = soak.err()[mark:]
                m = re.search(r"frames captured (\d+).*processed (\d+)", block)
                lat = re.search(r"capture->result\) p50 +([\d.]+) +p95 +([\d.]+)", block)
                proc = re.search(r" process ([\d.]+)", block)
                captured = int(m.group(1))
                row = (round(time.time() - t0, 1), captured, int(m.group(2)),
                       rss_kb(soak.proc.pid), fd_count(soak.proc.pid),
                       thread_count(soak.proc.pid), float(lat.group(1)) if lat else 0.0,
                       float(lat.group(2)) if lat else 0.0,
                       float(proc.group(1)) if proc else 0.0)
                rows.append(row)
                print("soak: t %7.1f s captured %6d processed %6d rss %6d kB fds %3d threads "
                      "%3d latency p50 %6.1f p95 %6.1f ms process median %5.1f ms" % row,
                      flush=True)
                time.sleep(max(0.0, every - 0.5))
            done.append(1)
            reader.join()
            check(streamed[1] > 0, "the reading socket client got nothing")
            check(soak.err().count("dropped a client that is not reading") <= 1,
                  "a reading socket client was dropped: " + soak.err()[-2000:])
            code, _, err = soak.stop()
            for s_ in (good, lazy, viewer, stuck):
                s_.close()
    check(code == 0, "soak run exited %d: %s" % (code, err[-2000:]))
    if out_csv:
        with open(out_csv, "w") as f:
            f.write("t_s,captured,processed,rss_kb,fds,threads,latency_p50_ms,latency_p95_ms,"
                    "process_median_ms\n")
            for r in rows:
                f.write(",".join(str(x) for x in r) + "\n")
    warm = [r for r in rows if r[1] >= frames // 5]
    check(len(warm) >= 4, "too few samples: %r" % rows)
    half = len(warm) // 2
    first, last = sorted(r[3] for r in warm[:half]), sorted(r[3] for r in warm[half:])
    trend = last[len(last) // 2] - first[len(first) // 2]
    fds = [r[4] for r in warm]
    print("longsoak: %d frames captured, %d processed in %.0f s; RSS %d -> %d kB (%+d kB), "
          "fds %d..%d, threads %d..%d; latency p95 first %.1f ms, last %.1f ms; process median "
          "first %.1f ms, last %.1f ms; %.0f MB streamed, %d snapshots" %
          (rows[-1][1], rows[-1][2], rows[-1][0], first[len(first) // 2], last[len(last) // 2],
           trend, min(fds), max(fds), min(r[5] for r in warm), max(r[5] for r in warm),
           warm[0][7], warm[-1][7], warm[0][8], warm[-1][8], streamed[0] / 1e6, snaps))
    check(trend < 8192, "RSS grows: %+d kB over the run" % trend)
    check(max(fds) - min(fds) <= 4, "file descriptors grow: %d..%d" % (min(fds), max(fds)))


CHECKS = {"faults": check_faults, "longsoak": check_longsoak, "clip": check_clip, "outputs": check_outputs, "window": check_window, "soak": check_soak}

if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in CHECKS:
        fail("usage: run_check.py {%s} TABLESIGHT SOURCE_DIR SHARED_DIR" % ",".join(CHECKS))
    CHECKS[sys.argv[1]](*sys.argv[2:])
