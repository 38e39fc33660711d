# SPDX-License-Identifier: GPL-3.0-or-later
"""The client's files (issue 24, item 2; serve_static in src/server/http.c):
files are served only from inside the static folder, after every link
is resolved, with or without a trailing slash on --static.  Every form of
traversal is 404 and shows nothing outside: ../, %2e%2e, %2f, ..%5c, the
overlong UTF-8 %c0%ae, the absolute form http://host/../x, a target
without its leading slash, a link out of the folder; so are dot-files.
The database and its -wal, -shm and -journal files are never served,
inside the folder or beside it, by their name, a link or a second name.
Page paths that are not files get index.html, unless they tried to
leave the folder."""

import os
import shutil
import tempfile

from serverlib import Server, Tally, raw

SECRET = b"TOP-SECRET-OUTSIDE"
SQLITE = b"SQLite format 3"

t = Tally("static")
base = tempfile.mkdtemp(prefix="ttchess-static-")


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def layout():
    """base/static with the client's files, links in and out, hidden files;
    base/secret.txt beside it."""
    static = os.path.join(base, "static")
    os.makedirs(os.path.join(static, "sub"))
    os.makedirs(os.path.join(static, ".git"))
    write(os.path.join(static, "index.html"), b"<!doctype html><title>INDEX-PAGE</title>")
    write(os.path.join(static, "app.js"), b"console.log('APP-JS');")
    write(os.path.join(static, "sub", "page.js"), b"SUB-PAGE-JS")
    write(os.path.join(static, ".hidden"), SECRET)
    write(os.path.join(static, ".git", "config"), SECRET)
    write(os.path.join(base, "secret.txt"), SECRET)
    os.symlink("..", os.path.join(static, "link-out"))
    os.symlink("../secret.txt", os.path.join(static, "secret-link"))
    os.symlink("app.js", os.path.join(static, "inside-link"))
    return static


static = layout()

# Every traversal form: each must be 404, and show nothing of what lies
# outside.  NAME is the database's file name, DIR the way from the folder
# to the database's folder.
TRAVERSALS = [
    "/../secret.txt", "/../NAME", "/..%2fsecret.txt", "/%2e%2e/secret.txt", "/%2e%2e%2fsecret.txt",
    "/%2E%2E/NAME", "/..%5csecret.txt", "/..%5c..%5csecret.txt", "/%c0%ae%c0%ae/secret.txt",
    "/%c0%ae%c0%ae%2fsecret.txt", "/%e0%80%ae%e0%80%ae/secret.txt", "/sub/../../secret.txt", "//../secret.txt",
    "/./../secret.txt", "http://127.0.0.1/../secret.txt", "http://127.0.0.1/app.js", "../secret.txt",
    "secret.txt", "app.js", "*", "/link-out/secret.txt", "/link-out/NAME",
    "/secret-link", "/link-out/", "/link-out/no-such-page", "/link-out/no/such/page", "/.hidden", "/.git/config",
    "/sub/.hidden", "/%2ehidden", "/index.html/../../secret.txt",
]
# A target with %00 (a NUL, which would cut the path short) is malformed.
MALFORMED = ["/index.html%00/../../secret.txt", "/%00../secret.txt"]
# The database's own files, wherever it is: by a link, by a second name
# (a hard link), through a link that leaves the folder (and comes back
# in, when the database is inside); and by their names when they are in
# the folder (beside it, those names are page paths like any other).
DB_FILES = ["/db-link", "/db-hard", "/link-out/DIRNAME", "/link-out/DIRNAME-wal", "/link-out/DIRNAME-shm",
            "/link-out/DIRNAME-journal"]
DB_NAMES = ["/NAME", "/NAME-wal", "/NAME-shm", "/NAME-journal"]


