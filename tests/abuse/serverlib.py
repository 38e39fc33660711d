# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared pieces of the abuse tests (tests/abuse-test.sh): a server of the
build on a free port with a fresh database, requests from any loopback
address, accounts, and the pass/fail tally each script prints.

Every script here talks only to 127.0.0.0/8 on this machine, and every
loop in it is bounded in count and time."""

import http.client
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

TTCHESS = os.environ.get("TTCHESS", "build/ttchess")


class Server:
    """A ttchess server started with `args` on a free port of 127.0.0.1."""

    def __init__(self, *args, static=None, db=None, env=None):
        self.tmp = tempfile.mkdtemp(prefix="ttchess-abuse-")
        self.db = db or os.path.join(self.tmp, "ttchess.db")
        self.static = static or os.path.join(self.tmp, "none")
        self.args = list(args)
        self.env = env
        self.proc = None
        self.port = None
        self.start()

    def start(self):
        for _ in range(8):
            port = random.randint(20000, 40000)
            log = open(os.path.join(self.tmp, "serve.log"), "w")
            cmd = [TTCHESS, "serve", "--port", str(port), "--db", self.db, "--static", self.static] + self.args
            proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env)
            for _ in range(100):
                time.sleep(0.05)
                if proc.poll() is not None:
                    break
                if "ttchess serve: http" in open(os.path.join(self.tmp, "serve.log")).read():
                    self.proc, self.port = proc, port
                    return
            proc.kill()
            proc.wait()
        sys.exit("FAIL: the server did not start: " + open(os.path.join(self.tmp, "serve.log")).read())

    def stop(self):
        if self.proc:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def close(self):
        self.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def log(self):
        return open(os.path.join(self.tmp, "serve.log")).read()

    def rss_mib(self):
        """The server's resident memory now, in MiB."""
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0

    def origin(self):
        return "http://127.0.0.1:%d" % self.port

    def request(self, method, path, body=None, cookie=None, source="127.0.0.1", headers=None, timeout=10,
                origin=True):
        """One request on a new connection from `source`: (status, headers, body bytes).
        A body that is a dict or list is sent as JSON.  State-changing
        requests carry this server's Origin unless origin is False."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout, source_address=(source, 0))
        h = dict(headers or {})
        if cookie:
            h["Cookie"] = cookie
        if origin and method not in ("GET", "HEAD") and "Origin" not in h:
            h["Origin"] = self.origin()
        data = None
        if body is not None:
            data = body if isinstance(body, (bytes, str)) else json.dumps(body)
            if isinstance(data, str):
                data = data.encode()
            h.setdefault("Content-Type", "application/json")
        try:
            conn.request(method, path, body=data, headers=h)
            r = conn.getresponse()
            return r.status, dict(r.getheaders()), r.read()
        finally:
            conn.close()

    def json(self, method, path, body=None, cookie=None, **kw):
        status, headers, data = self.request(method, path, body, cookie, **kw)
        try:
            return status, json.loads(data) if data else None
        except ValueError:
            return status, data

    def register(self, name, password="a good password", source="127.0.0.1"):
        """Registers `name` and returns its session cookie ("ttchess_session=...")."""
        status, headers, data = self.request("POST", "/api/register", {"name": name, "password": password},
                                             source=source)
        if status != 201:
            sys.exit("FAIL: could not register %s: %d %s" % (name, status, data[:200]))
        return headers["Set-Cookie"].split(";")[0]


# The security headers every reply carries (docs/api.md), lower-cased.
SECURITY_HEADERS = (b"content-security-policy: default-src 'self'", b"x-content-type-options: nosniff",
                    b"referrer-policy: same-origin", b"x-frame-options: deny")


def connect(port, source="127.0.0.1", timeout=5.0):
    """A socket to the server on 127.0.0.1 from the loopback address `source`."""
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))


def read_reply(s, timeout=5.0):
    """What comes back until the server closes or `timeout` passes."""
    s.settimeout(timeout)
    out = b""
    try:
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
    except (socket.timeout, ConnectionResetError):
        pass
    return out


def raw(port, data, source="127.0.0.1", timeout=5.0, read=True):
    """Sends raw bytes on a new socket from `source`; returns what came back
    until the server closed or `timeout` passed."""
    s = connect(port, source, timeout)
    try:
        s.sendall(data)
        return read_reply(s, timeout) if read else b""
    finally:
        s.close()


def status_of(reply):
    """The status of a raw reply, or 0 when there is none."""
    try:
        return int(reply.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return 0


def has_security_headers(reply):
    head = reply.split(b"\r\n\r\n", 1)[0].lower()
    return all(h in head for h in SECURITY_HEADERS)


def percentile(values, p):
    v = sorted(values)
    if not v:
        return float("inf")
    return v[min(len(v) - 1, int(round(p / 100.0 * (len(v) - 1))))]


class Tally:
    """Counts checks; `done` prints the closing line and exits non-zero on a failure."""

    def __init__(self, name):
        self.name = name
        self.passed = 0
        self.failed = 0

    def check(self, what, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL: %s: %s%s" % (self.name, what, (": " + str(detail)[:400]) if detail else ""), flush=True)
        return ok

    def done(self):
        print("%s: %d passed, %d failed" % (self.name, self.passed, self.failed), flush=True)
        sys.exit(1 if self.failed else 0)


def together(n, fn):
    """Runs fn(i) for i in 0..n-1 on n threads released at the same moment;
    returns their results in order (an exception is returned as itself)."""
    import threading
    barrier = threading.Barrier(n)
    results = [None] * n

    def run(i):
        try:
            barrier.wait(timeout=30)
            results[i] = fn(i)
        except Exception as e:  # noqa: BLE001 - a failed request is a result to count
            results[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    return results


def address(i, block=1):
    """A loopback address of its own for the i-th parallel client
    (127.0.<block>.<1 + i % 250>, 127.0.<block + 1>... beyond 250), so that
    parallel requests are not refused by the per-address connection limit."""
    return "127.0.%d.%d" % (block + i // 250, 1 + i % 250)
