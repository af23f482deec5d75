#!/usr/bin/env bash
# The README's test command: install what is missing, then run the whole test suite offscreen.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/bootstrap.sh test
export QT_QPA_PLATFORM=offscreen
# Keep the suite away from the user's real config, data and keyring.
export DNC_DESK_CONFIG_DIR=${DNC_DESK_CONFIG_DIR:-$(mktemp -d)}
export DNC_DESK_DATA_DIR=${DNC_DESK_DATA_DIR:-$(mktemp -d)}
# One pytest worker per CPU (at most four): each has its own sandboxes, Qt application and
# temporary folders. On the 2-CPU CI machine this took the suite from 8 to 5 minutes.
.venv/bin/python -m pytest -q -n auto --maxprocesses 4 "$@"
