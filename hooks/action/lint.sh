#!/usr/bin/env bash
# The GitHub Action's lint step: annotations on stdout, the markdown report in the job summary,
# SARIF on request, outputs for later steps; exits as `catalint lint` does (0, 1 or 2).
# Inputs arrive only through the environment (INPUT_*), never spliced into the script.
set -uo pipefail

bin="${CATALINT_BIN:-catalint}"
python="$(dirname "$bin")/python"
[ -x "$python" ] || python=python3
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The paths input: words separated by spaces or newlines. A word with a glob character (* ? [)
# that is not itself an existing path is expanded here, as GitHub users expect of a paths input
# (`servers/*.json`, `**/*.tools.json`): its matches stay whole words, spaces and all, and a
# pattern that matches nothing stops the step with one error line rather than reaching catalint
# as a file name. ** spans folders where bash has globstar (4.0 and later).
read -r -a words <<< "$(printf '%s' "${INPUT_PATHS:-.}" | tr '\n' ' ')"
paths=()
shopt -s globstar 2> /dev/null || true
for word in ${words[@]+"${words[@]}"}; do
  if [[ "$word" != *[\*\?\[]* ]] || [ -e "$word" ]; then
    [[ "$word" == -?* ]] && word="./$word"  # a path, even one that starts with a dash, is no option
    paths+=("$word")
    continue
  fi
  shopt -s nullglob
  matches=($word)  # unquoted on purpose: pathname expansion; the word holds no IFS character
  shopt -u nullglob
  if [ "${#matches[@]}" -eq 0 ]; then
    word="${word//'%'/%25}"
    printf '::error title=catalint::paths: %s matches no file or folder\n' "${word//$'\r'/%0D}"
    exit 2
  fi
  for match in "${matches[@]}"; do  # a file named '-x' or '--gate=...' is a file, not an option
    [[ "$match" == -* ]] && match="./$match"
    paths+=("$match")
  done
done
[ "${#paths[@]}" -gt 0 ] || paths=(.)
args=(lint "${paths[@]}")
config=()  # the config input, for every command that lints (lint and the summary's diff alike)
[ -n "${INPUT_CONFIG:-}" ] && config=(--config "$INPUT_CONFIG")
args+=(${config[@]+"${config[@]}"})
[ -n "${INPUT_FAIL_SEVERITY:-}" ] && args+=(--fail-severity "$INPUT_FAIL_SEVERITY")
while IFS= read -r check; do
  check="$(printf '%s' "$check" | tr -d '\r' | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')"
  [ -n "$check" ] && args+=(--gate "$check")
done <<< "${INPUT_GATE:-}"
base="${BASE_SHA:-}"
have_base=false  # the base commit is in the clone (actions/checkout fetches one commit by default)
wants_base=false  # only-new compares with it, the summary diffs against it
[ "${INPUT_ONLY_NEW:-false}" = "true" ] && wants_base=true
[ "${INPUT_SUMMARY:-true}" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && wants_base=true
if [ -n "$base" ] && [ "$wants_base" = true ]; then
  if [[ "$base" != -* ]] && ! git cat-file -e "$base^{commit}" 2> /dev/null; then  # a '-' would read as an option
    depth=()  # one commit into a shallow clone; a full clone stays full (--depth would make it shallow)
    [ "$(git rev-parse --is-shallow-repository 2> /dev/null)" = true ] && depth=(--depth=1)
    git fetch --quiet --no-tags ${depth[@]+"${depth[@]}"} origin "$base" > /dev/null 2>&1 || true  # its own remote
  fi
  git cat-file -e "$base^{commit}" 2> /dev/null && have_base=true
fi
full=("${args[@]}")  # the lint without only-new's baseline
only_new=false
if [ "${INPUT_ONLY_NEW:-false}" = "true" ] && [ -n "$base" ]; then
  if [ "$have_base" = false ]; then
    printf '::error title=catalint::only-new: the base commit %s is not in this clone and could not be fetched; give actions/checkout fetch-depth: 0\n' "$base"
    exit 2
  fi
  only_new=true
  args+=(--baseline-rev "$base")
fi
args+=(--output-format github --report "json:$work/report.json" --report "markdown:$work/summary.md")
# Code scanning takes an upload as all there is on its ref and compares a pull request's with the base
# branch's itself: with only-new, the SARIF still holds every finding (a second lint), or the alerts the
# pull request did not touch would show as fixed.
[ -n "${INPUT_SARIF_FILE:-}" ] && [ "$only_new" = false ] && args+=(--report "sarif:$INPUT_SARIF_FILE")

"$bin" "${args[@]}"
status=$?
if [ -n "${INPUT_SARIF_FILE:-}" ] && [ "$only_new" = true ]; then
  # its notices were the first run's; an error (exit 2) is shown
  if ! "$bin" "${full[@]}" --output-format sarif -o "$INPUT_SARIF_FILE" --exit-zero > /dev/null 2> "$work/sarif.err"; then
    cat "$work/sarif.err" >&2
    status=2
  fi
fi

if [ -f "$work/report.json" ]; then
  "$python" - "$work/report.json" "${INPUT_SARIF_FILE:-}" "$work/warn.txt" >> "${GITHUB_OUTPUT:-/dev/null}" <<'PY'
import json, os, sys

summary = json.load(open(sys.argv[1], encoding="utf-8"))["summary"]
sarif = sys.argv[2]
if sarif and os.path.isfile(sarif):  # code scanning's limits on one upload
    results = sum(len(run.get("results", [])) for run in json.load(open(sarif, encoding="utf-8"))["runs"])
    if results > 5000:
        with open(sys.argv[3], "w", encoding="utf-8") as warn:
            warn.write(
                f"::warning title=catalint::the SARIF report holds {results:,} results; code scanning keeps the"
                " first 5,000 of a run and rejects an upload of over 25,000 (ignore or fix some rules first)\n"
            )
severity = summary["by_severity"]
for key, value in (
    ("critical-count", severity.get("critical", 0)),
    ("warning-count", severity.get("warning", 0)),
    ("min-score", "" if summary["min_score"] is None else f"{summary['min_score']:.4f}"),
    ("mean-score", "" if summary["mean_score"] is None else f"{summary['mean_score']:.4f}"),
    ("sarif-file", sys.argv[2]),
):
    value = str(value)
    if "\n" in value or "\r" in value:  # a line break would start another output: GitHub's multiline form
        mark = "catalint_EOF"
        while mark in value:
            mark += "_"
        print(f"{key}<<{mark}\n{value}\n{mark}")
    else:
        print(f"{key}={value}")
PY
  [ -f "$work/warn.txt" ] && cat "$work/warn.txt"
fi

if [ "${INPUT_SUMMARY:-true}" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$work/summary.md" ]; then
  step="$work/step.md"  # the whole summary, cut to GitHub's 1 MiB a step below (past that it shows none)
  cp "$work/summary.md" "$step"
  if [ -n "$base" ] && [ -f "$work/report.json" ]; then
    # NUL-separated: a file name may hold a line break (git allows one)
    "$python" -c 'import json, sys; [sys.stdout.write(f["file"] + "\0") for f in json.load(open(sys.argv[1]))["files"]]' \
      "$work/report.json" > "$work/files.txt"
    if [ "$have_base" = false ]; then
      printf '\n> The base commit %s is not in this clone and could not be fetched, so what each catalog changed is not shown: give actions/checkout `fetch-depth: 0`.\n' "$base" >> "$step"
    fi
    # beside each, its path at the base: its own, or the one git sees it moved from (as --baseline-rev finds
    # it), empty for a catalog new in the pull request; one process for all, which asks git about moves once
    : > "$work/olds.txt"
    [ "$have_base" = true ] && "$python" - "$work/report.json" "$base" > "$work/olds.txt" 2>/dev/null <<'PY'
import json, os, sys
from pathlib import Path

from catalint.diff import AtRevision

at = AtRevision(sys.argv[2], Path.cwd())
for f in json.load(open(sys.argv[1]))["files"]:
    found = at.path_at(f["file"])
    sys.stdout.write((os.path.relpath(found) if found else "") + "\0")
PY
    while [ "$have_base" = true ] && IFS= read -r -d '' file; do
      IFS= read -r -d '' old <&3 || old=""
      if [ -n "$old" ]; then
        head="$file" && [[ "$head" == -* ]] && head="./$head"  # a file named '--x.tools.json' is no option
        "$bin" diff "$base:$old" "$head" ${config[@]+"${config[@]}"} --output-format markdown >> "$step" || true
      else
        "$python" -c 'import sys; from catalint.formatters.md import code
print(f"\n### {code(sys.argv[1], table=False)}\n\nNo catalog at this path in the base commit, nor one git sees moved here: new in this pull request.")' "$file" >> "$step"
      fi
    done < "$work/files.txt" 3< "$work/olds.txt"
  fi
  "$python" - "$step" >> "$GITHUB_STEP_SUMMARY" <<'PY' || head -c 1048576 "$step" >> "$GITHUB_STEP_SUMMARY"
import sys

from catalint.formatters.markdown import limit

note = (
    "\n\n> The job summary was cut here to stay under GitHub's 1 MiB;"
    " run `catalint lint` and `catalint diff` for the rest.\n"
)
text = limit(open(sys.argv[1], encoding="utf-8").read(), note)
sys.stdout.buffer.write(text.encode("utf-8", "backslashreplace"))
PY
fi
exit "$status"
