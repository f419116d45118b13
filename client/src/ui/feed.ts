// Seat names and the table's feed of recent events, shared by both tables.
import { useEffect, useState } from 'preact/hooks';
import type { SessionState } from '../net/session';

export function useNames(state: SessionState) {
  return (id: string) => state.room?.seats.find((s) => s.playerId === id)?.nickname ?? id;
}

/** The feed of the last few things that happened, one Korean line each. */
export function useFeed(state: SessionState, describe: (e: { type: string } & Record<string, unknown>) => string | null) {
  const [lines, setLines] = useState<string[]>([]);
  useEffect(() => {
    const fresh = state.events.map(describe).filter((l): l is string => !!l);
    if (fresh.length) setLines((cur) => [...fresh.reverse(), ...cur].slice(0, 8));
  }, [state.eventSerial]);
  return lines;
}
