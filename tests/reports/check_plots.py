#!/usr/bin/python3
"""Checks the SVG plots written from a gelucheck result (plots_check.cmake).

usage: check_plots.py RESULT.json PLOTS_DIR COMPARE.svg

Every SVG must parse as XML, be plain SVG 1.1 (no script, no external reference), and have a
<title>, a title text, two axes with tick labels and an axis label each, a legend and at least
one data series.  Every kernel with an ulp suite has SLUG-ulp.svg and SLUG-ulp_linear.svg,
with a tail curve SLUG-tail.svg, with a vs_exact curve SLUG-approx.svg, and no other plot
(SLUG is ADAPTER-KERNEL: the kernels here are built-in ones, whose names need no hash).  The
flush point markers sit at the pixel their x maps to, computed here from the axis definitions
of reports/svg.h (symlog for the ulp plot, linear from -10 to 10 for the linear ulp plot,
where only the markers within that range are drawn, linear for the tail).  The plot data in the result
has the documented shape.  Exit 0 when all hold, 1 otherwise (each problem on stderr)."""
import json
import math
import os
import re
import struct
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
# dtype: (smallest subnormal, largest finite)
SHAPES = {"f32": (2.0 ** -149, (2 - 2.0 ** -23) * 2.0 ** 127),
          "f64": (2.0 ** -1074, (2 - 2.0 ** -52) * 2.0 ** 1023),
          "f16": (2.0 ** -24, 65504.0),
          "bf16": (2.0 ** -133, (2 - 2.0 ** -7) * 2.0 ** 127)}
errors = []


def fail(path, what):
    errors.append("%s: %s" % (path, what))


def value(v, dtype):
    """A value object {dec, hex, bits} as a float, from its bits."""
    b = int(v["bits"], 16)
    if dtype == "f64":
        return struct.unpack("<d", struct.pack("<Q", b))[0]
    if dtype == "f32":
        return struct.unpack("<f", struct.pack("<I", b))[0]
    if dtype == "bf16":
        return struct.unpack("<f", struct.pack("<I", b << 16))[0]
    return struct.unpack("<e", struct.pack("<H", b))[0]


def classes(el):
    return (el.get("class") or "").split()


