# SPDX-License-Identifier: GPL-3.0-or-later
"""The correspondence mails (issue 29, docs/api.md "E-mail"), against a
local SMTP sink (tests/smtp_sink.py): an address confirmed by the link of
its mail (headers, link, expiry of use), no mail before the confirmation,
the "moved" mail and its switch, the reminder at a third of the time left,
a mail refused by the SMTP server and sent on a later try, the address
shown to nobody but its owner, a server killed between the claim of a mail
and its sending (the mail goes once after the restart), 50 parallel
address changes against the limit of confirmation mails with an honest
player beside them, and a server without --smtp."""

import os
import re
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "abuse"))
from serverlib import Server, Tally, address, together, percentile  # noqa: E402
from smtp_sink import Sink  # noqa: E402

t = Tally("mail")
sink = Sink()
BASE = "http://games.example.org"


def wait_for(fn, seconds=10):
    """fn() until it is true or the time is up; its last value."""
    end = time.time() + seconds
    while True:
        v = fn()
        if v or time.time() > end:
            return v
        time.sleep(0.1)


PG = os.environ.get("TTCHESS_DB", "")


def db_rows(srv, sql, *args):
    """The rows of a query on the server's database: SQLite's file, or with
    TTCHESS_DB a PostgreSQL database (through psql; the test's own values
    are written into the SQL)."""
    if not PG.startswith("postgres"):
        with sqlite3.connect(srv.db, timeout=10) as c:
            return c.execute(sql, args).fetchall()
    for a in args:
        sql = sql.replace("?", str(a) if isinstance(a, int) else "'%s'" % str(a).replace("'", "''"), 1)
    out = subprocess.run(["psql", "-X", "-At", "-F", "\t", PG, "-c", sql], capture_output=True, text=True,
                         check=True).stdout
    rows = [tuple(int(v) if v.lstrip("-").isdigit() else v for v in line.split("\t"))
            for line in out.splitlines() if line]
    return rows if sql.lstrip().upper().startswith("SELECT") else []


def mail_args(extra=()):
    return ["--smtp", "smtp://127.0.0.1:%d" % sink.port, "--mail-from", "ttchess@example.org", "--public-url", BASE,
            "--mail-scan-seconds", "1", "--registrations-per-hour", "100000"] + list(extra)


def new_game(srv, white, black, black_name):
    st, j = srv.json("POST", "/api/games", {"variant": "chess", "color": "white", "opponent": black_name,
                                           "days_per_move": 1}, cookie=white)
    gid = j["id"]
    srv.json("POST", "/api/games/%s/accept" % gid, {}, cookie=black)
    return gid


tmp_password = os.path.join(os.environ.get("TMPDIR", "/tmp"), "ttchess-mail-test-password-%d" % os.getpid())
with open(tmp_password, "w") as f:
    f.write("sink secret\n")
