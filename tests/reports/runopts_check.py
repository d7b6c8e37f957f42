#!/usr/bin/python3
"""runopts_check.py GELUCHECK RUNOPTS_C: every long option of `gelucheck run --help` is in the
table of reports/runopts.c with the same arity (a value or none), and the table has no option
that run does not take.  The table is how the recorded command is read back (the report's
reproduce commands, --resume, gelucheck merge): an option missing there makes its value read as
a word of its own."""
import re
import subprocess
import sys

exe, src = sys.argv[1:3]
helptext = subprocess.run([exe, "run", "--help"], capture_output=True, text=True,
                          check=True).stdout
want = {}
for line in helptext.splitlines():
    m = re.match(r" {2,8}(?:-\w, )?--([a-z][a-z-]*)(?:[ =]([A-Z]\S*))?", line)
    if m:
        want[m.group(1)] = 1 if m.group(2) else 0
table = {name: int(v) for name, v in
         re.findall(r'\{\s*"([a-z-]+)",\s*([01])\s*\}', open(src).read())}
bad = []
for name, v in sorted(want.items()):
    if name not in table:
        bad.append("--%s (in run --help) is not in %s" % (name, src))
    elif table[name] != v:
        bad.append("--%s takes %s in run --help, %s in %s" % (
            name, "a value" if v else "no value", "a value" if table[name] else "none", src))
bad += ["--%s is in %s but not in run --help" % (n, src) for n in sorted(set(table) - set(want))]
print("\n".join(bad) or "runopts_check: the %d options of run --help are all in the table" % len(want))
sys.exit(1 if bad else 0)
