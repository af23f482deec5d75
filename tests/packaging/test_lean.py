"""packaging/lean.py leaves out only what the app does not use: every module the app imports
stays, and so do the Qt plugins it needs to show a window (and to run the self-test)."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported_modules() -> set[str]:
    """Every module named in an import statement under app/ (lazy imports included)."""
    names: set[str] = set()
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def excluded(name: str, excludes: tuple[str, ...]) -> bool:
    return any(name == e or name.startswith(e + ".") for e in excludes)


def test_nothing_the_app_imports_is_excluded(lean: ModuleType) -> None:
    excludes = (*lean.PYTHON_EXCLUDES, *lean.QT_MODULE_EXCLUDES)
    used = imported_modules()
    assert "PySide6.QtWidgets" in used and "keyring" in used  # the scan sees the app
    assert sorted(name for name in used if excluded(name, excludes)) == []


@pytest.mark.parametrize(
    "module",
    [
        "keyring.backends.SecretService", "keyring.backends.macOS", "keyring.backends.Windows",
        "secretstorage", "jeepney", "cryptography", "uvicorn.loops.asyncio",
        "uvicorn.protocols.http.httptools_impl", "httptools", "python_calamine",
        "phonenumbers.geocoder", "phonenumbers.geodata", "phonenumbers.data", "holidays",
        "dateutil", "lxml.etree", "lxml._elementpath", "openpyxl", "defusedxml", "sqlite3",
        "multiprocessing", "email", "PySide6.QtSvg", "PySide6.QtGui",
    ],
)  # fmt: skip
def test_dependencies_the_app_needs_stay(lean: ModuleType, module: str) -> None:
    assert not excluded(module, (*lean.PYTHON_EXCLUDES, *lean.QT_MODULE_EXCLUDES))


@pytest.mark.parametrize(
    ("plugin_type", "filename"),
    [
        ("platforms", "libqxcb.so"), ("platforms", "libqwayland.so"),
        ("platforms", "libqoffscreen.so"), ("platforms", "qwindows.dll"),
        ("platforms", "libqcocoa.dylib"), ("platformthemes", "libqxdgdesktopportal.so"),
        ("iconengines", "libqsvgicon.so"), ("imageformats", "libqsvg.so"),
        ("imageformats", "qico.dll"),
        ("platforminputcontexts", "libibusplatforminputcontextplugin.so"),
        ("xcbglintegrations", "libqxcb-glx-integration.so"),
        ("wayland-shell-integration", "libxdg-shell.so"),
        ("wayland-decoration-client", "libadwaita.so"),
        ("wayland-graphics-integration-client", "libqt-plugin-wayland-egl.so"),
        ("styles", "qmodernwindowsstyle.dll"),
    ],
)  # fmt: skip
def test_plugins_a_desktop_window_needs_stay(
    lean: ModuleType, plugin_type: str, filename: str
) -> None:
    assert lean.keep_plugin(plugin_type, f"/qt/plugins/{plugin_type}/{filename}")


@pytest.mark.parametrize(
    ("plugin_type", "filename"),
    [
        ("platformthemes", "libqgtk3.so"), ("platforms", "libqeglfs.so"),
        ("platforms", "libqvnc.so"), ("tls", "libqopensslbackend.so"),
        ("networkinformation", "libqnetworkmanager.so"), ("imageformats", "libqtiff.so"),
        ("imageformats", "libqwebp.so"), ("generic", "libqevdevtouchplugin.so"),
        ("egldeviceintegrations", "libqeglfs-x11-integration.so"),
    ],
)  # fmt: skip
def test_unused_plugins_go(lean: ModuleType, plugin_type: str, filename: str) -> None:
    assert not lean.keep_plugin(plugin_type, f"/qt/plugins/{plugin_type}/{filename}")


def test_filters_on_bundle_paths(lean: ModuleType) -> None:
    plugins = os.path.join("PySide6", "Qt", "plugins")
    toc = [
        (os.path.join(plugins, "platforms", "libqxcb.so"), "/src/a", "BINARY"),
        (os.path.join(plugins, "platformthemes", "libqgtk3.so"), "/src/b", "BINARY"),
        ("libQt6Core.so.6", "/src/c", "BINARY"),
    ]
    kept = [dest for dest, _, _ in lean.filtered(toc, lean.keep_binary)]
    assert kept == [toc[0][0], "libQt6Core.so.6"]
    assert not lean.keep_data(os.path.join("PySide6", "Qt", "translations", "qtbase_de.qm"))
    assert lean.keep_data(os.path.join("resources", "dnc-desk.svg"))
