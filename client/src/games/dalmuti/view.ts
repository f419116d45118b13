// The dalmuti view (jokeapp/games/dalmuti/view.py).
import type { DCard } from './hand';

export interface PlayJson {
  cardIds: string[];
  count: number;
  rank: number;
  by: string;
}

export interface DalmutiView {
  viewer: string | null;
  options: Record<string, unknown>;
  players: string[];
  order: string[];
  titles: Record<string, string>;
  round: number;
  phase:
    | { kind: 'firstRankDraw'; draws: Record<string, number[]> }
    | { kind: 'revolutionCheck'; confirmed: Record<string, boolean> }
    | { kind: 'taxReturn'; owed: Record<string, { to: string; count: number; done: boolean }> }
    | { kind: 'playing' | 'roundOver' | 'finished' };
  revolution: string;
  /** Who declared the revolution this round; may be set during the check, before it ends. */
  revolutionBy?: string | null;
  handCounts: Record<string, number>;
  hand: DCard[] | null;
  trick: {
    leader: string;
    top: PlayJson | null;
    passesSinceTop: string[];
    lockedOut: string[];
    pile: PlayJson[];
  };
  current: string | null;
  finishOrder: string[];
  roundResults: { order: string[]; revolution: string }[];
  totals: Record<string, number>;
  tax: { kind: 'paid' | 'returned'; from: string; to: string; count: number; cardIds?: string[] }[];
  canDeclareRevolution?: boolean;
  result?: Record<string, unknown> | null;
}

/** The number on a card id like "05-03" (13 = jester). */
export function cardNumber(id: string): number {
  return Number.parseInt(id.slice(0, 2), 10);
}

/** Cards the viewer received as tax this round (to highlight them). */
export function receivedTax(view: DalmutiView): string[] {
  return view.tax.filter((t) => t.kind === 'paid' && t.to === view.viewer).flatMap((t) => t.cardIds ?? []);
}

export type HandCheckStatus = 'decide' | 'declared' | 'waiting' | 'watching';

/** Where the viewer stands in the revolution check (spec 4.4). The check ends only when everyone
 * has confirmed, so a confirmation or a declaration is followed by waiting for the others; a
 * declaration is on the view (`revolutionBy`) as soon as it is made. */
export function handCheckStatus(view: DalmutiView): HandCheckStatus {
  const me = view.viewer;
  if (view.phase.kind !== 'revolutionCheck' || !me || !(me in view.phase.confirmed)) return 'watching';
  if (view.revolutionBy === me) return 'declared';
  return view.phase.confirmed[me] ? 'waiting' : 'decide';
}

/** How many players have confirmed their hand, and how many there are. */
export function confirmedCount(view: DalmutiView): [number, number] {
  if (view.phase.kind !== 'revolutionCheck') return [0, 0];
  const all = Object.values(view.phase.confirmed);
  return [all.filter(Boolean).length, all.length];
}
