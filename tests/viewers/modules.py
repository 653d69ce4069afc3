#!/usr/bin/env python3
"""modules.py REPLAY SVG SPEEDSCOPE MAPS... - the module of each function in traceglot's SVG
flame graph and speedscope file is the one uftrace recorded for it.

REPLAY is `uftrace replay -f module` (uftrace's own output: the module holding each
function's address, "[kernel]" for kernel functions); MAPS are the recording's sid-*.map
files (the module paths uftrace recorded).  For every frame whose name uftrace printed:
its module (data-m in the SVG, `file` in speedscope) is a path a map lists, whose base name
is the module uftrace printed for that name ("[kernel.kallsyms]" for "[kernel]"); a frame
without a module while uftrace names one fails.  Colours: frames of one module share one
hue, frames of different modules have different hues, frames without a module are grey
(saturation under 10%).  Prints "ok N frames M modules" or the failures, exit 1."""
import json
import re
import sys
import xml.etree.ElementTree as ET

replay, svg_path, ss_path, maps = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]

expected = {}  # function name -> set of uftrace's module names
for line in open(replay, errors="replace"):
    if "|" not in line or line.startswith("#"):
        continue
    mod, _, call = line.partition("|")
    mod, call = mod.strip(), call.strip()
    if not mod or call.startswith(("}", "/*")) or "(" not in call:
        continue
    name = call[:call.index("(")]
    expected.setdefault(name, set()).add(mod)

paths = set()
for m in maps:
    for line in open(m, errors="replace"):
        f = line.split()
        if len(f) >= 6 and not f[5].startswith("["):
            paths.add(f[5])

failures = []


def uftrace_name(module):
    return "[kernel]" if module == "[kernel.kallsyms]" else module.rsplit("/", 1)[-1]


def check(where, name, module):
    if name not in expected:
        return False
    if module is None:
        failures.append("%s: %s has no module, uftrace says %s" % (where, name, sorted(expected[name])))
        return True
    if module != "[kernel.kallsyms]" and module not in paths:
        failures.append("%s: %s: module %s is not a path of the sid maps" % (where, name, module))
    if uftrace_name(module) not in expected[name]:
        failures.append("%s: %s in %s, uftrace says %s" % (where, name, module, sorted(expected[name])))
    return True


ns = "{http://www.w3.org/2000/svg}"
hue_of = {}  # module -> hue
checked = 0
for g in ET.parse(svg_path).getroot().iter(ns + "g"):
    if g.get("class") != "f":
        continue
    name, module = g.get("data-n"), g.get("data-m")
    checked += check("svg", name, module)
    fill = g.find(ns + "rect").get("fill")
    m = re.fullmatch(r"hsl\((\d+),(\d+)%,(\d+)%\)", fill)
    if not m:
        failures.append("svg: %s: fill %s is not hsl()" % (name, fill))
        continue
    hue, sat = int(m.group(1)), int(m.group(2))
    if module is None:
        if sat >= 10:
            failures.append("svg: %s has no module but a coloured fill %s" % (name, fill))
        continue
    if sat < 40:
        failures.append("svg: %s of %s is greyish (%s)" % (name, module, fill))
    if hue_of.setdefault(module, hue) != hue:
        failures.append("svg: %s of %s has hue %d, other frames of it %d" % (name, module, hue, hue_of[module]))
by_hue = {}
for module, hue in hue_of.items():
    by_hue.setdefault(hue, []).append(module)
for hue, mods in by_hue.items():
    if len(mods) > 1:
        failures.append("svg: modules %s share the hue %d" % (mods, hue))

ss = json.load(open(ss_path))
for fr in ss["shared"]["frames"]:
    checked += check("speedscope", fr["name"], fr.get("file"))

if failures:
    print("\n".join(failures[:20]))
    sys.exit(1)
if not checked:
    print("no frame named by uftrace")
    sys.exit(1)
print("ok %d frames, %d modules" % (checked, len(hue_of)))
