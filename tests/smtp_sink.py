# SPDX-License-Identifier: GPL-3.0-or-later
"""A small SMTP server on loopback that keeps the mails it is given, for
tests/mail_test.py (Debian's python3-aiosmtpd is not needed: Python's
socketserver is enough for the few commands libcurl sends).  It speaks
EHLO, AUTH PLAIN (with or without the initial response), MAIL, RCPT,
DATA, RSET, NOOP and QUIT; it offers no STARTTLS (libcurl then goes on in
clear, as --smtp's "STARTTLS when offered" allows).  refuse_data > 0
answers that many DATA commands 451, for the retries."""

import base64
import socketserver
import threading


class Mail:
    def __init__(self, sender, rcpts, data, auth):
        self.sender, self.rcpts, self.data, self.auth = sender, rcpts, data, auth
        head, _, self.body = data.partition("\r\n\r\n")
        self.headers = {}
        for line in head.split("\r\n"):
            name, _, value = line.partition(":")
            self.headers[name.strip().lower()] = value.strip()


class Handler(socketserver.StreamRequestHandler):
    def reply(self, line):
        self.wfile.write((line + "\r\n").encode())

    def read_line(self):
        line = self.rfile.readline(4096)
        return line.decode("utf-8", "replace").rstrip("\r\n") if line else None

    def auth_plain(self, arg):
        if not arg:
            self.reply("334 ")
            arg = self.read_line() or ""
        parts = base64.b64decode(arg).split(b"\0")
        self.auth = (parts[1].decode(), parts[2].decode()) if len(parts) == 3 else None
        self.reply("235 2.7.0 accepted" if self.auth else "535 5.7.8 bad credentials")

    def read_data(self):
        lines = []
        while True:
            line = self.rfile.readline(65536)
            if not line or line in (b".\r\n", b".\n"):
                break
            line = line.decode("utf-8", "replace")
            lines.append(line[1:] if line.startswith(".") else line)
        return "".join(lines)

    def handle(self):
        sink = self.server.sink
        self.auth, sender, rcpts = None, None, []
        self.reply("220 sink.test ESMTP")
        while True:
            line = self.read_line()
            if line is None:
                return
            verb, _, arg = line.partition(" ")
            verb = verb.upper()
            if verb in ("EHLO", "HELO"):
                self.reply("250-sink.test\r\n250-AUTH PLAIN\r\n250 8BITMIME" if verb == "EHLO" else "250 sink.test")
            elif verb == "AUTH":
                mech, _, initial = arg.partition(" ")
                self.auth_plain(initial) if mech.upper() == "PLAIN" else self.reply("504 unknown mechanism")
            elif verb == "MAIL":
                sender, rcpts = arg.split(":", 1)[1].strip(), []
                self.reply("250 ok")
            elif verb == "RCPT":
                rcpts.append(arg.split(":", 1)[1].strip())
                self.reply("250 ok")
            elif verb == "DATA":
                with sink.lock:
                    refuse = sink.refuse_data > 0
                    sink.refuse_data -= refuse
                if refuse:
                    self.reply("451 4.3.0 try again later")
                    continue
                self.reply("354 go on")
                data = self.read_data()
                with sink.lock:
                    sink.mails.append(Mail(sender, rcpts, data, self.auth))
                self.reply("250 kept")
            elif verb in ("RSET", "NOOP"):
                self.reply("250 ok")
            elif verb == "QUIT":
                self.reply("221 bye")
                return
            else:
                self.reply("502 not here")


class Sink:
    """The sink on a free port of 127.0.0.1 (self.port); its mails in self.mails."""

    def __init__(self):
        self.mails, self.lock, self.refuse_data = [], threading.Lock(), 0
        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.sink = self
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def to(self, address):
        with self.lock:
            return [m for m in self.mails if "<%s>" % address in m.rcpts]

    def close(self):
        self.server.shutdown()
        self.server.server_close()
