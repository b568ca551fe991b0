#!/usr/bin/env python3
"""Generate ABI artefacts of libacl_rt.so from the function table.

The table (client/abi/acl_api.tsv) has one row per exported C function:

    name <TAB> header <TAB> group <TAB> status <TAB> signature <TAB> why

status is "impl" (implemented by hand in client/abi/*.cc) or "stub" (generated here);
signature is the C prototype without the visibility macro, ending with ';'; why is
empty for an impl row and, for a stub, says why npud does not simulate it (shown in
the status document).

header is the public header (client/include/acl/) declaring the function. Every
function is exported by libacl_rt.so; the functions of the headers acl/acl.h does
not include are also what CANN ships as libraries of their own (acl_rt_compile.h:
libacl_rtc.so, acl_tdt.h: libacl_tdt_channel.so, acl_tdt_queue.h:
libacl_tdt_queue.so, acl_dump.h: libascend_dump.so), which npud installs as
symlinks to libacl_rt.so.
acl_rt_compile.h, like upstream's, has no visibility macro, so a definition
generated for one of its functions carries the visibility attribute itself.

Every exported definition is generated; nothing hand-written is extern "C". An impl
row's implementation is the function of the same name in namespace npud::abi_impl,
declared in the generated implementation header (so a definition that does not match
the table does not compile). Its exported definition calls it inside try/catch: an
exception must not unwind into a C caller, so it becomes an error result, through the
helpers of client/abi/abi_exceptions.h: an ACL error code (recorded like any failure)
for functions returning aclError, an RTC code for the functions of acl_rt_compile.h,
a null / zero value (the message kept for aclGetRecentErrMsg) for the others. It
also opens a HostCallSpan (client/core/host_trace.h), which records the call while
NPUD_TRACE traces the process. The calls CANN holds while the process is locked for a
snapshot (SNAPSHOT_HELD_RE) first wait in npud::client::ProcessSnapshot::WaitIfLocked
(client/core/process_snapshot.h). The aclrt* and aclmdlRI* functions (not variadic, not
the injection calls themselves) can be replaced at run time (aclrtApiInjectionSetFunc):
their exported definition calls the hook of its entry in npud::client::kApiHooks
(client/abi/api_hooks.h) if one is set, else the original, which is a static function
of the same file (npud_origin_<name>) the hook may call in turn. A
variadic function (aclAppLog) must return void; its implementation takes a va_list in
place of the "...".

Outputs, each optional (at least one is required):
  --stubs OUT.cc           a definition for every stub row: it reports the call through
                           npud::client::ReportUnsupported() and returns that error, or
                           a null / zero value for functions not returning aclError
  --impl-header OUT.h      declarations of the npud::abi_impl functions of the impl rows
  --entry-points OUT.cc    the guarded exported definition of every impl row; it includes
                           the implementation header as --impl-include names it
  --version-script OUT.map GNU ld version script exporting exactly the table's names
                           (and any --extra-export NAME: hooks npud's own libraries call)
  --doc OUT.md             markdown status report per group

Usage:
  gen_abi.py --table client/abi/acl_api.tsv --stubs OUT.cc --impl-header OUT.h \
             --entry-points OUT.cc --impl-include client/generated/acl_impl.h \
             --version-script OUT.map --doc OUT.md

Standard library only. Exits with status 1 and a message naming the line on a
malformed table.
"""

import argparse
import re
import sys
from collections import OrderedDict

COLUMNS = ["name", "header", "group", "status", "signature", "why"]
STATUSES = ("impl", "stub")
HEADERS = ("acl_base_rt.h", "acl_rt.h", "acl_rt_allocator.h", "acl_rt_compile.h", "acl_tdt.h",
           "acl_tdt_queue.h", "acl_dump.h", "acl_prof.h")
# Headers that acl/acl.h does not include, with CANN's library name for their
# functions (a symbolic link to libacl_rt.so).
SEPARATE_HEADERS = OrderedDict([("acl_rt_compile.h", "libacl_rtc.so"),
                                ("acl_tdt.h", "libacl_tdt_channel.so"),
                                ("acl_tdt_queue.h", "libacl_tdt_queue.so"),
                                ("acl_dump.h", "libascend_dump.so"),
                                ("acl_prof.h", "libmsprofiler.so")])
# Headers whose declarations carry no ACL_FUNC_VISIBILITY: definitions of their
# functions carry the visibility attribute themselves.
UNMARKED_HEADERS = ("acl_rt_compile.h",)

