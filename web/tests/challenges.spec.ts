// SPDX-License-Identifier: GPL-3.0-or-later
//
// Challenges: a game naming an opponent waits for them to accept it. The
// challenged player's lobby shows it at the top by itself (it polls),
// with Accept and Decline; the challenger's lists it among their games
// with Withdraw. A blocked player's challenge is refused with the
// server's sentence, and so is one over the limit of open challenges.
// Screenshots of the lobby at phone and desktop widths go to
// web/test-results/screens for people to look at.
import { test, expect } from '@playwright/test';
import {
  answerChallenge, closeContexts, fillNewGame, newPlayer, screenshot, sendChallenge, smallButtons,
} from './helpers';

test.afterEach(closeContexts);

test('a challenge appears in the lobby by itself, is accepted, and the game opens active', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'alice', errors);
  const bob = await newPlayer(browser, 'bob', errors);

  // Bob's lobby is open before the challenge exists.
  await bob.page.goto('/');
  await expect(bob.page.locator('#new-game')).toBeVisible();
  await expect(bob.page.locator('#challenges')).toBeHidden();

  // Alice challenges Bob in her lobby: the form says that naming a player
  // sends a challenge, and the lobby then lists it with Withdraw.
  await alice.page.goto('/');
  await expect(alice.page.locator('#opponent-hint')).toContainText('sends them a challenge');
  await expect(alice.page.locator('#create-game')).toHaveText('Send challenge');
  await fillNewGame(alice.page, {
    variant: 'gifford', color: 'white', time: { minutes: 5, increment: 2 }, opponent: { player: bob.name },
  });
  await alice.page.locator('#create-game').click();
  const notice = alice.page.locator('#lobby-notice');
  await expect(notice).toContainText(`Challenge sent to ${bob.name}`);
  const id = (await notice.getAttribute('data-id'))!;
  expect(id).toMatch(/^[0-9a-f]+$/);
  expect(new URL(alice.page.url()).pathname).toBe('/');
  const sent = alice.page.locator(`#my-games .game-row[data-id="${id}"]`);
  await expect(sent).toHaveClass(/challenge-sent/);
  await expect(sent).toContainText('challenge');
  await expect(sent).toContainText(bob.name);
  await expect(sent.locator('button.withdraw')).toBeVisible();

  // Bob's lobby shows it within a poll, without reloading: who, what, his colour.
  const card = bob.page.locator(`#challenges .challenge[data-id="${id}"]`);
  await expect(card).toBeVisible();
  await expect(card.locator('.from')).toHaveText(alice.name);
  await expect(card).toContainText('Gifford');
  await expect(card).toContainText('5+2');
  await expect(card).toContainText('You play black');
  await expect(bob.page.locator('#challenges h2 .count')).toHaveText('1');
  // A challenge received is not listed among Bob's games, with a Withdraw meant for its challenger.
  await expect(bob.page.locator(`#my-games [data-id="${id}"]`)).toHaveCount(0);
  await screenshot(bob.page, 'lobby-challenge-1280');

  // Accepting opens the game, active, Bob Black.
  await card.locator('button.accept').click();
  await expect(bob.page).toHaveURL(new RegExp(`/games/${id}$`));
  await expect(bob.page.locator('#game')).toHaveAttribute('data-status', 'active');
  await expect(bob.page.locator('#game')).toHaveAttribute('data-you', 'black');

  // Alice's lobby sees it become a game (her move: she is White).
  const row = alice.page.locator(`#my-games .game-row[data-id="${id}"]`);
  await expect(row).not.toHaveClass(/challenge-sent/);
  await expect(row).toHaveClass(/your-move/);
  await expect(row).toContainText('active');

  // Accepting again is refused: the API says so.
  const again = await bob.context.request.post(`/api/games/${id}/accept`, { data: {} });
  expect(again.status()).toBe(409);
  expect(errors).toEqual([]);
});

