// Rebuilds what a spectator saw after each step of a finished game from its record's events
// (the record carries no views): positions, cash, lands, buildings, fund, round, dice.
import type { GameEvent, GameRecord } from '../../net/api';
import { ISLAND_POS, SPACE_POS } from './board';
import type { MarbleView } from './view';

type Party = string | null | { kind: string; id?: string };

function partyId(p: Party): string | null {
  if (p === null) return null;
  if (typeof p === 'string') return p;
  return p.kind === 'player' ? p.id ?? null : p.kind;
}

/** Turn order: the order in which players first act (each one's first turn of round 1). */
export function inferOrder(record: GameRecord): string[] {
  const order: string[] = [];
  for (const step of record.steps) {
    const type = String(step.action.type);
    if (type === 'TRADE_RESPOND' || type === 'SELL' || type === 'CONCEDE') continue;
    if (!order.includes(step.actor)) order.push(step.actor);
  }
  for (const p of record.players) if (!order.includes(p)) order.push(p);
  return order;
}

export function initialMarbleView(record: GameRecord): MarbleView {
  const start = Number(record.options.startMoney ?? 300);
  const order = inferOrder(record);
  return {
    options: record.options, order, current: 0, currentPlayer: order[0], round: 1, phase: 'turnStart',
    players: Object.fromEntries(order.map((p) => [p, {
      pos: 0, cash: start, alive: true, bankruptAtRound: null, islandLeft: 0, spacePending: false, heldCards: [],
    }])),
    owners: {}, fund: 0, deckCount: 20, doublesThisTurn: 0, decision: null, debt: null, pendingTrade: null,
    tradesThisTurn: 0, extraRoll: false, lastRoll: null, viewer: null, result: null,
  };
}

function pay(view: MarbleView, from: Party, to: Party, amount: number): void {
  const a = partyId(from);
  const b = partyId(to);
  if (a === 'fund') view.fund -= amount;
  else if (a && a !== 'bank' && view.players[a]) view.players[a].cash -= amount;
  if (b === 'fund') view.fund += amount;
  else if (b && b !== 'bank' && view.players[b]) view.players[b].cash += amount;
}

function dropCard(view: MarbleView, player: string, card: string): void {
  const held = view.players[player].heldCards;
  const i = held.indexOf(card);
  if (i >= 0) held.splice(i, 1);
}

/** Applies one event to a (mutable) spectator view. */
export function applyMarbleEvent(view: MarbleView, e: GameEvent): void {
  const player = String(e.player ?? '');
  const p = view.players[player];
  const n = (k: string) => Number(e[k]);
  switch (e.type) {
    case 'rolled':
    case 'islandRoll':
      view.lastRoll = e.dice as [number, number];
      if (e.type === 'islandRoll' && !e.escaped) p.islandLeft = Math.max(0, p.islandLeft - 1);
      return;
    case 'moved':
      p.pos = n('to');
      if (p.pos === SPACE_POS) p.spacePending = true;
      return;
    case 'salary':
    case 'fundReceived':
      p.cash += n('amount');
      if (e.type === 'fundReceived') view.fund -= n('amount');
      return;
    case 'fundPaid':
      p.cash -= n('amount');
      view.fund += n('amount');
      return;
    case 'bought':
      p.cash -= n('price');
      view.owners[String(e.pos)] = { owner: player, level: 0 };
      return;
    case 'built':
      p.cash -= n('cost');
      view.owners[String(e.pos)] = { owner: player, level: n('level') };
      return;
    case 'tollPaid':
      if (e.waived) dropCard(view, String(e.from), 'L12');
      else pay(view, e.from as Party, e.to as Party, n('amount'));
      return;
    case 'takeover':
      pay(view, player, e.from as Party, n('price'));
      view.owners[String(e.pos)] = { owner: player, level: view.owners[String(e.pos)]?.level ?? 0 };
      return;
    case 'cardDrawn':
      if (e.cardId === 'L11' || e.cardId === 'L12') p.heldCards.push(String(e.cardId));
      return;
    case 'transfer':
      pay(view, e.from as Party, e.to as Party, n('amount'));
      return;
    case 'toIsland':
      p.pos = ISLAND_POS;
      p.islandLeft = Number(view.options.islandTurns ?? 3);
      return;
    case 'escaped':
      p.islandLeft = 0;
      if (e.how === 'card') dropCard(view, player, 'L11');
      return;
    case 'spaceTravel':
      p.spacePending = false;
      if (n('fee') > 0) pay(view, player, e.to as Party, n('fee'));
      return;
    case 'sold': {
      p.cash += n('amount');
      const deed = view.owners[String(e.pos)];
      if (e.what === 'all' || !deed) delete view.owners[String(e.pos)];
      else deed.level -= 1;
      return;
    }
    case 'bankrupt':
      pay(view, player, e.creditor as Party, n('amount'));
      p.alive = false;
      p.bankruptAtRound = view.round;
      p.islandLeft = 0;
      p.spacePending = false;
      p.heldCards = [];
      return;
    case 'tradeResolved':
      if (e.accepted) trade(view, e);
      return;
    case 'roundEnd':
      view.round = n('round') + 1;
      return;
    case 'gameOver':
      view.phase = 'finished';
      view.result = e.result as Record<string, unknown>;
      return;
  }
}

function trade(view: MarbleView, e: GameEvent): void {
  const from = String(e.from);
  const to = String(e.to);
  const give = e.give as { lands: number[]; cash: number };
  const take = e.take as { lands: number[]; cash: number };
  for (const pos of give.lands) view.owners[String(pos)]!.owner = to;
  for (const pos of take.lands) view.owners[String(pos)]!.owner = from;
  pay(view, from, to, give.cash);
  pay(view, to, from, take.cash);
}

/** The spectator view after each step (index 0 = before the first step). */
export function marbleFrames(record: GameRecord): MarbleView[] {
  let view = initialMarbleView(record);
  for (const e of record.setupEvents) applyMarbleEvent(view, e);
  const frames: MarbleView[] = [];
  record.steps.forEach((step, i) => {
    frames.push(withTurn(view, step.actor));
    view = structuredClone(view);
    for (const e of step.events) applyMarbleEvent(view, e);
    if (i === record.steps.length - 1) frames.push(withTurn(view, view.currentPlayer));
  });
  if (!record.steps.length) frames.push(view);
  return frames;
}

function withTurn(view: MarbleView, actor: string): MarbleView {
  const current = Math.max(0, view.order.indexOf(actor));
  return { ...view, current, currentPlayer: view.order[current] ?? actor };
}
