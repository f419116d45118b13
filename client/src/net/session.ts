// One WebSocket per person (docs/protocol.md): snapshot, numbered updates, resync on a gap,
// reconnection with backoff, clientSeq counting across reconnects, clock offset from pongs.
import type { GameEvent } from './api';
import type { PendingInfo, RoomInfo, WireProtocol, You } from './protocol.gen';
import { backoffDelay, classifyUpdate } from './seq';
import { nextView } from './viewpatch';

type ServerMsg = NonNullable<WireProtocol['serverMessage']>;

export type Link = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface Rejection {
  code: string;
  message: string;
  at: number;
}

export interface EventBatch {
  serial: number;
  events: GameEvent[];
}

const KEPT_BATCHES = 40;

export interface SessionState {
  link: Link;
  room: RoomInfo | null;
  you: You | null;
  view: Record<string, unknown> | null;
  pending: PendingInfo[];
  seq: number;
  /** Events of the latest applied update, with a serial so screens animate each batch once. */
  events: GameEvent[];
  eventSerial: number;
  /** The latest batches (newest last): screens that render less often than updates arrive
   * take every batch after the last serial they handled, so no event is skipped. */
  batches: EventBatch[];
  actor: string | null;
  rejection: Rejection | null;
  fatal: Rejection | null; // kicked, replaced, bad token: no reconnect
  offset: number; // server clock − local clock, ms
  /** The match's setup events (the card game's opening draw and deal), sent in the snapshot
   * until the first action so a player who arrives late still sees them. */
  setupEvents?: GameEvent[];
  /** A finished match shown again (screens/Replay.tsx): nobody acts, the server's frames. */
  replaying?: boolean;
}

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export interface SessionDeps {
  open: (url: string) => SocketLike;
  now: () => number;
  setTimer: (fn: () => void, ms: number) => unknown;
  clearTimer: (id: unknown) => void;
}

const FATAL_CLOSE = new Set([4401, 4403, 4409]);
const PING_MS = 10000;

export function initialState(): SessionState {
  return {
    link: 'connecting', room: null, you: null, view: null, pending: [], seq: 0,
    events: [], eventSerial: 0, batches: [], actor: null, rejection: null, fatal: null, offset: 0,
  };
}

