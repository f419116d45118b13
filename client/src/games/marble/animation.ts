// Presentation over the latest view: tokens walking square by square, money popups, and the
// lands of a bankrupt player fading to grey before they go back to the bank.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GameEvent } from '../../net/api';
import type { SessionState } from '../../net/session';
import { eventsSince } from '../../ui/batches';
import { BOARD_SIZE, pathBetween } from './board';
import type { MarbleView } from './view';

export const STEP_MS = 110;

export interface Step {
  player: string;
  pos: number;
}

/** The squares each token steps on for a batch of events (dice moves walk, others jump). */
export function walkSteps(events: GameEvent[]): Step[] {
  const steps: Step[] = [];
  for (const e of events) {
    if (e.type !== 'moved') continue;
    const player = String(e.player);
    const from = Number(e.from);
    const to = Number(e.to);
    const forward = pathBetween(from, to);
    if (e.by === 'card' && forward.length > BOARD_SIZE / 2) {
      for (let p = from - 1; ; p--) {
        const pos = (p + BOARD_SIZE) % BOARD_SIZE;
        steps.push({ player, pos });
        if (pos === to) break;
      }
    } else if (e.by === 'space') {
      steps.push({ player, pos: to });
    } else {
      for (const pos of forward) steps.push({ player, pos });
    }
  }
  return steps;
}

/** Cash changes between two views, one popup per player who gained or lost money. */
export function cashDeltas(before: MarbleView | null, after: MarbleView): { player: string; amount: number }[] {
  if (!before) return [];
  return Object.entries(after.players)
    .map(([player, p]) => ({ player, amount: p.cash - (before.players[player]?.cash ?? p.cash) }))
    .filter((d) => d.amount !== 0);
}

export interface Popup {
  id: number;
  player: string;
  amount: number;
}

export function useMarbleAnimation(view: MarbleView, state: Pick<SessionState, 'batches' | 'events' | 'eventSerial'>) {
  const serial = state.eventSerial;
  const handled = useRef(serial);
  const [shown, setShown] = useState<Record<string, number>>({});
  const [trail, setTrail] = useState<number | null>(null);
  const [popups, setPopups] = useState<Popup[]>([]);
  const [grey, setGrey] = useState<number[]>([]);
  const previous = useRef<MarbleView | null>(null);
  const popupId = useRef(0);

  useEffect(() => {
    const before = previous.current;
    previous.current = view;
    // every batch since the last render, so a quick run of updates still walks each move
    const events = state.batches.length && serial > handled.current ? eventsSince(state, handled.current) : state.events;
    handled.current = serial;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const steps = walkSteps(events);
    steps.forEach((s, i) => {
      timers.push(setTimeout(() => {
        setShown((cur) => ({ ...cur, [s.player]: s.pos }));
        setTrail(s.pos);
      }, i * STEP_MS));
    });
    timers.push(setTimeout(() => {
      setShown({});
      setTrail(null);
    }, steps.length * STEP_MS + 50));
    const start: Record<string, number> = {};
    for (const s of steps) if (!(s.player in start) && before) start[s.player] = before.players[s.player]?.pos ?? s.pos;
    setShown(start);

    const deltas = cashDeltas(before, view).map((d) => ({ ...d, id: ++popupId.current }));
    if (deltas.length) {
      setPopups((cur) => [...cur, ...deltas]);
      setTimeout(() => setPopups((cur) => cur.filter((p) => !deltas.includes(p))), 1800);
    }
    const broke = events.filter((e) => e.type === 'bankrupt').map((e) => String(e.player));
    if (broke.length && before) {
      const lands = Object.entries(before.owners)
        .filter(([, d]) => d && broke.includes(d.owner))
        .map(([pos]) => Number(pos));
      setGrey(lands);
      setTimeout(() => setGrey([]), 3000);
    }
    return () => timers.forEach(clearTimeout);
  }, [serial]);

  const positionOf = (player: string) => shown[player] ?? view.players[player]?.pos ?? 0;
  return { positionOf, trail, popups, grey };
}
