"""Leaves out of a gelucheck result what the JUnit, compare and baseline tests never read and
what makes most of its bytes: the ulp suite's "binades", the tail suite's "depth" and the plot
curves ("curve").  Usage: trim.py IN.json OUT.json (see generate.sh)."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
for k in doc["kernels"]:
    for s in k["suites"]:
        m = s.get("metrics") or {}
        for key in ("binades", "depth", "curve"):
            m.pop(key, None)
        if isinstance(m.get("vs_exact"), dict):
            m["vs_exact"].pop("curve", None)
    if isinstance(k.get("vs_exact"), dict):
        k["vs_exact"].pop("curve", None)
with open(sys.argv[2], "w", encoding="utf-8") as f:
    json.dump(doc, f, indent=1, ensure_ascii=False)
    f.write("\n")
