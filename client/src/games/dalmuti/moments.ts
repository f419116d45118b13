// The moments the table stops to show (the round's end, the opening draw) and the events that
// start the table's animations, read from event batches (the session keeps the latest ones).
import type { GameEvent } from '../../net/api';
import { titlesFor } from './replay';

export interface RoundEndRow {
  player: string;
  place: number;
  points: number;
  total: number;
  /** the title this place gives for the next round */
  title: string;
}

export interface RoundEnd {
  round: number;
  rows: RoundEndRow[];
  last: boolean;
}

/** The round-end screen from a `roundOver {round, order, points}` event and the totals after it. */
export function roundEnd(e: GameEvent, totals: Record<string, number>, rounds: number): RoundEnd {
  const order = (e.order as string[]) ?? [];
  const points = (e.points ?? {}) as Record<string, number>;
  const titles = titlesFor(order);
  return {
    round: Number(e.round),
    last: Number(e.round) >= rounds,
    rows: order.map((player, i) => ({
      player, place: i + 1, points: points[player] ?? 0, total: totals[player] ?? 0, title: titles[player],
    })),
  };
}

export interface DrawRow {
  player: string;
  /** the cards drawn, the first draw first (ties draw again); 13 = jester */
  draws: number[];
  title: string;
}

/** The opening draw (spec 4.1) from `firstRankDraw {draws, order}`, in the order it settled. */
export function openingDraw(e: GameEvent): DrawRow[] {
  const order = (e.order as string[]) ?? [];
  const draws = (e.draws ?? {}) as Record<string, number[]>;
  const titles = titlesFor(order);
  return order.map((player) => ({ player, draws: draws[player] ?? [], title: titles[player] }));
}

export interface TaxFlight {
  from: string;
  to: string;
  count: number;
  /** card ids when the viewer may see them (giver or receiver); backs otherwise */
  cardIds?: string[];
}

export function taxFlights(events: GameEvent[]): TaxFlight[] {
  return events
    .filter((e) => e.type === 'taxPaid' || e.type === 'taxReturned')
    .map((e) => ({ from: String(e.from), to: String(e.to), count: Number(e.count), cardIds: e.cardIds as string[] | undefined }));
}