test('a declined challenge leaves the lobby, its challenger sees it declined; a withdrawn one likewise', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'alice', errors);
  const bob = await newPlayer(browser, 'bob', errors);
  const declined = await sendChallenge(alice, { variant: 'vangog', color: 'black', days_per_move: 3, opponent: bob.name });
  const withdrawn = await sendChallenge(alice, { variant: 'chessgi', color: 'white', clock: { minutes: 10, increment: 0 }, opponent: bob.name });
  const stale = await sendChallenge(alice, { variant: 'travelers', color: 'random', opponent: bob.name });

  // Bob's page runs on a clock of the test's, paused, so that it polls only when told.
  await bob.page.clock.install();
  await bob.page.goto('/');
  const cards = bob.page.locator('#challenges .challenge');
  await expect(cards).toHaveCount(3);
  await bob.page.clock.pauseAt(Date.now() + 1000);
  await expect(bob.page.locator(`.challenge[data-id="${declined}"]`)).toContainText('You play white');
  await expect(bob.page.locator(`.challenge[data-id="${declined}"]`)).toContainText('3 days');
  await expect(bob.page.locator(`.challenge[data-id="${withdrawn}"]`)).toContainText('10+0');

  // Bob declines one: it leaves his list at once.
  await bob.page.locator(`.challenge[data-id="${declined}"] button.decline`).click();
  await expect(bob.page.locator(`.challenge[data-id="${declined}"]`)).toHaveCount(0);
  await expect(cards).toHaveCount(2);

  // Alice sees it declined, and withdraws another in her lobby.
  await alice.page.goto('/');
  const declinedRow = alice.page.locator(`#my-games .game-row[data-id="${declined}"]`);
  await expect(declinedRow).toHaveAttribute('data-status', 'declined');
  await expect(declinedRow).toContainText(`declined by ${bob.name}`);
  await expect(declinedRow.locator('button')).toHaveCount(0);
  const withdrawnRow = alice.page.locator(`#my-games .game-row[data-id="${withdrawn}"]`);
  await expect(withdrawnRow).toHaveClass(/challenge-sent/);
  await withdrawnRow.locator('button.withdraw').click();
  await expect(withdrawnRow).toHaveAttribute('data-status', 'declined');
  await expect(withdrawnRow).toContainText(`withdrawn by ${alice.name}`);

  // Bob's next poll takes the withdrawn one off his list.
  await expect(bob.page.locator(`.challenge[data-id="${withdrawn}"]`)).toHaveCount(1);
  await bob.page.clock.runFor(10_000);
  await expect(bob.page.locator(`.challenge[data-id="${withdrawn}"]`)).toHaveCount(0);
  await expect(cards).toHaveCount(1);

  // One withdrawn after Bob's page last asked: accepting it shows the server's sentence,
  // and the list then drops it.
  await answerChallenge(alice, stale, 'decline');
  const refusal = await bob.context.request.post(`/api/games/${stale}/accept`, { data: {} });
  expect(refusal.status()).toBe(409);
  const sentence = (await refusal.json()).error as string;
  await bob.page.locator(`.challenge[data-id="${stale}"] button.accept`).click();
  await expect(bob.page.locator('#challenge-error')).toHaveText(sentence);
  await expect(bob.page).toHaveURL(/\/$/);
  await expect(cards).toHaveCount(0);
  await expect(bob.page.locator('#challenges')).toBeHidden();

  // Nobody else may answer a challenge.
  const carol = await newPlayer(browser, 'carol', errors);
  const open = await sendChallenge(alice, { variant: 'gifford', color: 'white', opponent: bob.name });
  expect((await carol.context.request.post(`/api/games/${open}/accept`, { data: {} })).status()).toBe(403);
  expect(errors).toEqual([]);
});

