"""pftext.py - protoc's text output of a Perfetto trace (`protoc --decode=perfetto.protos.Trace`)
read back as Python values, for the viewer tests that check what a Perfetto file holds.

packets(text) yields each TracePacket as a dict: a field maps to the list of its values (a
message is a dict, a string is unescaped from protoc's C-style escapes and decoded as UTF-8,
a number is an int, an enum name stays a string)."""
import re

_LINE = re.compile(r'^\s*([A-Za-z0-9_]+)(?:: (.*)| \{)$')


def _value(text):
    if text.startswith('"'):
        raw = text[1:-1].encode("latin-1").decode("unicode_escape").encode("latin-1")
        return raw.decode("utf-8", "replace")
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text  # an enum's name, true/false


def packets(text):
    stack = []
    for line in text.splitlines():
        if line.strip() == "}":
            done = stack.pop()
            if not stack:
                yield done
            continue
        m = _LINE.match(line)
        if not m:
            raise ValueError("protoc text: cannot read %r" % line)
        key, value = m.group(1), m.group(2)
        if value is None:
            msg = {}
            if stack:
                stack[-1].setdefault(key, []).append(msg)
            elif key != "packet":
                raise ValueError("protoc text: %r at the top" % line)
            stack.append(msg)
        else:
            stack[-1].setdefault(key, []).append(_value(value))


def one(msg, key, default=None):
    """The first value of a field, or default."""
    v = msg.get(key)
    return v[0] if v else default
