// SPDX-License-Identifier: GPL-3.0-or-later
//
// The game page plays by the library's rules in the page (web/src/rules.ts, the WebAssembly
// build): the player's move is on the board before the server answers, and the answer confirms
// it or puts it back with its rule; the opponent's action arrives by its event and is played in
// the page, with no state fetched (in a game with a live clock too: the event carries the clocks);
// a move queued during the opponent's turn (a premove) is played
// as the turn comes, dropped when it is no longer legal, and cancelled by a click; and the legal
// destinations of a piece of a van Gog position with some 3,400 legal actions are on the board
// within a frame of its selection (the figure printed here is the README's).
import { test, expect, type Page } from '@playwright/test';
import {
  clickSquare, closeContexts, createGame, dragMove, expectBoard, gameState, newPlayer, showsPly, squarePoint, type Player,
} from './helpers';

test.afterEach(closeContexts);

/* An action through the API, as the opponent's own client would send it. */
async function act(p: Player, id: string, action: string, ply: number): Promise<void> {
  const reply = await p.context.request.post(`/api/games/${id}/actions`, { data: { action, ply, reply: 'brief' } });
  expect(reply.status(), await reply.text()).toBe(200);
}

/* The queries of the page's requests for the game's state (GET /api/games/{id}), from now on. */
function stateFetches(page: Page, id: string): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (r.method() === 'GET' && url.pathname === `/api/games/${id}`) seen.push(url.search || '(none)');
  });
  return seen;
}

/* Two players and a game between them without a clock (Alice White), both pages open on it. */
async function twoPlayers(browser: import('@playwright/test').Browser, variant: string, errors: string[]) {
  const alice = await newPlayer(browser, 'lra', errors);
  const bob = await newPlayer(browser, 'lrb', errors);
  const id = await createGame(alice, { variant, color: 'white', opponent: bob.name });
  for (const p of [alice, bob]) {
    await p.page.goto(`/games/${id}`);
    await expect(p.page.locator('#game')).toHaveAttribute('data-status', 'active');
    await showsPly(p.page, 0);
  }
  return { alice, bob, id };
}

test('a move is shown at once and confirmed; a refused one is put back with its rule', async ({ browser }) => {
  const errors: string[] = [];
  const { alice, bob, id } = await twoPlayers(browser, 'chess', errors);

  // The server's answer is held back: the move is on the board before it comes.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await alice.page.route('**/api/games/*/actions', async (route) => {
    await held;
    await route.continue();
  });
  await dragMove(alice.page, 'e2', 'e4');
  await showsPly(alice.page, 1);
  await expectBoard(alice.page, { e4: 'P', e2: '.' });
  await expect(alice.page.locator('#status')).toHaveText('Black to move');
  expect((await gameState(alice, id)).ply).toBe(0);
  release();
  await expect.poll(async () => (await gameState(alice, id)).ply).toBe(1);
  await alice.page.unroute('**/api/games/*/actions');
  await expectBoard(alice.page, { e4: 'P', e2: '.' });
  await expect(alice.page.locator('#message')).toBeEmpty();
  await showsPly(bob.page, 1);
  await expectBoard(bob.page, { e4: 'P', e2: '.' }, 'black');

  // A refusal (forced here: the page's rules would never send an illegal move) puts the board back
  // as it was and says the sentence the server gave.
  const sentence = 'the test refuses this move, as a rule of the game would';
  await bob.page.route('**/api/games/*/actions', (route) =>
    route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ error: sentence }) }));
  await dragMove(bob.page, 'e7', 'e5', 'black');
  await expect(bob.page.locator('#message')).toHaveText(sentence);
  await showsPly(bob.page, 1);
  await expectBoard(bob.page, { e7: 'p', e5: '.', e4: 'P' }, 'black');
  await expect(bob.page.locator('#status')).toHaveText('Your move (black)');
  await bob.page.unroute('**/api/games/*/actions');

  // The same move, answered by the server this time, is played.
  await dragMove(bob.page, 'e7', 'e5', 'black');
  await showsPly(bob.page, 2);
  await expect.poll(async () => (await gameState(bob, id)).ply).toBe(2);
  await expect(bob.page.locator('#message')).toBeEmpty();
  expect(errors).toEqual([]);
});

test('an action typed before the game has loaded is played once it has, not dropped', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'lrd', errors);
  const bob = await newPlayer(browser, 'lre', errors);
  const id = await createGame(alice, { variant: 'chess', color: 'white', opponent: bob.name });
  // The game's state is held back until the action has been typed and sent.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  await alice.page.route((url) => url.pathname === `/api/games/${id}`, async (route) => {
    await held;
    await route.continue();
  });
  await alice.page.goto(`/games/${id}`);
  await alice.page.locator('#move-input').fill('e4');
  await alice.page.locator('#move-send').click();
  await expect(alice.page.locator('#message')).toContainText('still loading');
  // Word of something under way, not a refusal: drawn as news.
  await expect(alice.page.locator('#message')).toHaveClass(/\binfo\b/);
  // A second press while it waits sends nothing more (the same action twice would be refused).
  await alice.page.locator('#move-send').click();
  release();
  await showsPly(alice.page, 1);
  await expect.poll(async () => (await gameState(alice, id)).ply).toBe(1);
  await expectBoard(alice.page, { e4: 'P', e2: '.' });
  await expect(alice.page.locator('#message')).toBeEmpty();
  await expect(alice.page.locator('#move-input')).toHaveValue('');
  expect(errors).toEqual([]);
});

