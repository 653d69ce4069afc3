#!/usr/bin/python3
"""check_svg_diff.py SVG FOLDED_DIFF - every frame of a differential flame graph (but the
root) has a title giving PATH's and OTHER's self time and the change, as its data-b and
data-a attributes hold them (no data-a and "only in PATH" for a path OTHER lacks), and those
are the self times of the folded --diff line of its call path (the path rebuilt from the
frames' depths in document order, parents first)."""
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def fmt(ns):
    v, u = float(ns), 0
    units = ["ns", "us", "ms", "s"]
    while v >= 1000 and u < 3:
        v /= 1000
        u += 1
    return ("%.3f %s" if u else "%.0f %s") % (v, units[u])


def main():
    folded = {}
    for line in open(sys.argv[2]):
        path, a, b = line.split()
        folded[path] = (int(a), int(b))
    stack, bad, n = [], [], 0
    for g in ET.parse(sys.argv[1]).getroot().iter(NS + "g"):
        if g.get("class") != "f":
            continue
        d = int(g.get("data-d"))
        del stack[d:]
        stack.append(g.get("data-n"))
        if d == 0:
            continue
        n += 1
        title = g.find(NS + "title").text
        b, a = int(g.get("data-b")), g.get("data-a")
        a = int(a) if a is not None else None
        want = "\nself: PATH %s, OTHER %s, change %s%s" % (fmt(b), fmt(a or 0), "-" if b < (a or 0) else "+",
                                                       fmt(abs(b - (a or 0))))
        if want not in title:
            bad.append("%s: title %r lacks %r" % (";".join(stack[1:]), title, want))
        if (a is None) != ("only in PATH" in title):
            bad.append("%s: only in PATH?" % ";".join(stack[1:]))
        path = ";".join(stack[1:])
        if (a or b) and folded.get(path) != (a or 0, b):
            bad.append("%s: self %s/%s, folded --diff %s" % (path, a, b, folded.get(path)))
    for x in bad:
        print("  " + x)
    print("%d frames" % n)
    return 1 if bad or not n else 0


sys.exit(main())
