"""Plain text from other people (names, chat, pasted codes), judged the same in every runtime (pure).

``str.split()``, ``str.strip()`` and ``unicodedata`` know Unicode in CPython;
MicroPython's ``split()`` and ``strip()`` know only ASCII whitespace and it
has no ``unicodedata``. These helpers use fixed tables instead, so a name or
a pasted code is cleaned alike in CPython, Pyodide and MicroPython.

>>> collapse_spaces(" Ann\\u00a0\\u00a0Lee\\u3000")
'Ann Lee'
>>> is_control("\\u202e"), is_control("\\u200d"), is_blank("\\u2028 ")
(True, False, True)
"""

#: What CPython's ``str.split()`` splits on: the Unicode whitespace characters.
WHITESPACE = ("\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
              "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")

#: Code points that are not plain text (inclusive ranges): the Unicode
#: categories Cc (control), Cf (format: soft hyphen, zero-width and bidi
#: controls, tags ...), Cs (surrogates) and Co (private use), and the
#: noncharacters. Unassigned code points count as text: which ones are
#: unassigned depends on each runtime's Unicode version.
NOT_TEXT = (
    (0x0, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C), (0x6DD, 0x6DD),
    (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F),
    (0x202A, 0x202E), (0x2060, 0x206F), (0xD800, 0xF8FF), (0xFDD0, 0xFDEF), (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
    (0xF0000, 0x10FFFF),
)
ZWJ = 0x200D  # the zero-width joiner of emoji sequences: a format character kept as text


def is_control(ch: str) -> bool:
    """True for a character that is not plain text (see ``NOT_TEXT``)."""
    cp = ord(ch)
    if 0x20 <= cp < 0x7F or cp == ZWJ:
        return False
    if cp & 0xFFFE == 0xFFFE:  # U+FFFE, U+FFFF, U+1FFFE ...: noncharacters
        return True
    for lo, hi in NOT_TEXT:
        if cp < lo:
            return False
        if cp <= hi:
            return True
    return False


def words(text: str) -> list:
    """``text.split()`` with CPython's Unicode whitespace, in every runtime."""
    out, word = [], []
    for ch in text:
        if ch in WHITESPACE:
            if word:
                out.append("".join(word))
                word = []
        else:
            word.append(ch)
    if word:
        out.append("".join(word))
    return out


def collapse_spaces(text: str) -> str:
    """Runs of whitespace as one space, none at the ends."""
    return " ".join(words(text))


def strip_spaces(text: str) -> str:
    """``text.strip()`` with CPython's Unicode whitespace, in every runtime."""
    start, end = 0, len(text)
    while start < end and text[start] in WHITESPACE:
        start += 1
    while end > start and text[end - 1] in WHITESPACE:
        end -= 1
    return text[start:end]


def is_blank(text: str) -> bool:
    """Nothing but whitespace (or nothing at all)."""
    return all(ch in WHITESPACE for ch in text)


def escape_html(text) -> str:
    """``text`` (anything, as ``str``) safe inside HTML text and double-quoted attributes.

    >>> escape_html('<b title="x">&')
    '&lt;b title=&quot;x&quot;&gt;&amp;'
    """
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
