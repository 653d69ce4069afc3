#!/usr/bin/env python3
"""rename-symbols.py - a copy of a uftrace recording whose program's functions bear other names.

    rename-symbols.py SRC.data DST.data NAMES FIRST

copies SRC.data to DST.data and, in the program's symbol file (the .sym that is not a shared
library's), gives the function symbols (types T, t, W, w, P), in address order, the names of
the file NAMES (one a line; blank lines and lines starting with '#' skipped) from the
FIRST-th on.  Prints the number of the first name not used, so a caller can go through a
long list one copy at a time.  Whatever prints the recording's function names (uftrace
replay, traceglot replay) then prints the new names, demangled its own way."""
import os
import re
import shutil
import sys

SYM = re.compile(r'^([0-9a-f]+)( [0-9a-f]+)? ([TtWwP]) (.*)$')


def main():
    src, dst, names_path, first = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(names_path) as f:
        names = [l.rstrip('\n') for l in f if l.strip() and not l.startswith('#')]
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(src, dst)
    exe = [f for f in os.listdir(dst)
           if f.endswith('.sym') and not f.startswith('lib') and not f.startswith('ld-')]
    if len(exe) != 1:
        sys.exit('rename-symbols.py: no single program symbol file in %s' % src)
    path = os.path.join(dst, exe[0])
    with open(path) as f:
        lines = f.read().split('\n')
    k = first
    for i, line in enumerate(lines):
        m = SYM.match(line)
        if m and k < len(names):
            lines[i] = '%s%s %s %s' % (m.group(1), m.group(2) or '', m.group(3), names[k])
            k += 1
    with open(path, 'w') as f:
        f.write('\n'.join(lines))
    print(k)


main()
