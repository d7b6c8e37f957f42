#!/usr/bin/python3
"""Validates gelucheck results against the committed JSON Schema (gelucheck-result/1).

usage: validate_result.py SCHEMA [RESULT.json...]

Checks that SCHEMA is itself a valid draft-07 schema, then that each RESULT parses as strict
JSON (NaN, Infinity and -Infinity are refused: docs/design.md section 8 forbids non-finite
numbers) and validates.  Needs Debian's python3-jsonschema: run it with /usr/bin/python3.
Exit 0 when all are valid, 1 otherwise (each problem on stderr)."""
import json
import sys

import jsonschema


def no_constants(name):
    raise ValueError("non-finite number %s in the document" % name)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f, parse_constant=no_constants)
        except (OSError, ValueError) as e:
            print("%s: %s" % (path, e), file=sys.stderr)
            bad += 1
            continue
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:20]:
            where = "/".join(str(p) for p in e.absolute_path)
            print("%s: at /%s: %s" % (path, where, e.message[:300]), file=sys.stderr)
        bad += bool(errors)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
