// SPDX-License-Identifier: GPL-3.0-or-later
//
// The home page and the lobby's live lists (issue 27, item 4): a visitor's home at phone and desktop
// size (the four games with their diagrams, paragraphs and rules links, the open challenges and the
// games being played, the login form); a rules page rendered from docs/rules with the seed's words
// and a diagram of its FEN; "play the computer" after registering in one step; an open challenge
// posted by one player appearing live in another's lobby and in a visitor's home, accepted there, and
// both players' pages going to the game; the new-game form's defaults and remembered choices.
import { test, expect, type Page } from '@playwright/test';
import { closeContexts, newPlayer, openContext, screenshot, uniqueName } from './helpers';

test.afterEach(closeContexts);

const GAMES = ['gifford', 'vangog', 'chessgi', 'travelers'];

async function expectDiagramsDrawn(page: Page, scope: string, count: number): Promise<void> {
  await expect(page.locator(`${scope} .fen-board cg-board`)).toHaveCount(count);
  // Each diagram shows pieces (chessground drew the position, not an empty board).
  for (const board of await page.locator(`${scope} .fen-board`).all())
    expect(await board.locator('piece').count()).toBeGreaterThanOrEqual(2);
}

for (const width of [390, 1280]) {
  test(`a visitor's home at ${width} px: the games, their rules, the lists, the login`, async ({ browser }) => {
    const context = await openContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/');
    await expect(page.locator('.home h1')).toContainText('time travel');
    await expect(page.locator('.game-card')).toHaveCount(4);
    for (const v of GAMES) {
      const card = page.locator(`.game-card[data-variant="${v}"]`);
      await expect(card.locator('h3')).not.toBeEmpty();
      expect((await card.locator('p').first().textContent())!.length).toBeGreaterThan(150);
      await expect(card.locator(`a.rules-link[href="/rules/${v}"]`)).toBeVisible();
      await expect(card.locator('.play-computer')).toBeVisible();
    }
    await expectDiagramsDrawn(page, '.home-games', 4);
    // Time Traveler's marks are drawn on its diagram; Chessgi's pocket is said in words.
    await expect(page.locator('.game-card[data-variant="travelers"] .fen-board svg.cg-custom-svgs circle')).toHaveCount(2);
    await expect(page.locator('.game-card[data-variant="chessgi"] .fen-pocket')).toContainText('White pawn; Black pawn, pawn');
    await expect(page.locator('#login-form #login-name')).toBeVisible();
    await expect(page.locator('#register-button')).toBeVisible();
    await expect(page.locator('#seeks h2')).toHaveText('Open challenges');
    await expect(page.locator('#playing h2')).toHaveText('Being played now');
    await expect(page.locator('#seek-list')).not.toContainText('Loading');
    await screenshot(page, `home-visitor-${width}`);
  });
}

test('a rules page: the document rendered, the seed\'s words, a diagram of its FEN', async ({ browser }) => {
  const context = await openContext(browser);
  const page = await context.newPage();
  await page.goto('/');
  await page.locator('.game-card[data-variant="chessgi"] a.rules-link').click();
  await expect(page).toHaveURL(/\/rules\/chessgi$/);
  await expect(page.locator('#rules-doc h1')).toContainText('Chessgi');
  await expect(page.locator('#rules-doc h2').first()).toBeVisible();
  await expect(page.locator('#rules-doc blockquote.seed-words').first()).toContainText('travel backward');
  // chessgi.md gives a position in FEN (with a pocket): drawn below its paragraph.
  await expectDiagramsDrawn(page, '#rules-doc', 1);
  await expect(page.locator('#rules-doc .fen-pocket')).toContainText('White queen');
  // Every game's rules are a link away; the Gifford page has its diagram too.
  await page.locator('.rules-nav a[data-variant="gifford"]').click();
  await expect(page.locator('#rules-doc h1')).toContainText('Gifford');
  await expectDiagramsDrawn(page, '#rules-doc', 1);
  await expect(page.locator('#rules-doc blockquote.seed-words')).not.toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, 'rules-gifford-390');
  // The top of the page and the diagram with its paragraph, as a reader sees them on a phone.
  const dir = process.env.TTCHESS_SHOTS ?? 'test-results/screens';
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${dir}/rules-gifford-390-top.png` });
  await page.locator('#rules-doc .fen-diagram').first().scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${dir}/rules-gifford-390-diagram.png` });
  await page.goto('/rules/nochess');
  await expect(page.locator('#rules-error')).toContainText('no rules page');
});

