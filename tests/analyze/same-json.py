#!/usr/bin/python3
"""same-json.py EXPECTED ACTUAL - exit 0 when the two JSON documents hold the same values
(Python's ==: objects unordered, 2 == 2.0); else print the first difference and exit 1."""
import json
import sys


def first_diff(a, b, path='$'):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return '%s.%s: only in %s' % (path, k, 'expected' if k in a else 'actual')
            d = first_diff(a[k], b[k], '%s.%s' % (path, k))
            if d:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return '%s: %d items, expected %d' % (path, len(b), len(a))
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_diff(x, y, '%s[%d]' % (path, i))
            if d:
                return d
        return None
    return None if a == b else '%s: %r, expected %r' % (path, b, a)


with open(sys.argv[1]) as f:
    expected = json.load(f)
with open(sys.argv[2]) as f:
    actual = json.load(f)
d = first_diff(expected, actual)
if d:
    print(d)
    sys.exit(1)