test('a state read before a take-back does not bring the action taken back again', async ({ browser }) => {
  const errors: string[] = [];
  const { alice, bob, id } = await twoPlayers(browser, 'chess', errors);
  await act(alice, id, 'e2e4', 0);
  await act(bob, id, 'e7e5', 1);
  await showsPly(bob.page, 2);
  // Bob's page's next state is read at once (ply 2) but handed to the page only after the
  // take-back's event has been followed, as a slow reply on a busy network would be.
  let release = (): void => {};
  const held = new Promise<void>((resolve) => { release = resolve; });
  let caught = false;
  await bob.page.route((url) => url.pathname === `/api/games/${id}`, async (route) => {
    if (caught) return route.continue();
    caught = true;
    const response = await route.fetch();
    await held;
    await route.fulfill({ response });
  });
  await act(bob, id, 'offer-takeback', 2);
  await expect.poll(() => caught).toBe(true);
  await act(alice, id, 'accept-takeback', 2);
  await showsPly(bob.page, 1);
  release();
  await expect.poll(async () => (await gameState(bob, id)).ply).toBe(1);
  await bob.page.waitForTimeout(500);
  await showsPly(bob.page, 1);
  await expectBoard(bob.page, { e4: 'P', e5: '.', e7: 'p' }, 'black');
  expect(errors).toEqual([]);
});

test('the opponent\'s action arrives by its event, with no state fetched', async ({ browser }) => {
  const errors: string[] = [];
  const { alice, bob, id } = await twoPlayers(browser, 'gifford', errors);
  // A spectator too.
  const carol = await newPlayer(browser, 'lrc', errors);
  await carol.page.goto(`/games/${id}`);
  await showsPly(carol.page, 0);
  await bob.page.waitForTimeout(300);
  const bobFetches = stateFetches(bob.page, id);
  const carolFetches = stateFetches(carol.page, id);

  await act(alice, id, 'e2e4', 0);
  await showsPly(bob.page, 1);
  await expectBoard(bob.page, { e4: 'P', e2: '.' }, 'black');
  // Bob answers on his page; the spectator follows both by the events.
  await clickSquare(bob.page, 'e7', 'black');
  await clickSquare(bob.page, 'e5', 'black');
  await showsPly(bob.page, 2);
  await act(alice, id, 'Bf1>4', 2);
  for (const p of [bob.page, carol.page]) {
    await showsPly(p, 3);
    await expect(p.locator('#move-list li[data-ply="3"]')).toContainText('Bf1>4');
  }
  await expectBoard(carol.page, { e4: 'P', e5: 'p', f1: '.' });
  // The page computed Bob's legal actions itself: the knight's moves are dotted.
  const knight = new Set((await gameState(bob, id)).legal.filter((a) => a.from === 'g8' && a.kind === 'normal').map((a) => a.to));
  await clickSquare(bob.page, 'g8', 'black');
  await expect(bob.page.locator('#board square.move-dest')).toHaveCount(knight.size);
  expect(bobFetches).toEqual([]);
  expect(carolFetches).toEqual([]);
  expect(errors).toEqual([]);
});

test('a live game: the opponent\'s move arrives with no state fetch and the clocks follow', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'lra', errors);
  const bob = await newPlayer(browser, 'lrb', errors);
  const carol = await newPlayer(browser, 'lrc', errors);
  const id = await createGame(alice, {
    variant: 'chess', color: 'white', opponent: bob.name, clock: { minutes: 5, increment: 2 },
  });
  for (const p of [bob, carol]) {
    await p.page.goto(`/games/${id}`);
    await expect(p.page.locator('#game')).toHaveAttribute('data-status', 'active');
    await showsPly(p.page, 0);
  }
  await bob.page.waitForTimeout(300);
  const bobFetches = stateFetches(bob.page, id);
  const carolFetches = stateFetches(carol.page, id);

  // White's first action starts Black's clock; Bob answers on his page; White thinks a while.
  await act(alice, id, 'e4', 0);
  await showsPly(bob.page, 1);
  await expect(bob.page.locator('#clock-black')).toHaveClass(/running/);
  await dragMove(bob.page, 'e7', 'e5', 'black');
  await showsPly(bob.page, 2);
  await expect.poll(async () => (await gameState(alice, id)).ply).toBe(2);
  await bob.page.waitForTimeout(1500);
  await act(alice, id, 'Nf3', 2);
  const reply = await alice.context.request.get(`/api/games/${id}`);
  const { clock } = (await reply.json()) as { clock: { white_ms: number; running: string | null } };
  expect(clock.running).toBe('black');
  // White's time, charged and given its increment by the server, is the one the event brought.
  const white = `${Math.floor(clock.white_ms / 60000)}:${String(Math.floor(clock.white_ms / 1000) % 60).padStart(2, '0')}`;
  for (const p of [bob.page, carol.page]) {
    await showsPly(p, 3);
    await expect(p.locator('#clock-white .clock-time')).toHaveText(white);
    await expect(p.locator('#clock-white')).not.toHaveClass(/running/);
    await expect(p.locator('#clock-black')).toHaveClass(/running/);
  }
  expect(bobFetches).toEqual([]);
  expect(carolFetches).toEqual([]);
  expect(errors).toEqual([]);
});

