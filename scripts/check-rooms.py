#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Rooms a reader can find (issue 25): no C file under the folders given
(default: src) over MAX_FILE lines, no function over MAX_FUNCTION lines.

A function is counted from the line of its name to the "}" in column 0
that closes its body, both included: the project's style writes the
name's line in column 0 and the closing brace there too.  Prints every
room too big and exits 1 if there is any, 2 when it found no file or no
function (so that a broken scan cannot pass).

Usage: scripts/check-rooms.py [FOLDER...]
"""
import os
import re
import sys

MAX_FILE = int(os.environ.get("MAX_FILE", 900))
MAX_FUNCTION = int(os.environ.get("MAX_FUNCTION", 80))

# A definition's first line: in column 0, not a directive, a comment or a
# type, with an identifier right before its parameter list.
DEFINITION = re.compile(r"^(?!typedef|struct|enum|union|extern|#|/)[A-Za-z_][^;=]*?\b([A-Za-z_]\w*)\s*\(")


def functions(lines):
    """Yields (name, first line, length) of each function of a file."""
    i = 0
    while i < len(lines):
        m = DEFINITION.match(lines[i])
        if not m:
            i += 1
            continue
        # The body opens at the first line that ends in "{" before any ";".
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith("{") and ";" not in lines[j]:
            j += 1
        if j >= len(lines) or ";" in lines[j] and not lines[j].rstrip().endswith("{"):
            i = j + 1
            continue
        k = j + 1
        while k < len(lines) and not lines[k].startswith("}"):
            k += 1
        yield m.group(1), i + 1, k - i + 1
        i = k + 1


def main():
    folders = sys.argv[1:] or ["src"]
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    paths = []
    for folder in folders:
        for base, _, names in os.walk(os.path.join(root, folder)):
            paths += [os.path.join(base, n) for n in names if n.endswith((".c", ".h"))]
    bad = counted = 0
    for path in sorted(paths):
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        name = os.path.relpath(path, root)
        if len(lines) > MAX_FILE:
            print(f"{name}: {len(lines)} lines (at most {MAX_FILE})")
            bad += 1
        for fn, first, length in functions(lines):
            counted += 1
            if length > MAX_FUNCTION:
                print(f"{name}:{first}: function {fn} is {length} lines (at most {MAX_FUNCTION})")
                bad += 1
    if not paths or not counted:
        print(f"check-rooms: found {len(paths)} files and {counted} functions in {' '.join(folders)}", file=sys.stderr)
        return 2
    if bad:
        print(f"check-rooms: {bad} rooms too big")
        return 1
    print(f"check-rooms: {len(paths)} files, {counted} functions; none over {MAX_FILE} lines, no function over {MAX_FUNCTION}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