srv = Server(*mail_args(["--smtp-user", "ttchess", "--smtp-password-file", tmp_password]), db=PG or None)
try:
    alice, bob = srv.register("alice"), srv.register("bob")
    st, j = srv.json("GET", "/api/account/email", cookie=alice)
    t.check("mail is on, no address yet", st == 200 and j["enabled"] and j["email"] is None, j)
    for bad in ["no-at-sign", "a b@example.org", "alice@example.org\r\nBcc: eve@example.org", "alice@localhost",
                "\"quoted\"@example.org", "a@@example.org", ".a@example.org", "a@-x.org",
                "x" * 64 + "@" + ("d" * 62 + ".") * 3 + "org", "", 5]:
        st, j = srv.json("PUT", "/api/account/email", {"email": bad}, cookie=alice)
        t.check("a bad address refused: %r" % (bad if not isinstance(bad, str) else bad[:30]), st == 400, (st, j))
    st, j = srv.json("PUT", "/api/account/email", {"email": "alice@example.org"})
    t.check("an address needs a login", st == 401, st)
    st, j = srv.json("PUT", "/api/account/email", {"email": "alice@example.org"}, cookie=alice)
    t.check("an address given: 202, unconfirmed", st == 202 and j["confirmed"] is False, (st, j))
    mails = wait_for(lambda: sink.to("alice@example.org"))
    t.check("the confirmation mail came", len(mails) == 1, len(mails))
    m = mails[0]
    h = m.headers
    t.check("its headers: From, To, Subject, Date, Message-ID",
            h.get("from") == "ttchess <ttchess@example.org>" and h.get("to") == "<alice@example.org>" and
            "Confirm" in h.get("subject", "") and re.match(r"\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d \+0000$",
                                                           h.get("date", "")) and
            re.match(r"<[0-9a-f]{32}@example\.org>$", h.get("message-id", "")), h)
    t.check("the envelope", m.sender == "<ttchess@example.org>" and m.rcpts == ["<alice@example.org>"],
            (m.sender, m.rcpts))
    t.check("the SMTP login with the password file's line", m.auth == ("ttchess", "sink secret"), m.auth)
    link = re.search(re.escape(BASE) + r"/api/account/email/confirm\?token=([0-9a-f]{32})", m.body)
    t.check("the body has the confirmation link on --public-url", link is not None, m.body)
    token = link.group(1) if link else ""
    t.check("the token is kept hashed", not db_rows(srv, "SELECT 1 FROM emails WHERE token_hash = ?", token) and
            not db_rows(srv, "SELECT 1 FROM mail_queue WHERE body LIKE ?", "%" + token + "%"), token)

    game = new_game(srv, alice, bob, "bob")
    srv.json("POST", "/api/games/%s/actions" % game, {"action": "e4", "ply": 0}, cookie=alice)
    st, j = srv.json("POST", "/api/games/%s/actions" % game, {"action": "e5", "ply": 1}, cookie=bob)
    t.check("bob moves", st == 200, (st, j))
    time.sleep(1.5)
    t.check("no mail to an unconfirmed address", len(sink.to("alice@example.org")) == 1, len(sink.to("alice@example.org")))

    st, _, body = srv.request("GET", "/api/account/email/confirm?token=" + token)
    t.check("the link confirms (a page)", st == 200 and b"confirmed" in body, (st, body[:100]))
    st, _, body = srv.request("GET", "/api/account/email/confirm?token=" + token)
    t.check("a link works once", st == 404, st)
    st, _, body = srv.request("GET", "/api/account/email/confirm?token=" + "0" * 32)
    t.check("a made-up token", st == 404, st)
    st, j = srv.json("GET", "/api/account/email", cookie=alice)
    t.check("the owner sees the address, confirmed", j["email"] == "alice@example.org" and j["confirmed"], j)

    srv.json("POST", "/api/games/%s/actions" % game, {"action": "Nf3", "ply": 2}, cookie=alice)
    st, j = srv.json("POST", "/api/games/%s/actions" % game, {"action": "Nc6", "ply": 3}, cookie=bob)
    moved = wait_for(lambda: [x for x in sink.to("alice@example.org") if "moved" in x.headers["subject"]])
    t.check("one 'moved' mail after bob's move", len(moved) == 1, [x.headers["subject"] for x in moved])
    t.check("... with the game's link", moved and (BASE + "/games/" + game) in moved[0].body and
            "bob has moved" in moved[0].headers["subject"], moved and moved[0].body)
    st, j = srv.json("GET", "/api/account/yourmove", cookie=alice)
    t.check("alice's 'your move' count is 1", st == 200 and j["count"] == 1, j)
    st, j = srv.json("GET", "/api/account/yourmove", cookie=bob)
    t.check("bob's is 0", st == 200 and j["count"] == 0, j)

    for path in ["/api/games/%s" % game, "/api/games", "/api/lobby", "/api/session", "/api/games/%s/pgn" % game,
                 "/api/users/alice", "/api/users/alice/games", "/api/account/email"]:
        st, _, body = srv.request("GET", path, cookie=bob)
        t.check("the address is not in %s as bob sees it" % path, b"alice@example.org" not in body, body[:200])

    st, j = srv.json("PUT", "/api/account/notify", {"moved": False, "reminder": True}, cookie=alice)
    t.check("the 'moved' mails switched off", st == 200 and j == {"moved": False, "reminder": True}, (st, j))
    st, j = srv.json("PUT", "/api/account/notify", {"moved": "no"}, cookie=alice)
    t.check("the switches are booleans", st == 400, st)
    st, j = srv.json("PUT", "/api/account/notify", {"moved": True, "reminder": True}, cookie=bob)
    t.check("no switches without an address", st == 409, st)
    srv.json("POST", "/api/games/%s/actions" % game, {"action": "Bb5", "ply": 4}, cookie=alice)
    srv.json("POST", "/api/games/%s/actions" % game, {"action": "a6", "ply": 5}, cookie=bob)
    time.sleep(1.5)
    t.check("no 'moved' mail when switched off",
            len([x for x in sink.to("alice@example.org") if "moved" in x.headers["subject"]]) == 1, "")

    # A third of the day left: the last action 17 hours ago.  A game
    # without an action yet has no clock running, and no reminder.
    unstarted = new_game(srv, alice, bob, "bob")
    for g in (game, unstarted):
        db_rows(srv, "UPDATE games SET last_action_at = ? WHERE id = ?", int(time.time() * 1000) - 17 * 3600 * 1000, g)
    rem = wait_for(lambda: [x for x in sink.to("alice@example.org") if "Reminder" in x.headers["subject"]])
    t.check("the reminder at a third of the time left", len(rem) == 1 and (BASE + "/games/" + game) in rem[0].body,
            [x.headers["subject"] for x in rem])
    time.sleep(2.5)
    rem = [x for x in sink.to("alice@example.org") if "Reminder" in x.headers["subject"]]
    t.check("... sent once, though the scan runs every second", len(rem) == 1, len(rem))
    t.check("no reminder in a game not started", not [x for x in rem if unstarted in x.body], "")

    # A mail the SMTP server refuses twice goes on the third try.
    srv.json("PUT", "/api/account/notify", {"moved": True, "reminder": False}, cookie=alice)
    sink.refuse_data = 2
    srv.json("POST", "/api/games/%s/actions" % game, {"action": "Ba4", "ply": 6}, cookie=alice)
    srv.json("POST", "/api/games/%s/actions" % game, {"action": "Nf6", "ply": 7}, cookie=bob)
    moved = wait_for(lambda: len([x for x in sink.to("alice@example.org") if "moved" in x.headers["subject"]]) == 2,
                     seconds=15)
    t.check("a refused mail is tried again and sent", moved and sink.refuse_data == 0, sink.refuse_data)

    # Killed between the claim and the sending: the claim expires after the
    # lease and the mail goes once.
    srv.stop()
    srv.args = mail_args(["--mail-lease-seconds", "2"])
    srv.env = dict(os.environ, TTCHESS_TEST_MAIL_STALL="1")
    srv.start()
    srv.json("POST", "/api/games/%s/actions" % game, {"action": "O-O", "ply": 8}, cookie=alice)
    st, j = srv.json("POST", "/api/games/%s/actions" % game, {"action": "Be7", "ply": 9}, cookie=bob)
    claimed = wait_for(lambda: db_rows(srv, "SELECT id FROM mail_queue WHERE status = 'claimed'"))
    t.check("the mail is claimed and held (the test's stall)", len(claimed) == 1, claimed)
    srv.proc.kill()
    srv.proc.wait()
    srv.proc = None
    before = len(sink.to("alice@example.org"))
    srv.env = None
    srv.start()
    wait_for(lambda: len(sink.to("alice@example.org")) > before, seconds=15)
    time.sleep(2)
    after = [x for x in sink.to("alice@example.org")[before:]]
    t.check("after the restart the mail went once", len(after) == 1 and "/games/" + game in after[0].body,
            len(after))
    row = db_rows(srv, "SELECT status, attempts FROM mail_queue WHERE id = ?", claimed[0][0] if claimed else 0)
    t.check("... its row sent, on the second claim", row == [("sent", 2)], row)
    t.check("no mail left unsent", not db_rows(srv, "SELECT id, status FROM mail_queue WHERE status != 'sent'"),
            db_rows(srv, "SELECT id, status FROM mail_queue WHERE status != 'sent'"))

    # 50 parallel address changes of one player: 5 confirmation mails an
    # hour, the rest 429; an honest player's requests go on meanwhile.
    carol, dave = srv.register("carol"), srv.register("dave")
    before = len(sink.mails)
    times = []

    def one(i):
        if i % 5 == 4:
            start = time.time()
            st = srv.request("GET", "/api/account/yourmove", cookie=dave, source=address(i, 3))[0]
            times.append(time.time() - start)
            return "honest %d" % st
        return srv.request("PUT", "/api/account/email", {"email": "carol%d@example.org" % i}, cookie=carol,
                           source=address(i))[0]

    res = together(62, one)
    puts = [r for i, r in enumerate(res) if i % 5 != 4][:50]
    t.check("50 parallel changes: 5 taken (got %d)" % puts.count(202), puts.count(202) == 5, sorted(set(map(str, res))))
    t.check("... the others 429", puts.count(429) == 45, sorted(set(map(str, res))))
    t.check("the honest player's requests all answered", all(r == "honest 200" for i, r in enumerate(res) if i % 5 == 4),
            res)
    t.check("... p99 under 1 s", percentile(times, 99) < 1.0, percentile(times, 99))
    wait_for(lambda: len(sink.mails) >= before + 5)
    time.sleep(1.5)
    t.check("5 confirmation mails went", len(sink.mails) == before + 5, len(sink.mails) - before)

    # A deleted account keeps no address and no mail of its own (issue 29:
    # addresses are shown to nobody; a deleted account's is not kept).
    cid = db_rows(srv, "SELECT id FROM users WHERE name = ?", "carol")[0][0]
    t.check("carol has an address and mails queued before",
            db_rows(srv, "SELECT count(*) FROM emails WHERE user_id = ?", cid)[0][0] == 1 and
            db_rows(srv, "SELECT count(*) FROM mail_queue WHERE user_id = ?", cid)[0][0] >= 5)
    st, j = srv.json("DELETE", "/api/account", {"password": "a good password"}, cookie=carol)
    t.check("carol deletes her account", st == 200, (st, j))
    t.check("... her address and her mails are gone from the database",
            db_rows(srv, "SELECT count(*) FROM emails WHERE user_id = ?", cid)[0][0] == 0 and
            db_rows(srv, "SELECT count(*) FROM mail_queue WHERE user_id = ?", cid)[0][0] == 0 and
            not db_rows(srv, "SELECT 1 FROM mail_queue WHERE address LIKE ?", "carol%"))
finally:
    srv.close()
    os.unlink(tmp_password)

# Without --smtp the mails are off, and the API says so.
srv = Server("--registrations-per-hour", "100000", db=PG or None)
try:
    erin = srv.register("erin")
    st, j = srv.json("GET", "/api/account/email", cookie=erin)
    t.check("without --smtp: enabled false, and why", st == 200 and j["enabled"] is False and "--smtp" in j["why"], j)
    st, j = srv.json("PUT", "/api/account/email", {"email": "erin@example.org"}, cookie=erin)
    t.check("... an address is refused", st == 409, st)
    st, j = srv.json("GET", "/api/account/yourmove", cookie=erin)
    t.check("... the 'your move' count still works", st == 200 and j["count"] == 0, j)
finally:
    srv.close()
sink.close()
t.done()
