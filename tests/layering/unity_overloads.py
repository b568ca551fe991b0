#!/usr/bin/env python3
"""Unity builds (CMakeLists.txt, npud_precompile) compile several .cc files as
one translation unit, so the functions of their anonymous namespaces meet:
two files' helpers with the same name become overloads of each other, and a
call may silently take the other file's (a wrong error code, not a compile
error). This lists function names defined at file scope in an anonymous
namespace (or `static`) by more than one file of a unity target, and fails if
there are any.

  unity_overloads.py SOURCE_DIR TARGET...

Each TARGET is a folder, or folders joined by '+', whose .cc files are one
unity target (checked conservatively: a whole folder even where it holds
several targets).
"""
import os
import re
import sys

FUNCTION = re.compile(
    r'^(?:static\s+|inline\s+|constexpr\s+|template\s*<[^>]*>\s*)*'
    r'[A-Za-z_][\w:<>,\s\*&]*?[\s\*&]([A-Za-z_]\w*)\s*\([^;]*$')
NOT_A_TYPE = {'return', 'if', 'while', 'for', 'switch', 'else', 'case', 'delete', 'new',
              'throw', 'sizeof'}


def file_scope_functions(path):
    """Names of functions a .cc defines in anonymous namespaces or as static."""
    names = set()
    depth = 0
    anonymous = []  # depths at which anonymous namespaces opened
    with open(path, errors='replace') as f:
        for line in f:
            stripped = line.strip()
            if stripped.startswith(('//', '#', '*', '/*')):
                continue
            at_file_scope = (depth == 0 or (anonymous and depth == anonymous[-1] + 1)
                             or (depth == 1 and stripped.startswith('static ')))
            if re.match(r'namespace\s*\{', stripped):
                anonymous.append(depth)
            elif at_file_scope and (anonymous or stripped.startswith('static ')):
                m = FUNCTION.match(stripped)
                if m and m.group(1) not in NOT_A_TYPE and not stripped.startswith('return'):
                    names.add(m.group(1))
            depth += line.count('{') - line.count('}')
            while anonymous and depth <= anonymous[-1]:
                anonymous.pop()
    return names


def main():
    source = sys.argv[1]
    clashes = []
    for target_dir in sys.argv[2:]:
        seen = {}
        walks = [os.walk(os.path.join(source, d)) for d in target_dir.split('+')]
        for root, _, files in (entry for walk in walks for entry in walk):
            for name in sorted(files):
                if not name.endswith('.cc'):
                    continue
                path = os.path.join(root, name)
                for function in file_scope_functions(path):
                    seen.setdefault(function, []).append(os.path.relpath(path, source))
        for function, paths in sorted(seen.items()):
            if len(paths) > 1:
                clashes.append(f'{target_dir}: {function}() in {", ".join(paths)}')
    for clash in clashes:
        print('unity overload risk:', clash)
    if clashes:
        print(f'{len(clashes)} file-scope function name(s) defined in several files of one '
              'unity target: give each a name of its own (or move it to a shared header)')
        return 1
    print('no file-scope function is defined twice in a unity target')
    return 0


if __name__ == '__main__':
    sys.exit(main())
