#!/bin/sh
# Install DNC Desk from the unpacked linux tar.gz (the folder this script is in).
#   ./install.sh                 for the current user, below ~/.local
#   PREFIX=/opt/dnc ./install.sh for everyone (as root), below PREFIX
#   ./install.sh --uninstall     remove what install.sh put there
# Puts the bundle in PREFIX/lib/dnc-desk, the command in PREFIX/bin, the menu entry in
# PREFIX/share/applications and the icons in PREFIX/share/icons/hicolor.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${PREFIX:-$HOME/.local}
app="$prefix/lib/dnc-desk"
entry="$prefix/share/applications/dnc-desk.desktop"

if [ "${1:-}" = "--uninstall" ]; then
  rm -rf "$app"
  rm -f "$prefix/bin/dnc-desk" "$entry"
  find "$prefix/share/icons/hicolor" -name 'dnc-desk.*' -path '*/apps/*' -exec rm -f {} + 2>/dev/null || true
  echo "DNC Desk removed from $prefix"
  exit 0
fi

mkdir -p "$prefix/lib" "$prefix/bin" "$prefix/share/applications" "$prefix/share/icons"
rm -rf "$app"
cp -R "$here/dnc-desk" "$app"
ln -sf "$app/dnc-desk" "$prefix/bin/dnc-desk"
cp -R "$here/share/icons/hicolor" "$prefix/share/icons/"
# The menu entry runs the installed command by its full path (PREFIX/bin may not be on PATH).
sed "s|^Exec=dnc-desk|Exec=$prefix/bin/dnc-desk|" "$here/share/applications/dnc-desk.desktop" > "$entry"
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q "$prefix/share/applications" || true
fi
# A newer folder time tells icon caches to look again (no icon-theme.cache is written here:
# a cache in ~/.local would hide the icons other programs add later).
touch "$prefix/share/icons/hicolor"
echo "DNC Desk installed: $prefix/bin/dnc-desk (menu entry $entry)"
echo "Check it with: $prefix/bin/dnc-desk --self-test"
