#!/usr/bin/python3
"""kallsyms_subset.py - the lines of a kallsyms file that name the kernel addresses of files.

Usage: kallsyms_subset.py KALLSYMS OUT FILE...

Reads every kernel address (16 hex digits from ffff) the FILEs print (perf script outputs),
and writes to OUT the lines of KALLSYMS that perf needs to name each as it names it with the
whole file: the lines at the address of the symbol holding it (perf keeps one of those) and
at the next symbol's address (where it ends), plus _text and _stext (the reference symbol
perf moves the symbols by).  perf ends a symbol where the next kept one begins, so each
address gets the same symbol and offset from the subset as from the whole file, and the
fixtures' kallsyms stays a few kilobytes instead of the running kernel's megabytes.
"""
import bisect
import re
import sys

KEPT = set("TtWwDdBbul")  # perf's symbol_type__filter


def main():
    kallsyms, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    lines = []
    with open(kallsyms) as f:
        for line in f:
            parts = line.split(" ", 2)
            if len(parts) == 3:
                lines.append((int(parts[0], 16), parts[1], line))
    kept = sorted({a for a, t, _ in lines if t in KEPT})
    want = set()
    for name in files:
        with open(name, errors="replace") as f:
            for m in re.finditer(r"\bffff[0-9a-f]{12}\b", f.read()):
                addr = int(m.group(0), 16)
                i = bisect.bisect_right(kept, addr)
                if i:
                    want.add(kept[i - 1])
                if i < len(kept):
                    want.add(kept[i])
    with open(out, "w") as f:
        for a, t, line in lines:
            name = line.split(" ", 2)[2].rstrip("\n")
            if a in want or name in ("_text", "_stext"):
                f.write(line)


if __name__ == "__main__":
    main()
