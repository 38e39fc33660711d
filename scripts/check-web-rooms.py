#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Parts of the web client a reader can find (issue 27, item 10): no
TypeScript file under the folder given (default: web/src) over MAX_LINES
lines.  Prints every file too long and exits 1 if there is any, 2 when it
found no file (so that a broken scan cannot pass).

Usage: scripts/check-web-rooms.py [FOLDER]
"""
import os
import sys

MAX_LINES = int(os.environ.get("MAX_LINES", 400))

# Files still over the limit, waiting for their own split: each with the
# most lines it may have until then, so that it cannot grow meanwhile.
# No file is let off; a name with a higher limit, and why, would go here.
EXCEPTIONS: dict[str, int] = {}


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else "web/src"
    too_long = []
    seen = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".ts"):
            continue
        seen += 1
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            count = sum(1 for _ in f)
        limit = EXCEPTIONS.get(name, MAX_LINES)
        if count > limit:
            too_long.append(f"{folder}/{name}: {count} lines (at most {limit})")
    if not seen:
        print(f"check-web-rooms: no .ts file in {folder}", file=sys.stderr)
        return 2
    for line in too_long:
        print(f"check-web-rooms: {line}", file=sys.stderr)
    if not too_long:
        print(f"check-web-rooms: {seen} files, none over {MAX_LINES} lines ({len(EXCEPTIONS)} listed exceptions)")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
