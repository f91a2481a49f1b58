#!/usr/bin/env bash
# The L* comparison of subst with AALpy end to end: prepare a virtualenv with AALpy under
# target/bench-venv-aalpy (never in git), then generate the targets, learn each with both tools
# and print the table (benches/learning_vs_aalpy.py; its options pass through, e.g.
# --only random-n20 or --time-limit 600). See benches/LEARNING.md.
set -euo pipefail

AALPY_VERSION="${AALPY_VERSION:-2.0.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/../target/bench-venv-aalpy"
py="$venv/bin/python"

if [[ -x "$py" ]]; then
    echo "setup: virtualenv $venv exists" >&2
else
    python3 -m venv "$venv"
    echo "setup: created virtualenv $venv" >&2
fi
installed="$("$py" -c 'import importlib.metadata as m; print(m.version("aalpy"))' 2>/dev/null || true)"
if [[ "$installed" == "$AALPY_VERSION" ]]; then
    echo "setup: aalpy $installed already installed" >&2
else
    "$py" -m pip install --quiet "aalpy==$AALPY_VERSION"
    echo "setup: installed aalpy $AALPY_VERSION" >&2
fi
exec "$py" "$here/learning_vs_aalpy.py" "$@"
