import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { describeDalmutiEvent } from '../src/games/dalmuti/events';
import { describeEvent } from '../src/games/marble/words';
import { withNames } from '../src/screens/Result';

const names = (id: string) => ({ p1: '수진', p2: '민호' })[id] ?? id;

describe('event lines', () => {
  it('describes every marble event of DESIGN.md that changes the table', () => {
    const events = [
      { type: 'rolled', player: 'p1', dice: [3, 3], double: true },
      { type: 'moved', player: 'p1', from: 1, to: 5, passedStart: false, by: 'card' },
      { type: 'salary', player: 'p1', amount: 20 },
      { type: 'bought', player: 'p1', pos: 1, price: 6 },
      { type: 'built', player: 'p1', pos: 1, level: 1, cost: 3 },
      { type: 'tollPaid', from: 'p2', to: 'p1', pos: 1, amount: 4, waived: false },
      { type: 'takeover', player: 'p2', from: 'p1', pos: 1, price: 18 },
      { type: 'cardDrawn', player: 'p1', cardId: 'L01' },
      { type: 'transfer', from: 'bank', to: 'p1', amount: 20, reason: 'L01' },
      { type: 'fundPaid', player: 'p1', amount: 15 },
      { type: 'fundReceived', player: 'p1', amount: 15 },
      { type: 'toIsland', player: 'p1', reason: 'doubles' },
      { type: 'islandRoll', player: 'p1', dice: [1, 2], escaped: false },
      { type: 'escaped', player: 'p1', how: 'card' },
      { type: 'spaceTravel', player: 'p1', dest: 39, fee: 20, to: 'p2' },
      { type: 'sold', player: 'p1', pos: 1, what: 'top', amount: 1 },
      { type: 'debt', player: 'p1', amount: 30, to: 'p2' },
      { type: 'bankrupt', player: 'p1', creditor: 'p2', amount: 5 },
      { type: 'tradeProposed', from: 'p1', to: 'p2' },
      { type: 'tradeResolved', accepted: true },
      { type: 'roundEnd', round: 3 },
      { type: 'monopoly', player: 'p1', kind: 'tour' },
      { type: 'gameOver', result: {} },
    ];
    for (const e of events) expect(describeEvent(e, names), e.type).toBeTruthy();
    expect(describeEvent(events[5], names)).toContain('민호 → 수진');
    expect(describeEvent({ type: 'moved', player: 'p1', from: 1, to: 5, by: 'dice' }, names)).toBeNull();
  });

  it('describes the card game events', () => {
    expect(describeDalmutiEvent({ type: 'played', player: 'p1', cardIds: [], count: 2, rank: 5 }, names)).toBe('🃏 수진: 5 × 2장');
    expect(describeDalmutiEvent({ type: 'played', player: 'p1', cardIds: [], count: 1, rank: 13 }, names)).toContain('광대');
    expect(describeDalmutiEvent({ type: 'revolution', player: 'p2', kind: 'great' }, names)).toContain('대혁명');
    expect(describeDalmutiEvent({ type: 'taxPaid', from: 'p2', to: 'p1', count: 2 }, names)).toContain('2장');
  });

  it('shows nicknames instead of seat ids in summaries', () => {
    expect(withNames('3라운드 동안 p2 님이 1등', names)).toBe('3라운드 동안 민호 님이 1등');
    expect(withNames('p12 stays', names)).toBe('p12 stays');
  });
});

describe('player-facing text', () => {
  it('never uses the trademarked names anywhere in the client source', () => {
    const banned = ['부루마불', '모두의마블', '달무티', 'Monopoly', '황금열쇠'];
    const root = fileURLToPath(new URL('../src', import.meta.url));
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|tsx|css)$/.test(name)) files.push(path);
      }
    };
    walk(root);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const word of banned) expect(text.includes(word), `${word} in ${file}`).toBe(false);
    }
  });
});
