// Patched views equal whole views over whole games of both games: the server's diff
// (jokeapp/rooms/viewpatch.py, run by tests/rooms/view_stream.py with random bots) against the
// client's patching (src/net/viewpatch.ts), for every seat and the spectator, step by step,
// a seat now and then away and back with a snapshot.
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PatchOp } from '../src/net/protocol.gen';
import { nextView, type View } from '../src/net/viewpatch';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

interface Line {
  viewer: string | null;
  step: number;
  snapshot: boolean;
  view: View | null;
  patch: PatchOp[] | null;
  full: View;
}

function lines(): Line[] {
  const text = execFileSync(resolve(root, '.venv/bin/python'), ['-m', 'tests.rooms.view_stream'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  return text.trim().split('\n').map((line) => JSON.parse(line) as Line);
}

describe('views sent as patches', () => {
  it('rebuild every viewer’s whole view at every step of whole marble and card games', () => {
    const held = new Map<string | null, View | null>();
    const games = new Set<string>();
    let patched = 0;
    for (const line of lines()) {
      games.add(String(line.full.game ?? 'marble'));
      const before = held.get(line.viewer) ?? null;
      const frozen = before === null ? null : JSON.stringify(before);
      const next = line.snapshot ? line.view : nextView(before, line.view, line.patch);
      expect(next, `${line.viewer} at step ${line.step}`).toEqual(line.full);
      if (line.patch) patched += 1;
      if (frozen !== null) expect(JSON.stringify(before)).toBe(frozen); // the held view is left alone
      held.set(line.viewer, next ?? null);
    }
    expect([...games].sort()).toEqual(['dalmuti', 'marble']);
    expect(patched).toBeGreaterThan(1000);
  });

  it('asks for a snapshot when a patch does not fit the view held', () => {
    expect(nextView({ a: 1 }, null, ['/b'])).toBeUndefined();
    expect(nextView({ a: 1 }, null, [['/b/c', 2]])).toBeUndefined();
    expect(nextView({ l: [1, 2] }, null, [['/l/3', 0]])).toBeUndefined();
    expect(nextView({ l: [1, 2] }, null, [['/l/-', 0]])).toBeUndefined();
    expect(nextView({ l: [1, 2] }, null, [['/l/01', 0]])).toBeUndefined();
    expect(nextView({ l: [1, 2] }, null, ['/l/2'])).toBeUndefined();
    expect(nextView({ a: 1 }, null, [''])).toBeUndefined();
    expect(nextView(null, null, [['/b', 2]])).toBeUndefined();
    expect(nextView({ a: 1 }, null, null)).toEqual({ a: 1 });
    expect(nextView({ a: 1 }, { b: 2 }, null)).toEqual({ b: 2 });
  });

  it('puts, appends and removes in order, sharing what did not change', () => {
    const held = { a: { b: 1 }, keep: { x: [1] }, l: [1, 2, 3], 'm~n/o': 0 };
    const next = nextView(held, null, [
      ['/a/b', null],
      ['/a/c', [1]],
      ['/l/3', 4],
      '/l/0',
      ['/l/0', 9],
      ['/m~0n~1o', 1],
    ]);
    expect(next).toEqual({ a: { b: null, c: [1] }, keep: { x: [1] }, l: [9, 3, 4], 'm~n/o': 1 });
    expect(next?.keep).toBe(held.keep);
    expect(held).toEqual({ a: { b: 1 }, keep: { x: [1] }, l: [1, 2, 3], 'm~n/o': 0 });
    expect(nextView(held, null, ['/a'])).toEqual({ keep: { x: [1] }, l: [1, 2, 3], 'm~n/o': 0 });
  });
});
