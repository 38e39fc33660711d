#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The layers the build enforces (issue 25, docs/design.md): each folder of
# src/ is a layer, and a layer may use only itself and the layers below
# it.  The compiler already sees only those layers' include folders (the
# Makefile's LAYERS); this script checks the two things it cannot:
#   - no file includes a header of a higher layer by a relative path or by
#     any other way round the include folders;
#   - no object file of a layer calls or reads a symbol that only a higher
#     layer defines (a declaration written by hand needs no header);
#   - no file under src/ outside src/variants/ names a game in its code or
#     strings (comments may): a game is its folder and its Variant table,
#     and what the other layers need of it they read from the table.  The
#     names are the folders' (src/variants/*/, chess aside, which is the
#     standard every layer knows) and their variants' names and titles.
# It prints every crossing and fails if there is one; it also fails when
# it found no file or no object to check, so that a broken scan cannot
# pass.
#
# A layer written NAME:BASE sits on BASE beside the layers above BASE
# (src/wasm, the WebAssembly build's exports, is "wasm:engine": it uses
# the engine and what is below it, never the server or the CLI); no other
# layer may use it.
#
# Usage: scripts/check-layers.sh BUILD "LAYER LAYER ... [NAME:BASE ...]"   (lowest first)
#   BUILD   the build folder whose obj/ holds the layers' objects

set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 BUILD \"LAYER ...\" (lowest layer first)" >&2
    exit 2
fi
build=$1
read -r -a layers <<<"$2"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2