test('play the computer: registering is the one step, and the game starts', async ({ browser }) => {
  const context = await openContext(browser);
  const page = await context.newPage();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await page.locator('.game-card[data-variant="vangog"] .play-computer').click();
  await expect(page.locator('#login-notice')).toContainText('against the computer starts at once');
  const name = uniqueName('newbie');
  await page.locator('#login-name').fill(name);
  await page.locator('#login-password').fill('password-' + name);
  await page.locator('#register-button').click();
  await expect(page).toHaveURL(/\/games\/[0-9a-f]+$/);
  await expect(page.locator('#game')).toHaveAttribute('data-you', /white|black/);
  await expect(page.locator('#game')).toHaveAttribute('data-status', 'active');
});

test('an open challenge: posted by A, live in B\'s lobby and a visitor\'s home, accepted by B, both in the game', async ({ browser }) => {
  const errors: string[] = [];
  const alice = await newPlayer(browser, 'alice', errors);
  const bob = await newPlayer(browser, 'bob', errors);
  const visitor = (await openContext(browser)).newPage();
  const v = await visitor;

  // Bob's lobby and the visitor's home are open before the challenge exists.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await bob.page.goto('/');
  await expect(bob.page.locator('#seeks')).toBeVisible();
  await v.goto('/');
  await expect(v.locator('#seeks')).toBeVisible();

  // A new player's form: Gifford's game, live, by default.
  await alice.page.goto('/');
  await expect(alice.page.locator('#variant')).toBeEnabled();
  await expect(alice.page.locator('#variant')).toHaveValue('gifford');
  await expect(alice.page.locator('#time-kind')).toHaveValue('live');
  await alice.page.locator('#variant').selectOption('chessgi');
  await alice.page.locator('#color').selectOption('white');
  await alice.page.locator('#minutes').fill('3');
  await alice.page.locator('#increment').fill('2');
  await alice.page.locator('#opponent-kind').selectOption('seek');
  await expect(alice.page.locator('#create-game')).toHaveText('Post open challenge');
  await alice.page.locator('#create-game').click();
  const notice = alice.page.locator('#lobby-notice');
  await expect(notice).toContainText('open challenge is listed');
  const id = (await notice.getAttribute('data-id'))!;
  await expect(alice.page.locator(`.seek-row[data-id="${id}"] button.withdraw-seek`)).toBeVisible();

  // It arrives by itself (the lobby's stream) in Bob's lobby and the visitor's home.
  const row = bob.page.locator(`.seek-row[data-id="${id}"]`);
  await expect(row).toContainText(alice.name);
  await expect(row).toContainText('3+2');
  await expect(row).toContainText('you play black');
  await expect(v.locator(`.seek-row[data-id="${id}"]`)).toContainText(alice.name);
  await screenshot(bob.page, 'lobby-seek-390');

  // Bob accepts: his page and Alice's go to the game.
  await row.locator('button.accept-seek').click();
  await expect(bob.page).toHaveURL(new RegExp(`/games/${id}$`));
  await expect(bob.page.locator('#game')).toHaveAttribute('data-you', 'black');
  await expect(alice.page).toHaveURL(new RegExp(`/games/${id}$`));
  await expect(alice.page.locator('#game')).toHaveAttribute('data-you', 'white');
  await expect(alice.page.locator('#game')).toHaveAttribute('data-status', 'active');
  // The seek is gone from the visitor's list; the game is among those being played.
  await expect(v.locator(`.seek-row[data-id="${id}"]`)).toHaveCount(0);
  await expect(v.locator(`.playing-row[data-id="${id}"]`)).toContainText(bob.name);

  // Alice's form remembers her last choices.
  await alice.page.goto('/');
  await expect(alice.page.locator('#variant')).toBeEnabled();
  await expect(alice.page.locator('#variant')).toHaveValue('chessgi');
  await expect(alice.page.locator('#opponent-kind')).toHaveValue('seek');
  await expect(alice.page.locator('#minutes')).toHaveValue('3');
  await alice.page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(alice.page, 'lobby-1280');
  expect(errors).toEqual([]);
});
