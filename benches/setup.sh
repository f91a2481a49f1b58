#!/usr/bin/env bash
# Prepares the Python side of the inclusion benchmark: a virtualenv under target/bench-venv with
# libmata built from source. Safe to run again: every step checks first and says what it did.
set -euo pipefail

LIBMATA_VERSION="${LIBMATA_VERSION:-1.28.2}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/target/bench-venv"
py="$venv/bin/python"

if [[ -x "$py" ]]; then
    echo "setup: virtualenv $venv exists"
else
    python3 -m venv "$venv"
    echo "setup: created virtualenv $venv"
fi

# libmata builds its C++ core with cmake; pip's `cmake` package brings one without root. Its
# binary goes on PATH directly: the `bin/cmake` wrapper imports the `cmake` module, which pip's
# isolated build environment hides.
if command -v cmake >/dev/null 2>&1; then
    echo "setup: cmake found at $(command -v cmake)"
else
    if "$py" -c 'import cmake' 2>/dev/null; then
        echo "setup: cmake found in the virtualenv"
    else
        "$py" -m pip install --quiet cmake
        echo "setup: installed cmake into the virtualenv"
    fi
    PATH="$("$py" -c 'import cmake; print(cmake.CMAKE_BIN_DIR)'):$PATH"
    export PATH
fi

installed="$("$py" -c 'import importlib.metadata as m; print(m.version("libmata"))' 2>/dev/null || true)"
if [[ "$installed" == "$LIBMATA_VERSION" ]] && "$py" -c 'import libmata.nfa.nfa' 2>/dev/null; then
    echo "setup: libmata $installed already installed"
else
    echo "setup: building libmata $LIBMATA_VERSION from source (several minutes on two cores)"
    export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}"
    export MAKEFLAGS="${MAKEFLAGS:--j$(nproc)}"
    "$py" -m pip install --quiet --no-binary libmata "libmata==$LIBMATA_VERSION"
    echo "setup: installed libmata $("$py" -c 'import importlib.metadata as m; print(m.version("libmata"))')"
fi