# The header whose functions return RTC codes (176000...) rather than runtime codes.
RTC_HEADER = "acl_rt_compile.h"
# The namespace of the hand-written implementations, and the name of the va_list an
# implementation of a variadic function takes.
IMPL_NAMESPACE = "npud::abi_impl"
# The calls CANN holds while the process is locked for a snapshot
# (aclrtSnapShotProcessLock): setting and resetting devices, allocating,
# freeing and copying memory, creating and destroying contexts, streams,
# events and notifies, submitting tasks. They wait first thing.
SNAPSHOT_HELD_RE = re.compile(
    r"^aclrt(SetDevice|ResetDevice(Force)?|Malloc\w*|Free\w*|Mem(cpy|set)\w*|MemAllocManaged"
    r"|(Create|Destroy)(Context|Event\w*|Notify|Stream(V2|WithConfig|Force)?)|Launch\w*"
    r"|Record\w*|BinaryLoad\w*|BinaryUnLoad|ReduceAsync|RandomNumAsync)$|^aclmdlRIExecute\w*$")
VA_LIST_NAME = "args"

# "<return type> <name>(<params>);" -- the return type may end in '*'.
SIGNATURE_RE = re.compile(r"^(?P<ret>[^(]*[\s*])(?P<name>[A-Za-z_]\w*)\((?P<params>.*)\);$")
# The name that ends a parameter declaration ("const char* const name").
PARAM_NAME_RE = re.compile(r"[\s*](?P<name>[A-Za-z_]\w*)$")
# Words that end a parameter declaration which has no name ("const char*", "int").
TYPE_WORDS = {"void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "const",
              "volatile"}


class TableError(Exception):
    pass


def parse_params(text, where):
    """The parameters of an implemented function: ([(declaration, name)], variadic).

    Generated definitions forward every parameter by name, so each one needs one; function
    pointer and array declarators are refused (the table uses typedefs for them)."""
    text = text.strip()
    if text in ("", "void"):
        return [], False
    parts = [p.strip() for p in text.split(",")]
    variadic = parts[-1] == "..."
    if variadic:
        parts.pop()
    params = []
    for part in parts:
        match = PARAM_NAME_RE.search(part)
        if "(" in part or "[" in part or "..." in part or not match or match.group("name") in TYPE_WORDS:
            raise TableError(f"{where}: parameter '{part}' needs a name and a plain type")
        params.append((part, match.group("name")))
    names = [name for _, name in params]
    if len(set(names)) != len(names):
        raise TableError(f"{where}: two parameters have the same name")
    return params, variadic