export class RoomSession {
  state: SessionState = initialState();
  private socket: SocketLike | null = null;
  private listeners = new Set<(s: SessionState) => void>();
  private awaitingSnapshot = true;
  private freshSocket = true; // no snapshot yet on this socket
  private clientSeq = 0; // the last clientSeq used; the next action sends this + 1
  private attempt = 0;
  private pingTimer: unknown = null;
  private retryTimer: unknown = null;
  private pingSentAt = 0;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly deps: SessionDeps,
  ) {}

  subscribe(fn: (s: SessionState) => void): () => void {
    this.listeners.add(fn);
    fn(this.state);
    return () => this.listeners.delete(fn);
  }

  connect(): void {
    this.stopped = false;
    this.awaitingSnapshot = true;
    this.freshSocket = true;
    const socket = this.deps.open(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.ping();
    };
    socket.onmessage = (ev) => this.receive(String(ev.data));
    socket.onclose = (ev) => this.closed(socket, ev.code);
    socket.onerror = () => undefined;
  }

  /** Sends a game action; returns its clientSeq (or null when not connected). */
  act(action: Record<string, unknown>): number | null {
    if (!this.socket || this.state.link !== 'open') {
      this.set({ rejection: { code: 'offline', message: '연결이 끊겼어요. 다시 연결하는 중이에요.', at: this.deps.now() } });
      return null;
    }
    this.clientSeq += 1;
    this.socket.send(JSON.stringify({ type: 'action', clientSeq: this.clientSeq, action }));
    return this.clientSeq;
  }

  dismissRejection(): void {
    this.set({ rejection: null });
  }

  close(): void {
    this.stopped = true;
    this.deps.clearTimer(this.pingTimer);
    this.deps.clearTimer(this.retryTimer);
    this.socket?.close();
    this.set({ link: 'closed' });
  }

  receive(text: string): void {
    let msg: ServerMsg;
    try {
      msg = JSON.parse(text) as ServerMsg;
    } catch {
      return;
    }
    switch (msg.type) {
      case 'snapshot':
        this.awaitingSnapshot = false;
        // On a new socket the server's lastClientSeq is the truth (what the old socket had in
        // flight is gone); after a resync an action may still be on its way, so never go back.
        this.clientSeq = this.freshSocket ? msg.lastClientSeq : Math.max(this.clientSeq, msg.lastClientSeq);
        this.freshSocket = false;
        this.set({
          link: 'open', room: msg.room, you: msg.you, view: msg.view as SessionState['view'],
          pending: msg.pending, seq: msg.seq, events: [], actor: null,
          setupEvents: ((msg as { setupEvents?: GameEvent[] }).setupEvents ?? []),
        });
        return;
      case 'update':
        this.update(msg);
        return;
      case 'error':
        this.unusedNumber(msg.code, msg.clientSeq ?? null, msg.detail ?? null);
        this.rejected(msg.code, msg.message);
        return;
      case 'pong':
        this.set({ offset: msg.serverTime - (this.pingSentAt + this.deps.now()) / 2 });
        return;
    }
  }

  private update(msg: Extract<ServerMsg, { type: 'update' }>): void {
    if (this.awaitingSnapshot) return;
    const verdict = classifyUpdate(this.state.seq, msg.seq);
    if (verdict === 'ignore') return;
    const view = verdict === 'gap' ? undefined : nextView(this.state.view, msg.view as SessionState['view'], msg.patch);
    if (view === undefined) {
      // a gap in the numbers, or a patch that does not fit the view held: start over
      this.awaitingSnapshot = true;
      this.socket?.send(JSON.stringify({ type: 'resync' }));
      return;
    }
    const events = msg.events as GameEvent[];
    const serial = events.length ? this.state.eventSerial + 1 : this.state.eventSerial;
    this.set({
      seq: msg.seq,
      view,
      pending: msg.pending,
      room: msg.room ?? this.state.room,
      events,
      eventSerial: serial,
      batches: events.length ? [...this.state.batches, { serial, events }].slice(-KEPT_BATCHES) : this.state.batches,
      actor: msg.actor ?? null,
      rejection: msg.ack ? null : this.state.rejection,
    });
  }

  /** A refused action does not use its clientSeq (docs/protocol.md): the next one reuses it. */
  private unusedNumber(code: string, clientSeq: number | null, detail: { [k: string]: unknown } | null): void {
    if (code === 'client_seq_gap' && typeof detail?.expected === 'number') {
      this.clientSeq = detail.expected - 1;
    } else if (clientSeq !== null && code !== 'duplicate') {
      this.clientSeq = Math.min(this.clientSeq, clientSeq - 1);
    }
  }

  private rejected(code: string, message: string): void {
    const at = this.deps.now();
    if (code === 'kicked' || code === 'replaced' || code === 'bad_token') {
      this.set({ fatal: { code, message, at } });
      return;
    }
    if (code === 'duplicate') return; // an action that already landed before a reconnect
    this.set({ rejection: { code, message, at } });
  }

  private ping(): void {
    this.deps.clearTimer(this.pingTimer);
    if (this.stopped || !this.socket) return;
    this.pingSentAt = this.deps.now();
    this.socket.send(JSON.stringify({ type: 'ping' }));
    this.pingTimer = this.deps.setTimer(() => this.ping(), PING_MS);
  }

  private closed(socket: SocketLike, code: number): void {
    if (socket !== this.socket) return;
    this.deps.clearTimer(this.pingTimer);
    this.socket = null;
    if (this.stopped || FATAL_CLOSE.has(code) || this.state.fatal) {
      this.set({ link: 'closed' });
      return;
    }
    this.set({ link: 'reconnecting' });
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    this.retryTimer = this.deps.setTimer(() => this.connect(), delay);
  }

  private set(patch: Partial<SessionState>): void {
    this.state = { ...this.state, ...patch };
    for (const fn of this.listeners) fn(this.state);
  }
}

export function browserDeps(): SessionDeps {
  return {
    open: (url) => new WebSocket(url) as unknown as SocketLike,
    now: () => Date.now(),
    setTimer: (fn, ms) => setTimeout(fn, ms),
    clearTimer: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  };
}

export function socketUrl(roomId: string, token: string): string {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws/${roomId}?token=${encodeURIComponent(token)}`;
}
