// SPDX-License-Identifier: GPL-3.0-or-later
//
// The players' ratings as the pages show them beside a name (docs/api.md, "Ratings"): a Glicko-2
// rating per game and speed, `1500?` while provisional (RD above 110), as lichess shows it.

import type { GameState } from './api';

export type Speed = 'live' | 'correspondence';

interface RatingReply {
  rating: number;
  rd: number;
  games: number;
  provisional: boolean;
}

/** A rating as the pages show it: `1500?` while provisional. */
export function ratingText(rating: number, provisional: boolean): string {
  return `${rating}${provisional ? '?' : ''}`;
}

/** The speed a game is rated at: live with a live clock, else correspondence. */
export function gameSpeed(s: GameState): Speed {
  return s.clock?.kind === 'live' ? 'live' : 'correspondence';
}

/** A player's rating of a game and speed as text (a new player's is `1500?`); null when it cannot be read. */
export async function playerRating(name: string, variant: string, speed: Speed): Promise<string | null> {
  try {
    const reply = await fetch(`/api/users/${encodeURIComponent(name)}`, { cache: 'no-store' });
    if (!reply.ok) return null;
    const user = await reply.json() as { ratings?: Record<string, Partial<Record<Speed, RatingReply>>> };
    const r = user.ratings?.[variant]?.[speed];
    return r ? ratingText(r.rating, r.provisional) : ratingText(1500, true);
  } catch {
    return null;
  }
}
