"""Strict JSON that reads and writes the same in CPython and MicroPython (pure).

MicroPython's ``json`` is lenient (it takes ``[1,]``, ``{"a" 1}``, ``01`` and
``"\\q"``) and writes a dict's keys in no fixed order, so a peer's message or a
stored text could be accepted by one runtime and refused by the other, and the
text written would differ. This module is the one JSON codec of the friend
game's wire format and of the page's storage:

- ``loads(text)`` accepts exactly RFC 8259 JSON (no NaN or Infinity, no
  trailing commas, no leading zeros, no raw control characters in strings),
  nested at most ``max_depth`` deep; a ``\\u`` escape of an unpaired UTF-16
  surrogate is refused too. Anything else raises ``ValueError``.
- ``dumps(value)`` writes compact JSON (``,`` and ``:`` without spaces), dict
  keys sorted, non-ASCII characters as they are (like CPython's
  ``ensure_ascii=False``). It writes None, bools, ints, strings, lists, tuples
  and dicts with string keys; floats are refused (their shortest text differs
  between runtimes).

>>> loads('{"b": [1, true, null], "a": "\\u00e9"}') == {"a": "é", "b": [1, True, None]}
True
>>> dumps({"b": [1, True, None], "a": "x\\n"})
'{"a":"x\\\\n","b":[1,true,null]}'
"""

MAX_DEPTH = 20

_WS = b" \t\n\r"
_DIGITS = b"0123456789"
_HEX = "0123456789abcdefABCDEF"
_SIMPLE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_WRITE_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}
_LITERALS = ((b"true", True), (b"false", False), (b"null", None))


def loads(text, max_depth: int = MAX_DEPTH):
    """Parse JSON text (str or bytes). :raises ValueError: not strict JSON."""
    if isinstance(text, str):
        data = text.encode("utf-8", "surrogatepass")
    elif isinstance(text, (bytes, bytearray)):
        data = bytes(text)
    else:
        raise ValueError("JSON must be text")
    parser = _Parser(data, max_depth)
    i = parser.skip(0)
    value, i = parser.value(i, 0)
    if parser.skip(i) != len(data):
        raise ValueError("extra data after the JSON value")
    return value


