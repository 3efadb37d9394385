"""The QR encoder for invite links (site/webui/qr.py), checked module for module
against the ``qrcode`` package (when installed) at every version and mask."""

from __future__ import annotations


import pytest

from webui import qr  # noqa: E402


def reference(text: str, version: int, level: str, mask: int):
    import qrcode  # pinned in requirements-dev.txt
    from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q

    ec = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}[level]
    q = qrcode.QRCode(version=version, error_correction=ec, mask_pattern=mask, border=0)
    q.add_data(qrcode.util.QRData(text.encode(), mode=qrcode.util.MODE_8BIT_BYTE))
    q.make(fit=False)
    return [[bool(v) for v in row] for row in q.get_matrix()]


URL = "https://bg.example/index.html?mode=friend#join=EAHx" + "Ab9_-" * 30


@pytest.mark.parametrize("level", ["L", "M", "Q", "H"])
@pytest.mark.parametrize("version", [1, 2, 5, 7, 9, 10, 14, 22, 40])
def test_matches_the_reference_encoder(version, level):
    cap = qr.data_codewords(version, level) - (2 if version <= 9 else 3)
    text = (URL * 40)[: min(cap, 40 + version * 9)]
    mask = version % 8
    assert qr.matrix(text, level, version=version, mask=mask) == reference(text, version, level, mask)


def test_capacity_table_matches_the_standard():
    # byte-mode capacities from ISO/IEC 18004 table 7
    assert [qr.data_codewords(v, "M") - 2 for v in (1, 2, 3, 9)] == [14, 26, 42, 180]
    assert qr.data_codewords(40, "L") - 3 == 2953


def test_invite_link_fits_a_phone_friendly_version():
    m = qr.matrix(URL, "M")
    assert len(m) <= 4 * 13 + 17


def test_mask_choice_and_svg():
    m = qr.matrix("hello world")
    assert any(m == qr.matrix("hello world", mask=k) for k in range(8))
    s = qr.svg("hello world")
    assert s.startswith("<svg") and 'role="img"' in s and "<script" not in s
    with pytest.raises(ValueError):
        qr.matrix("x" * 3000, "H")
