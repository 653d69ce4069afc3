#!/usr/bin/python3
"""`convert --to svg` and `--to speedscope` of perf.data files against Debian perf's own
`perf script report stackcollapse` on the fixtures record-fixtures.sh recorded: each
output's stacks folded back (speedscope: every profile's samples, by the thread name before
the profile's tid; SVG: each frame's own samples, its width less its children's, by the
path of names from the thread name up) must give the reference's lines exactly, with an
empty --symfs as the references were recorded, and with --kallsyms.  Also: every speedscope
sample indexes an existing frame, the weights are one per sample, and the SVG's root is as
wide as the reference's sample count.
Usage: flame_samples.py TG DATA_DIR"""
import collections
import html
import json
import os
import re
import subprocess
import sys
import tempfile

FIXTURES = ["cpu-clock", "cpu-clock-g", "multi", "pipe", "zstd", "sched", "sched-g", "all-g"]
KALLSYMS = ["cpu-clock", "cpu-clock-g", "multi", "sched-g", "all-g"]
FRAME = re.compile(r'<g class="f" data-x="(\d+)" data-w="(\d+)" data-d="(\d+)" data-n="([^"]*)"')


def folded_line(comm, names):
    return ";".join([comm.replace(" ", "_")] + [n.replace(";", ":") for n in names])


def reference(path):
    counts = collections.Counter()
    with open(path, encoding="utf-8") as f:
        for line in f:
            stack, n = line.rstrip("\n").rsplit(" ", 1)
            counts[stack] += int(n)
    return counts


def from_speedscope(text):
    doc = json.loads(text)
    frames = doc["shared"]["frames"]
    counts = collections.Counter()
    for p in doc["profiles"]:
        assert p["type"] == "sampled", p["type"]
        assert len(p["weights"]) == len(p["samples"]) and set(p["weights"]) <= {1}
        comm = p["name"].rsplit(" ", 1)[0]
        for s in p["samples"]:
            assert all(0 <= i < len(frames) for i in s), s
            counts[folded_line(comm, [frames[i]["name"] for i in s])] += 1
    return counts


def from_svg(text):
    nodes = [(int(x), int(w), int(d), html.unescape(n)) for x, w, d, n in FRAME.findall(text)]
    counts = collections.Counter()
    path = []
    child_width = collections.defaultdict(int)
    for x, w, d, n in nodes:  # the children's widths per parent path
        del path[d:]
        path.append(n)
        if d:
            child_width[len(path) - 2, tuple(path[:-1])] += w
    path = []  # each node's own samples: its width less its children's
    for x, w, d, n in nodes:
        del path[d:]
        path.append(n)
        own = w - child_width[len(path) - 1, tuple(path)]
        if d >= 1 and own:
            counts[folded_line(path[1], path[2:])] += own
    root = nodes[0][1] if nodes else 0
    return counts, root


def run(tg, args):
    return subprocess.run([tg, "convert"] + args, capture_output=True, text=True, check=True).stdout


def main():
    tg, data = sys.argv[1], sys.argv[2]
    if not os.path.isdir(data):
        print("SKIP: %s not found" % data)
        return 77
    failed = 0
    with tempfile.TemporaryDirectory() as empty:
        cases = [(n, [], ".stackcollapse.txt") for n in FIXTURES]
        cases += [(n, ["--kallsyms", os.path.join(data, "kallsyms")], ".stackcollapse-kallsyms.txt")
                  for n in KALLSYMS]
        for name, extra, suffix in cases:
            ref = reference(os.path.join(data, name + suffix))
            args = ["--symfs", empty] + extra + [os.path.join(data, name + ".data")]
            label = name + (" --kallsyms" if extra else "")
            got = from_speedscope(run(tg, ["--to", "speedscope"] + args))
            svg, root = from_svg(run(tg, ["--to", "svg"] + args))
            for what, counts in (("speedscope", got), ("svg", svg)):
                if counts == ref:
                    print("PASS %s: %s folds to stackcollapse's %d lines" % (label, what, len(ref)))
                else:
                    failed += 1
                    print("FAIL %s: %s differs from stackcollapse" % (label, what))
                    for k in sorted(set(counts) | set(ref)):
                        if counts[k] != ref[k]:
                            print("   %s: got %d, stackcollapse %d" % (k, counts[k], ref[k]))
            if ref and root != sum(ref.values()):
                failed += 1
                print("FAIL %s: svg root %d samples, stackcollapse %d" % (label, root,
                                                                         sum(ref.values())))
    if sum(reference(os.path.join(data, "cpu-clock-g.stackcollapse.txt")).values()) == 0:
        failed += 1
        print("FAIL: the cpu-clock-g reference is empty")
    print("%d failed" % failed)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
