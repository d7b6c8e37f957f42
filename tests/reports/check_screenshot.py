#!/usr/bin/python3
"""report.html opened alone in headless Chromium shows each kernel's own plots (html.cmake).

usage: check_screenshot.py GELUCHECK OUTDIR

Runs `GELUCHECK run` on two libm kernels (ulp suite only: short sections) with --report
OUTDIR/report, copies report.html alone into OUTDIR/alone/ (no plots beside it), takes a
screenshot of it (OUTDIR/report.png) and of each kernel's ulp plot file rendered alone
(OUTDIR/report/plots/libm-KERNEL-ulp.svg into OUTDIR/plot1.png, plot2.png), then checks:
  - the plots the page embeds for one kernel (told apart by the SVG's <title>) are none of
    the other's (their data: URIs), and the two plots rendered alone differ in more than 1%
    of their pixels;
  - each plot rendered alone appears in the report's screenshot, the first kernel's above the
    second's, with at most 1% of its pixels off by more than 16 levels (Chromium draws an
    image and the same SVG opened alone with tiny anti-aliasing differences).
So the page needs no other file and does not show one kernel's plot in another's section.
Nothing depends on timing: `chromium --screenshot` exits when the page is loaded and drawn
(the time limit of each call only guards against a hang).  Without Chromium the test is
skipped (exit 77, the reason on stdout).  Exit 0 when all hold, 1 otherwise."""
import base64
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

SKIP = 77
DATA = "data:image/svg+xml;base64,"
KERNELS = ("erf1p.f32", "tanh.f16")
PAGE_SIZE = (1000, 7000)  # the window: both kernels' sections fit in 7000 px


def png_rows(path):
    """The rows of an 8-bit RGB or RGBA PNG (not interlaced) as RGB bytes: (w, h, rows)."""
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("%s: not a PNG" % path)
    i, idat = 8, []
    while i < len(d):
        n, = struct.unpack(">I", d[i:i + 4])
        kind = d[i + 4:i + 8]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", d[i + 8:i + 21])
            if depth != 8 or inter != 0 or ctype not in (2, 6):
                raise ValueError("%s: depth %d, colour type %d, interlace %d"
                                 % (path, depth, ctype, inter))
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat.append(d[i + 8:i + 8 + n])
        i += 12 + n
    raw = zlib.decompress(b"".join(idat))
    stride, rows, prev = w * bpp, [], bytes(w * bpp)
    low = int.from_bytes(b"\x7f" * stride, "big")
    high = int.from_bytes(b"\x80" * stride, "big")
    for y in range(h):
        f, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if f == 0:
            cur = line
        elif f == 2:  # Up: bytewise sums of two rows at once, no carry between bytes
            a, b = int.from_bytes(line, "big"), int.from_bytes(prev, "big")
            cur = (((a & low) + (b & low)) ^ ((a ^ b) & high)).to_bytes(stride, "big")
        else:
            c = bytearray(line)
            for k in range(stride):
                left = c[k - bpp] if k >= bpp else 0
                if f == 1:
                    c[k] = (c[k] + left) & 255
                elif f == 3:
                    c[k] = (c[k] + ((left + prev[k]) >> 1)) & 255
                else:  # Paeth
                    up, ul = prev[k], prev[k - bpp] if k >= bpp else 0
                    p = left + up - ul
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                    c[k] = (c[k] + (left if pa <= pb and pa <= pc else up if pb <= pc
                                    else ul)) & 255
            cur = bytes(c)
        rows.append(cur)
        prev = cur
    if bpp == 4:
        rows = [bytes(_drop_alpha(r)) for r in rows]
    return w, h, rows


def _drop_alpha(r):
    b = bytearray(r)
    del b[3::4]
    return b


def chromium(exe, out, url, size, outdir):
    """A screenshot of url into out, the window size (w, h) pixels."""
    env = dict(os.environ, HOME=outdir, XDG_CONFIG_HOME=outdir, XDG_CACHE_HOME=outdir)
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=1", "--user-data-dir=" + os.path.join(outdir, "profile"),
           "--screenshot=" + out, "--window-size=%d,%d" % size, url]
    r = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=600)
    if r.returncode != 0 or not os.path.isfile(out):
        sys.exit("check_screenshot: %s: exit status %d, no %s\n%s"
                 % (" ".join(cmd), r.returncode, out, r.stdout.decode(errors="replace")))