def read_table(path):
    """Returns the rows of the table as dicts, validating every line."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or lines[0].split("\t") != COLUMNS:
        raise TableError(f"{path}:1: header line must be '{chr(9).join(COLUMNS)}'")
    rows, seen = [], {}
    for lineno, line in enumerate(lines[1:], start=2):
        where = f"{path}:{lineno}"
        if not line.strip():
            raise TableError(f"{where}: empty line")
        cells = line.split("\t")
        if len(cells) != len(COLUMNS):
            raise TableError(f"{where}: expected {len(COLUMNS)} tab-separated columns, got {len(cells)}")
        row = dict(zip(COLUMNS, (c.strip() for c in cells)))
        if any(not v for k, v in row.items() if k != "why"):
            raise TableError(f"{where}: empty column")
        if (row["status"] == "stub") != bool(row["why"]):
            raise TableError(f"{where}: a stub says why it is one, an impl row says nothing")
        if row["status"] not in STATUSES:
            raise TableError(f"{where}: status must be one of {STATUSES}, got '{row['status']}'")
        if row["header"] not in HEADERS:
            raise TableError(f"{where}: unknown header '{row['header']}'")
        match = SIGNATURE_RE.match(row["signature"])
        if not match:
            raise TableError(f"{where}: signature is not a C prototype ending in ';': {row['signature']}")
        if match.group("name") != row["name"]:
            raise TableError(f"{where}: signature declares '{match.group('name')}', not '{row['name']}'")
        if row["name"] in seen:
            raise TableError(f"{where}: duplicate name '{row['name']}' (first on line {seen[row['name']]})")
        seen[row["name"]] = lineno
        row["return_type"] = " ".join(match.group("ret").split())
        if row["status"] == "impl":
            row["params"], row["variadic"] = parse_params(match.group("params"), where)
            if row["variadic"] and not row["params"]:
                raise TableError(f"{where}: a variadic function needs a named parameter before '...'")
            if row["variadic"] and row["return_type"] != "void":
                raise TableError(f"{where}: a variadic function must return void to be implemented")
            if row["variadic"] and VA_LIST_NAME in (name for _, name in row["params"]):
                raise TableError(f"{where}: a parameter of a variadic function is named '{VA_LIST_NAME}'")
        rows.append(row)
    if not rows:
        raise TableError(f"{path}: no functions")
    return rows


def stub_body(row):
    """Statements of a generated stub: report once, then return a value of the right type."""
    report = f'npud::client::ReportUnsupported("{row["name"]}")'
    ret = row["return_type"]
    if ret == "aclError":
        return [f"return {report};"]
    if ret == "void":
        return [f"(void){report};"]
    if ret.endswith("*"):
        return [f"(void){report};", "return nullptr;"]
    # Scalars, enums and handle typedefs (void* typedefs value-initialize to nullptr).
    return [f"(void){report};", f"return {ret}{{}};"]


def render_stubs(rows, table_path):
    stub_headers = [h for h in SEPARATE_HEADERS if any(r["status"] == "stub" and r["header"] == h for r in rows)]
    out = [
        f"// Generated by tools/gen_abi.py from {table_path}. Do not edit.",
        "//",
        "// Every function below is part of the exported ACL ABI but not implemented by npud:",
        "// it reports the call once and fails with ACL_ERROR_RT_FEATURE_NOT_SUPPORT (or",
        "// returns a null / zero value when it does not return aclError). Visibility comes",
        "// from ACL_FUNC_VISIBILITY on the declarations in the public headers, or from the",
        "// definition for headers without it.",
        "",
        '#include "acl/acl.h"',
    ]
    out += [f'#include "acl/{h}"' for h in stub_headers]
    out += [
        '#include "client/abi/unsupported.h"',
        "",
        "// Signatures are kept exactly as declared, parameters included.",
        "#pragma GCC diagnostic ignored \"-Wunused-parameter\"",
        "",
        'extern "C" {',
    ]
    for row in rows:
        if row["status"] != "stub":
            continue
        out.append("")
        visibility = '__attribute__((visibility("default"))) ' if row["header"] in UNMARKED_HEADERS else ""
        out.append(visibility + row["signature"][:-1])
        out.append("{")
        out.extend("    " + s for s in stub_body(row))
        out.append("}")
    out += ["", '}  // extern "C"', ""]
    return "\n".join(out)


def acl_includes(rows):
    """The public headers declaring `rows`, acl/acl.h first."""
    separate = [h for h in SEPARATE_HEADERS if any(r["header"] == h for r in rows)]
    return ['#include "acl/acl.h"'] + [f'#include "acl/{h}"' for h in separate]


def impl_declaration(row):
    """The declaration of a row's implementation (without namespace and ';')."""
    params = [decl for decl, _ in row["params"]]
    if row["variadic"]:
        params.append(f"va_list {VA_LIST_NAME}")
    return f"{row['return_type']} {row['name']}({', '.join(params) or 'void'})"


def render_impl_header(rows, table_path, impl_include):
    impl = [r for r in rows if r["status"] == "impl"]
    guard = "NPUD_" + re.sub(r"\W", "_", impl_include).upper() + "_"
    out = [
        f"// Generated by tools/gen_abi.py from {table_path}. Do not edit.",
        "//",
        "// The implementations of the exported ACL functions, written by hand in",
        "// client/abi/abi_*.cc: one function per implemented function of the table, with its",
        "// name and parameters (a va_list in place of \"...\"). Only the generated entry",
        "// points call them, inside the try/catch that keeps exceptions out of C callers.",
        "",
        f"#ifndef {guard}",
        f"#define {guard}",
        "",
    ]
    if any(r["variadic"] for r in impl):
        out += ["#include <cstdarg>", ""]
    out += acl_includes(impl)
    out += ["", f"namespace {IMPL_NAMESPACE} {{", ""]
    out += [impl_declaration(r) + ";" for r in impl]
    out += ["", f"}}  // namespace {IMPL_NAMESPACE}", "", f"#endif  // {guard}", ""]
    return "\n".join(out)


def on_exception(row):
    """Statements of an entry point's catch (...) block."""
    name = f'"{row["name"]}"'
    ret = row["return_type"]
    if ret == "aclError":
        helper = "RtcExceptionResult" if row["header"] == RTC_HEADER else "ExceptionResult"
        return [f"return npud::client::{helper}({name});"]
    report = f"npud::client::ReportException({name});"
    if ret == "void":
        return [report]
    if ret.endswith("*"):
        return [report, "return nullptr;"]
    return [report, f"return {ret}{{}};"]


