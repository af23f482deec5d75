"""DNC Desk's icons, all rendered from ``resources/dnc-desk.svg`` with Qt's SVG renderer.

    python packaging/icons.py            rewrite resources/dnc-desk.ico and dnc-desk.icns
    python packaging/icons.py --check    exit 1 if they differ from a fresh rendering

The Windows ``.ico`` and the macOS ``.icns`` are committed (the spec points at them so the
same spec builds on every platform); both hold PNG images, which Windows Vista+ and macOS
10.7+ read, so they are written here with :mod:`struct` and no imaging library. The Linux
hicolor icon set is made at build time by ``packaging/build.py`` with :func:`write_hicolor`.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESOURCES = ROOT / "resources"
SVG = RESOURCES / "dnc-desk.svg"
ICO = RESOURCES / "dnc-desk.ico"
ICNS = RESOURCES / "dnc-desk.icns"

# Windows picks the nearest size for the taskbar, Explorer views and Alt+Tab.
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
# icns element types holding PNG data, by pixel size ("@2x" types are the Retina variants).
ICNS_TYPES = (
    (b"icp4", 16),
    (b"icp5", 32),
    (b"ic11", 32),  # 16@2x
    (b"icp6", 64),
    (b"ic12", 64),  # 32@2x
    (b"ic07", 128),
    (b"ic08", 256),
    (b"ic13", 256),  # 128@2x
    (b"ic09", 512),
    (b"ic14", 512),  # 256@2x
    (b"ic10", 1024),  # 512@2x
)
# The freedesktop.org hicolor theme's usual application icon sizes.
HICOLOR_SIZES = (16, 22, 24, 32, 48, 64, 96, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def render_png(size: int, svg: Path = SVG) -> bytes:
    """The SVG drawn on a transparent ``size`` x ``size`` square, as PNG bytes."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer
    from PySide6.QtWidgets import QApplication

    # A QApplication, not a QGuiApplication: in a process that later shows widgets (the test
    # run), a QGuiApplication made here would make every QWidget abort.
    if QApplication.instance() is None:
        _keep.append(QApplication(sys.argv[:1]))
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise ValueError(f"{svg} is not an SVG image Qt can draw")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not image.save(buffer, "PNG"):  # type: ignore[call-overload]
        raise RuntimeError("Qt could not encode a PNG")
    buffer.close()
    return bytes(data.data())


_keep: list[object] = []  # the QApplication made for rendering lives as long as the process


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICO file (ICONDIR, one ICONDIRENTRY per image, then the PNG payloads)."""
    sizes = sorted(pngs)
    header = struct.pack("<HHH", 0, 1, len(sizes))  # reserved, type 1 = icon, count
    offset = len(header) + 16 * len(sizes)
    entries, payloads = b"", b""
    for size in sizes:
        png = pngs[size]
        dim = 0 if size >= 256 else size  # 0 means 256 in the one-byte width/height fields
        # width, height, palette colours, reserved, colour planes, bits per pixel, size, offset
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset)
        payloads += png
        offset += len(png)
    return header + entries + payloads


def icns_bytes(pngs: dict[int, bytes]) -> bytes:
    """An ICNS file: 'icns' + total length, then (type, length incl. 8-byte header, PNG)."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size] for kind, size in ICNS_TYPES
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def render_all(sizes: tuple[int, ...] | set[int]) -> dict[int, bytes]:
    return {size: render_png(size) for size in sorted(set(sizes))}


def icon_files() -> dict[Path, bytes]:
    """The committed icon files as a fresh rendering makes them."""
    pngs = render_all(set(ICO_SIZES) | {size for _, size in ICNS_TYPES})
    return {
        ICO: ico_bytes({size: pngs[size] for size in ICO_SIZES}),
        ICNS: icns_bytes(pngs),
    }


def write_hicolor(share: Path) -> list[Path]:
    """``share/icons/hicolor/<N>x<N>/apps/dnc-desk.png`` for each size, plus the SVG as the
    scalable icon. Returns the files written."""
    written = []
    for size in HICOLOR_SIZES:
        target = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "dnc-desk.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(render_png(size))
        written.append(target)
    scalable = share / "icons" / "hicolor" / "scalable" / "apps" / "dnc-desk.svg"
    scalable.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SVG, scalable)
    written.append(scalable)
    return written


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for path, data in icon_files().items():
        if path.exists() and path.read_bytes() == data:
            continue
        if check:
            stale.append(path.name)
        else:
            path.write_bytes(data)
            print(f"wrote {path.relative_to(ROOT)} ({len(data) / 1024:.0f} KiB)")
    if stale:
        print(f"out of date with {SVG.name}: {', '.join(stale)}; run python packaging/icons.py")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
