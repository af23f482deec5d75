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
# Two pytest workers per CPU (at most four): each has its own sandboxes, Qt application and
# temporary folders. Many tests wait on a sandbox's latency, a subprocess or a timeout, so one
# worker per CPU kept the 2-CPU CI machine about half idle (414 CPU-seconds in a 404 s run);
# four workers ran the same suite in about two thirds of the time.
workers=$(( $(nproc) * 2 ))
if [ "$workers" -gt 4 ]; then workers=4; fi
.venv/bin/python -m pytest -q -n "$workers" "$@"
