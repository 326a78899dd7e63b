"""JUnit XML for CI systems that read it: a suite per catalog, a case per tool and per gate check.

A tool fails when it has a finding at or above the fail severity; the others
are listed in its system-out. A gate check fails when the check does. Text from
a catalog is written as every line-based report writes it (text.inline): a log
that prints the report reads no Azure `##vso[` command or terminal control in it.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

from catalint.run import Run
from catalint.text import inline


def format_junit(run: Run, statistics: bool = False) -> str:
    suites = ET.Element("testsuites", name="catalint")
    total = failures = errors = 0
    for fr in run.files:
        shown = inline(fr.catalog.display)
        suite = ET.SubElement(suites, "testsuite", name=shown)
        cases = fails = 0
        for tr in fr.tools:
            cases += 1
            case = ET.SubElement(suite, "testcase", classname=shown, name=inline(tr.tool.name))
            failing = [f for f in tr.findings if f.severity >= fr.fail_severity]
            if failing:
                fails += 1
                text = "\n".join(
                    f"{f.span.line}:{f.span.col} {f.code} [{f.severity}] {inline(f.message)}" for f in failing
                )
                failure = ET.SubElement(
                    case,
                    "failure",
                    message=f"{len(failing)} finding(s) at or above {fr.fail_severity}",
                    type=failing[0].code,
                )
                failure.text = text
            rest = [f for f in tr.findings if f.severity < fr.fail_severity]
            if rest:
                out = ET.SubElement(case, "system-out")
                out.text = "\n".join(
                    f"{f.span.line}:{f.span.col} {f.code} [{f.severity}] {inline(f.message)}" for f in rest
                )
        if fr.quality is not None:
            for row in fr.quality.gate:
                cases += 1
                case = ET.SubElement(suite, "testcase", classname=f"{shown}.gate", name=inline(row.check.target))
                if not row.passed:
                    fails += 1
                    ET.SubElement(case, "failure", message=inline(row.text), type="gate")
        suite.set("tests", str(cases))
        suite.set("failures", str(fails))
        suite.set("errors", "0")
        total += cases
        failures += fails
    for error in run.errors:
        errors += 1
        total += 1
        path = inline(error.path)
        suite = ET.SubElement(suites, "testsuite", name=path, tests="1", failures="0", errors="1")
        case = ET.SubElement(suite, "testcase", classname=path, name="load")
        ET.SubElement(case, "error", message=inline(str(error)), type="LoadError")
    suites.set("tests", str(total))
    suites.set("failures", str(failures))
    suites.set("errors", str(errors))
    ET.indent(suites)
    xml = ET.tostring(suites, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + _NOT_XML.sub(_spelt, xml) + "\n"


# Characters XML 1.0 does not allow even escaped (SEC-002 finds them in catalogs): shown as \xNN or \uNNNN,
# as the text report shows controls. Only text from the catalog can hold them, so the substitution touches
# no markup.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _spelt(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