declare -A rank base
for i in "${!layers[@]}"; do
    entry=${layers[$i]}
    rank[${entry%%:*}]=$i
    [[ $entry == *:* ]] && base[${entry%%:*}]=${entry#*:}
done
layers=("${layers[@]%%:*}")
bad=0

# May layer $1 use layer $2: itself, or a layer below it (below its base
# for a layer beside others), never a layer beside others.
may_use() {
    [ "$1" = "$2" ] && return 0
    [ -n "${base[$2]-}" ] && return 1
    local own=$1
    if [ -n "${base[$1]-}" ]; then
        [ "$2" = "${base[$1]}" ] && return 0
        own=${base[$1]}
    fi
    [ "${rank[$2]}" -le "${rank[$own]}" ]
}

# The layer of a path under src/: its first folder.
layer_of() { local p=${1#src/}; echo "${p%%/*}"; }

# ---- Includes ----------------------------------------------------------
# Every header under src/, by name, with its layer: an include names a
# header by its file name (the layers' folders are on the include path),
# or by a path relative to the including file.
declare -A header_layer
while IFS= read -r h; do
    name=$(basename "$h")
    if [ -n "${header_layer[$name]-}" ]; then
        echo "check-layers: two headers named $name (the include path would pick one): $h" >&2
        bad=$((bad + 1))
    fi
    header_layer[$name]=$(layer_of "$h")
done < <(find src -name '*.h' | sort)

files=0
while IFS= read -r f; do
    files=$((files + 1))
    own=$(layer_of "$f")
    if [ -z "${rank[$own]-}" ]; then
        echo "$f: in no layer (src/$own is not in LAYERS)"
        bad=$((bad + 1))
        continue
    fi
    while IFS= read -r inc; do
        name=$(basename "$inc")
        target=
        if [[ $inc == */* ]] && [ -f "$(dirname "$f")/$inc" ]; then
            target=$(realpath --relative-to=. "$(dirname "$f")/$inc")
            target=$(layer_of "$target")
        elif [ -n "${header_layer[$name]-}" ]; then
            target=${header_layer[$name]}
        fi
        [ -z "$target" ] && continue   # a system header
        if [ -z "${rank[$target]-}" ] || ! may_use "$own" "$target"; then
            echo "$f: includes $inc, of layer $target above $own"
            bad=$((bad + 1))
        fi
    done < <(sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$f")
done < <(find src -name '*.[ch]' | sort)

# ---- Symbols -----------------------------------------------------------
# The objects of today's sources: a build folder may keep the object of a
# file since moved or removed, which no longer counts.
current_objects() {
    local o rel
    while IFS= read -r o; do
        rel=${o#"$build"/obj/}
        if [ "$rel" = tables.o ] || [ -f "src/${rel%.o}.c" ]; then echo "$o"; fi
    done < <(find "$build/obj" -name '*.o' | sort)
}

# Which layer defines each global symbol, from the objects themselves.
declare -A defined_in
objects=0
while IFS= read -r o; do
    objects=$((objects + 1))
    rel=${o#"$build"/obj/}
    l=${rel%%/*}
    [ "$rel" = tables.o ] && l=core   # the generated tables are the core's
    while read -r sym; do defined_in[$sym]=$l; done < <(nm --defined-only -g "$o" | awk 'NF == 3 { print $3 }')
done < <(current_objects)

while IFS= read -r o; do
    rel=${o#"$build"/obj/}
    l=${rel%%/*}
    [ "$rel" = tables.o ] && continue
    if [ -z "${rank[$l]-}" ]; then
        echo "$o: in no layer"
        bad=$((bad + 1))
        continue
    fi
    while read -r sym; do
        d=${defined_in[$sym]-}
        [ -z "$d" ] && continue   # the C library, a Debian library
        if ! may_use "$l" "$d"; then
            echo "src/${rel%.o}.c: uses $sym, defined in layer $d above $l"
            bad=$((bad + 1))
        fi
    done < <(nm -u "$o" | awk '{ print $NF }')
done < <(current_objects)

# ---- Game names --------------------------------------------------------
# The words that name a game: each game folder's name, and the names and
# titles its tables give (.name = "...", .title = "..."), with the words
# in a title's brackets ("Time Travel Chess (van Gog)": "van Gog").
game_names() {
    local d
    for d in src/variants/*/; do
        d=${d%/}
        [ "$(basename "$d")" = chess ] && continue
        basename "$d"
        sed -n 's/^[ \t]*\.\(name\|title\)[ \t]*=[ \t]*"\([^"]*\)".*/\2/p' "$d"/*.c
    done | sed 's/.*(\([^)]*\)).*/&\n\1/' | sort -u
}

names_file=$(mktemp)
trap 'rm -f "$names_file"' EXIT
game_names >"$names_file"
if [ ! -s "$names_file" ]; then
    echo "check-layers: found no game names in src/variants/*/: nothing checked" >&2
    exit 2
fi
# The code of each file without its comments (strings and character
# constants kept whole, so that "//" in a string is no comment), searched
# for each name regardless of case; a line that names one is a finding.
named=$(find src -name '*.[ch]' -not -path 'src/variants/*' | sort | python3 -c '
import sys
names = [n.strip().lower() for n in open(sys.argv[1]) if n.strip()]

def code_only(text):
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 2 if text.startswith("\\\n", i) else 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append("\n" * text.count("\n", i, end))
            i = end
        elif c in "\"\x27":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)

for path in sys.stdin.read().split():
    for number, line in enumerate(code_only(open(path).read()).split("\n"), 1):
        low = line.lower()
        for name in names:
            if name in low:
                print("%s:%d: names the game \"%s\" outside src/variants: %s" % (path, number, name, line.strip()))
                break
' "$names_file")
if [ -n "$named" ]; then
    echo "$named"
    bad=$((bad + $(printf '%s\n' "$named" | wc -l)))
fi

if [ "$files" -eq 0 ] || [ "$objects" -eq 0 ]; then
    echo "check-layers: found $files source files and $objects objects in $build/obj: nothing checked" >&2
    exit 2
fi
if [ "$bad" -gt 0 ]; then
    echo "check-layers: $bad crossings upward or games named outside their folders (layers, lowest first: ${layers[*]})"
    exit 1
fi
echo "check-layers: $files source files and $objects objects, no crossing upward (layers: ${layers[*]})"