def check_svg(path):
    """The common shape of every plot; returns the root element, or None."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        fail(path, "does not parse as XML: %s" % e)
        return None
    if root.tag != SVG + "svg" or root.get("version") != "1.1":
        fail(path, "root is not <svg version=\"1.1\"> in the SVG namespace")
    if root.get("width") != "720":
        fail(path, "width is %s, want 720" % root.get("width"))
    text = open(path, encoding="utf-8").read()
    if re.search(r"<script|xlink:href|href=|@import|url\((?!#)", text):
        fail(path, "has a script or an external reference")
    title = root.find(SVG + "title")
    if title is None or not (title.text or "").strip():
        fail(path, "no <title>")
    els = list(root.iter())
    if not any("title" in classes(e) and (e.text or "").strip() for e in els):
        fail(path, "no title text")
    for axis in ("x", "y"):
        g = [e for e in els if classes(e) == ["axis", axis]]
        if len(g) != 1:
            fail(path, "no %s axis" % axis)
            continue
        ticks = [t for t in g[0].iter(SVG + "text") if "tick" in classes(t) and t.text]
        labels = [t for t in g[0].iter(SVG + "text") if "label" in classes(t) and t.text]
        if len(ticks) < 2:
            fail(path, "%s axis has %d tick labels" % (axis, len(ticks)))
        if len(labels) != 1:
            fail(path, "%s axis has no label" % axis)
    legend = [e for e in els if "legend" in classes(e)]
    if not legend or not [t for t in legend[0].iter(SVG + "text") if t.text]:
        fail(path, "no legend")
    data = 0
    for g in (e for e in els if "series" in classes(e)):
        for p in g.iter(SVG + "path"):
            data += len(re.findall(r"[ML]", p.get("d", "")))
        data += len(list(g.iter(SVG + "circle")))
    if data < 2:
        fail(path, "no data series")
    return root


def frame(root):
    r = [e for e in root.iter(SVG + "rect") if "frame" in classes(e)][0]
    return float(r.get("x")), float(r.get("x")) + float(r.get("width"))


def marker_x(root, ident):
    for g in root.iter():
        if g.get("id") == ident:
            return float(g.find(SVG + "line").get("x1"))
    return None


def symlog(v, tiny):
    a = abs(v)
    return v / tiny if a < tiny else math.copysign(math.log2(a) - math.log2(tiny) + 1, v)


def check_marker(path, root, ident, want):
    got = marker_x(root, ident)
    if got is None:
        fail(path, "no %s marker" % ident)
    elif abs(got - want) > 0.006:
        fail(path, "%s marker at x = %.2f px, want %.2f" % (ident, got, want))


def metrics(k, name):
    for s in k["suites"]:
        if s["name"] == name:
            return s["metrics"]
    return None


def check_kernel(k, plots):
    slug = k["adapter"] + "-" + k["kernel"]
    dt = k["dtype"]
    tiny, big = SHAPES[dt]
    ulp, tail = metrics(k, "ulp"), metrics(k, "tail")
    expect = {"ulp": ulp is not None, "ulp_linear": ulp is not None, "tail": bool(tail and tail.get("curve")),
              "approx": "vs_exact" in k}
    for kind, want in expect.items():
        path = os.path.join(plots, "%s-%s.svg" % (slug, kind))
        if os.path.exists(path) != want:
            fail(path, "exists" if not want else "missing")
            continue
        if not want:
            continue
        root = check_svg(path)
        if root is None:
            continue
        left, right = frame(root)
        fp = tail and tail.get("flush_point")
        if kind == "ulp" and fp:
            t0 = symlog(big, tiny)
            for key in ("flush_point", "last_nonzero"):
                t = symlog(value(tail[key], dt), tiny)
                check_marker(path, root, key, left + (t + t0) / (2 * t0) * (right - left))
        if kind == "ulp_linear" and fp:
            for key in ("flush_point", "last_nonzero"):
                x = value(tail[key], dt)
                if -10 <= x <= 10:
                    check_marker(path, root, key, left + (x + 10) / 20 * (right - left))
                elif marker_x(root, key) is not None:
                    fail(path, "%s marker at x = %g, outside the axis" % (key, x))
        if kind == "tail":
            xs = [p[0] for p in tail["curve"]]
            lo, hi = min(xs + [0]), max(xs + [0])
            if fp:
                x = value(fp, dt)
                check_marker(path, root, "flush_point",
                             left + (x - lo) / (hi - lo) * (right - left))
    # the plot data in the result
    if tail and tail.get("last_nonzero") and tail.get("curve") is not None:
        c, lnz = tail["curve"], value(tail["last_nonzero"], dt)
        if not 0 < len(c) <= 200 or any(len(p) != 3 for p in c):
            fail(k["kernel"], "tail curve has %d points, want 1 to 200 triples" % len(c))
        elif not all(p[0] * lnz > 0 for p in c) or min(abs(p[0]) for p in c) > abs(lnz) / 50:
            fail(k["kernel"], "tail curve is not on the underflow side from near 0")
        elif max(abs(p[0]) for p in c) <= abs(lnz):
            fail(k["kernel"], "tail curve ends before last_nonzero")
    if "vs_exact" in k:
        c = k["vs_exact"].get("curve", [])
        if len(c) != 241 or c != ulp["vs_exact"].get("curve"):
            fail(k["kernel"], "vs_exact curve has %d points, want 241 (as in the ulp suite)"
                 % len(c))
        elif c[0][0] != -6 or c[-1][0] != 6 or c[120][0] != 0:
            fail(k["kernel"], "vs_exact curve is not on [-6, 6]")


def main(argv):
    if len(argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        doc = json.load(f)
    for k in doc["kernels"]:
        check_kernel(k, argv[2])
    root = check_svg(argv[3])
    if root is not None:
        legend = [e for e in root.iter() if "legend" in classes(e)][0]
        names = {t.text for t in legend.iter(SVG + "text")}
        for k in doc["kernels"]:
            if metrics(k, "ulp") and "%s %s" % (k["adapter"], k["kernel"]) not in names:
                fail(argv[3], "no legend entry for %s %s" % (k["adapter"], k["kernel"]))
    for e in errors:
        print("check_plots: " + e, file=sys.stderr)
    print("check_plots: %d kernels, %d problems" % (len(doc["kernels"]), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
