// SPDX-License-Identifier: GPL-3.0-or-later
//
// The rules' WebAssembly build loads in under 300 ms on loopback, as a player's browser meets it:
// fetched from the server, compiled and started (rules.ts measures it as LOAD_MEASURE), in a fresh
// browser context each time (no cache), on the analysis board; the median of five.
import { test, expect } from '@playwright/test';
import { openContext, watchConsole, closeContexts } from './helpers';

test.afterEach(closeContexts);

const LOAD_LIMIT_MS = 300;

test('the rules load in under 300 ms', async ({ browser }) => {
  const errors: string[] = [];
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const context = await openContext(browser);
    const page = await context.newPage();
    watchConsole(page, errors);
    await page.goto('/analysis?variant=gifford');
    await expect(page.locator('#analysis')).toHaveAttribute('data-variant', 'gifford');
    const ms = await page.evaluate(() => performance.getEntriesByName('ttchess-rules-load')[0]?.duration ?? NaN);
    times.push(ms);
    await context.close();
  }
  const median = [...times].sort((a, b) => a - b)[2];
  console.log(`rules load: ${times.map((t) => t.toFixed(1)).join(', ')} ms (median ${median.toFixed(1)})`);
  expect(median).toBeLessThan(LOAD_LIMIT_MS);
  expect(errors).toEqual([]);
});