test('a blocked player\'s challenge is refused with the server\'s sentence; too many open challenges too', async ({ browser }) => {
  const errors: string[] = [];
  const bob = await newPlayer(browser, 'bob', errors);
  const carol = await newPlayer(browser, 'carol', errors);

  // Bob blocks Carol on his account page, reached from the header.
  await bob.page.goto('/');
  await bob.page.locator('#account-link').click();
  await expect(bob.page).toHaveURL(/\/account$/);
  await bob.page.locator('#block-name').fill(carol.name);
  await bob.page.locator('#block-add').click();
  await expect(bob.page.locator(`#block-list .block-row[data-name="${carol.name}"]`)).toBeVisible();

  // Carol's challenge is refused; the page shows the server's own sentence.
  const direct = await carol.context.request.post('/api/games', { data: { variant: 'gifford', opponent: bob.name } });
  expect(direct.status()).toBe(403);
  const sentence = (await direct.json()).error as string;
  expect(sentence.length).toBeGreaterThan(0);
  await carol.page.goto('/');
  await fillNewGame(carol.page, { variant: 'gifford', color: 'white', time: { days: 3 }, opponent: { player: bob.name } });
  await carol.page.locator('#create-game').click();
  await expect(carol.page.locator('#lobby-error')).toHaveText(sentence);
  await expect(carol.page.locator('#lobby-notice')).toBeEmpty();
  await expect(carol.page).toHaveURL(/\/$/);
  await bob.page.goto('/');
  await expect(bob.page.locator('#challenges .challenge')).toHaveCount(0);

  // Unblocked, she may challenge him again.
  await bob.page.goto('/account');
  await bob.page.locator(`.block-row[data-name="${carol.name}"] button.unblock`).click();
  await expect(bob.page.locator('#block-list')).toContainText('You block nobody');
  await carol.page.locator('#create-game').click();
  await expect(carol.page.locator('#lobby-notice')).toContainText(`Challenge sent to ${bob.name}`);

  // A player has at most 20 challenges open: the 21st is refused with the server's sentence.
  const dave = await newPlayer(browser, 'dave', errors);
  for (let i = 0; i < 19; i++) await sendChallenge(carol, { variant: 'chessgi', opponent: dave.name });
  const over = await carol.context.request.post('/api/games', { data: { variant: 'chessgi', opponent: dave.name } });
  expect(over.status()).toBe(429);
  await fillNewGame(carol.page, { variant: 'chessgi', color: 'random', time: { days: 1 }, opponent: { player: dave.name } });
  await carol.page.locator('#create-game').click();
  await expect(carol.page.locator('#lobby-error')).toHaveText((await over.json()).error as string);
  expect(errors).toEqual([]);
});

test('screenshots: the lobby with challenges at 360, 390 and 1280 px', async ({ browser }) => {
  const errors: string[] = [];
  const me = await newPlayer(browser, 'pat', errors);
  // Names as long as names may be, to see that they wrap rather than overflow.
  const long = await newPlayer(browser, 'Maximilian_vonSchach', errors);
  const other = await newPlayer(browser, 'quinn', errors);
  await sendChallenge(long, { variant: 'gifford', color: 'black', clock: { minutes: 15, increment: 10 }, opponent: me.name, options: 'forward=8' });
  await sendChallenge(other, { variant: 'chessgi', color: 'white', days_per_move: 3, opponent: me.name });
  await sendChallenge(me, { variant: 'gifford', color: 'white', days_per_move: 5, opponent: other.name });
  const declined = await sendChallenge(me, { variant: 'vangog', color: 'black', days_per_move: 2, opponent: long.name });
  await answerChallenge(long, declined, 'decline');
  const active = await sendChallenge(other, { variant: 'vangog', color: 'black', days_per_move: 2, opponent: me.name });
  await answerChallenge(me, active, 'accept');

  for (const width of [360, 390, 1280]) {
    await me.page.setViewportSize({ width, height: width < 500 ? 800 : 900 });
    await me.page.goto('/');
    await expect(me.page.locator('#challenges .challenge')).toHaveCount(2);
    await expect(me.page.locator('#my-games .game-row')).toHaveCount(3);
    await expect(me.page.locator('#variant')).toBeEnabled();
    await screenshot(me.page, `lobby-${width}`);
    expect(await smallButtons(me.page, '#challenges', width < 600 ? 44 : 40)).toEqual([]);
    expect(await smallButtons(me.page, '#my-games', 36)).toEqual([]);
    expect(await smallButtons(me.page, '#new-game', width < 600 ? 44 : 40)).toEqual([]);
  }
  expect(errors).toEqual([]);
});