def get(port, target):
    """(status, body) of GET target, sent as it is."""
    reply = raw(port, ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" % target).encode())
    head, _, body = reply.partition(b"\r\n\r\n")
    try:
        return int(head.split(b" ", 2)[1]), body
    except (IndexError, ValueError):
        return 0, reply


def leaks(body):
    return SECRET in body or SQLITE in body


def refused(srv, label, targets, name, inside, expected=404):
    """Each target is `expected` and shows nothing outside."""
    for target in targets:
        target = target.replace("DIR", "static/" if inside else "").replace("NAME", name)
        status, body = get(srv.port, target)
        t.check("%s: GET %s is %d (got %d)" % (label, target, expected, status), status == expected, body[:100])
        t.check("%s: GET %s shows nothing outside" % (label, target), not leaks(body), body[:100])


def served(srv, label, pairs):
    """Each (target, text) is 200 with the text in its body."""
    for target, expected in pairs:
        status, body = get(srv.port, target)
        t.check("%s: GET %s is served (%d)" % (label, target, status), status == 200 and expected in body, body[:100])


def links_to(db, folder):
    """A link to the database and a second name of it (a hard link), in
    the folder served, made while the server holds the database open;
    and a -journal beside it (SQLite in WAL mode writes none)."""
    write(db + "-journal", SQLITE + b" journal")
    for link in ("db-link", "db-hard"):
        if os.path.lexists(os.path.join(folder, link)):
            os.remove(os.path.join(folder, link))
    os.symlink(db, os.path.join(folder, "db-link"))
    os.link(db, os.path.join(folder, "db-hard"))


def remove_database(db):
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(db + suffix):
            os.remove(db + suffix)


def check_server(label, static_arg, db):
    srv = Server(static=static_arg, db=db)
    try:
        links_to(db, static)
        inside = os.path.dirname(db) == static
        refused(srv, label, TRAVERSALS + DB_FILES + (DB_NAMES if inside else []), os.path.basename(db), inside)
        if not inside:
            for target in DB_NAMES:
                status, body = get(srv.port, target.replace("NAME", os.path.basename(db)))
                t.check("%s: GET %s (a page path here) shows nothing outside" % (label, target), not leaks(body))
        refused(srv, label, MALFORMED, os.path.basename(db), inside, expected=400)
        served(srv, label, (("/app.js", b"APP-JS"), ("/sub/page.js", b"SUB-PAGE-JS"), ("/inside-link", b"APP-JS"),
                            ("/", b"INDEX-PAGE"), ("/index.html", b"INDEX-PAGE"),
                            ("/games/0123456789abcdef", b"INDEX-PAGE"), ("/login", b"INDEX-PAGE"),
                            ("/sub/", b"INDEX-PAGE"), ("/%61pp.js", b"APP-JS")))
        status, headers, _ = srv.request("GET", "/app.js")
        t.check("%s: a file has the security headers" % label,
                "Content-Security-Policy" in headers and headers.get("X-Content-Type-Options") == "nosniff", headers)
    finally:
        srv.close()
        remove_database(db)


def check_database_folder_served():
    """The database's own folder as the static folder: everything else in
    it may be served, the database's files never."""
    db = os.path.join(base, "ttchess.db")
    label = "--static the database's folder"
    srv = Server(static=base, db=db)
    try:
        links_to(db, base)
        refused(srv, label, DB_NAMES + ["/db-link", "/db-hard", "/static/link-out/NAME"], "ttchess.db", False)
        served(srv, label, (("/secret.txt", SECRET), ("/static/app.js", b"APP-JS")))
    finally:
        srv.close()
        remove_database(db)


try:
    for static_arg in (static, static + "/"):
        spelling = "--static with a trailing slash" if static_arg.endswith("/") else "--static"
        check_server(spelling + ", the database inside the folder", static_arg, os.path.join(static, "data.db"))
        check_server(spelling + ", the database beside the folder", static_arg, os.path.join(base, "data.db"))
    check_database_folder_served()
finally:
    shutil.rmtree(base, ignore_errors=True)
t.done()
