#!/usr/bin/python3
"""same_result.py MERGED.json SINGLE.json N: whether the result that `gelucheck merge` joined
from N shards is the one the run without --shard wrote (scripts/slurm-demo, scripts/publish's
tests).  Standard library only.

What is compared: both files are read as bytes (UTF-8) and split into their top-level members;
each file with its members "timing" and "shard" cut out (from the member's name up to the
next member's name, or to the closing brace) must be the same bytes as the other: every other
member in the same order, with the same name, value and layout, byte for byte.  "shard" itself must
be {"index": 0, "count": 1, "merged": N} in MERGED and {"index": 0, "count": 1} in SINGLE;
"timing" (wall times, thread counts) is not compared.  Exit 0 when equal, 1 when not.
"""
import json
import sys

SKIP = ("timing", "shard")


def split(path):
    """The file's text without its SKIP members, and the SKIP members' values (parsed)."""
    with open(path, "rb") as f:
        text = f.read().decode("utf-8")
    dec = json.JSONDecoder()

    def ws(i):
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    i = ws(0)
    if i >= len(text) or text[i] != "{":
        sys.exit("same_result: %s: not a JSON object" % path)
    i = ws(i + 1)
    kept, skipped, start = [], {}, 0
    while text[i] != "}":
        key_at = i
        name, i = dec.raw_decode(text, i)
        i = ws(i)
        i = ws(i + 1)  # the ':'
        value, end = dec.raw_decode(text, i)
        i = ws(end)
        if text[i] == ",":
            i = ws(i + 1)
        if name in SKIP:
            kept.append(text[start:key_at])
            start = i
            skipped[name] = value
    kept.append(text[start:])
    return "".join(kept), skipped


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: same_result.py MERGED.json SINGLE.json N")
    n = int(sys.argv[3])
    merged, ms = split(sys.argv[1])
    single, ss = split(sys.argv[2])
    ok = True
    if merged != single:
        at = next((i for i, (a, b) in enumerate(zip(merged, single)) if a != b),
                  min(len(merged), len(single)))
        print("same_result: the results differ outside \"timing\" and \"shard\", first at "
              "character %d of %d and %d:\n  merged: %r\n  single: %r"
              % (at, len(merged), len(single), merged[at - 40:at + 80], single[at - 40:at + 80]))
        ok = False
    if ms.get("shard") != {"index": 0, "count": 1, "merged": n}:
        print('same_result: merged "shard" is %r, want index 0, count 1, merged %d'
              % (ms.get("shard"), n))
        ok = False
    if ss.get("shard") != {"index": 0, "count": 1}:
        print('same_result: single "shard" is %r' % (ss.get("shard"),))
        ok = False
    if ok:
        print('same_result: identical byte for byte outside "timing" and "shard" (%d bytes '
              'compared); "shard" says merged from %d' % (len(merged.encode()), n))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