test('the lobby asks for news every few seconds while it is visible, and not while it is hidden', async ({ browser }) => {
  const errors: string[] = [];
  const p = await newPlayer(browser, 'rita', errors);
  // Counted when a request has finished, since the page schedules its next
  // poll only once the answer is in: advancing the clock before that would
  // run past a timer not yet set.
  let asked = 0;
  p.page.on('requestfinished', r => {
    if (r.method() === 'GET' && new URL(r.url()).pathname === '/api/games') asked++;
  });
  const settled = async (n: number): Promise<void> => {
    await expect.poll(() => asked).toBe(n);
    await p.page.waitForTimeout(300);
  };
  await p.page.clock.install();
  await p.page.goto('/');
  await expect(p.page.locator('#variant')).toBeEnabled();
  await p.page.clock.pauseAt(Date.now() + 1000);
  // A request's event reaches the test a little after the page makes it:
  // each count is read once the page has been still for a moment.
  await p.page.waitForTimeout(300);
  const start = asked;
  await p.page.clock.runFor(6500);
  await settled(start + 1);
  await p.page.clock.runFor(6500);
  await settled(start + 2);

  const setVisibility = (state: 'hidden' | 'visible') => p.page.evaluate(s => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
    document.dispatchEvent(new Event('visibilitychange'));
  }, state);
  await setVisibility('hidden');
  await p.page.waitForTimeout(300);
  const hidden = asked;
  await p.page.clock.runFor(60_000);
  await p.page.waitForTimeout(300);
  expect(asked).toBe(hidden);
  // Back on the tab: at once, then every few seconds again.
  await setVisibility('visible');
  await settled(hidden + 1);
  await p.page.clock.runFor(6500);
  await settled(hidden + 2);

  // Leaving the lobby stops it.
  await p.page.locator('#account-link').click();
  await expect(p.page.locator('#tokens')).toBeVisible();
  await p.page.waitForTimeout(300);
  const left = asked;
  await p.page.clock.runFor(30_000);
  await p.page.waitForTimeout(300);
  expect(asked).toBe(left);
  expect(errors).toEqual([]);
});

test('the game page of a challenge: the challenged player accepts or declines there, the challenger may withdraw', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'alice', errors);
  const bob = await newPlayer(browser, 'bob', errors);

  const first = await sendChallenge(alice, { variant: 'chess', color: 'white', opponent: bob.name });
  await alice.page.goto(`/games/${first}`);
  await expect(alice.page.locator('#status')).toHaveText(`Waiting for ${bob.name} to accept your challenge`);
  await expect(alice.page.locator('#challenge-withdraw')).toBeVisible();
  await bob.page.goto(`/games/${first}`);
  await expect(bob.page.locator('#status')).toHaveText(`${alice.name} challenges you`);
  await bob.page.locator('#challenge-accept').click();
  await expect(bob.page.locator('#game')).toHaveAttribute('data-status', 'active');
  await expect(bob.page.locator('#status')).toHaveText('White to move');
  // Alice's page learns of it from the live stream.
  await expect(alice.page.locator('#status')).toHaveText('Your move (white)');

  const second = await sendChallenge(alice, { variant: 'chess', color: 'white', opponent: bob.name });
  await bob.page.goto(`/games/${second}`);
  await bob.page.locator('#challenge-decline').click();
  await expect(bob.page.locator('#status')).toHaveText(`Challenge declined by ${bob.name}`);
  await expect(bob.page.locator('#invite-box')).toBeHidden();

  const third = await sendChallenge(alice, { variant: 'chess', color: 'white', opponent: bob.name });
  await alice.page.goto(`/games/${third}`);
  await alice.page.locator('#challenge-withdraw').click();
  await expect(alice.page.locator('#status')).toHaveText(`Challenge withdrawn by ${alice.name}`);
  expect(errors).toEqual([]);
});
