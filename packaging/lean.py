"""What the DNC Desk bundle leaves out, and how the spec makes PyInstaller leave it out.

The app draws its window with QtCore, QtGui and QtWidgets (plus the SVG icon engine), talks
HTTP through httpx rather than QtNetwork, and is English only. Everything else that PySide6's
and the packages' hooks would collect by default is excluded here; each exclusion says why it
is safe. ``packaging/build.py`` runs the frozen ``--self-test`` after every build, which
fails if something the app needs was cut (keyring backends, uvicorn, calamine, phone
metadata, holidays, the offscreen platform and the SVG icon all take part in it).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterable

# Python modules nothing in the app imports at run time. Most come in through an import
# inside ``if __name__ == "__main__":`` or an optional feature of a dependency.
PYTHON_EXCLUDES = (
    # the standard library's tools for developers
    "tkinter", "_tkinter", "turtle", "turtledemo", "idlelib", "lib2to3", "distutils",
    "ensurepip", "venv", "pydoc", "pydoc_data", "doctest", "pdb", "unittest", "test",
    "readline", "curses",  # only the interactive interpreter (pdb, code) uses them
    "xmlrpc",  # multiprocessing's XML-RPC listener and defusedxml's patch of it: unused
    # packaging and test tools that may sit in the build environment
    "setuptools", "pkg_resources", "pip", "wheel", "pytest", "_pytest", "pytestqt",
    "hypothesis", "mypy", "ruff", "psutil", "PyInstaller",
    # httpx's command-line client (httpx._main) and its syntax highlighter: httpx imports it
    # in a try block and works without it.
    "httpx._main", "pygments", "rich",
    # anyio's pytest plugin (the app's sandbox runs on uvicorn, not under pytest)
    "anyio.pytest_plugin",
    # phonenumbers: the app uses parsing, formatting and the geocoder's country names, not
    # carrier names or time zones.
    "phonenumbers.carrier", "phonenumbers.carrierdata", "phonenumbers.timezone",
    "phonenumbers.tzdata",
    # lxml: openpyxl uses lxml.etree only.
    "lxml.objectify", "lxml.html", "lxml.isoschematron", "lxml.doctestcompare",
    "lxml.usedoctest", "lxml.cssselect",
)  # fmt: skip

# PySide6 modules the app does not import. The hooks would add some of them (QtNetwork,
# QtDBus, QtOpenGL) because Qt's own libraries link them; the libraries stay when needed,
# only the unused Python bindings go.
QT_MODULE_EXCLUDES = tuple(
    f"PySide6.{name}"
    for name in (
        "QtNetwork", "QtDBus", "QtOpenGL", "QtOpenGLWidgets", "QtQml", "QtQuick",
        "QtQuickControls2", "QtQuickWidgets", "QtQuickTest", "QtQmlFeatures", "QtPdf",
        "QtPdfWidgets", "QtSql", "QtTest", "QtXml", "QtPrintSupport", "QtConcurrent",
        "QtDesigner", "QtHelp", "QtUiTools", "QtSvgWidgets", "QtLabsStyleKit",
        "QtMultimedia", "QtMultimediaWidgets", "QtWebEngineCore", "QtWebEngineWidgets",
        "Qt3DCore", "QtCharts", "QtDataVisualization", "QtBluetooth", "QtPositioning",
    )
)  # fmt: skip

# Qt plugin types dropped whole.
DROP_PLUGIN_TYPES = frozenset(
    {
        "egldeviceintegrations",  # the eglfs platform (embedded devices without a desktop)
        "generic",  # evdev/tslib/TUIO input for eglfs and linuxfb
        "networkinformation", "tls", "networkaccess",  # QtNetwork's; the app uses httpx
        "sqldrivers", "printsupport", "qmltooling", "designer", "multimedia",
    }
)  # fmt: skip

# Plugins kept only if named here (by file name without "lib", extension, or a "d" debug
# suffix); the other plugins of these types are dropped.
KEEP_ONLY = {
    # The app's images are its SVG/PNG icons (PNG is built into QtGui); ico for Windows.
    "imageformats": frozenset({"qsvg", "qico"}),
}

# Plugins dropped by name; the others of the type stay.
DROP_PLUGINS = {
    # Desktop platforms stay: xcb, wayland, windows, cocoa; offscreen runs the self-test.
    "platforms": frozenset(
        {"qeglfs", "qlinuxfb", "qvnc", "qvkkhrdisplay", "qminimal", "qminimalegl", "qdirect2d"}
    ),
    # The GTK 3 theme plugin loads GTK, GDK, cairo, pango and ATK (~20 MB) for native GTK
    # file dialogs. The app's Fusion style takes the colour scheme from Qt's built-in GNOME/
    # generic theme or the xdg-desktop-portal theme, and Qt's own file dialog serves.
    "platformthemes": frozenset({"qgtk3"}),
    # Shells of embedded/kiosk compositors and Qt-based compositors; desktops use xdg-shell.
    "wayland-shell-integration": frozenset(
        {"ivi-shell", "qt-shell", "fullscreen-shell-v1", "wl-shell-plugin"}
    ),
    # Server-buffer integrations, used only by clients of Qt Wayland Compositor servers.
    "wayland-graphics-integration-client": frozenset(
        {"dmabuf-server", "drm-egl-server", "shm-emulation-server", "vulkan-server"}
    ),
}

# Data files dropped by their path in the bundle: Qt's translations of its own dialogs (the
# app's text is English only and it installs no QTranslator).
DROP_DATA_PREFIXES = (os.path.join("PySide6", "Qt", "translations"),)


def plugin_name(filename: str) -> str:
    """``/x/libqgtk3.so`` -> ``qgtk3``; ``qwindows.dll`` -> ``qwindows``."""
    name = os.path.basename(filename)
    for suffix in (".so", ".dylib", ".dll"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if name.startswith("lib"):
        name = name[3:]
    return name


def keep_plugin(plugin_type: str, filename: str) -> bool:
    """Whether the bundle keeps this Qt plugin."""
    if plugin_type in DROP_PLUGIN_TYPES:
        return False
    name = plugin_name(filename)
    keep_only = KEEP_ONLY.get(plugin_type)
    if keep_only is not None:
        return name in keep_only
    return name not in DROP_PLUGINS.get(plugin_type, frozenset())


def keep_data(dest: str) -> bool:
    return not any(os.path.normpath(dest).startswith(p) for p in DROP_DATA_PREFIXES)


def _plugin_type_of(dest: str) -> str | None:
    parts = os.path.normpath(dest).split(os.sep)
    if "plugins" in parts:
        index = parts.index("plugins")
        if index + 1 < len(parts) - 1:
            return parts[index + 1]
    return None


def keep_binary(dest: str) -> bool:
    """For entries that reached the Analysis anyway: Qt plugins by the rules above."""
    plugin_type = _plugin_type_of(dest)
    return plugin_type is None or keep_plugin(plugin_type, dest)


def install_qt_plugin_filter(log: Callable[[str], None] = print) -> bool:
    """Make PyInstaller's Qt hook utilities skip the dropped plugins *before* binary
    dependency analysis, so the libraries only they need (GTK for the GTK theme, QtNetwork
    for the TLS plugins...) are not collected either. Returns False if PyInstaller's
    internals changed (the spec then still filters the plugins afterwards, with their
    dependencies left in)."""
    try:
        from PyInstaller.utils.hooks import qt as pyi_qt

        info_class = pyi_qt.QtLibraryInfo
        original = info_class.collect_plugins
    except (ImportError, AttributeError):
        log("lean: PyInstaller's Qt plugin collection changed; filtering after analysis only")
        return False
    if getattr(original, "_dnc_desk_filter", False):
        return True

    def collect_plugins(self: object, plugin_type: str) -> list[tuple[str, str]]:
        found = original(self, plugin_type)
        kept = [(src, dst) for src, dst in found if keep_plugin(plugin_type, src)]
        dropped = sorted(plugin_name(src) for src, _ in found if not keep_plugin(plugin_type, src))
        if dropped:
            log(f"lean: Qt plugins/{plugin_type}: left out {', '.join(dropped)}")
        return kept

    collect_plugins._dnc_desk_filter = True  # type: ignore[attr-defined]
    info_class.collect_plugins = collect_plugins
    return True


def filtered(
    toc: Iterable[tuple[str, str, str]], keep: Callable[[str], bool]
) -> list[tuple[str, str, str]]:
    """The TOC entries (dest, src, kind) whose destination ``keep`` accepts."""
    return [entry for entry in toc if keep(entry[0])]


def platform_icon(resources: str) -> str | None:
    """The icon file the executable carries: .ico on Windows, .icns on macOS (Linux uses the
    .desktop entry's icon set instead)."""
    if sys.platform == "win32":
        return os.path.join(resources, "dnc-desk.ico")
    if sys.platform == "darwin":
        return os.path.join(resources, "dnc-desk.icns")
    return None
