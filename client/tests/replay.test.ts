// The replay frames rebuilt from events must agree with the engine's own states: records of
// bot games are made by `joke simulate --states` and compared step by step.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { dalmutiFrames } from '../src/games/dalmuti/replay';
import { marbleFrames } from '../src/games/marble/replay';
import type { GameRecord } from '../src/net/api';

const joke = fileURLToPath(new URL('../../.venv/bin/joke', import.meta.url));
const haveJoke = existsSync(joke);

type StatefulRecord = Omit<GameRecord, 'steps'> & { steps: (GameRecord['steps'][number] & { state: Record<string, any> })[] };

function simulate(game: string, args: string[]): StatefulRecord[] {
  const out = join(mkdtempSync(join(tmpdir(), 'replay-')), 'records.jsonl');
  execFileSync(joke, ['simulate', game, '--states', '--quiet', '--log', out, ...args], { stdio: 'ignore' });
  return readFileSync(out, 'utf8').trim().split('\n').map((line: string) => JSON.parse(line) as StatefulRecord);
}

describe.skipIf(!haveJoke)('replay frames against the engine (needs ../.venv/bin/joke)', () => {
  it('marble: positions, cash, lands, buildings and fund match every step', () => {
    const records = simulate('marble', ['--games', '3', '--players', '3', '--seed', '11', '--bot', 'heuristic',
      '--option', 'takeover=true', '--option', 'landmark=true', '--option', 'maxRounds=15']);
    for (const record of records) {
      const frames = marbleFrames(record);
      expect(frames).toHaveLength(record.steps.length + 1);
      record.steps.forEach((step, i) => {
        const view = frames[i + 1];
        const state = step.state;
        for (const [p, s] of Object.entries<any>(state.players)) {
          expect([i, p, view.players[p].pos, view.players[p].cash, view.players[p].alive]).toEqual([i, p, s.pos, s.cash, s.alive]);
        }
        expect([i, view.fund]).toEqual([i, state.fund]);
        expect([i, view.owners]).toEqual([i, state.owners]);
      });
      expect(frames.at(-1)!.result).toEqual(record.result);
      expect(frames[0].order).toEqual(record.steps[0].state.order);
    }
  });

  it('card game: seats, titles, hand counts, trick and scores match every step', () => {
    const records = simulate('dalmuti', ['--games', '2', '--players', '5', '--seed', '3', '--bot', 'heuristic', '--option', 'rounds=3']);
    for (const record of records) {
      const frames = dalmutiFrames(record);
      record.steps.forEach((step, i) => {
        const view = frames[i + 1];
        const state = step.state;
        const counts = Object.fromEntries(Object.entries<any[]>(state.hands).map(([p, h]) => [p, h.length]));
        expect([i, view.handCounts]).toEqual([i, counts]);
        expect([i, view.order]).toEqual([i, state.order]);
        expect([i, view.totals]).toEqual([i, state.totals]);
        expect([i, view.trick.top?.cardIds ?? null]).toEqual([i, state.trick.top?.cardIds ?? null]);
        expect([i, view.trick.passesSinceTop]).toEqual([i, state.trick.passesSinceTop]);
        expect([i, view.finishOrder]).toEqual([i, state.finishOrder]);
      });
      expect(frames.at(-1)!.result).toEqual(record.result);
    }
  });
});
