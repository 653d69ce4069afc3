#!/usr/bin/env python3
"""symfile-forms.py - uftrace symbol files (*.sym) in the forms met in the wild, made from a
recording of uftrace 0.13 (the version installed here; 0.14 and later cannot run here).

    symfile-forms.py FORM SRC.data DST.data

copies SRC.data to DST.data and rewrites every .sym file in it:
  sized    as uftrace 0.14 and later write it: a size column after the address
           (`000000000000038c 00000020 d __abi_tag`, 8 hex digits), the size here the
           distance to the next symbol (what 0.13 derived itself); the symbols are the same
  noname   a PLT entry with an empty name before the first one (`0000000000001020 P `, the
           PLT's first slot, which has no symbol), in 0.13's columns
  sized-noname  both
  damaged  one line that is no symbol (`00000000000012zz garbage`) after each function
           symbol of the program: uftrace skips such a line, the symbols stay
So uftrace's replay of SRC.data is what it prints of `sized` and `sized-noname`; of
`noname` and `damaged`, uftrace 0.13 runs here on the copy itself."""
import os
import re
import shutil
import sys

LINE = re.compile(r'^([0-9a-f]+) (.) (.*)$')


def rewrite(text, form):
    lines = text.split('\n')
    syms = [m for m in map(LINE.match, lines) if m]
    addrs = sorted({int(m.group(1), 16) for m in syms})
    plt = [int(m.group(1), 16) for m in syms if m.group(2) == 'P']
    noname = min(plt) - 0x10 if 'noname' in form and plt else None
    if noname is not None:
        addrs = sorted(addrs + [noname])

    def put(out, addr, typ, name):
        if form.startswith('sized'):
            nxt = [b for b in addrs if b > addr]
            out.append('%016x %08x %s %s' % (addr, nxt[0] - addr if nxt else 0, typ, name))
        else:
            out.append('%016x %s %s' % (addr, typ, name))

    out = []
    for line in lines:
        m = LINE.match(line)
        if not m:
            out.append(line)
            continue
        addr, typ = int(m.group(1), 16), m.group(2)
        if noname is not None and typ == 'P' and addr == min(plt):
            put(out, noname, 'P', '')
        put(out, addr, typ, m.group(3))
        if form == 'damaged' and typ in 'tT':
            out.append('00000000000012zz garbage')
    return '\n'.join(out)


def main():
    form, src, dst = sys.argv[1:4]
    if form not in ('sized', 'noname', 'sized-noname', 'damaged'):
        sys.exit('unknown form ' + form)
    shutil.copytree(src, dst)
    for name in os.listdir(dst):
        if name.endswith('.sym'):
            p = os.path.join(dst, name)
            with open(p) as f:
                text = f.read()
            with open(p, 'w') as f:
                f.write(rewrite(text, form))


main()
