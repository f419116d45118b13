// Seat names and the table's feed of recent events, shared by both tables.
import { useEffect, useRef, useState } from 'preact/hooks';
import { eventsSince } from './batches';
import type { SessionState } from '../net/session';

export function useNames(state: SessionState) {
  return (id: string) => state.room?.seats.find((s) => s.playerId === id)?.nickname ?? id;
}

/** The feed of the last few things that happened, one Korean line each. */
export function useFeed(state: SessionState, describe: (e: { type: string } & Record<string, unknown>) => string | null) {
  const [lines, setLines] = useState<string[]>([]);
  const handled = useRef(0);
  useEffect(() => {
    // replays jump around: a serial going back starts the feed over
    const start = state.eventSerial < handled.current ? state.eventSerial - 1 : handled.current;
    const batches = state.batches.length ? eventsSince(state, start) : state.events;
    handled.current = state.eventSerial;
    const fresh = batches.map(describe).filter((l): l is string => !!l);
    if (fresh.length) setLines((cur) => [...fresh.reverse(), ...cur].slice(0, 8));
  }, [state.eventSerial]);
  return lines;
}
