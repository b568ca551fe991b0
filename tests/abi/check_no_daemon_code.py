#!/usr/bin/env python3
"""Fails if a library defines symbols of the daemon or the simulated device.

libacl_rt.so talks to a daemon; the daemon core and simdevice live in npud
and, for NPUD_ADDRESS=inproc:, in libnpud_inproc.so only. A program that
uses a remote daemon must not carry them (issue 8).
"""
import argparse
import subprocess
import sys

FORBIDDEN = ("npud::daemon::", "npud::sim::")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lib", required=True)
    args = parser.parse_args()
    out = subprocess.run(["nm", "-C", "--defined-only", args.lib], check=True,
                         capture_output=True, text=True).stdout
    found = [line for line in out.splitlines() if any(f in line for f in FORBIDDEN)]
    if not out.strip():
        print(f"nm listed no symbols of {args.lib}", file=sys.stderr)
        return 1
    if found:
        print(f"{args.lib} defines {len(found)} daemon/simdevice symbols, e.g.:", file=sys.stderr)
        for line in found[:10]:
            print("  " + line, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
