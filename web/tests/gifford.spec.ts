// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two players in two browser contexts play a Gifford game with every kind
// of action the game has — a move dragged, a move clicked, a piece sent
// forward and its arrival, a typed move in Game Courier notation, a king
// going back to start a new timeline — while a spectator in a third
// context sees every action arrive live.  Also: an illegal action shows
// its rule, a reload keeps the game, a take-back by consent, and kibitz
// text shown as text.
import { test, expect } from '@playwright/test';
import { boardPieces, closeContexts, openContext, clickSquare, createInLobby, dragMove, expectBoard, gameState, newPlayer, showsPly, typeAction, uniqueName, watchConsole, type Squares } from './helpers';

test.afterEach(closeContexts);

test('a Gifford game between two players, watched live', async ({ browser }) => {
  const errors: string[] = [];

  // Alice registers through the page; Bob and the spectator through the API.
  const aliceContext = await openContext(browser);
  const alicePage = await aliceContext.newPage();
  watchConsole(alicePage, errors);
  const aliceName = uniqueName('alice');
  await alicePage.goto('/');
  await alicePage.locator('#login-name').fill(aliceName);
  await alicePage.locator('#login-password').fill('short');
  await alicePage.locator('#register-button').click();
  await expect(alicePage.locator('#login-error')).toContainText('password');
  await alicePage.locator('#login-password').fill('a good password');
  await alicePage.locator('#register-button').click();
  await expect(alicePage.locator('#new-game')).toBeVisible();
  const alice = { name: aliceName, context: aliceContext, page: alicePage };
  const bob = await newPlayer(browser, 'bob', errors);
  const carol = await newPlayer(browser, 'carol', errors);

  // Alice creates the game in the lobby: Gifford, White, against Bob.
  const id = await createInLobby(alice.page, {
    variant: 'gifford', color: 'white', time: { days: 3 }, opponent: { player: bob.name },
  });
  await expect(alice.page.locator('#game')).toHaveAttribute('data-you', 'white');

  await bob.page.goto(`/games/${id}`);
  await expect(bob.page.locator('#game')).toHaveAttribute('data-you', 'black');
  await carol.page.goto(`/games/${id}`);
  await expect(carol.page.locator('#game')).toHaveAttribute('data-you', '');
  for (const p of [alice, bob, carol]) await showsPly(p.page, 0);

  // Each action: made on one page, then every page shows the new ply and
  // the pieces it moved where they now stand (Bob's board with Black at
  // the bottom), and the spectator's move list shows it in the game's own
  // notation.
  let ply = 0;
  const seats = [{ p: alice, o: 'white' as const }, { p: bob, o: 'black' as const }, { p: carol, o: 'white' as const }];
  const everyoneSees = async (human: string, board: Squares = {}) => {
    ply++;
    for (const { p, o } of seats) {
      await showsPly(p.page, ply);
      await expectBoard(p.page, board, o);
    }
    await expect(carol.page.locator(`#move-list li[data-ply="${ply}"]`)).toContainText(human);
  };

  await dragMove(alice.page, 'e2', 'e4');
  await everyoneSees('e4', { e4: 'P', e2: '.' });
  await clickSquare(bob.page, 'e7', 'black');
  await clickSquare(bob.page, 'e5', 'black');
  await everyoneSees('e5', { e5: 'p', e7: '.', e4: 'P' });

  // The bishop is sent forward to move 4: from the piece's own time-travel
  // menu, whose slider sets the move number.
  await clickSquare(alice.page, 'f1');
  await alice.page.locator('#menu-open').click();
  await alice.page.locator('#menu-forward').click();
  await alice.page.locator('#forward-move').fill('4');
  await alice.page.locator('#forward-confirm').click();
  await everyoneSees('Bf1>4', { f1: '.', e1: 'K' });

  // Game Courier notation is read where moves are typed.
  await typeAction(bob.page, 'N b8-c6');
  await everyoneSees('Nc6', { c6: 'n', b8: '.' });
  await clickSquare(alice.page, 'g1');
  await clickSquare(alice.page, 'f3');
  await everyoneSees('Nf3', { f3: 'N', g1: '.' });
  await typeAction(bob.page, 'Nf6');
  await everyoneSees('Nf6', { f6: 'n', g8: '.' });

  // Move 4: the bishop arrives, put on the board from the palette.
  await alice.page.locator('.placement-row button[data-piece="B"]').click();
  await clickSquare(alice.page, 'c4');
  await everyoneSees('B@c4', { c4: 'B', f1: '.' });
  await typeAction(bob.page, 'Bc5');
  await everyoneSees('Bc5', { c5: 'b', f8: '.' });

  // An illegal action is refused with the rule that forbids it, and the
  // game does not change.
  await typeAction(alice.page, 'Ke1<7@e3');
  await expect(alice.page.locator('#message')).not.toBeEmpty();
  const refusal = (await alice.page.locator('#message').textContent()) ?? '';
  expect(refusal.length).toBeGreaterThan(20);
  await showsPly(alice.page, ply);
  await typeAction(bob.page, 'e4');
  await expect(bob.page.locator('#message')).toContainText(/turn/i);

  // The king goes back to move 3: its menu's "Back in time…" leads to the
  // timelines view, where the moves it may go back to are marked; the main
  // board then shows that earlier position in its travel frame, the landing
  // square is tapped and the player confirms; a second timeline starts.
  await clickSquare(alice.page, 'e1');
  await alice.page.locator('#menu-open').click();
  await alice.page.locator('#menu-back').click();
  await expect(alice.page.locator('#timelines .target-pick').first()).toBeFocused();
  await alice.page.locator('#timelines .target-pick[data-node="4"]').click();
  await expect(alice.page.locator('#viewing')).toContainText('King back to move 3');
  await expect(alice.page.locator('.board-wrap')).toHaveClass(/travel/);
  await clickSquare(alice.page, 'e3');
  await expect(alice.page.locator('#travel-confirm')).toHaveAttribute('data-coord', 'e1<3@e3');
  await alice.page.locator('#travel-confirm').click();
  await everyoneSees('Ke1<3@e3', { e3: 'K', e1: 'K', f1: '.', c4: '.', f3: '.', g1: 'N', f6: '.', g8: 'n' });
  for (const p of [alice, bob, carol]) {
    await expect(p.page.locator('#game')).toHaveAttribute('data-timelines', '2');
    await expect(p.page.locator('#timelines .timeline')).toHaveCount(2);
  }
  expect((await gameState(carol, id)).timelines).toBe(2);

  // A reload keeps the game.
  await bob.page.reload();
  await showsPly(bob.page, ply);
  await expect(bob.page.locator(`#move-list li[data-ply="${ply}"]`)).toContainText('Ke1<3@e3');

  // Take-back by consent: Bob plays, asks to take it back, Alice accepts.
  const beforeBob = ply;
  const legal = (await gameState(bob, id)).legal.find((a) => a.kind === 'normal')!;
  const shown = await boardPieces(carol.page);
  const before = { [legal.from!]: shown[legal.from!] ?? '.', [legal.to!]: shown[legal.to!] ?? '.' };
  expect(before[legal.from!]).toMatch(/^[a-z]$/);
  await typeAction(bob.page, legal.coord);
  await everyoneSees(legal.human, { [legal.from!]: '.', [legal.to!]: before[legal.from!] });
  await bob.page.locator('#offer-takeback').click();
  await expect(alice.page.locator('#accept-takeback')).toBeVisible();
  await alice.page.locator('#accept-takeback').click();
  ply = beforeBob;
  for (const { p, o } of seats) {
    await showsPly(p.page, ply);
    // Bob's piece stands where it stood before his move.
    await expectBoard(p.page, before, o);
  }

  // Kibitz: the spectator's comment is shown as text on every page.
  const script = '<script>alert(1)</script> & <b>bold</b>';
  await carol.page.locator('#kibitz-text').fill(script);
  await carol.page.locator('#kibitz-send').click();
  for (const p of [alice, bob, carol]) await expect(p.page.locator('#kibitz-list .kibitz').last()).toContainText(script);
  expect(await alice.page.locator('#kibitz-list b').count()).toBe(0);

  // The players switch kibitzing off: the spectator is told so.
  await alice.page.locator('#kibitz-switch').uncheck();
  await carol.page.locator('#kibitz-text').fill('still there?');
  await carol.page.locator('#kibitz-send').click();
  await expect(carol.page.locator('.kibitz-box #kibitz-error')).toContainText(/kibitz/i);
  // and the comment appears on no page.
  for (const p of [alice, bob, carol]) {
    await expect(p.page.locator('#kibitz-list .kibitz')).toHaveCount(1);
    await expect(p.page.locator('#kibitz-list')).not.toContainText('still there?');
  }

  expect(errors).toEqual([]);
});
