// Updates can arrive faster than the screen renders (Preact batches state changes): screens
// read every event batch since the last one they handled, not only the latest.
import type { GameEvent } from '../net/api';
import type { SessionState } from '../net/session';

/** Events of every batch newer than `after`. */
export function eventsSince(state: Pick<SessionState, 'batches'>, after: number): GameEvent[] {
  return state.batches.filter((b) => b.serial > after).flatMap((b) => b.events);
}
