#!/usr/bin/env bash
# Installs everything DNC Desk needs on a fresh Debian/Ubuntu machine, then nothing more on a
# warm one: the Debian libraries Qt needs (only the missing ones), a virtualenv in .venv, and
# the project with its test extras (reinstalled only when pyproject.toml changed).
#   scripts/bootstrap.sh app    libraries for a real window (X11) too
#   scripts/bootstrap.sh test   libraries for offscreen tests and the Secret Service keyring tests
set -euo pipefail
mode=${1:-test}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

qt_debs="libglib2.0-0 libgl1 libegl1 libx11-6 libdbus-1-3 libfontconfig1 libfreetype6 libxkbcommon0"
x11_debs="xvfb xauth libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0
  libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0 libx11-xcb1"
keyring_debs="gnome-keyring dbus-x11 dbus-daemon"
case "$mode" in
  app) wanted="$qt_debs $x11_debs" ;;
  # libreoffice-calc: the export tests check that Calc reads our xlsx files with the same values.
  # locales: the request-date tests compile es_US and de_DE (localedef) to check that dates read
  # the same whatever the system's language. gnumeric: its ssconvert writes the .xls and .ods
  # files of zero-padded number formats the reader tests read (they skipped without it).
  test) wanted="$qt_debs $keyring_debs xvfb xauth libreoffice-calc locales gnumeric" ;;
  *) echo "usage: $0 [app|test]" >&2; exit 2 ;;
esac

if command -v dpkg >/dev/null 2>&1; then
  missing=""
  for pkg in $wanted; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing="$missing $pkg"
  done
  if [ -n "$missing" ]; then
    echo "Installing Debian packages:$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    # --no-install-recommends: without it dbus-x11/gnome-keyring pull in systemd.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
  fi
else
  echo "Not a Debian-like system: install Qt's runtime libraries yourself if PySide6 fails to load."
fi

python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "DNC Desk needs Python 3.11 or newer; set PYTHON=/path/to/python3.11" >&2
  exit 1
fi
if [ ! -x .venv/bin/python ]; then
  # Debian and Ubuntu ship venv's pip bootstrap (ensurepip) apart, as pythonX.Y-venv.
  if ! "$python" -c 'import ensurepip' >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    venv_deb=python$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')-venv
    echo "Installing Debian package: $venv_deb"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$venv_deb"
  fi
  "$python" -m venv .venv
fi
stamp=.venv/.dnc-desk-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[test]"
  echo "$want" > "$stamp"
fi
