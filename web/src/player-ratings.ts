// SPDX-License-Identifier: GPL-3.0-or-later
//
// The ratings of a player's page (`/@/<name>`, issue 29): one row per game and speed the player has a
// rating in (GET /api/users/<name>, docs/api.md "Ratings"), `1500?` while provisional, and the chosen
// rating's history as a line chart. The chart is an SVG drawn here from GET
// /api/users/<name>/rating-history: no chart service, no library, a few dozen elements whatever the
// number of games (the points are a single path).

import { errorText } from './api';
import { fill, h } from './dom';
import { ratingText, type Speed } from './ratings';

interface RatingReply { rating: number; rd: number; games: number; provisional: boolean }
export type UserRatings = Record<string, Partial<Record<Speed, RatingReply>>>;
interface HistoryPoint { game: string; at: number; rating: number; rd: number }

const SVG = 'http://www.w3.org/2000/svg';
/** The chart's drawing box; the SVG scales to its container's width. */
const WIDTH = 600;
const HEIGHT = 200;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

function svg(tag: string, attrs: Record<string, string | number>, text?: string): SVGElement {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

/** Round steps for the rating axis: about four lines between the lowest and the highest rating. */
function ticks(low: number, high: number): number[] {
  const step = [25, 50, 100, 200, 500].find(s => (high - low) / s <= 4) ?? 1000;
  const out: number[] = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) out.push(v);
  return out;
}

/** The history as an SVG line chart: rating against game number (games, not days: a correspondence
 *  player's weeks without a game would flatten the line), with the rating axis labelled. */
export function ratingChart(points: HistoryPoint[], label: string): SVGElement {
  const chart = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'rating-chart', role: 'img',
    'aria-label': `${label}: ${points.length} games, from ${Math.round(points[0].rating)} to ` +
      `${Math.round(points[points.length - 1].rating)}` });
  const ratings = points.map(p => p.rating);
  let low = Math.min(...ratings) - 20;
  let high = Math.max(...ratings) + 20;
  if (high - low < 100) { const mid = (high + low) / 2; low = mid - 50; high = mid + 50; }
  const x = (i: number): number =>
    PAD.left + (points.length === 1 ? 0.5 : i / (points.length - 1)) * (WIDTH - PAD.left - PAD.right);
  const y = (r: number): number => PAD.top + (high - r) / (high - low) * (HEIGHT - PAD.top - PAD.bottom);
  for (const t of ticks(low, high)) {
    chart.append(svg('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(t), y2: y(t), class: 'rating-grid' }));
    chart.append(svg('text', { x: PAD.left - 4, y: y(t) + 4, 'text-anchor': 'end', class: 'rating-tick' }, String(t)));
  }
  chart.append(svg('text', { x: WIDTH - PAD.right, y: HEIGHT - 6, 'text-anchor': 'end', class: 'rating-tick' },
    `${points.length} game${points.length === 1 ? '' : 's'}`));
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ');
  chart.append(svg('path', { d, class: 'rating-line' }));
  const last = points.length - 1;
  chart.append(svg('circle', { cx: x(last), cy: y(points[last].rating), r: 3.5, class: 'rating-dot' }));
  return chart;
}

/** Fills the page's ratings section: a table of the player's ratings, each row's button showing its
 *  history below it. Hidden while the player has no rating. */
export function showRatings(section: HTMLElement, name: string, ratings: UserRatings,
  titles: Map<string, string>): void {
  const rows: Array<{ variant: string; speed: Speed; r: RatingReply }> = [];
  for (const [variant, speeds] of Object.entries(ratings)) {
    for (const speed of ['live', 'correspondence'] as Speed[]) {
      const r = speeds[speed];
      if (r) rows.push({ variant, speed, r });
    }
  }
  if (rows.length === 0) { section.hidden = true; return; }
  rows.sort((a, b) => b.r.games - a.r.games);
  const chartBox = h('div', { id: 'rating-chart-box', class: 'rating-chart-box', 'aria-live': 'polite' });
  const buttons: HTMLButtonElement[] = [];
  async function showHistory(i: number): Promise<void> {
    const { variant, speed } = rows[i];
    buttons.forEach((b, j) => b.setAttribute('aria-pressed', String(i === j)));
    const label = `${titles.get(variant) ?? variant}, ${speed}`;
    try {
      const q = new URLSearchParams({ variant, speed });
      const reply = await fetch(`/api/users/${encodeURIComponent(name)}/rating-history?${q.toString()}`,
        { cache: 'no-store' });
      if (!reply.ok) throw new Error(`The server answered ${reply.status}.`);
      const history = (await reply.json() as { history: HistoryPoint[] }).history;
      fill(chartBox, h('h4', {}, `${label}: rating after each game`),
        history.length ? ratingChart(history, label) : h('p', { class: 'hint' }, 'No rated game yet.'));
    } catch (e) {
      fill(chartBox, h('p', { class: 'error', role: 'alert' }, errorText(e)));
    }
  }
  const body = rows.map(({ variant, speed, r }, i) => {
    const button = h('button', { type: 'button', class: 'link-button', 'aria-pressed': 'false',
      'aria-label': `Show the history of the ${titles.get(variant) ?? variant} ${speed} rating` }, 'History');
    button.addEventListener('click', () => void showHistory(i));
    buttons.push(button);
    // The speed under the game's name, and no deviation column: four narrow columns fit a phone.
    return h('tr', { 'data-variant': variant, 'data-speed': speed },
      h('th', { scope: 'row' }, titles.get(variant) ?? variant, h('span', { class: 'rating-speed' }, speed)),
      h('td', { class: 'rating-value', title: `deviation ${Math.round(r.rd)}` }, ratingText(r.rating, r.provisional)),
      h('td', { class: 'rating-games' }, String(r.games)), h('td', {}, button));
  });
  fill(section, h('h3', {}, 'Ratings'),
    h('div', { class: 'table-scroll' }, h('table', { id: 'player-ratings-table', class: 'player-stats-table' },
      h('caption', { class: 'visually-hidden' }, 'Ratings per game and speed'),
      h('thead', {}, h('tr', {}, ...['Game', 'Rating', 'Games', 'Chart']
        .map(t => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, ...body))),
    h('p', { class: 'hint' }, 'Glicko-2; a rating followed by ? is provisional (its deviation is above 110).'),
    chartBox);
  section.hidden = false;
  void showHistory(0);
}
