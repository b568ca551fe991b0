#!/usr/bin/env python3
"""Check that a shared library exports exactly the functions of the ABI table.

Runs `nm -D --defined-only` on the library and compares its exported function
symbols (types T/t, W/w and i) with the `name` column of client/abi/acl_api.tsv.
Prints every missing and every extra function; exits 0 only if the sets are equal.
Exported data symbols are listed as notes but do not fail the check.

With --header H (repeatable) only the functions the table lists for header H are
expected, and the library must export each of them; other exports are allowed.
This checks a library under one of CANN's per-header names, e.g. libacl_rtc.so
(a symlink to libacl_rt.so) against acl_rt_compile.h.

Usage: check_exports.py --lib libacl_rt.so --table client/abi/acl_api.tsv [--nm nm]
       check_exports.py --lib libacl_rtc.so --table client/abi/acl_api.tsv --header acl_rt_compile.h
"""

import argparse
import subprocess
import sys

FUNCTION_TYPES = set("TtWwi")


def table_names(path, headers=None):
    """Names of the table's functions; only those of `headers` if given."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or not lines[0].startswith("name\t"):
        raise ValueError(f"{path}: missing header line")
    columns = lines[0].split("\t")
    header_column = columns.index("header") if "header" in columns else None
    if headers and header_column is None:
        raise ValueError(f"{path}: no 'header' column")
    names = set()
    for line in lines[1:]:
        if not line.strip():
            continue
        cells = line.split("\t")
        if headers and (len(cells) <= header_column or cells[header_column].strip() not in headers):
            continue
        names.add(cells[0])
    return names


def exported_symbols(lib, nm):
    """Returns (function names, other defined names) from the dynamic symbol table."""
    out = subprocess.run([nm, "-D", "--defined-only", lib], check=True, capture_output=True, text=True).stdout
    functions, others = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name = parts[-1].split("@", 1)[0]   # drop any symbol version
        (functions if parts[-2] in FUNCTION_TYPES else others).add(name)
    return functions, others


def main(argv):
    parser = argparse.ArgumentParser(description="Compare a library's exported functions with the ABI table.")
    parser.add_argument("--lib", required=True)
    parser.add_argument("--table", required=True)
    parser.add_argument("--nm", default="nm")
    parser.add_argument("--header", action="append", default=[],
                        help="expect only the table's functions of this header (other exports allowed)")
    parser.add_argument("--hook", action="append", default=[],
                        help="a function outside the table that npud's own libraries call")
    args = parser.parse_args(argv)

    try:
        expected = table_names(args.table, set(args.header))
    except (OSError, ValueError) as e:
        print(f"check_exports: {e}", file=sys.stderr)
        return 2
    if args.header and not expected:
        print(f"check_exports: the table lists no function of {', '.join(args.header)}", file=sys.stderr)
        return 2
    try:
        actual, others = exported_symbols(args.lib, args.nm)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"check_exports: cannot read symbols of {args.lib}: {e}", file=sys.stderr)
        return 2

    missing = sorted(expected - actual)
    extra = [] if args.header else sorted(actual - expected - set(args.hook))
    for name in missing:
        print(f"missing: {name}")
    for name in extra:
        print(f"extra:   {name}")
    for name in sorted(others):
        print(f"note: non-function symbol exported: {name}")
    scope = f" (of {', '.join(args.header)})" if args.header else ""
    print(f"check_exports: {len(expected)} in table{scope}, {len(actual)} exported, "
          f"{len(missing)} missing, {len(extra)} extra")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
