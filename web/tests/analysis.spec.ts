// SPDX-License-Identifier: GPL-3.0-or-later
//
// The analysis board (/analysis): the engine of the WebAssembly build, in a Web Worker, reaches a
// depth and shows its lines in each variant; an action of a line clicked plays the line up to it; the
// page's link opens the same position again; a game page's "Analyse" opens the position shown, one
// of an earlier timeline included; the page fits a phone.
//
// Every game from its start, and two from a position given by FEN (the link then carries it). The
// engine's quiescence generates chess moves only and, in van Gog's game, searches only the first few
// quiet time-travel actions off the principal variation (docs/engine.md), so van Gog's full and past
// modes, which offer thousands of arrivals in every position, reach depth 6 in under a second
// natively. Time Traveler's Chess from its start is the slowest (its explosions are judged by a
// search of their own): about 15 s natively on a quiet machine, twice that in the browser, so its
// test has minutes.
import { test, expect, type Page } from '@playwright/test';
import { closeContexts, createGame, newPlayer, screenshot, watchConsole, openContext, type Player } from './helpers';

test.afterEach(closeContexts);

const BOARDS: { variant: string; fen?: string; depth: number }[] = [
  { variant: 'chess', depth: 6 },
  { variant: 'gifford', depth: 6 },
  { variant: 'vangog', depth: 6 },
  { variant: 'vangog', fen: 'k7/8/8/8/8/8/8/7K w - - 0 1 - - - -', depth: 6 },
  { variant: 'vangog-past', depth: 6 },
  { variant: 'vangog-future', depth: 6 },
  { variant: 'travelers', depth: 6 },
  { variant: 'travelers', fen: '4k3/8/8/8/8/8/4P3/4K3 w - - 0 1', depth: 6 },
  { variant: 'chessgi-classic', depth: 6 },
  { variant: 'chessgi', depth: 6 },
];

function analysisPath(variant: string, fen?: string, moves?: string[]): string {
  const q = new URLSearchParams({ variant });
  if (fen) q.set('fen', fen);
  if (moves?.length) q.set('moves', moves.join(' '));
  return `/analysis?${q.toString()}`;
}

/* Waits for the engine to report at least this depth, with a line. */
async function reaches(page: Page, depth: number): Promise<void> {
  await expect.poll(async () => Number(await page.locator('#analysis').getAttribute('data-depth')), {
    timeout: 300_000, message: `the engine reaches depth ${depth}`,
  }).toBeGreaterThanOrEqual(depth);
  await expect(page.locator('.pv-line[data-multipv="1"] .pv-move').first()).toBeVisible();
}

for (const b of BOARDS) {
  test(`${b.variant}${b.fen ? ' from a FEN' : ''}: the engine reaches depth ${b.depth}, a line's action plays it, the link reopens it`, async ({ browser }) => {
    test.setTimeout(360_000);
    const errors: string[] = [];
    const context = await openContext(browser);
    const page = await context.newPage();
    watchConsole(page, errors);
    await page.goto(analysisPath(b.variant, b.fen));
    await expect(page.locator('#analysis')).toHaveAttribute('data-variant', b.variant);
    await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '0');
    await reaches(page, b.depth);

    // The engine switched off keeps its lines; the line's second action (or its first, in a line of
    // one) plays the line up to it.
    await page.locator('#engine-switch').uncheck();
    await expect(page.locator('#engine-state')).toHaveText('The engine is off.');
    const line = page.locator('.pv-line[data-multipv="1"] .pv-move');
    const count = Math.min(await line.count(), 2);
    const coords: string[] = [];
    for (let i = 0; i < count; i++) coords.push((await line.nth(i).getAttribute('data-coord')) ?? '');
    const humans = await line.evaluateAll((els, n) => els.slice(0, n).map(e => e.lastChild?.textContent ?? ''), count);
    await line.nth(count - 1).click();
    await expect(page.locator('#analysis')).toHaveAttribute('data-ply', String(count));
    for (const [i, human] of humans.entries())
      await expect(page.locator(`#analysis-moves li[data-ply="${i + 1}"] .human`)).toHaveText(human);
    // Switched on, the engine analyses the new position.
    await page.locator('#engine-switch').check();
    await expect(page.locator('.pv-line[data-multipv="1"] .pv-move').first()).toBeVisible();
    const fen = await page.locator('#analysis-fen').inputValue();

    // The link says the variant, the start and the actions, and opens the same position again.
    const href = await page.locator('#share-link').getAttribute('href');
    expect(href).toBe(analysisPath(b.variant, b.fen, coords));
    const again = await context.newPage();
    watchConsole(again, errors);
    await again.goto(href!);
    await expect(again.locator('#analysis')).toHaveAttribute('data-ply', String(count));
    await expect(again.locator('#analysis-fen')).toHaveValue(fen);
    await expect(again.locator('#analysis-moves li')).toHaveCount(count + 1);
    expect(errors).toEqual([]);
  });
}

