// The countdown shown on every decision that has a deadline (server clock, epoch ms).

/** Milliseconds left, corrected by the measured offset (server time − local time). */
export function remainingMs(deadline: number, localNow: number, offset: number): number {
  return Math.max(0, deadline - (localNow + offset));
}

/** "12초" under a minute, "1:05" from a minute on; never negative. */
export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  if (seconds < 60) return `${seconds}초`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The last five seconds are shown as urgent (colour and an icon). */
export function isUrgent(ms: number): boolean {
  return ms <= 5000;
}

/** Share of the time left, 0..1, for the countdown bar. */
export function fractionLeft(ms: number, totalMs: number): number {
  if (totalMs <= 0) return 0;
  return Math.min(1, Math.max(0, ms / totalMs));
}