test('a premove is played when the turn comes, dropped when illegal, cancelled by a click', async ({ browser }) => {
  const errors: string[] = [];
  const { alice, bob, id } = await twoPlayers(browser, 'chess', errors);

  // During White's turn Bob queues e7-e5: shown, and played as White's move arrives.
  await dragMove(bob.page, 'e7', 'e5', 'black');
  await expect(bob.page.locator('#premove')).toContainText('e7–e5');
  await expect(bob.page.locator('#board square.current-premove')).toHaveCount(2);
  await act(alice, id, 'e4', 0);
  await showsPly(bob.page, 2);
  await expect.poll(async () => (await gameState(bob, id)).ply).toBe(2);
  expect((await gameState(bob, id)).actions[1].human).toBe('e5');
  await expect(bob.page.locator('#premove')).toBeHidden();
  await showsPly(alice.page, 2);

  // A premove cancelled by its button, and one cancelled by a click on the board, are not played.
  await act(alice, id, 'Qh5', 2);
  await showsPly(bob.page, 3);
  await act(bob, id, 'Nc6', 3);
  await showsPly(bob.page, 4);
  await dragMove(bob.page, 'g8', 'f6', 'black');
  await expect(bob.page.locator('#premove')).toContainText('g8–f6');
  await bob.page.locator('#premove-cancel').click();
  await expect(bob.page.locator('#premove')).toBeHidden();
  await dragMove(bob.page, 'a7', 'a6', 'black');
  await expect(bob.page.locator('#premove')).toContainText('a7–a6');
  await clickSquare(bob.page, 'd4', 'black');
  await expect(bob.page.locator('#premove')).toBeHidden();

  // f7-f6 queued, then White takes on f7: no pawn is left to push, and the premove goes silently.
  await dragMove(bob.page, 'f7', 'f6', 'black');
  await expect(bob.page.locator('#premove')).toContainText('f7–f6');
  await act(alice, id, 'Qxf7+', 4);
  await showsPly(bob.page, 5);
  await expect(bob.page.locator('#premove')).toBeHidden();
  await bob.page.waitForTimeout(500);
  expect((await gameState(bob, id)).ply).toBe(5);
  await expect(bob.page.locator('#message')).toBeEmpty();
  await expect(bob.page.locator('#status')).toHaveText('Your move (black) — check');
  expect(errors).toEqual([]);
});

test('a van Gog piece\'s destinations are on the board within a frame of its selection', async ({ browser }) => {
  const errors: string[] = [];
  const { alice, bob, id } = await twoPlayers(browser, 'vangog', errors);
  await act(alice, id, 'e2e4', 0);
  await act(bob, id, 'e7e5', 1);
  const page = alice.page;
  await showsPly(page, 2);
  const count = (await gameState(alice, id)).legal.length;
  expect(count).toBeGreaterThan(3000);

  // From the press on a piece (the event's own time stamp) to the destination dots in the document.
  const samples: number[] = [];
  const squares = ['g1', 'd1', 'b1', 'f1', 'e1', 'a2', 'h2', 'd2', 'c2', 'g2'];
  for (let round = 0; round < 3; round++) {
    for (const square of squares) {
      const latency = page.evaluate(() => new Promise<number>((resolve) => {
        const board = document.querySelector('#board cg-board')!;
        let pressed = -1;
        document.addEventListener('mousedown', (e) => { pressed = e.timeStamp; }, { capture: true, once: true });
        const seen = new MutationObserver(() => {
          if (pressed >= 0 && board.querySelector('square.move-dest')) {
            seen.disconnect();
            resolve(performance.now() - pressed);
          }
        });
        seen.observe(board, { childList: true, subtree: true });
      }));
      const at = await squarePoint(page, square);
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      samples.push(await latency);
      await page.mouse.up();
      // A click on an empty square that is no destination leaves the piece.
      await clickSquare(page, 'e6');
      await expect(page.locator('#board square.move-dest')).toHaveCount(0);
    }
  }
  samples.sort((x, y) => x - y);
  const median = samples[Math.floor(samples.length / 2)];
  const p90 = samples[Math.floor(samples.length * 0.9)];
  const worst = samples[samples.length - 1];
  console.log(`local-rules: van Gog, ${count} legal actions: destinations shown ${median.toFixed(1)} ms after the press ` +
    `(median of ${samples.length}; 90th percentile ${p90.toFixed(1)} ms, slowest ${worst.toFixed(1)} ms)`);
  expect(median).toBeLessThan(16);
  expect(errors).toEqual([]);
});
