#!/usr/bin/env bash
# The README's run command: install what is missing, then open DNC Desk on the local sandbox.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/bootstrap.sh app
# The command is installed in the virtualenv, not on PATH, and a script cannot change its
# caller's PATH: say the two ways to run it, quoted to be pasted as they are (black-box s31).
printf 'The dnc-desk command is in the virtualenv, not on PATH: run it as\n  %q --help\n' \
  "$root/.venv/bin/dnc-desk"
printf 'or, to type dnc-desk in a shell, first run\n  . %q\n' "$root/.venv/bin/activate"
exec .venv/bin/dnc-desk --sandbox "$@"
