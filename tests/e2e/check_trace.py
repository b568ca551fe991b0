#!/usr/bin/env python3
"""Checks a timeline npud wrote (NPUD_TRACE or npuctl trace).

    check_trace.py FILE [--expect-host] [--same-clock] [--timeline] [--blocks|--all-blocks]

Always: FILE is JSON in the Chrome trace event format; every complete event
has a name, a category, numeric ts and dur >= 0; events of one track
(pid, tid) nest or follow each other, never overlap partially; every track
is named. --expect-host: ACL calls are in it. --timeline: what the
acl_test_client "timeline" scenario did is in it, in the order the streams
and the event imposed. --same-clock: device spans start after the host call
that submitted them (npud on the same machine). Always: kernels marked
"blocks" hold one block span per block (0 .. block_dim-1) on the AI-core
tracks of their device, inside the kernel's time; other kernels hold none,
and no block span lies outside a kernel. --blocks: some kernel has its
blocks; --all-blocks: every kernel has (a trace begun before any kernel).

Prints "TRACE OK <events>" and exits 0, or prints what is wrong and exits 1.
"""

import json
import sys

EPSILON_US = 0.002  # the file rounds to nanoseconds


def fail(message):
    print("TRACE BAD:", message)
    sys.exit(1)


def check_nesting(events):
    tracks = {}
    for e in events:
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
    for track, spans in tracks.items():
        spans.sort(key=lambda e: (e["ts"], -e["dur"]))
        open_ends = []
        for e in spans:
            while open_ends and open_ends[-1] <= e["ts"] + EPSILON_US:
                open_ends.pop()
            end = e["ts"] + e["dur"]
            if open_ends and end > open_ends[-1] + EPSILON_US:
                fail(f"{e['name']} at {e['ts']} on track {track} overlaps the span before it")
            open_ends.append(end)
    return tracks


CORE_PID_OFFSET = 500_000_000  # chrome_trace.cc: core processes past the device ones


def check_blocks(device, wanted):
    blocks = [e for e in device if e["cat"] == "block"]
    kernels = [e for e in device if e["cat"] == "kernel"]
    used = set()
    for k in kernels:
        inside = [i for i, b in enumerate(blocks)
                  if i not in used and b["name"] == k["name"] and
                  b["pid"] == k["pid"] + CORE_PID_OFFSET and
                  b["args"].get("stream") == k["tid"] and
                  k["ts"] - EPSILON_US <= b["ts"] and
                  b["ts"] + b["dur"] <= k["ts"] + k["dur"] + EPSILON_US]
        numbers = sorted(blocks[i]["args"].get("block") for i in inside)
        expected = list(range(k["args"].get("block_dim", 0))) if k["args"].get("blocks") else []
        if numbers != expected:
            fail(f"kernel {k['name']} at {k['ts']} of block_dim {k['args'].get('block_dim')} "
                 f"(blocks {bool(k['args'].get('blocks'))}) holds blocks {numbers}")
        used.update(inside)
    if len(used) != len(blocks):
        fail(f"{len(blocks) - len(used)} block spans outside every kernel")
    with_blocks = [k for k in kernels if k["args"].get("blocks")]
    if wanted == "some" and not with_blocks:
        fail("no kernel has its blocks")
    if wanted == "all" and len(with_blocks) != len(kernels):
        fail(f"{len(kernels) - len(with_blocks)} of {len(kernels)} kernels without their blocks")
    if wanted is None and with_blocks:
        fail(f"block spans in a trace that did not ask for them: {with_blocks[:3]}")


