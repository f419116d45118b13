// The room server's HTTP API (docs/protocol.md), typed from the generated wire types.
import type {
  AddBotResponse,
  CreateRoomResponse,
  GameInfo,
  GamesResponse,
  JoinResponse,
  ReplayResponse,
  RoomInfo,
  RoomListResponse,
} from './protocol.gen';

export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const FALLBACK = '서버와 연결할 수 없어요. 잠시 후 다시 해 주세요.';

async function call<T>(method: string, path: string, body?: unknown, token?: string, raw = false): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError('network', FALLBACK);
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    let data: { error?: { code: string; message: string } } | null = null;
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
    throw new ApiError(data?.error?.code ?? 'http', data?.error?.message ?? FALLBACK);
  }
  return (raw ? text : JSON.parse(text)) as T;
}

export const api = {
  games: () => call<GamesResponse>('GET', '/api/games').then((r) => r.games as GameInfo[]),
  rooms: () => call<RoomListResponse>('GET', '/api/rooms').then((r) => r.rooms),
  room: (ref: string) => call<RoomInfo>('GET', `/api/rooms/${encodeURIComponent(ref)}`),
  create: (game: string, nickname: string, options: Record<string, unknown>) =>
    call<CreateRoomResponse>('POST', '/api/rooms', { game, nickname, options }),
  join: (ref: string, nickname: string, role: 'player' | 'spectator') =>
    call<JoinResponse>('POST', `/api/rooms/${encodeURIComponent(ref)}/join`, { nickname, role }),
  leave: (ref: string, token: string) => call<unknown>('POST', `/api/rooms/${ref}/leave`, {}, token),
  start: (ref: string, token: string) => call<RoomInfo>('POST', `/api/rooms/${ref}/start`, undefined, token),
  addBot: (ref: string, token: string, policy: string) =>
    call<AddBotResponse>('POST', `/api/rooms/${ref}/bots`, { policy }, token),
  removeBot: (ref: string, token: string, playerId: string) =>
    call<RoomInfo>('DELETE', `/api/rooms/${ref}/bots/${playerId}`, undefined, token),
  kick: (ref: string, token: string, playerId: string) =>
    call<RoomInfo>('POST', `/api/rooms/${ref}/kick`, { playerId }, token),
  setOptions: (ref: string, token: string, options: Record<string, unknown>) =>
    call<RoomInfo>('PUT', `/api/rooms/${ref}/options`, { options }, token),
  rematch: (ref: string, token: string) => call<RoomInfo>('POST', `/api/rooms/${ref}/rematch`, undefined, token),
  afk: (ref: string, token: string, playerId: string, choice: 'kick' | 'keep') =>
    call<RoomInfo>('POST', `/api/rooms/${ref}/afk`, { playerId, choice }, token),
  record: (ref: string, match?: number) =>
    call<string>('GET', `/api/rooms/${ref}/record${match ? `?match=${match}` : ''}`, undefined, undefined, true).then(parseRecord),
  /** A finished match frame by frame as `viewer` saw it (a seat id, `spectator` or `all`). */
  replay: (ref: string, match: number | undefined, viewer: string) =>
    call<string>('GET', replayPath(ref, match, viewer), undefined, undefined, true).then(parseReplay),
};

export function replayPath(ref: string, match: number | undefined, viewer: string): string {
  const query = new URLSearchParams({ viewer });
  if (match) query.set('match', String(match));
  return `/api/rooms/${encodeURIComponent(ref)}/replay?${query}`;
}

export type Replay = ReplayResponse & { seedText: string };

/** The served replay, its 64-bit seed kept as text (see parseRecord). */
export function parseReplay(text: string): Replay {
  const replay = JSON.parse(text) as Replay;
  replay.seedText = /"seed"\s*:\s*(\d+)/.exec(text)?.[1] ?? String(replay.seed);
  return replay;
}

/** Seeds are 64-bit: JSON numbers above 2^53 lose digits, so the seed is kept as its text too. */
export function parseRecord(text: string): GameRecord {
  const record = JSON.parse(text) as GameRecord;
  record.seedText = /"seed"\s*:\s*(\d+)/.exec(text)?.[1] ?? String(record.seed);
  return record;
}

/** A row of any game's ranking (its engine's GameResult.ranking; each game's own row type is
 * generated: MarbleRankingEntry, DalmutiRankingEntry). */
export interface RankRow {
  rank: number;
  player: string;
}

/** What every game's result has (the spec's GameResult: MarbleResult, DalmutiResult). */
export interface GameResult {
  ranking: RankRow[];
  summary: string;
}

/** The downloadable game record (DESIGN.md "Game records"). */
export interface GameRecord {
  game: string;
  options: Record<string, unknown>;
  players: string[];
  seed: number;
  seedText?: string;
  setupEvents: GameEvent[];
  steps: { actor: string; action: Record<string, unknown>; auto: boolean; events: GameEvent[] }[];
  result: GameResult | null;
  roomId?: string;
  match?: number;
  seedHash?: string;
  nicknames?: Record<string, string>;
}

export type GameEvent = { type: string } & Record<string, unknown>;
