#!/usr/bin/env bash
# Install catalint into its own virtual environment for the GitHub Action.
# In: CATALINT_PYTHON (the interpreter setup-python installed), CATALINT_VERSION (empty: this checkout).
# Out: CATALINT_BIN in $GITHUB_ENV, the catalint executable the lint step runs.
set -euo pipefail

python="${CATALINT_PYTHON:-python3}"
venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/catalint-venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
if [ -n "${CATALINT_VERSION:-}" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "catalint==${CATALINT_VERSION}"
else
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$GITHUB_ACTION_PATH"
fi
"$venv/bin/catalint" --version
echo "CATALINT_BIN=$venv/bin/catalint" >> "${GITHUB_ENV:-/dev/null}"
