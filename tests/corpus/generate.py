#!/usr/bin/python3
"""Writes the real-world decoding corpus: small images that are odd but valid
(as phones, scanners, editors and print workflows write them), plus a few
broken ones that must be refused, and expected.tsv describing what each must
decode to.

    /usr/bin/python3 tests/corpus/generate.py [OUT_DIR]     (default: beside this file)

Needs Debian's python3-pil, python3-numpy, python3-opencv, libjpeg-turbo-progs
(cjpeg, jpegtran) and imagemagick (convert). The output is committed; rerun
this only to change the corpus. Deterministic: the same files every time.

Every image shows the same upright picture, 96 x 64: four quadrants, red top
left, green top right, blue bottom left, white bottom right ("quad"). Grey
images show four grey levels instead ("grey"). The test (tests/vision/
test_corpus.c) decodes each file and checks the quadrants, so a wrong EXIF
rotation, a channel swap or a CMYK inversion shows.

expected.tsv: file <TAB> ok|refuse <TAB> width <TAB> height <TAB> picture or, for refusals,
the words the one-line reason must contain.
"""
import io
import os
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np
from PIL import Image

W, H = 96, 64
OUT = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
CONVERT = os.environ.get("CONVERT", "convert")
rows = []


def upright_rgb():
    a = np.zeros((H, W, 3), np.uint8)
    a[: H // 2, : W // 2] = (255, 0, 0)  # red, top left
    a[: H // 2, W // 2:] = (0, 255, 0)  # green, top right
    a[H // 2:, : W // 2] = (0, 0, 255)  # blue, bottom left
    a[H // 2:, W // 2:] = (255, 255, 255)  # white, bottom right
    return Image.fromarray(a, "RGB")


def upright_grey():
    a = np.zeros((H, W), np.uint8)
    a[: H // 2, W // 2:] = 85
    a[H // 2:, : W // 2] = 170
    a[H // 2:, W // 2:] = 255
    return Image.fromarray(a, "L")


def path(name):
    return os.path.join(OUT, name)


def ok(name, picture="quad", w=W, h=H):
    rows.append((name, "ok", w, h, picture))


def refuse(name, reason):
    rows.append((name, "refuse", 0, 0, reason))


def jpeg_bytes(img, **kw):
    b = io.BytesIO()
    img.save(b, "JPEG", quality=kw.pop("quality", 92), **kw)
    return b.getvalue()


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)


def run(cmd, stdin=None):
    return subprocess.run(cmd, input=stdin, capture_output=True, check=True).stdout


def ppm(img):
    b = io.BytesIO()
    img.save(b, "PPM")
    return b.getvalue()


def segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def after_soi(jpeg, *segments):
    assert jpeg[:2] == b"\xff\xd8"
    return jpeg[:2] + b"".join(segments) + jpeg[2:]


def tiff_orientation(o, big_endian=False, pad=0):
    """A TIFF block whose IFD0 holds Orientation = o, then `pad` bytes of a
    MakerNote-like blob (a huge EXIF block)."""
    e = ">" if big_endian else "<"
    head = (b"MM" if big_endian else b"II") + struct.pack(e + "HI", 42, 8)
    entries = [struct.pack(e + "HHIHH", 0x0112, 3, 1, o, 0)]
    if pad:
        # Tag 0x927C (MakerNote, UNDEFINED) pointing after the IFD.
        entries.append(struct.pack(e + "HHII", 0x927C, 7, pad, 8 + 2 + 12 * 2 + 4))
    ifd = struct.pack(e + "H", len(entries)) + b"".join(entries) + struct.pack(e + "I", 0)
    blob = bytes((i * 37 + 11) & 0xFF for i in range(pad))
    return head + ifd + blob


def exif_app1(o, **kw):
    return segment(0xE1, b"Exif\0\0" + tiff_orientation(o, **kw))


# Inverse of the EXIF orientations: stored = upright.transpose(INV[o]).
INV = {2: Image.FLIP_LEFT_RIGHT, 3: Image.ROTATE_180, 4: Image.FLIP_TOP_BOTTOM,
       5: Image.TRANSPOSE, 6: Image.ROTATE_90, 7: Image.TRANSVERSE, 8: Image.ROTATE_270}


def main():
    os.makedirs(OUT, exist_ok=True)
    up = upright_rgb()
    base = jpeg_bytes(up, subsampling=0)

    # ---- JPEG flavours ---------------------------------------------------
    write("baseline_444.jpg", base)
    ok("baseline_444.jpg")
    write("baseline_420.jpg", jpeg_bytes(up, subsampling=2))
    ok("baseline_420.jpg")
    write("baseline_422.jpg", jpeg_bytes(up, subsampling=1))
    ok("baseline_422.jpg")
    write("progressive.jpg", jpeg_bytes(up, progressive=True, subsampling=2))
    ok("progressive.jpg")
    src = ppm(up)
    write("sampling_411.jpg", run(["cjpeg", "-quality", "92", "-sample", "4x1,1x1,1x1"], src))
    ok("sampling_411.jpg")
    write("sampling_440.jpg", run(["cjpeg", "-quality", "92", "-sample", "1x2,1x1,1x1"], src))
    ok("sampling_440.jpg")
    write("restart_every_row.jpg", run(["cjpeg", "-quality", "92", "-restart", "1"], src))
    ok("restart_every_row.jpg")
    write("restart_every_block.jpg", run(["cjpeg", "-quality", "92", "-restart", "1B"], src))
    ok("restart_every_block.jpg")
    write("arithmetic.jpg", run(["cjpeg", "-quality", "92", "-arithmetic"], src))
    ok("arithmetic.jpg")
    write("optimized_huffman.jpg", run(["cjpeg", "-quality", "92", "-optimize"], src))
    ok("optimized_huffman.jpg")
    write("progressive_restart.jpg",
          run(["cjpeg", "-quality", "92", "-progressive", "-restart", "2"], src))
    ok("progressive_restart.jpg")
    write("odd_size_37x23.jpg", jpeg_bytes(up.resize((37, 23), Image.NEAREST), subsampling=2))
    ok("odd_size_37x23.jpg", w=37, h=23)
    write("grey.jpg", jpeg_bytes(upright_grey()))
    ok("grey.jpg", "grey")
    with tempfile.TemporaryDirectory() as d:
        png = os.path.join(d, "u.png")
        up.save(png)
        cmyk = os.path.join(d, "cmyk.jpg")
        subprocess.run([CONVERT, png, "-colorspace", "CMYK", "-quality", "92", cmyk], check=True)
        write("cmyk_adobe.jpg", open(cmyk, "rb").read())
        ok("cmyk_adobe.jpg")
    # A JPEG named .png, a PNG named .jpg: decoded by content.
    write("jpeg_named.png", base)
    ok("jpeg_named.png")

    # ---- EXIF orientation 1..8 -------------------------------------------
    for o in range(1, 9):
        stored = up if o == 1 else up.transpose(INV[o])
        data = after_soi(jpeg_bytes(stored, subsampling=0), exif_app1(o, big_endian=o % 2 == 0))
        write("exif_orientation_%d.jpg" % o, data)
        ok("exif_orientation_%d.jpg" % o)
    # Orientation in a huge EXIF block (64 KB, the most one segment holds),
    # behind other large application segments (ICC-like APP2, APP13).
    stored = up.transpose(INV[6])
    big = after_soi(jpeg_bytes(stored, subsampling=0),
                    segment(0xE0, b"JFIF\0\x01\x02\0\0\x01\0\x01\0\0"),
                    segment(0xE2, b"ICC_PROFILE\0\x01\x01" + bytes(16000)),
                    exif_app1(6, pad=65533 - 2 - 6 - 46),
                    segment(0xED, b"Photoshop 3.0\0" + bytes(8000)))
    write("exif_huge_block.jpg", big)
    ok("exif_huge_block.jpg")
    # EXIF whose IFD offset points outside the block: orientation 1, still decodes.
    bad_exif = segment(0xE1, b"Exif\0\0II*\0" + struct.pack("<I", 0x7FFFFFF0) + bytes(8))
    write("exif_bad_offset.jpg", after_soi(base, bad_exif))
    ok("exif_bad_offset.jpg")
    # A COM marker and an XMP APP1 before the EXIF one.
    xmp = segment(0xE1, b"http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>")
    write("exif_after_xmp.jpg", after_soi(jpeg_bytes(up.transpose(INV[3]), subsampling=0),
                                          segment(0xFE, b"a comment"), xmp, exif_app1(3)))
    ok("exif_after_xmp.jpg")

    # ---- Bytes after the end-of-image marker (phones, editors, junk) -------
    samsung = b"\0" * 4 + b"SEFH" + bytes(range(256)) * 8 + struct.pack("<I", 2048) + b"SEFT"
    write("trailer_samsung.jpg", base + samsung)
    ok("trailer_samsung.jpg")
    write("trailer_second_jpeg.jpg", base + jpeg_bytes(up.resize((24, 16))))  # MPF-like
    ok("trailer_second_jpeg.jpg")
    write("trailer_junk.jpg", base + bytes((i * 131 + 7) & 0xFF for i in range(20000)))
    ok("trailer_junk.jpg")
    write("trailer_zeros.jpg", base + bytes(4096))
    ok("trailer_zeros.jpg")
    write("trailer_text.jpg", base + b"\r\nsome tool wrote this after the image\r\n")
    ok("trailer_text.jpg")

    # ---- PNG flavours ------------------------------------------------------
    up.save(path("rgb8.png"))
    ok("rgb8.png")
    bgr = np.array(up)[:, :, ::-1].astype(np.uint16) * 257
    import cv2
    cv2.imwrite(path("rgb16.png"), bgr)
    ok("rgb16.png")
    up.convert("P", palette=Image.ADAPTIVE, colors=4).save(path("palette.png"))
    ok("palette.png")
    up.convert("P", palette=Image.ADAPTIVE, colors=4).save(path("palette_4bit.png"), bits=2)
    ok("palette_4bit.png")
    rgba = up.convert("RGBA")
    rgba.save(path("rgba.png"))
    ok("rgba.png")
    g = upright_grey()
    g.save(path("grey8.png"))
    ok("grey8.png", "grey")
    cv2.imwrite(path("grey16.png"), np.array(g).astype(np.uint16) * 257)
    ok("grey16.png", "grey")
    ga = Image.merge("LA", (g, Image.new("L", g.size, 255)))
    ga.save(path("grey_alpha.png"))
    ok("grey_alpha.png", "grey")
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "u.png")
        up.save(p)
        subprocess.run([CONVERT, p, "-interlace", "PNG", "PNG24:" + path("interlaced.png")],
                       check=True)
        ok("interlaced.png")
    # Alpha: a transparent pixel is shown on white, as a viewer would.
    png_named = io.BytesIO()
    up.save(png_named, "PNG")
    write("png_named.jpg", png_named.getvalue())
    ok("png_named.jpg")
    # A PNG with bytes after IEND.
    write("png_trailer.png", png_named.getvalue() + b"trailing bytes")
    ok("png_trailer.png")

    # ---- Refusals: each names the reason ------------------------------------
    write("truncated_half.jpg", base[: len(base) // 2])
    refuse("truncated_half.jpg", "truncated")
    prog = open(path("progressive.jpg"), "rb").read()
    write("truncated_progressive.jpg", prog[: len(prog) * 2 // 3])
    refuse("truncated_progressive.jpg", "truncated")
    write("truncated_header.jpg", base[:300])
    refuse("truncated_header.jpg", "truncated")
    pngb = png_named.getvalue()
    write("truncated.png", pngb[: len(pngb) // 2])
    refuse("truncated.png", "PNG")
    write("empty.jpg", b"")
    refuse("empty.jpg", "empty")
    write("text_named.jpg", b"this is not an image\n")
    refuse("text_named.jpg", "not a JPEG or PNG")
    write("gif_named.png", b"GIF89a" + bytes(64))
    refuse("gif_named.png", "GIF")
    # A header claiming 60000 x 60000: refused before any pixel is decoded.
    huge = bytearray(base)
    sof = huge.find(b"\xff\xc0")
    huge[sof + 5:sof + 9] = struct.pack(">HH", 60000, 60000)
    write("huge_dimensions.jpg", bytes(huge))
    refuse("huge_dimensions.jpg", "pixels")
    ihdr = bytearray(pngb)
    ihdr[16:24] = struct.pack(">II", 50000, 50000)
    ihdr[29:33] = struct.pack(">I", zlib.crc32(bytes(ihdr[12:29])))
    write("huge_dimensions.png", bytes(ihdr))
    refuse("huge_dimensions.png", "pixels")

    with open(path("expected.tsv"), "w") as f:
        f.write("# file\tok|refuse\twidth\theight\tpicture (quad, grey) or words of the reason\n")
        for r in rows:
            f.write("\t".join(str(x) for x in r) + "\n")
    print("%d files in %s" % (len(rows), OUT))


main()
