// Presentation over the latest view: tokens walking square by square, money popups, and the
// lands a bankrupt player lost, grey until somebody buys them again.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { GameEvent } from '../../net/api';
import type { SessionState } from '../../net/session';
import { eventsSince } from '../../ui/batches';
import { reducedMotion } from '../../ui/motion';
import { BOARD_SIZE, pathBetween } from './board';
import type { MarbleView } from './view';

export const STEP_MS = 110;
/** A whole walk never takes longer than this (long card moves step faster), so the time the
 * server allows for the animation after a move (docs/client.md) always covers it. */
export const WALK_MAX_MS = 1500;

/** Milliseconds per square for a walk of `squares` steps. */
export function stepMs(squares: number): number {
  return squares > 0 ? Math.min(STEP_MS, Math.floor(WALK_MAX_MS / squares)) : STEP_MS;
}

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

/** Squares a bankrupt player lost to the bank: grey until somebody owns them again. */
export function lostSquares(before: MarbleView, events: GameEvent[], after: MarbleView, kept: number[]): number[] {
  const broke = events.filter((e) => e.type === 'bankrupt').map((e) => String(e.player));
  const fresh = Object.entries(before.owners)
    .filter(([, d]) => d && broke.includes(d.owner))
    .map(([pos]) => Number(pos));
  return [...new Set([...kept, ...fresh])].filter((pos) => !after.owners[String(pos)]).sort((a, b) => a - b);
}

/** A view of another match (a rematch) or an earlier moment (a replay jumping back) is not a
 * continuation: no popups, no walk from the old places. */
export function continues(before: MarbleView | null, after: MarbleView, sameMatch: boolean): boolean {
  return !!before && sameMatch && after.round >= before.round;
}

export function useMarbleAnimation(
  view: MarbleView,
  state: Pick<SessionState, 'batches' | 'events' | 'eventSerial'> & { room?: { match?: number } | null },
) {
  const serial = state.eventSerial;
  const match = state.room?.match ?? 0;
  const handled = useRef(serial);
  const [shown, setShown] = useState<Record<string, number>>({});
  const [trail, setTrail] = useState<number | null>(null);
  const [popups, setPopups] = useState<Popup[]>([]);
  const [grey, setGrey] = useState<number[]>([]);
  const [moving, setMoving] = useState(false);
  const previous = useRef<MarbleView | null>(null);
  const previousMatch = useRef(match);
  const popupId = useRef(0);

  useEffect(() => {
    const same = previousMatch.current === match;
    const before = continues(previous.current, view, same) ? previous.current : null;
    previous.current = view;
    previousMatch.current = match;
    // every batch since the last render, so a quick run of updates still walks each move
    const events = state.batches.length && serial > handled.current ? eventsSince(state, handled.current) : state.events;
    handled.current = serial;
    if (!before) {
      setShown({});
      setTrail(null);
      setMoving(false);
      setPopups([]);
      setGrey([]);
      return undefined;
    }
    const timers: ReturnType<typeof setTimeout>[] = [];
    const steps = reducedMotion() ? [] : walkSteps(events);
    const step = stepMs(steps.length);
    steps.forEach((s, i) => {
      timers.push(setTimeout(() => {
        setShown((cur) => ({ ...cur, [s.player]: s.pos }));
        setTrail(s.pos);
      }, i * step));
    });
    const done = () => {
      setShown({});
      setTrail(null);
      setMoving(false);
    };
    if (steps.length) {
      setMoving(true);
      timers.push(setTimeout(done, steps.length * step + 50));
      const start: Record<string, number> = {};
      for (const s of steps) if (!(s.player in start)) start[s.player] = before.players[s.player]?.pos ?? s.pos;
      setShown(start);
    } else done();

    const deltas = cashDeltas(before, view).map((d) => ({ ...d, id: ++popupId.current }));
    if (deltas.length) {
      setPopups((cur) => [...cur, ...deltas]);
      setTimeout(() => setPopups((cur) => cur.filter((p) => !deltas.includes(p))), 1800);
    }
    setGrey((kept) => lostSquares(before, events, view, kept));
    return () => timers.forEach(clearTimeout);
  }, [serial, match]);

  // an update rendered before its effect ran: a walk is about to start, so nothing that waits
  // for the token (the decision sheet) may show for that frame either
  const unseen = serial > handled.current && !reducedMotion() && walkSteps(state.batches.length ? eventsSince(state, handled.current) : state.events).length > 0;
  const positionOf = (player: string) => shown[player] ?? view.players[player]?.pos ?? 0;
  return { positionOf, trail, popups, grey, moving: moving || unseen };
}
