// SPDX-License-Identifier: GPL-3.0-or-later
//
// The browser tests (make test-web, tests/web-test.sh).  They drive
// Debian's chromium, since Playwright's own browser download is not
// available where ttchess is built, against the server that
// tests/web-test.sh starts (TTCHESS_URL).  One worker: the machine has two
// cores, and the server and the browser need them.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  workers: 1,
  timeout: 180_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  retries: 0,
  use: {
    baseURL: process.env.TTCHESS_URL ?? 'http://127.0.0.1:8080',
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
});