test('typed actions, a refusal, going back, the problem link, the engine switched off and on', async ({ browser }) => {
  const errors: string[] = [];
  const context = await openContext(browser);
  const page = await context.newPage();
  watchConsole(page, errors);
  await page.goto('/analysis?variant=chess&moves=e2e4');
  await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '1');
  await page.locator('#analysis-input').fill('e5');
  await page.locator('#analysis-input').press('Enter');
  await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '2');
  await page.locator('#analysis-input').fill('Ke3');
  await page.locator('#analysis-input').press('Enter');
  await expect(page.locator('#analysis-message')).not.toBeEmpty();
  await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '2');

  await page.locator('#engine-switch').uncheck();
  await expect(page.locator('#engine-state')).toHaveText('The engine is off.');
  await page.locator('#engine-switch').check();
  await reaches(page, 3);

  // Back one action: the position and the link follow; a new action replaces the one after it.
  await page.locator('#nav-prev').click();
  await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '1');
  await expect(page.locator('#share-link')).toHaveAttribute('href', '/analysis?variant=chess&moves=e2e4');
  await page.locator('#analysis-input').fill('c5');
  await page.locator('#analysis-input').press('Enter');
  await expect(page.locator('#analysis-moves li')).toHaveCount(3);
  await expect(page.locator('#analysis-moves li[data-ply="2"] .human')).toHaveText('c5');

  const fen = await page.locator('#analysis-fen').inputValue();
  await page.locator('#make-problem').click();
  const problem = await page.locator('#problem-link').getAttribute('href');
  expect(new URL(problem!).searchParams.get('fen')).toBe(fen);
  expect(new URL(problem!).searchParams.get('moves')).toBeNull();
  await page.goto(problem!);
  await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '0');
  await expect(page.locator('#analysis-fen')).toHaveValue(fen);
  expect(errors).toEqual([]);
});

test('Analyse from a game page opens the position shown, on an earlier timeline', async ({ browser }) => {
  const errors: string[] = [];
  const alice: Player = await newPlayer(browser, 'ana', errors);
  const bob: Player = await newPlayer(browser, 'bo', errors);
  const id = await createGame(alice, { variant: 'gifford', color: 'white', opponent: bob.name });
  // Gifford: the king goes back to move 3 at ply 9, which starts timeline 2.
  const actions = ['e4', 'e5', 'Bf1>4', 'Nc6', 'Nf3', 'Nf6', 'B@c4', 'Bc5', 'Ke1<3@e3'];
  for (const [i, action] of actions.entries()) {
    const p = i % 2 === 0 ? alice : bob;
    const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply: i } });
    expect(reply.status(), await reply.text()).toBe(200);
  }
  const state = await (await alice.context.request.get(`/api/games/${id}?nodes=1`)).json() as
    { timelines: number; nodes: { ply: number; timeline: number; fen: string }[] };
  expect(state.timelines).toBe(2);
  const page = alice.page;
  await page.goto(`/games/${id}`);
  await expect(page.locator('#game')).toHaveAttribute('data-timelines', '2');
  // Timeline 1, one step before its tip: ply 7, a position the present (timeline 2) does not pass.
  const column = page.locator('#timelines .timeline[data-timeline="1"]');
  await column.locator('button.prev').click();
  await expect(column.locator('.where')).toContainText('ply 7');
  await column.locator('button.show').click();
  await expect(page.locator('#viewing')).toContainText('ply 7');
  await page.locator('#analyse-here').click();
  await expect(page).toHaveURL(/\/analysis\?/);
  await expect(page.locator('#analysis')).toHaveAttribute('data-ply', '7');
  await expect(page.locator('#analysis-fen')).toHaveValue(state.nodes.find(n => n.ply === 7)!.fen);
  await expect(page.locator('#analysis-moves li')).toHaveCount(8);
  await reaches(page, 2);
  expect(errors).toEqual([]);
});

for (const width of [360, 390, 1280]) {
  test(`the analysis board fits a ${width} px window`, async ({ browser }) => {
    const errors: string[] = [];
    const context = await openContext(browser);
    const page = await context.newPage();
    watchConsole(page, errors);
    await page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
    await page.goto('/analysis?variant=gifford&moves=e2e4 e7e5 f1%3E4');
    await reaches(page, 3);
    await screenshot(page, `analysis-${width}`);
    const board = await page.locator('#analysis-board').boundingBox();
    expect(board!.width).toBeGreaterThan(Math.min(width - 60, 470));
    expect(errors).toEqual([]);
  });
}
