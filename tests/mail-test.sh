#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The correspondence mails (issue 29): tests/mail_test.py against the
# SMTP sink of tests/smtp_sink.py, both in Python's standard library.
#
# Usage: TTCHESS=path/to/ttchess tests/mail-test.sh   (default build/ttchess)

set -u
export TTCHESS=${TTCHESS:-build/ttchess}
timeout 300 python3 "$(dirname "$0")/mail_test.py"
