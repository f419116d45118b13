// Rebuilds what a spectator saw after each step of a finished card game from its record's
// events: titles and seats, hand counts, the trick, passes, who went out, scores.
import type { GameEvent, GameRecord } from '../../net/api';
import type { DalmutiView, PlayJson } from './view';

export function titlesFor(order: string[]): Record<string, string> {
  const n = order.length;
  return Object.fromEntries(order.map((p, i) => {
    const title = i === 0 ? '대왕' : i === n - 1 ? '대농노' : i === 1 ? '소왕' : i === n - 2 ? '소농노' : '평민';
    return [p, title];
  }));
}

export function initialDalmutiView(record: GameRecord): DalmutiView {
  const order = [...record.players];
  return {
    viewer: null, options: record.options, players: [...record.players], order, titles: titlesFor(order),
    round: 1, phase: { kind: 'revolutionCheck', confirmed: {} }, revolution: 'none',
    handCounts: Object.fromEntries(order.map((p) => [p, 0])), hand: null,
    trick: { leader: order[0], top: null, passesSinceTop: [], lockedOut: [], pile: [] },
    current: null, finishOrder: [], roundResults: [],
    totals: Object.fromEntries(order.map((p) => [p, 0])), tax: [], result: null,
  };
}

function setOrder(view: DalmutiView, order: string[]): void {
  view.order = order;
  view.titles = titlesFor(order);
}

function clearTrick(view: DalmutiView, leader: string): void {
  view.trick = { leader, top: null, passesSinceTop: [], lockedOut: [], pile: [] };
}

/** Applies one event to a (mutable) spectator view. */
export function applyDalmutiEvent(view: DalmutiView, e: GameEvent): void {
  const player = String(e.player ?? '');
  switch (e.type) {
    case 'firstRankDraw':
      setOrder(view, (e.order as string[]) ?? view.order);
      return;
    case 'dealt': {
      const counts = e.counts as Record<string, number> | number[];
      view.handCounts = Array.isArray(counts)
        ? Object.fromEntries(view.order.map((p, i) => [p, counts[i]]))
        : { ...counts };
      view.phase = { kind: 'revolutionCheck', confirmed: {} };
      view.tax = [];
      view.revolution = 'none';
      view.finishOrder = [];
      clearTrick(view, view.order[0]);
      return;
    }
    case 'revolution':
      view.revolution = String(e.kind);
      if (e.kind === 'great') setOrder(view, [...view.order].reverse());
      view.phase = { kind: 'playing' };
      clearTrick(view, view.order[0]);
      return;
    case 'taxPaid':
    case 'taxReturned': {
      const from = String(e.from);
      const to = String(e.to);
      const count = Number(e.count);
      view.handCounts[from] -= count;
      view.handCounts[to] += count;
      view.tax.push({ kind: e.type === 'taxPaid' ? 'paid' : 'returned', from, to, count, cardIds: e.cardIds as string[] | undefined });
      view.phase = { kind: 'taxReturn', owed: {} };
      return;
    }
    case 'played': {
      const play: PlayJson = { cardIds: e.cardIds as string[], count: Number(e.count), rank: Number(e.rank), by: player };
      view.phase = { kind: 'playing' };
      view.handCounts[player] -= play.count;
      view.trick.top = play;
      view.trick.pile.push(play);
      view.trick.passesSinceTop = [];
      return;
    }
    case 'passed':
      view.phase = { kind: 'playing' };
      view.trick.passesSinceTop.push(player);
      return;
    case 'trickWon':
      clearTrick(view, String(e.next ?? player));
      return;
    case 'handEmptied':
      view.finishOrder.push(player);
      return;
    case 'roundOver': {
      const order = e.order as string[];
      const points = (e.points ?? {}) as Record<string, number>;
      for (const [p, pts] of Object.entries(points)) view.totals[p] = (view.totals[p] ?? 0) + pts;
      view.roundResults.push({ order, revolution: view.revolution });
      view.phase = { kind: 'roundOver' };
      // The seats move for the next round; after the last one they stay for the result.
      if (Number(e.round) < Number(view.options.rounds ?? 0)) setOrder(view, order);
      view.round = Number(e.round) + 1;
      return;
    }
    case 'gameOver':
      view.round -= 1;
      view.phase = { kind: 'finished' };
      view.result = e.result as Record<string, unknown>;
      return;
  }
}

/** The spectator view after each step (index 0 = before the first step); `current` is who acts next. */
export function dalmutiFrames(record: GameRecord): DalmutiView[] {
  let view = initialDalmutiView(record);
  for (const e of record.setupEvents) applyDalmutiEvent(view, e);
  const frames: DalmutiView[] = [];
  record.steps.forEach((step, i) => {
    frames.push({ ...view, current: view.phase.kind === 'playing' ? step.actor : null });
    view = structuredClone(view);
    for (const e of step.events) applyDalmutiEvent(view, e);
    if (i === record.steps.length - 1) frames.push({ ...view, current: null });
  });
  if (!record.steps.length) frames.push(view);
  return frames;
}
