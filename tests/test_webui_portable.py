"""The portable replacements in site/webui agree with the CPython library they replace.

``strict_json`` with ``json`` (on valid JSON, and it refuses what ``json``
refuses), ``plain_text`` with ``str.split``/``str.strip``/``unicodedata``, and
the invite codes' address handling with ``ipaddress``. (MicroPython runs
the same modules in tests/test_webui_micropython.py.)
"""

import ipaddress
import json
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st


from webui import plain_text, sdp, strict_json  # noqa: E402

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_dumps_is_json_with_sorted_keys_and_loads_reads_it_back(value):
    text = strict_json.dumps(value)
    assert text == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert strict_json.loads(text) == value == json.loads(text)
    assert strict_json.loads(json.dumps(value, indent=2)) == value   # escapes and whitespace of another writer


@given(st.text(alphabet='{}[]",:0123456789.eE+-tnrufals \\u\n', max_size=12))
def test_loads_refuses_what_json_refuses_and_agrees_on_the_rest(text):
    try:
        expected = json.loads(text)
    except ValueError:
        with pytest.raises(ValueError):
            strict_json.loads(text)
        return
    assert strict_json.loads(text) == expected


@pytest.mark.parametrize("text", ["NaN", "[Infinity]", '"\\ud800"', '"\\udc00x"', "[" * 21 + "]" * 21])
def test_loads_is_stricter_than_json_where_it_says_so(text):
    with pytest.raises(ValueError):
        strict_json.loads(text)


def test_dumps_refuses_what_it_cannot_write_the_same_everywhere():
    for value in (1.5, {1: "a"}, {"a"}, b"x"):
        with pytest.raises(TypeError):
            strict_json.dumps(value)


@given(st.text())
def test_plain_text_matches_cpythons_unicode_whitespace(text):
    assert plain_text.words(text) == text.split()
    assert plain_text.strip_spaces(text) == text.strip()
    assert plain_text.is_blank(text) == (not text.strip())


@given(st.text())
def test_escaped_text_is_inert_html_that_reads_back_as_the_text(text):
    import html

    out = plain_text.escape_html(text)
    assert not any(ch in out for ch in '<>"') and html.unescape(out) == text


def test_control_characters_are_the_c_categories_of_assigned_code_points():
    for cp in range(0x110000):
        ch = chr(cp)
        cat = unicodedata.category(ch)
        if cat == "Cn":
            continue   # unassigned: text to plain_text (it depends on the Unicode version), except noncharacters
        assert plain_text.is_control(ch) == (cat[0] == "C" and cp != 0x200D), (hex(cp), cat)
    for cp in (0xFDD0, 0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF):
        assert plain_text.is_control(chr(cp))


ADDRESSES = st.builds(bytes, st.lists(st.sampled_from([0, 0, 0, 1, 255, 17]), min_size=16, max_size=16))


@given(ADDRESSES)
def test_ipv6_addresses_are_read_and_written_as_ipaddress_does(packed):
    text = str(ipaddress.IPv6Address(packed))
    assert sdp._ipv6_text(packed) == text
    assert sdp._ipv6_bytes(text) == packed
    assert sdp._ipv6_bytes(ipaddress.IPv6Address(packed).exploded) == packed


@pytest.mark.parametrize("text", ["1.2.3.4", "0.0.0.0", "255.255.255.255", "1.2.3.04", "256.1.1.1", "1.2.3", "1..2.3",
                                  "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1::2::3", ":1::",
                                  "::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1.2.3.4::", "12345::", "g::", "FD00::ABCD",
                                  "", ":", "a.local"])
def test_ip_addresses_are_recognised_as_ipaddress_does(text):
    try:
        ip = ipaddress.ip_address(text)
        expected = (ip.version, ip.packed)
    except ValueError:
        expected = None
    v4, v6 = sdp._ipv4_bytes(text), sdp._ipv6_bytes(text)
    assert ((4, v4) if v4 else (6, v6) if v6 else None) == expected


@given(st.binary(max_size=40))
def test_base64url_matches_the_standard_library(data):
    import base64  # noqa: PLC0415

    code = sdp.b64url_encode(data)
    assert code == base64.urlsafe_b64encode(data).decode().rstrip("=")
    assert sdp.b64url_decode(code) == data
