#!/usr/bin/env bash
# Side by side, in one command: snapsolve's SET finders against seed 003's Python
# (bench/python/seed003.py, needs numpy: pip install numpy). Extra arguments go to
# the example, e.g. `bench/set_vs_python.sh --layouts 20`.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c 'import numpy' 2>/dev/null || { echo "numpy is missing: pip install numpy" >&2; exit 1; }
exec cargo run --release -q -p snapsolve_set --example set_vs_python -- "$@"
