// SPDX-License-Identifier: GPL-3.0-or-later
//
// The "your move" count in the header of every page: how many of the player's games wait for their
// move, kept live by the player's own event stream (GET /api/account/events, one `yourmove` event
// whenever the count changes: a move here, or on another server of the same database). One stream
// for the page's life, opened when a player is logged in and closed when they log out; the header is
// drawn again by every navigation, so the badge is written into whatever link the header has now.

let stream: EventSource | null = null;
let count: number | null = null;
/** A stream is about to open; and whether a player is (still) logged in when it does. */
let opening = false;
let wanted = false;
const OPEN_DELAY_MS = 1000;

/** The badge's text and label in the header's "My games" link (a zero shows no badge). */
function draw(): void {
  const link = document.getElementById('lobby-link');
  if (!link) return;
  let badge = document.getElementById('yourmove-count');
  if (count === null || count === 0) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = document.createElement('span');
    badge.id = 'yourmove-count';
    badge.className = 'yourmove-count';
    link.append(' ', badge);
  }
  badge.textContent = String(count);
  const label = `${count} game${count === 1 ? '' : 's'} wait${count === 1 ? 's' : ''} for your move`;
  badge.setAttribute('aria-label', label);
  badge.title = label;
}

/** Called by each drawing of the header: the stream for a player, none for a visitor. */
export function followYourMove(loggedIn: boolean): void {
  wanted = loggedIn;
  if (!loggedIn) {
    stream?.close();
    stream = null;
    count = null;
    return;
  }
  if (!stream && !opening) {
    // The stream holds one of the browser's few connections to the server for the page's life:
    // it opens a moment after the page has loaded, so that the page's own files and requests go
    // first (a game page's first drawing is timed in web/tests/fixes.spec.ts).
    opening = true;
    const open = (): void => {
      opening = false;
      if (stream || !wanted) return;
      stream = new EventSource('/api/account/events');
      stream.addEventListener('yourmove', ev => {
        const data = JSON.parse((ev as MessageEvent<string>).data) as { count?: unknown };
        if (typeof data.count === 'number') count = data.count;
        draw();
      });
    };
    const later = (): void => void setTimeout(open, OPEN_DELAY_MS);
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
  }
  draw();
}
