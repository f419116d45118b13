// Update numbering of docs/protocol.md: apply the next one, ignore old ones, resync on a gap.

export type SeqVerdict = 'apply' | 'ignore' | 'gap';

export function classifyUpdate(lastApplied: number, incoming: number): SeqVerdict {
  if (incoming === lastApplied + 1) return 'apply';
  if (incoming <= lastApplied) return 'ignore';
  return 'gap';
}

/** Reconnection delay: doubling from 500 ms, capped at 8 s, with up to 25 % jitter. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8000, 500 * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 + 0.25 * random()));
}