def hookable(row):
    """Whether aclrtApiInjectionSetFunc may replace the row's function."""
    name = row["name"]
    return (row["status"] == "impl" and not row["variadic"] and row["header"] != RTC_HEADER
            and not name.startswith("aclrtApiInjection")
            and (name.startswith("aclrt") or name.startswith("aclmdlRI")))


def origin_name(row):
    return f"npud_origin_{row['name']}"


def entry_point(row, hook_index=None):
    """The exported definition of an impl row; with a hook index, the static original
    it calls unless a hook replaces it, then the exported definition."""
    args = [name for _, name in row["params"]] + ([VA_LIST_NAME] if row["variadic"] else [])
    call = f"{IMPL_NAMESPACE}::{row['name']}({', '.join(args)});"
    if row["return_type"] != "void":
        call = "return " + call
    span = f'npud::client::HostCallSpan host_call_span("{row["name"]}");'
    body = [span, "try {", "  " + call, "} catch (...) {"] + ["  " + s for s in on_exception(row)] + ["}"]
    if SNAPSHOT_HELD_RE.match(row["name"]):
        body.insert(0, f'npud::client::ProcessSnapshot::WaitIfLocked("{row["name"]}");')
    if row["variadic"]:
        body = [f"va_list {VA_LIST_NAME};", f"va_start({VA_LIST_NAME}, {row['params'][-1][1]});"] + body
        body.append(f"va_end({VA_LIST_NAME});")
    visibility = '__attribute__((visibility("default"))) ' if row["header"] in UNMARKED_HEADERS else ""
    if hook_index is None:
        return [visibility + row["signature"][:-1] + " {"] + ["  " + s for s in body] + ["}"]
    signature = row["signature"][:-1]
    origin = origin_name(row)
    static_signature = "static " + signature.replace(f" {row['name']}(", f" {origin}(", 1)
    forward = f"({', '.join(args)})"
    ret = "" if row["return_type"] == "void" else "return "
    dispatch = [
        f"if (npud::client::ApiFunction hook = npud::client::kApiHooks[{hook_index}].current.load(",
        "        std::memory_order_acquire)) {",
        f"  {ret}reinterpret_cast<decltype(&{origin})>(hook){forward};",
    ]
    if not ret:
        dispatch.append("  return;")
    dispatch += ["}", f"{ret}{origin}{forward};"]
    return ([static_signature + " {"] + ["  " + s for s in body] + ["}", ""] +
            [visibility + signature + " {"] + ["  " + s for s in dispatch] + ["}"])


def render_entry_points(rows, table_path, impl_include):
    impl = [r for r in rows if r["status"] == "impl"]
    out = [
        f"// Generated by tools/gen_abi.py from {table_path}. Do not edit.",
        "//",
        "// The exported definition of every implemented ACL function: it calls the",
        f"// implementation ({IMPL_NAMESPACE}, client/abi/abi_*.cc) and turns any exception into",
        "// an error result (client/abi/abi_exceptions.h), since none may unwind into a C",
        "// caller. Each opens a HostCallSpan (client/core/host_trace.h) for NPUD_TRACE.",
        "// Visibility comes from ACL_FUNC_VISIBILITY on the declarations in the",
        "// public headers, or from the definition for headers without it.",
        "",
    ]
    if any(r["variadic"] for r in impl):
        out += ["#include <cstdarg>", ""]
    out += acl_includes(impl)
    hooks = [r for r in impl if hookable(r)]
    out += ['#include "client/abi/abi_exceptions.h"', '#include "client/abi/api_hooks.h"',
            '#include "client/core/host_trace.h"', '#include "client/core/process_snapshot.h"',
            f'#include "{impl_include}"', "", 'extern "C" {']
    for row in impl:
        out.append("")
        out += entry_point(row, hooks.index(row) if row in hooks else None)
    out += ["", '}  // extern "C"', "", "namespace npud::client {", ""]
    out.append("// Constant-initialized: no hook is set before the first call.")
    out.append("ApiHook kApiHooks[] = {")
    out += [f'    {{"{r["name"]}", nullptr}},' for r in hooks]
    if not hooks:
        out.append('    {"", nullptr},')
    out += ["};", "", "const ApiFunction kApiOrigins[] = {"]
    out += [f"    reinterpret_cast<ApiFunction>(&{origin_name(r)})," for r in hooks]
    if not hooks:
        out.append("    nullptr,")
    out += ["};", "", f"const size_t kApiHookCount = {len(hooks)};", "",
            "}  // namespace npud::client", ""]
    return "\n".join(out)


