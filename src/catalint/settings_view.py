"""lint --show-settings: the settings one file is linted with, resolved, one setting a line (or, with
--output-format json, one JSON object)."""

from __future__ import annotations

import json

from catalint.config import FileIgnore, Settings, shown_path
from catalint.registry import matches
from catalint.text import one_line


def _strings(values: list[str]) -> str:
    return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in values) + "]"


def _severities(settings: Settings) -> str:
    """The [severity] overrides; when tables were laid over one another, each in the order laid ("then"):
    the topmost that names a rule decides it (DESC-009 = info, then DESC = critical: DESC-009 is critical)."""
    shown = [", ".join(f"{code} = {level.label}" for code, level in sorted(t.items())) for t in settings.levels()]
    return "; then ".join(part for part in shown if part) or "(defaults)"


def _file_codes(codes: list[str], entries: list[FileIgnore]) -> list[str]:
    """Of codes, those no per-file ignore in entries covers."""
    return [c for c in codes if not any(matches(r, c) for e in entries for r in e.rules)]


def describe(settings: Settings, file: str | None, flags: bool, folder: str = ".") -> str:
    """What lint would apply to file (or, with no file, to one in folder): the config file it comes
    from, then every setting as resolved, in the names the config uses."""
    source = shown_path(settings.path) if settings.path else "none (the built-in defaults)"
    if settings.extends:
        source += ", extending " + ", then ".join(shown_path(p) for p in settings.extends)
    codes = settings.enabled_codes()
    lines = [
        f"file: {file if file is not None else f'(no catalog found: the settings of the folder {folder})'}",
        f"config: {source}" + (", with command-line flags on top" if flags else ""),
        f"rules ({len(codes)} on): {', '.join(codes) or 'none'}",
        "severity: " + _severities(settings),
        f"fail-severity: {settings.fail_severity.label}",
        f"include: {_strings(settings.include)}",
        f"exclude: {_strings(settings.exclude)}",
        f"extend-include: {_strings(settings.extend_include)}",
        f"extend-exclude: {_strings(settings.extend_exclude)}",
        f"force-exclude: {'true' if settings.force_exclude else 'false'}",
        f"respect-gitignore: {'true' if settings.respect_gitignore else 'false'}",
    ]
    here = settings.file_entries(file) if file is not None else []
    for entry in settings.per_file_ignores:
        mark = " (takes in this file)" if entry in here else ""
        lines.append(f"per-file-ignores: {_strings([entry.pattern])} = {_strings(entry.rules)}{mark}")
    if here:
        left = _file_codes(codes, here)
        lines.append(f"rules for this file ({len(left)} on, after per-file-ignores): {', '.join(left) or 'none'}")
    for t in settings.per_tool_ignores:
        parts = [f"tools = {_strings(t.tools)}", f"rules = {_strings(t.rules)}"]
        parts += [f"files = {_strings(t.files)}"] if t.files else []
        parts += [f"reason = {json.dumps(t.reason, ensure_ascii=False)}"] if t.reason else []
        lines.append("per-tool-ignores: " + ", ".join(parts))
    checks = settings.gate_checks()
    lines.append("gate: " + (", ".join(f"{c.target} {c.expected()}" for c in checks) or "off"))
    lines.append(f"targets: {_strings(settings.targets)}")
    lines.append(f"tool-token-budget: {settings.tool_token_budget}")
    lines.append(f"catalog-token-budget: {settings.catalog_token_budget or 'none'}")
    return "".join(one_line(line) + "\n" for line in lines)


def describe_json(settings: Settings, file: str | None, flags: bool, folder: str = ".") -> str:
    """describe()'s settings as one JSON object, in the names the config uses."""
    checks = settings.gate_checks()
    codes = settings.enabled_codes()
    data = {
        "file": file,
        "folder": None if file is not None else folder,
        "config": shown_path(settings.path) if settings.path else None,
        "extends": [shown_path(p) for p in settings.extends],
        "command_line_flags": flags,
        "rules": codes,
        "severity": {code: level.label for code, level in sorted(settings.severity_table().items())},
        "fail-severity": settings.fail_severity.label,
        "include": settings.include,
        "exclude": settings.exclude,
        "extend-include": settings.extend_include,
        "extend-exclude": settings.extend_exclude,
        "force-exclude": settings.force_exclude,
        "respect-gitignore": settings.respect_gitignore,
        "file_rules": _file_codes(codes, settings.file_entries(file)) if file is not None else None,
        "per-file-ignores": [{"glob": i.pattern, "rules": i.rules, "in": i.source} for i in settings.per_file_ignores],
        "per-tool-ignores": [
            {"tools": t.tools, "rules": t.rules, "files": t.files, "reason": t.reason, "in": t.source}
            for t in settings.per_tool_ignores
        ],
        "gate": [{"target": c.target, "expected": c.expected()} for c in checks],
        "targets": settings.targets,
        "tool-token-budget": settings.tool_token_budget,
        "catalog-token-budget": settings.catalog_token_budget,
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
