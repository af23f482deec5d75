"""The Linux side of packaging/build.py on a stand-in bundle: the .desktop entry, the hicolor
icon set, the tar.gz's layout, and install.sh installing and removing it. (The real bundle is
built and its frozen self-test run by ``python packaging/build.py``, which CI runs.)"""

from __future__ import annotations

import configparser
import os
import stat
import subprocess
import sys
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux packaging")


def desktop_entry(path: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(path, encoding="utf-8")
    return parser


def test_desktop_entry_names_the_command_and_the_icon() -> None:
    entry = desktop_entry(ROOT / "packaging" / "dnc-desk.desktop")
    main = entry["Desktop Entry"]
    assert main["Type"] == "Application"
    assert main["Name"] == "DNC Desk"
    assert main["Exec"] == "dnc-desk"
    assert main["Icon"] == "dnc-desk"  # the hicolor icons' name
    assert main["Terminal"] == "false"
    assert main["Categories"].endswith(";")
    assert main["StartupWMClass"] == "dnc-desk"  # QApplication.setDesktopFileName
    for action in main["Actions"].rstrip(";").split(";"):
        assert entry[f"Desktop Action {action}"]["Exec"].startswith("dnc-desk ")


@pytest.fixture
def fake_bundle(tmp_path: Path) -> Path:
    """A folder shaped like dist/dnc-desk whose executable only echoes its arguments."""
    bundle = tmp_path / "dist" / "dnc-desk"
    (bundle / "_internal").mkdir(parents=True)
    (bundle / "_internal" / "base_library.zip").write_bytes(b"stand-in")
    program = bundle / "dnc-desk"
    program.write_text('#!/bin/sh\necho "stand-in dnc-desk $*"\n')
    program.chmod(0o755)
    return bundle


def test_archive_holds_bundle_menu_entry_icons_and_installer(
    build: ModuleType, fake_bundle: Path, tmp_path: Path
) -> None:
    share = tmp_path / "share"
    files = build.linux_share(share)
    sizes = [16, 22, 24, 32, 48, 64, 96, 128, 256, 512]
    for size in sizes:
        png = share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "dnc-desk.png"
        assert png in files
        assert png.read_bytes()[16:24] == size.to_bytes(4, "big") * 2  # IHDR width, height
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / "dnc-desk.svg").is_file()

    archive = build.linux_archive(fake_bundle, share, tmp_path, "9.9.9")
    top = archive.name.removesuffix(".tar.gz")
    assert top.startswith("dnc-desk-9.9.9-linux-")
    with tarfile.open(archive) as tar:
        members = {m.name: m for m in tar.getmembers()}
        assert all(m.uid == 0 and m.uname == "root" for m in members.values())
        for name in (
            "dnc-desk/dnc-desk", "dnc-desk/_internal/base_library.zip", "install.sh",
            "share/applications/dnc-desk.desktop", "share/icons/hicolor/48x48/apps/dnc-desk.png",
        ):  # fmt: skip
            assert f"{top}/{name}" in members
        for name in ("dnc-desk/dnc-desk", "install.sh"):
            assert members[f"{top}/{name}"].mode & stat.S_IXUSR
        tar.extractall(tmp_path / "unpacked", filter="data")

    unpacked = tmp_path / "unpacked" / top
    prefix, home = tmp_path / "prefix", tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "PREFIX": str(prefix), "HOME": str(home)}
    subprocess.run(["sh", str(unpacked / "install.sh")], env=env, check=True, capture_output=True)
    command = prefix / "bin" / "dnc-desk"
    ran = subprocess.run([str(command), "--self-test"], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "stand-in dnc-desk --self-test"
    installed = desktop_entry(prefix / "share" / "applications" / "dnc-desk.desktop")
    assert installed["Desktop Entry"]["Exec"] == str(command)
    assert installed["Desktop Action sandbox"]["Exec"] == f"{command} --sandbox"
    icon = prefix / "share" / "icons" / "hicolor" / "256x256" / "apps" / "dnc-desk.png"
    assert icon.is_file()
    assert not (prefix / "share" / "icons" / "hicolor" / "icon-theme.cache").exists()
    assert not list(home.iterdir())  # PREFIX was honoured

    subprocess.run(
        ["sh", str(unpacked / "install.sh"), "--uninstall"], env=env, check=True,
        capture_output=True,
    )  # fmt: skip
    assert not command.exists() and not command.is_symlink()
    assert not (prefix / "lib" / "dnc-desk").exists()
    assert not list(prefix.rglob("dnc-desk*"))
