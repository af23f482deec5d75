"""Build the DNC Desk desktop bundle on this machine and prove that it works.

    .venv/bin/python -m pip install -e ".[packaging]"
    .venv/bin/python packaging/build.py [--no-build] [--no-archive]

1. PyInstaller builds the one-folder bundle from packaging/dnc-desk.spec (``--clean``) into
   dist/dnc-desk/ (on macOS also "dist/DNC Desk.app").
2. The frozen ``dist/dnc-desk/dnc-desk --self-test`` runs offscreen: sandbox, main window,
   DNC and SMS opt-out searches, an xlsx export read back (see app/cli/self_test.py).
3. On Linux: dist/linux/share/ gets the .desktop entry and the hicolor icon set rendered from
   resources/dnc-desk.svg, and dist/dnc-desk-<version>-linux-<arch>.tar.gz packs the bundle
   with them and install.sh.

It prints the build time, the bundle's size, the self-test's line and time, and the archive's
size, and exits non-zero if the build or the self-test failed. ``--no-build`` reuses the
bundle in dist/ (to re-run the self-test or repackage).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tarfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGING = ROOT / "packaging"
DIST = ROOT / "dist"
WORK = ROOT / "build"
NAME = "dnc-desk"
SELF_TEST_TIMEOUT = 300


def version() -> str:
    return str(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"])


def executable(bundle: Path) -> Path:
    return bundle / (f"{NAME}.exe" if sys.platform == "win32" else NAME)


def build_bundle() -> Path:
    """Run PyInstaller (a clean build); returns the bundle folder."""
    subprocess.run(  # noqa: S603  (this interpreter, fixed arguments)
        [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level", "WARN",
         "--distpath", str(DIST), "--workpath", str(WORK), str(PACKAGING / f"{NAME}.spec")],
        check=True,
    )  # fmt: skip
    return DIST / NAME


def tree_size(folder: Path) -> int:
    """Bytes of the files below ``folder`` (symbolic links count as links, not targets)."""
    total = 0
    for path in folder.rglob("*"):
        info = path.lstat()
        if path.is_symlink() or path.is_file():
            total += info.st_size
    return total


def mib(size: int) -> str:
    return f"{size / 2**20:.1f} MiB"


def run_self_test(binary: Path) -> tuple[int, str, float]:
    """The frozen ``--self-test``, offscreen: (exit code, its output, seconds)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    started = time.perf_counter()
    try:
        result = subprocess.run(  # noqa: S603  (the bundle just built)
            [str(binary), "--self-test"],
            env=env,
            capture_output=True,
            text=True,
            timeout=SELF_TEST_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        return 124, f"no result within {SELF_TEST_TIMEOUT} s", time.perf_counter() - started
    output = (result.stdout + result.stderr).strip()
    return result.returncode, output, time.perf_counter() - started


def linux_share(share: Path) -> list[Path]:
    """The .desktop entry and the hicolor icon set below ``share``."""
    sys.path.insert(0, str(PACKAGING))
    import icons

    if share.exists():
        shutil.rmtree(share)
    applications = share / "applications"
    applications.mkdir(parents=True)
    desktop = applications / f"{NAME}.desktop"
    shutil.copyfile(PACKAGING / f"{NAME}.desktop", desktop)
    return [desktop, *icons.write_hicolor(share)]


def linux_archive(bundle: Path, share: Path, out_dir: Path, release: str) -> Path:
    """``<out_dir>/dnc-desk-<release>-linux-<arch>.tar.gz`` holding, below one folder of the
    same name: the bundle (dnc-desk/), share/ (menu entry, icons) and install.sh."""
    top = f"{NAME}-{release}-linux-{platform.machine()}"
    archive = out_dir / f"{top}.tar.gz"

    def owned_by_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = "root"
        return info

    with tarfile.open(archive, "w:gz", compresslevel=6) as tar:
        tar.add(bundle, arcname=f"{top}/{NAME}", filter=owned_by_root)
        tar.add(share, arcname=f"{top}/share", filter=owned_by_root)
        tar.add(PACKAGING / "install.sh", arcname=f"{top}/install.sh", filter=owned_by_root)
    return archive


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-build", action="store_true", help="reuse the bundle in dist/")
    parser.add_argument("--no-archive", action="store_true", help="skip the Linux tar.gz")
    args = parser.parse_args(argv)

    if sys.platform.startswith("linux") and not args.no_build and not shutil.which("objdump"):
        print("PyInstaller needs binutils (objdump, strip): apt-get install binutils",
              file=sys.stderr)  # fmt: skip
        return 2
    started = time.perf_counter()
    if args.no_build:
        bundle = DIST / NAME
        if not executable(bundle).exists():
            print(f"no bundle in {bundle}; build it first", file=sys.stderr)
            return 2
    else:
        bundle = build_bundle()
    build_seconds = time.perf_counter() - started
    size = tree_size(bundle)
    print(f"bundle: {bundle} ({mib(size)}), built in {build_seconds:.0f} s", flush=True)

    code, output, test_seconds = run_self_test(executable(bundle))
    print(f"frozen self-test ({test_seconds:.1f} s): {output}", flush=True)

    if sys.platform.startswith("linux"):
        files = linux_share(DIST / "linux" / "share")
        icon_count = sum(1 for f in files if f.suffix in (".png", ".svg"))
        print(f"linux: {files[0].relative_to(ROOT)} and {icon_count} hicolor icons in "
              f"{(DIST / 'linux' / 'share' / 'icons').relative_to(ROOT)}")  # fmt: skip
        if not args.no_archive:
            packed = time.perf_counter()
            archive = linux_archive(bundle, DIST / "linux" / "share", DIST, version())
            print(
                f"archive: {archive.relative_to(ROOT)} ({mib(archive.stat().st_size)}, "
                f"packed in {time.perf_counter() - packed:.0f} s)"
            )
    total = time.perf_counter() - started
    verdict = "passed" if code == 0 else f"FAILED (exit {code})"
    print(
        f"summary: build {build_seconds:.0f} s, bundle {mib(size)}, self-test {verdict} "
        f"in {test_seconds:.1f} s, total {total:.0f} s",
        flush=True,
    )
    return 0 if code == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