def main():
    args = sys.argv[1:]
    if not args:
        fail("usage: check_trace.py FILE [--expect-host] [--same-clock] [--timeline] [--blocks|--all-blocks]")
    with open(args[0]) as f:
        try:
            trace = json.load(f)
        except json.JSONDecodeError as e:
            fail(f"not JSON: {e}")
    events = trace.get("traceEvents")
    if not isinstance(events, list):
        fail("no traceEvents list")
    complete = [e for e in events if e.get("ph") == "X"]
    named_processes = {e["pid"] for e in events if e.get("name") == "process_name"}
    named_threads = {(e["pid"], e["tid"]) for e in events if e.get("name") == "thread_name"}
    for e in complete:
        for key in ("name", "cat", "pid", "tid", "ts", "dur"):
            if key not in e:
                fail(f"event without {key}: {e}")
        if not isinstance(e["ts"], (int, float)) or not isinstance(e["dur"], (int, float)):
            fail(f"ts or dur not a number: {e}")
        if e["dur"] < 0:
            fail(f"negative duration: {e}")
        if e["pid"] not in named_processes or (e["pid"], e["tid"]) not in named_threads:
            fail(f"event on an unnamed track: {e}")
    tracks = check_nesting(complete)
    host = [e for e in complete if e["cat"] == "acl"]
    device = [e for e in complete if e["cat"] != "acl"]
    if "--expect-host" in args and not host:
        fail("no ACL calls")
    if not device:
        fail("no device spans")
    check_blocks(device, "all" if "--all-blocks" in args else "some" if "--blocks" in args else None)

    if "--timeline" in args:
        kernels = [e for e in device if e["cat"] == "kernel" and e["name"] == "add_float"]
        if len(kernels) != 2 or any(k["args"].get("block_dim") != 8 for k in kernels):
            fail(f"expected two add_float kernels of 8 blocks: {kernels}")
        copies = [e for e in device if e["cat"] == "copy" and e["args"].get("bytes") == 1 << 20]
        if len(copies) < 4:
            fail(f"expected 4 copies of 1 MiB (3 on streams, 1 synchronous): {copies}")
        records = [e for e in device if e["cat"] == "event"]
        waits = [e for e in device if e["cat"] == "wait"]
        if len(records) != 1 or len(waits) != 1:
            fail(f"expected one event record and one wait: {records} {waits}")
        kernel_stream = kernels[0]["tid"]
        wait_stream = waits[0]["tid"]
        if kernels[1]["tid"] != kernel_stream or records[0]["tid"] != kernel_stream:
            fail("the kernels and the record should share a stream")
        if wait_stream == kernel_stream:
            fail("the wait should be on the other stream")
        last_kernel_end = max(k["ts"] + k["dur"] for k in kernels)
        if records[0]["ts"] + EPSILON_US < last_kernel_end:
            fail("the event was recorded before the kernels ended")
        back = [c for c in copies if c["tid"] == wait_stream]
        if len(back) != 1:
            fail(f"expected one copy on the waiting stream: {back}")
        if waits[0]["ts"] + waits[0]["dur"] + EPSILON_US < records[0]["ts"]:
            fail("the wait ended before the event was recorded")
        if back[0]["ts"] + EPSILON_US < records[0]["ts"]:
            fail("the copy back started before the event it waited for")
        synchronous = [c for c in copies if c["pid"] != kernels[0]["pid"]]
        if len(synchronous) != 1:
            fail(f"expected one synchronous copy on its own track: {synchronous}")
        names = {e["name"] for e in host}
        for name in ("aclrtLaunchKernelWithHostArgs", "aclrtMemcpyAsync", "aclrtRecordEvent",
                     "aclrtStreamWaitEvent", "aclrtSynchronizeStream", "aclrtMemcpy"):
            if name not in names:
                fail(f"no {name} among the ACL calls")
        if "--same-clock" in args:
            launches = sorted(e["ts"] for e in host if e["name"] == "aclrtLaunchKernelWithHostArgs")
            if min(k["ts"] for k in kernels) + EPSILON_US < launches[0]:
                fail("a kernel started before its launch was called")
            sync_copy = [e for e in host if e["name"] == "aclrtMemcpy"][-1]
            s = synchronous[0]
            if not (sync_copy["ts"] - EPSILON_US <= s["ts"] and
                    s["ts"] + s["dur"] <= sync_copy["ts"] + sync_copy["dur"] + EPSILON_US):
                fail("the synchronous copy ran outside its aclrtMemcpy call")
    print(f"TRACE OK {len(complete)} events on {len(tracks)} tracks")


if __name__ == "__main__":
    main()