def differing(a, b):
    """Pixels of the RGB rows a differing from b (same size) by more than 16 in a channel."""
    n = 0
    for ra, rb in zip(a, b):
        if ra != rb:
            n += sum(1 for k in range(0, len(ra), 3)
                     if max(abs(ra[k + j] - rb[k + j]) for j in range(3)) > 16)
    return n


def locate(shot, plot, w, h):
    """Where plot (w x h) appears in shot: (x, y, differing pixels), or the best try."""
    key = sorted(range(h), key=lambda y: -len(set(plot[y])))[:6]  # the busiest rows
    best = None
    for ky in key:
        for y, row in enumerate(shot):
            x = row.find(plot[ky])
            while x >= 0:
                if x % 3 == 0 and y - ky >= 0 and y - ky + h <= len(shot):
                    y0 = y - ky
                    d = differing([r[x:x + 3 * w] for r in shot[y0:y0 + h]], plot)
                    if best is None or d < best[2]:
                        best = (x // 3, y0, d)
                    if d <= w * h // 100:
                        return best
                x = row.find(plot[ky], x + 1)
    return best


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    gelucheck, outdir = argv[1], os.path.abspath(argv[2])
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("SKIP: no chromium on PATH (Debian: apt-get install chromium; scripts/packages.txt)")
        return SKIP
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(os.path.join(outdir, "alone"))
    cmd = [gelucheck, "run", "--adapter", "libm", "--suite", "ulp", "--samples", "2000",
           "--threads", "2", "--report", os.path.join(outdir, "report")]
    for k in KERNELS:
        cmd += ["--kernel", k]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode not in (0, 1):
        sys.exit("check_screenshot: %s: exit status %d\n%s"
                 % (" ".join(cmd), r.returncode, r.stdout.decode(errors="replace")))
    page = os.path.join(outdir, "alone", "report.html")
    shutil.copy(os.path.join(outdir, "report", "report.html"), page)

    # the embedded plots of each kernel, told apart by the SVG's <title>
    html = open(page, encoding="utf-8").read()
    errors, mine = [], {k: set() for k in KERNELS}
    for u in re.findall(r'<img src="(%s[A-Za-z0-9+/=]*)"' % re.escape(DATA), html):
        title = re.search(rb"<title>libm ([^ ]+) ", base64.b64decode(u[len(DATA):]))
        k = title.group(1).decode() if title else None
        if k in mine:
            mine[k].add(u)
    if not all(mine.values()):
        errors.append("%s: no embedded plot of %s" % (page, [k for k in mine if not mine[k]]))
    if mine[KERNELS[0]] & mine[KERNELS[1]]:
        errors.append("the two kernels share an embedded plot")

    chromium(exe, os.path.join(outdir, "report.png"), "file://" + page, PAGE_SIZE, outdir)
    W, H, shot = png_rows(os.path.join(outdir, "report.png"))
    found = []
    for i, k in enumerate(KERNELS):
        svg = os.path.join(outdir, "report", "plots", "libm-%s-ulp.svg" % k)
        text = open(svg, "rb").read()
        w = int(re.search(rb'<svg[^>]* width="(\d+)"', text).group(1))
        h = int(re.search(rb'<svg[^>]* height="(\d+)"', text).group(1))
        png = os.path.join(outdir, "plot%d.png" % (i + 1))
        chromium(exe, png, "file://" + svg, (w, h), outdir)
        _, _, rows = png_rows(png)
        plot = [row[:3 * w] for row in rows[:h]]
        where = locate(shot, plot, w, h)
        if where is None or where[2] > w * h // 100:
            errors.append("%s's plot (%s) is not in the screenshot %s%s"
                          % (k, png, os.path.join(outdir, "report.png"),
                             "" if where is None else
                             ": best at (%d, %d) with %d pixels off" % where))
        else:
            print("check_screenshot: %s's plot at (%d, %d) of the %dx%d screenshot, "
                  "%d of %d pixels off" % (k, where[0], where[1], W, H, where[2], w * h))
        found.append((where, plot, w, h))
    (p1, a, w1, h1), (p2, b, w2, h2) = found
    if not errors:
        if p1[1] + h1 > p2[1]:
            errors.append("%s's plot is not above %s's: %s, %s" % (KERNELS + (p1, p2)))
        if (w1, h1) == (w2, h2) and differing(a, b) <= w1 * h1 // 100:
            errors.append("the two kernels' plots look the same")
    for e in errors:
        print("check_screenshot: " + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