def render_version_script(rows, table_path, extra_exports=()):
    out = [f"/* Generated by tools/gen_abi.py from {table_path}. Do not edit. */", "{", "  global:"]
    out += [f"    {row['name']};" for row in rows]
    out += [f"    {name};  /* npud's own libraries only */" for name in extra_exports]
    out += ["  local:", "    *;", "};", ""]
    return "\n".join(out)


def render_doc(rows, table_path):
    impl = sum(1 for r in rows if r["status"] == "impl")
    stub_scalar = sum(1 for r in rows if r["status"] == "stub" and r["return_type"] != "aclError")
    groups = OrderedDict()
    for row in rows:
        groups.setdefault(row["group"], []).append(row)
    out = [
        "# ACL API status",
        "",
        f"Generated by `tools/gen_abi.py` from `{table_path}`; do not edit by hand.",
        "",
        "Every function below is exported by `libacl_rt.so` with its CANN signature. `impl` functions",
        "are implemented by npud; `stub` functions log one warning and return",
        "`ACL_ERROR_RT_FEATURE_NOT_SUPPORT` (207000), or a null / zero value if they do not return `aclError`.",
        "",
    ]
    for header, library in SEPARATE_HEADERS.items():
        members = [r for r in rows if r["header"] == header]
        if members:
            groups_of_header = ", ".join(sorted({f"`{r['group']}`" for r in members}))
            out += [
                f"The functions of `acl/{header}` (group {groups_of_header}) are also exported under their CANN",
                f"library name `{library}`, a symbolic link to `libacl_rt.so`.",
                "",
            ]
    out += [
        "| | functions |",
        "|---|---|",
        f"| total | {len(rows)} |",
        f"| implemented | {impl} |",
        f"| returning ACL_ERROR_RT_FEATURE_NOT_SUPPORT (stubs) | {len(rows) - impl} |",
        f"| of those, not returning aclError (null / zero result) | {stub_scalar} |",
        "",
        "| group | total | implemented |",
        "|---|---|---|",
    ]
    for group, members in groups.items():
        out.append(f"| {group} | {len(members)} | {sum(1 for r in members if r['status'] == 'impl')} |")
    for group, members in groups.items():
        out += ["", f"## {group}", "", "| name | status | why not simulated |", "|---|---|---|"]
        out += [f"| {r['name']} | {r['status']} | {r['why']} |" for r in members]
    out.append("")
    return "\n".join(out)


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", required=True, help="path of acl_api.tsv")
    parser.add_argument("--stubs", help="write generated stub definitions (C++) here")
    parser.add_argument("--impl-header", help="write the declarations of the implementations here")
    parser.add_argument("--entry-points", help="write the guarded exported definitions (C++) here")
    parser.add_argument("--impl-include", default="client/generated/acl_impl.h",
                        help="how --entry-points includes the --impl-header file (default: %(default)s)")
    parser.add_argument("--version-script", help="write the GNU ld version script here")
    parser.add_argument("--doc", help="write the markdown status document here")
    parser.add_argument("--extra-export", action="append", default=[],
                        help="also export this (hand-written) symbol: hooks for npud's own "
                             "libraries, not part of the ACL API (repeatable)")
    parser.add_argument("--table-name", default="client/abi/acl_api.tsv",
                        help="table path quoted in generated comments (default: %(default)s)")
    args = parser.parse_args(argv)
    if not (args.stubs or args.impl_header or args.entry_points or args.version_script or args.doc):
        parser.error("nothing to do: give at least one of --stubs, --impl-header, --entry-points, "
                     "--version-script, --doc")

    try:
        rows = read_table(args.table)
    except (TableError, OSError) as e:
        print(f"gen_abi.py: error: {e}", file=sys.stderr)
        return 1

    outputs = [
        (args.stubs, render_stubs),
        (args.impl_header, lambda r, t: render_impl_header(r, t, args.impl_include)),
        (args.entry_points, lambda r, t: render_entry_points(r, t, args.impl_include)),
        (args.version_script, lambda r, t: render_version_script(r, t, args.extra_export)),
        (args.doc, render_doc),
    ]
    for path, render in outputs:
        if path:
            with open(path, "w", encoding="utf-8") as f:
                f.write(render(rows, args.table_name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
