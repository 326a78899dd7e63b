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
in_repo=true  # a checkout with `path:` puts the repository below the workspace, where git cannot see it
no_repo="the workspace is not a git repository (actions/checkout with \`path:\` puts it in a folder below)"
if ! command -v git > /dev/null 2>&1; then
  in_repo=false no_repo="git is not installed on the runner"
elif ! said="$(git rev-parse --git-dir 2>&1 > /dev/null)"; then
  in_repo=false  # git's own words, unless it says there is no repository (dubious ownership, say)
  [[ "$said" == *"not a git repository"* ]] || no_repo="git cannot read the repository: $(printf '%s' "$said" | head -n 1)"
fi
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
  if [ "$in_repo" = false ]; then
    printf '::error title=catalint::only-new: %s; only-new needs the repository at the workspace root\n' "$no_repo"
    exit 2
  elif [ "$have_base" = false ]; then
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

# The annotations are held until the SARIF warning below is printed: GitHub shows the first 10 warnings of
# a step, and a warning printed after hundreds of findings' would never be seen.
"$bin" "${args[@]}" > "$work/annotations.txt" 2> "$work/stderr.txt"
status=$?
sarif_written="${INPUT_SARIF_FILE:-}"
[ "$status" -eq 2 ] && [ -n "$sarif_written" ] && [ ! -f "$sarif_written" ] && sarif_written=""
if [ -n "${INPUT_SARIF_FILE:-}" ] && [ "$only_new" = true ]; then
  # its notices were the first run's; an error (exit 2) is shown
  if ! "$bin" "${full[@]}" --output-format sarif -o "$INPUT_SARIF_FILE" --exit-zero > /dev/null 2> "$work/sarif.err"; then
    cat "$work/sarif.err" >> "$work/stderr.txt"
    status=2
    sarif_written=""  # the sarif-file output names only a report that was written
  fi
fi

if [ -f "$work/report.json" ]; then
  "$python" - "$work/report.json" "$sarif_written" "$work/warn.txt" >> "${GITHUB_OUTPUT:-/dev/null}" <<'PY'
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
fi
[ -f "$work/warn.txt" ] && cat "$work/warn.txt"
cat "$work/annotations.txt"
# A config or usage error (error: WHAT, or error: FILE:LINE:COL: WHAT) becomes an annotation, at its file
# when it names one, and so does a report that cannot be written (PATH: error: cannot write report: WHY);
# a catalog's errors are annotated by the github format already, and stay plain here.
while IFS= read -r line; do
  printf '%s\n' "$line" >&2
  if [[ "$line" == *": error: cannot write "* ]] && [[ "$line" != "error: "* ]]; then
    printf '::error title=catalint::%s\n' "${line//'%'/%25}"  # a report (sarif-file) that cannot be written
    continue
  fi
  [[ "$line" == "error: "* ]] || continue
  what="${line#error: }" file="" where=""
  if [[ "$what" =~ ^([^:]+):([0-9]+):([0-9]+):\ (.*)$ ]] && [ -f "${BASH_REMATCH[1]}" ]; then
    file="${BASH_REMATCH[1]}" where="line=${BASH_REMATCH[2]},col=${BASH_REMATCH[3]}" what="${BASH_REMATCH[4]}"
  fi
  props=""
  if [ -n "$file" ]; then
    file="${file//'%'/%25}" file="${file//:/%3A}" props="file=${file//,/%2C},$where,"
  fi
  printf '::error %stitle=catalint::%s\n' "$props" "${what//'%'/%25}"
done < "$work/stderr.txt"

