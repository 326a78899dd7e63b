#!/usr/bin/env bash
# The GitHub Action's check step: `catalint check SUITE [--traces DIR]` (tool_quality gates and
# trace-scored agent scenarios). The markdown report goes to the log and the job summary, errors
# become annotations, `check-passed` an output; exits as `catalint check` does (0, 1 or 2).
# Inputs arrive only through the environment (INPUT_*), never spliced into the script.
set -uo pipefail

bin="${CATALINT_BIN:-catalint}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

prop() {  # a workflow-command property value
  local v="${1//'%'/%25}"
  v="${v//$'\r'/%0D}" && v="${v//$'\n'/%0A}" && v="${v//:/%3A}" && printf '%s' "${v//,/%2C}"
}

args=(check "$INPUT_SUITE" --output-format markdown -o "$work/check.md")
[ -n "${INPUT_TRACES:-}" ] && args+=(--traces "$INPUT_TRACES")
[ -n "${INPUT_CONFIG:-}" ] && args+=(--config "$INPUT_CONFIG")  # as the lint step: one config for every catalog

"$bin" "${args[@]}" 2> "$work/stderr.txt"
status=$?

[ -f "$work/check.md" ] && cat "$work/check.md"
# Each error line on stderr (FILE[:LINE:COL]: error: WHAT, or error: WHAT) as an annotation; notices stay
# plain. The file is what comes before the first ': error: ' (a server's stderr, quoted after it, may say
# ': error: ' again). A name with a backslash that is not there may be shown escaped (a control character, a
# leading '::' as \x3a:): such an annotation names no file rather than a wrong one.
while IFS= read -r line; do
  if [[ "$line" == "error: "* ]]; then
    what="${line#error: }"
    printf '::error title=catalint check::%s\n' "${what//'%'/%25}"
    continue
  elif [[ "$line" != *": error: "* ]]; then
    printf '%s\n' "$line" >&2
    continue
  fi
  file="${line%%: error: *}" what="${line#*: error: }" where=""
  if [[ "$file" =~ ^(.+):([0-9]+):([0-9]+)$ ]]; then
    file="${BASH_REMATCH[1]}" where="line=${BASH_REMATCH[2]},col=${BASH_REMATCH[3]}"
  fi
  if [[ "$file" == *\\* ]] && [ ! -e "$file" ]; then
    file="" where="" what="$line"
  fi
  printf '::error %stitle=catalint check::%s\n' "${file:+file=$(prop "$file")${where:+,$where},}" "${what//'%'/%25}"
done < "$work/stderr.txt"
if [ "$status" -eq 1 ]; then
  printf '::error file=%s,title=catalint check::a check of %s failed (see the job summary)\n' \
    "$(prop "$INPUT_SUITE")" "${INPUT_SUITE//'%'/%25}"
fi

echo "check-passed=$([ "$status" -eq 0 ] && echo true || echo false)" >> "${GITHUB_OUTPUT:-/dev/null}"
if [ "${INPUT_SUMMARY:-true}" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$work/check.md" ]; then
  cat "$work/check.md" >> "$GITHUB_STEP_SUMMARY"
fi
exit "$status"
