#!/usr/bin/env bash
# The inclusion comparison end to end: prepare the virtualenv (benches/setup.sh), then generate
# the pairs, run subst and libmata on each under a time limit, and print the tables
# (benches/run.py; its options pass through, e.g. --sizes 100,300 --time-limit 30).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/setup.sh"
exec "$here/../target/bench-venv/bin/python" "$here/run.py" "$@"
