#!/usr/bin/env bash
# subst's learners (L*, L#) against AALpy's (L*, KV, L#) end to end: prepare a virtualenv with
# AALpy outside the repository (AALPY_VENV, default ~/.cache/subst/bench-venv-aalpy), then
# generate the targets, learn each with every learner and print the table
# (benches/learning_vs_aalpy.py; its options pass through, e.g. --sets learnlib,random,fsp,
# --only random-n20 or --time-limit 600). See benches/LEARNING.md.
set -euo pipefail

AALPY_VERSION="${AALPY_VERSION:-2.0.0}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${AALPY_VENV:-$HOME/.cache/subst/bench-venv-aalpy}"
mkdir -p "$(dirname "$venv")"
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