class _Parser:
    def __init__(self, data: bytes, max_depth: int):
        self.data = data
        self.n = len(data)
        self.max_depth = max_depth

    def skip(self, i: int) -> int:
        data, n = self.data, self.n
        while i < n and data[i] in _WS:
            i += 1
        return i

    def value(self, i: int, depth: int):
        if i >= self.n:
            raise ValueError("a JSON value is missing")
        c = self.data[i]
        if c == 0x22:  # "
            return self.string(i + 1)
        if c == 0x7B or c == 0x5B:  # { [
            if depth >= self.max_depth:
                raise ValueError("JSON nested too deeply")
            return self.obj(i + 1, depth + 1) if c == 0x7B else self.array(i + 1, depth + 1)
        if c == 0x2D or c in _DIGITS:  # - or a digit
            return self.number(i)
        for word, val in _LITERALS:
            if self.data.startswith(word, i):
                return val, i + len(word)
        raise ValueError("not a JSON value")

    def obj(self, i: int, depth: int):
        out = {}
        i = self.skip(i)
        if i < self.n and self.data[i] == 0x7D:  # }
            return out, i + 1
        while True:
            if i >= self.n or self.data[i] != 0x22:
                raise ValueError("an object key must be a string")
            key, i = self.string(i + 1)
            i = self.skip(i)
            if i >= self.n or self.data[i] != 0x3A:  # :
                raise ValueError("':' expected after an object key")
            val, i = self.value(self.skip(i + 1), depth)
            out[key] = val
            i = self.skip(i)
            if i < self.n and self.data[i] == 0x2C:  # ,
                i = self.skip(i + 1)
            elif i < self.n and self.data[i] == 0x7D:
                return out, i + 1
            else:
                raise ValueError("',' or '}' expected in an object")

    def array(self, i: int, depth: int):
        out = []
        i = self.skip(i)
        if i < self.n and self.data[i] == 0x5D:  # ]
            return out, i + 1
        while True:
            val, i = self.value(i, depth)
            out.append(val)
            i = self.skip(i)
            if i < self.n and self.data[i] == 0x2C:
                i = self.skip(i + 1)
            elif i < self.n and self.data[i] == 0x5D:
                return out, i + 1
            else:
                raise ValueError("',' or ']' expected in an array")

    def number(self, i: int):
        data, n, start = self.data, self.n, i
        if data[i] == 0x2D:
            i += 1
        if i < n and data[i] == 0x30:  # a single leading 0
            i += 1
        elif i < n and data[i] in _DIGITS:
            while i < n and data[i] in _DIGITS:
                i += 1
        else:
            raise ValueError("a digit expected in a number")
        is_int = True
        if i < n and data[i] == 0x2E:  # .
            i = self._digits(i + 1)
            is_int = False
        if i < n and data[i] in b"eE":
            i += 1
            if i < n and data[i] in b"+-":
                i += 1
            i = self._digits(i)
            is_int = False
        token = data[start:i].decode("ascii")
        return (int(token) if is_int else float(token)), i

    def _digits(self, i: int) -> int:
        start = i
        while i < self.n and self.data[i] in _DIGITS:
            i += 1
        if i == start:
            raise ValueError("a digit expected in a number")
        return i

    def string(self, i: int):
        """The string whose opening quote is just before ``i``: (str, index after its closing quote)."""
        data, n = self.data, self.n
        parts = []
        while True:
            start = i
            while i < n and data[i] != 0x22 and data[i] != 0x5C:  # " and backslash
                b = data[i]
                if b < 0x20:
                    raise ValueError("a control character in a string")
                if b == 0xED and i + 1 < n and data[i + 1] >= 0xA0:
                    raise ValueError("an unpaired surrogate in a string")
                i += 1
            if i >= n:
                raise ValueError("a string is not closed")
            if i > start:
                parts.append(data[start:i].decode("utf-8"))
            if data[i] == 0x22:
                return "".join(parts), i + 1
            i += 1  # the backslash
            if i >= n:
                raise ValueError("a string is not closed")
            esc = chr(data[i])
            if esc in _SIMPLE_ESCAPES:
                parts.append(_SIMPLE_ESCAPES[esc])
                i += 1
            elif esc == "u":
                code, i = self._hex4(i + 1)
                if 0xD800 <= code < 0xDC00 and data.startswith(b"\\u", i):
                    low, j = self._hex4(i + 2)
                    if 0xDC00 <= low < 0xE000:
                        code, i = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00), j
                if 0xD800 <= code < 0xE000:
                    raise ValueError("an unpaired surrogate in a string")
                parts.append(chr(code))
            else:
                raise ValueError("an unknown escape in a string")

    def _hex4(self, i: int):
        digits = self.data[i:i + 4].decode("ascii") if i + 4 <= self.n else ""
        if len(digits) != 4 or any(c not in _HEX for c in digits):
            raise ValueError("four hex digits expected after \\u")
        return int(digits, 16), i + 4


def dumps(value) -> str:
    """Compact JSON text, dict keys sorted. :raises TypeError: a value it does not write."""
    out = []
    _write(value, out)
    return "".join(out)


def _write(value, out: list) -> None:
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, str):
        out.append(_quote(value))
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for k, item in enumerate(value):
            if k:
                out.append(",")
            _write(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for k, key in enumerate(sorted(value)):
            if not isinstance(key, str):
                raise TypeError("JSON object keys must be strings")
            if k:
                out.append(",")
            out.append(_quote(key))
            out.append(":")
            _write(value[key], out)
        out.append("}")
    else:
        raise TypeError("cannot write a " + type(value).__name__ + " as portable JSON")


def _quote(text: str) -> str:
    parts = ['"']
    for ch in text:
        if ch in _WRITE_ESCAPES:
            parts.append(_WRITE_ESCAPES[ch])
        elif ord(ch) < 0x20:
            parts.append("\\u%04x" % ord(ch))
        else:
            parts.append(ch)
    parts.append('"')
    return "".join(parts)