if [ "${INPUT_SUMMARY:-true}" = "true" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$work/summary.md" ]; then
  step="$work/step.md"  # the whole summary, cut to GitHub's 1 MiB a step below (past that it shows none)
  : > "$step"
  if [ -f "$work/warn.txt" ]; then  # the SARIF warning, where it cannot be missed
    printf '> **Warning:** %s\n\n' "$(sed -e 's/^::warning title=catalint:://' "$work/warn.txt")" >> "$step"
  fi
  cat "$work/summary.md" >> "$step"
  if [ -n "$base" ] && [ -f "$work/report.json" ]; then
    if [ "$in_repo" = false ]; then
      printf '\n> What each catalog changed is not shown: %s.\n' "$no_repo" >> "$step"
    elif [ "$have_base" = false ]; then
      printf '\n> The base commit %s is not in this clone and could not be fetched, so what each catalog changed is not shown: give actions/checkout `fetch-depth: 0`.\n' "$base" >> "$step"
    fi
    # the linted catalogs (files.txt, NUL-separated: a file name may hold a line break, as git allows), and
    # beside each what it was at the base: N (new in the pull request), S (the same bytes: nothing to diff),
    # or C and its path there, its own or the one git sees it moved from (as --baseline-rev finds it); one
    # process for all, which asks git about moves once and compares every file in two git calls
    : > "$work/files.txt"
    : > "$work/olds.txt"
    [ "$have_base" = true ] && "$python" - "$work/report.json" "$base" "$work/files.txt" > "$work/olds.txt" \
      2>/dev/null <<'PY'
import json, os, subprocess, sys
from pathlib import Path

from catalint.diff import AtRevision
from catalint.loader import LoadError

rev = sys.argv[2]
files = [f["file"] for f in json.load(open(sys.argv[1]))["files"]]
with open(sys.argv[3], "w", encoding="utf-8", errors="surrogateescape") as listed:
    listed.write("".join(f + "\0" for f in files))
at = AtRevision(rev, Path.cwd())
olds = [at.path_at(f) for f in files]
same = [False] * len(files)
try:  # blob ids at the base and of the working files (filtered as git would store them), a batch each
    top_dir = at.top()
    asked = [i for i, old in enumerate(olds) if old and "\n" not in old + files[i]]
    if asked:
        specs = "".join(f"{rev}:{os.path.relpath(olds[i], top_dir)}\n" for i in asked)
        base = subprocess.run(["git", "cat-file", "--batch-check=%(objectname)"], input=specs,
                              capture_output=True, text=True, check=True).stdout.splitlines()
        now = subprocess.run(["git", "hash-object", "--stdin-paths"], input="".join(files[i] + "\n" for i in asked),
                             capture_output=True, text=True, check=True).stdout.splitlines()
        if len(base) == len(now) == len(asked):
            for i, b, n in zip(asked, base, now):
                if os.path.islink(files[i]) and b != n:  # git keeps a link as its target's path: compare that
                    link = os.fsencode(os.readlink(files[i]))
                    n = subprocess.run(["git", "hash-object", "--stdin"], input=link, capture_output=True,
                                       check=True).stdout.decode().strip()
                same[i] = b == n
except (OSError, subprocess.CalledProcessError, LoadError):
    pass  # each is diffed, as before
for old, unchanged in zip(olds, same):
    sys.stdout.write(("N" if not old else "S" if unchanged else "C" + os.path.relpath(old)) + "\0")
PY
    unchanged=0
    while [ "$have_base" = true ] && IFS= read -r -d '' file; do
      IFS= read -r -d '' was <&3 || was="N"
      old="${was:1}"
      if [ "${was:0:1}" = S ]; then
        unchanged=$((unchanged + 1))
      elif [ "${was:0:1}" = C ]; then
        head="$file" && [[ "$head" == -* ]] && head="./$head"  # a file named '--x.tools.json' is no option
        "$bin" diff "$base:$old" "$head" ${config[@]+"${config[@]}"} --output-format markdown >> "$step" \
          2> "$work/diff.err"
        diffed=$?
        cat "$work/diff.err" >&2
        if [ "$diffed" -eq 2 ]; then  # the base version does not parse, say: its error, not silence
          "$python" -c 'import sys; from catalint.formatters.md import code, text
said = open(sys.argv[2], encoding="utf-8", errors="replace").readline().strip() or "catalint diff failed"
print(f"\n### {code(sys.argv[1], table=False)}\n\nWhat it changed could not be shown: {text(said)}")' \
            "$file" "$work/diff.err" >> "$step"
        fi
      else
        "$python" -c 'import sys; from catalint.formatters.md import code
print(f"\n### {code(sys.argv[1], table=False)}\n\nNo catalog at this path in the base commit, nor one git sees moved here: new in this pull request.")' "$file" >> "$step"
      fi
    done < "$work/files.txt" 3< "$work/olds.txt"
    if [ "$unchanged" -gt 0 ]; then
      printf '\n%s linted catalog%s unchanged since the base commit.\n' "$unchanged" "$([ "$unchanged" -ne 1 ] && echo s)" >> "$step"
    fi
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
