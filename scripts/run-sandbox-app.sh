#!/usr/bin/env bash
# The README's run command: install what is missing, then open DNC Desk on the local sandbox.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash scripts/bootstrap.sh app
exec .venv/bin/dnc-desk --sandbox "$@"
