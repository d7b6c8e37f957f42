"""Checks JUnit XML files against the shape the common JUnit schema (Ant/Jenkins junit.xsd, as
read by Jenkins, GitLab and GitHub test reporters) requires, and that the counts agree:
  <testsuites name tests failures errors skipped time>
    <testsuite name tests failures errors skipped time>
      <properties><property name value/>...</properties>   (optional, first)
      <testcase classname name time>
        at most one of <failure message type>, <error message type>, <skipped message>
Every count is a non-negative integer equal to what the children hold; time is a number.
Usage: check_junit.py FILE.xml...  (exit 1 with one line per problem)."""
import sys
import xml.etree.ElementTree as ET

OUTCOMES = ("failure", "error", "skipped")


def need(el, attrs, where, problems):
    for a in attrs:
        if a not in el.attrib:
            problems.append(f"{where}: <{el.tag}> has no '{a}'")


def number(el, a, where, problems, integer=True):
    v = el.attrib.get(a)
    try:
        x = int(v) if integer else float(v)
        if x < 0:
            raise ValueError
        return x
    except (TypeError, ValueError):
        problems.append(f"{where}: <{el.tag}> {a}={v!r} is not a non-negative number")
        return None


def check_case(tc, where, problems):
    need(tc, ("classname", "name", "time"), where, problems)
    number(tc, "time", where, problems, integer=False)
    outs = [c for c in tc if c.tag in OUTCOMES]
    others = [c.tag for c in tc if c.tag not in OUTCOMES + ("system-out", "system-err")]
    if others:
        problems.append(f"{where}: unexpected <{others[0]}> in <testcase>")
    if len(outs) > 1:
        problems.append(f"{where}: more than one of failure, error, skipped")
    for o in outs:
        need(o, ("message", "type") if o.tag != "skipped" else ("message",), where, problems)
        if o.tag != "skipped" and not o.attrib.get("message"):
            problems.append(f"{where}: <{o.tag}> with an empty message")
    return outs[0].tag if outs else "pass"


def check_suite(ts, where, problems):
    need(ts, ("name", "tests", "failures", "errors", "skipped", "time"), where, problems)
    number(ts, "time", where, problems, integer=False)
    counts = {"tests": 0, "failure": 0, "error": 0, "skipped": 0, "pass": 0}
    seen_case = False
    for i, c in enumerate(ts):
        if c.tag == "properties":
            if seen_case or i != 0:
                problems.append(f"{where}: <properties> not first")
            for p in c:
                if p.tag != "property":
                    problems.append(f"{where}: <{p.tag}> in <properties>")
                need(p, ("name", "value"), where, problems)
        elif c.tag == "testcase":
            seen_case = True
            counts[check_case(c, f"{where} testcase {c.attrib.get('name')!r}", problems)] += 1
            counts["tests"] += 1
        elif c.tag not in ("system-out", "system-err"):
            problems.append(f"{where}: unexpected <{c.tag}> in <testsuite>")
    if counts["tests"] == 0:
        problems.append(f"{where}: no testcase")
    for attr, key in (("tests", "tests"), ("failures", "failure"), ("errors", "error"),
                      ("skipped", "skipped")):
        if number(ts, attr, where, problems) != counts[key]:
            problems.append(f"{where}: {attr}={ts.attrib.get(attr)} but {counts[key]} found")
    return counts


def check(path):
    problems = []
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return [f"{path}: not XML: {e}"]
    if root.tag != "testsuites":
        return [f"{path}: root is <{root.tag}>, want <testsuites>"]
    need(root, ("name", "tests", "failures", "errors", "skipped", "time"), path, problems)
    number(root, "time", path, problems, integer=False)
    total = {"tests": 0, "failure": 0, "error": 0, "skipped": 0, "pass": 0}
    names = set()
    for ts in root:
        if ts.tag != "testsuite":
            problems.append(f"{path}: unexpected <{ts.tag}> in <testsuites>")
            continue
        name = ts.attrib.get("name")
        if name in names:
            problems.append(f"{path}: two testsuites named {name!r}")
        names.add(name)
        for k, v in check_suite(ts, f"{path}: testsuite {name!r}", problems).items():
            total[k] += v
    for attr, key in (("tests", "tests"), ("failures", "failure"), ("errors", "error"),
                      ("skipped", "skipped")):
        if number(root, attr, path, problems) != total[key]:
            problems.append(f"{path}: <testsuites> {attr}={root.attrib.get(attr)} but "
                            f"{total[key]} found")
    return problems


def main():
    problems = [p for path in sys.argv[1:] for p in check(path)]
    for p in problems:
        print(p)
    if len(sys.argv) < 2:
        print("usage: check_junit.py FILE.xml...")
        return 2
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
