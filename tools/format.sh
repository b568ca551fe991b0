#!/bin/sh
# Formats the project's C and C++ sources with clang-format (.clang-format at
# the top; folders with their own DisableFormat file are left alone).
#   tools/format.sh          rewrite files in place
#   tools/format.sh --check  list files that need formatting, fail if any
set -eu
cd "$(dirname "$0")/.."
files=$(git ls-files '*.cc' '*.h' '*.cpp' '*.c')
if [ "${1:-}" = "--check" ]; then
  bad=""
  for f in $files; do
    clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad="$bad $f"
  done
  if [ -n "$bad" ]; then
    echo "not formatted (run tools/format.sh):$bad" >&2
    exit 1
  fi
  exit 0
fi
echo "$files" | xargs clang-format -i
