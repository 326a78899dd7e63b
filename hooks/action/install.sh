#!/usr/bin/env bash
# Install catalint into its own virtual environment for the GitHub Action, from the action's own checkout
# (the ref a workflow pins in `uses:` pins catalint; nothing is taken from the package index by name).
# In: CATALINT_PYTHON (the interpreter setup-python installed).
# Out: CATALINT_BIN in $GITHUB_ENV, the catalint executable the lint step runs.
set -euo pipefail

if [ "${RUNNER_OS:-}" = "Windows" ]; then  # the steps run the environment's bin/ folder, which Windows lacks
  echo "::error title=catalint::the catalint action runs on Linux and macOS runners; on Windows, run \`pip install\` and \`catalint lint\` in a step of your own"
  exit 2
fi
python="${CATALINT_PYTHON:-python3}"
venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/catalint-venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$GITHUB_ACTION_PATH"
"$venv/bin/catalint" --version
echo "CATALINT_BIN=$venv/bin/catalint" >> "${GITHUB_ENV:-/dev/null}"
