"""The committed Windows .ico and macOS .icns (rendered from resources/dnc-desk.svg by
packaging/icons.py) are well-formed: read here with struct, independently of the writer."""

from __future__ import annotations

import struct
from pathlib import Path
from types import ModuleType

import pytest
from PySide6.QtGui import QImage

ROOT = Path(__file__).resolve().parents[2]
RESOURCES = ROOT / "resources"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
ICNS_PNG_SIZES = {
    b"icp4": 16, b"icp5": 32, b"icp6": 64, b"ic07": 128, b"ic08": 256, b"ic09": 512,
    b"ic10": 1024, b"ic11": 32, b"ic12": 64, b"ic13": 256, b"ic14": 512,
}  # fmt: skip


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height from the PNG's IHDR chunk (which must come first)."""
    assert png[:8] == PNG_SIGNATURE
    length, kind = struct.unpack(">I4s", png[8:16])
    assert kind == b"IHDR" and length == 13
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def read_ico(data: bytes) -> list[tuple[int, int, bytes]]:
    """(width, height, PNG) per image of an ICO file."""
    reserved, kind, count = struct.unpack("<HHH", data[:6])
    assert (reserved, kind) == (0, 1)
    images = []
    end_of_directory = 6 + 16 * count
    for index in range(count):
        entry = data[6 + 16 * index : 6 + 16 * (index + 1)]
        width, height, colours, zero, planes, bpp, size, offset = struct.unpack("<BBBBHHII", entry)
        assert (colours, zero, planes, bpp) == (0, 0, 1, 32)
        assert offset >= end_of_directory and offset + size <= len(data)
        images.append((width or 256, height or 256, data[offset : offset + size]))
    return images


def read_icns(data: bytes) -> list[tuple[bytes, bytes]]:
    """(type, payload) per element of an ICNS file; the elements must fill the file."""
    magic, total = struct.unpack(">4sI", data[:8])
    assert magic == b"icns" and total == len(data)
    elements, position = [], 8
    while position < total:
        kind, length = struct.unpack(">4sI", data[position : position + 8])
        assert length > 8 and position + length <= total
        elements.append((kind, data[position + 8 : position + length]))
        position += length
    assert position == total
    return elements


def assert_png(png: bytes, size: int) -> None:
    assert png.startswith(PNG_SIGNATURE)
    assert png_size(png) == (size, size)
    image = QImage.fromData(png, "PNG")
    assert not image.isNull() and image.width() == size and image.hasAlphaChannel()


def test_ico_holds_a_png_per_windows_size(icons: ModuleType) -> None:
    images = read_ico((RESOURCES / "dnc-desk.ico").read_bytes())
    assert [width for width, _, _ in images] == list(icons.ICO_SIZES)
    assert 256 in icons.ICO_SIZES and 16 in icons.ICO_SIZES
    for width, height, png in images:
        assert width == height
        assert_png(png, width)


def test_icns_holds_a_png_per_macos_type() -> None:
    elements = read_icns((RESOURCES / "dnc-desk.icns").read_bytes())
    kinds = [kind for kind, _ in elements]
    assert sorted(kinds) == sorted(ICNS_PNG_SIZES)
    for kind, png in elements:
        assert_png(png, ICNS_PNG_SIZES[kind])


def test_the_icons_show_the_svg() -> None:
    # The largest Windows image, drawn from the SVG: a blue shield (its centre column) on a
    # transparent corner, not an empty or opaque square.
    png = read_ico((RESOURCES / "dnc-desk.ico").read_bytes())[-1][2]
    image = QImage.fromData(png, "PNG")
    assert image.pixelColor(0, 0).alpha() == 0
    shield = image.pixelColor(128, 40)
    assert shield.alpha() == 255 and shield.blue() > shield.red()


def test_the_generator_writes_files_that_parse(icons: ModuleType) -> None:
    files = icons.icon_files()
    assert set(files) == {icons.ICO, icons.ICNS}
    assert len(read_ico(files[icons.ICO])) == len(icons.ICO_SIZES)
    assert len(read_icns(files[icons.ICNS])) == len(ICNS_PNG_SIZES)


@pytest.mark.parametrize(
    ("platform", "name"), [("win32", "dnc-desk.ico"), ("darwin", "dnc-desk.icns")]
)
def test_the_spec_gives_each_platform_its_icon(
    lean: ModuleType, monkeypatch: pytest.MonkeyPatch, platform: str, name: str
) -> None:
    monkeypatch.setattr(lean.sys, "platform", platform)
    icon = lean.platform_icon(str(RESOURCES))
    assert icon is not None and Path(icon).name == name and Path(icon).is_file()
    spec = (ROOT / "packaging" / "dnc-desk.spec").read_text()
    assert "icon=lean.platform_icon(str(RESOURCES))" in spec
    assert "bundle_identifier=BUNDLE_IDENTIFIER" in spec
    assert 'icon=str(RESOURCES / "dnc-desk.icns")' in spec
