import { useState } from 'preact/hooks';
import { api, ApiError } from '../net/api';
import type { RoomInfo, SeatInfo } from '../net/protocol.gen';
import type { Seat } from '../logic/storage';
import { PresenceBadge, presenceOf } from '../ui/Presence';
import { BOT_LABELS, optionValueLabel, seatStyle } from '../text/ko';

export interface GameOptionInfo {
  key: string;
  label: string;
  choices: unknown[];
  default: unknown;
}

export function SeatRow({ s, room, me, isHost, onKick, onRemoveBot }: {
  s: SeatInfo;
  room: RoomInfo;
  me: string | null;
  isHost: boolean;
  onKick: (id: string) => void;
  onRemoveBot: (id: string) => void;
}) {
  const style = seatStyle(s.playerId);
  return (
    <li class="seat" data-testid={`seat-${s.playerId}`}>
      <span class="seat-mark" style={{ background: style.color }} aria-label={style.name}>
        {style.mark}
      </span>
      <span class="seat-name">
        {s.nickname}
        {s.playerId === me && <em class="tag">나</em>}
        {s.host && <em class="tag host">👑 방장</em>}
        {s.bot && (
          <em class="tag" data-testid={`bot-level-${s.playerId}`}>
            🤖 {BOT_LABELS[s.botPolicy ?? ''] ?? '봇'}
          </em>
        )}
      </span>
      {presenceOf(s) === 'here' ? <span class="conn on">🟢 접속</span> : <PresenceBadge seat={s} testId={`presence-${s.playerId}`} />}
      {isHost && s.playerId !== me && room.status === 'lobby' && (
        s.bot ? (
          <button class="btn small" onClick={() => onRemoveBot(s.playerId)}>
            빼기
          </button>
        ) : (
          <button class="btn small" onClick={() => onKick(s.playerId)}>
            내보내기
          </button>
        )
      )}
    </li>
  );
}

export function ShareLink({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  const link = `${location.origin}/r/${code}`;
  return (
    <div class="share">
      <span>
        방 코드 <strong data-testid="room-code">{code}</strong>
      </span>
      <button
        class="btn small"
        onClick={() => {
          void navigator.clipboard?.writeText(link).then(() => setCopied(true));
        }}
      >
        {copied ? '✔ 복사했어요' : '🔗 링크 복사'}
      </button>
    </div>
  );
}

/** The room's options; the host changes them here (the lobby, and before a rematch). */
export function OptionList({ room, token, isHost, gameOptions, onError }: {
  room: RoomInfo;
  token: string;
  isHost: boolean;
  gameOptions: GameOptionInfo[];
  onError: (message: string | null) => void;
}) {
  const options = room.options as Record<string, unknown>;
  const change = (key: string, value: unknown) => {
    onError(null);
    api.setOptions(room.roomId, token, { [key]: value }).catch((e) => onError(e instanceof ApiError ? e.message : '문제가 생겼어요.'));
  };
  return (
    <ul class="option-list" data-testid="option-list">
      {gameOptions.map((opt) => (
        <li key={opt.key}>
          <span>{opt.label}</span>
          {isHost ? (
            <select
              aria-label={opt.label}
              data-testid={`room-opt-${opt.key}`}
              value={JSON.stringify(options[opt.key] ?? opt.default)}
              onChange={(e) => change(opt.key, JSON.parse((e.target as HTMLSelectElement).value))}
            >
              {opt.choices.map((c) => (
                <option key={String(c)} value={JSON.stringify(c)}>
                  {optionValueLabel(c)}
                </option>
              ))}
            </select>
          ) : (
            <strong>{optionValueLabel(options[opt.key])}</strong>
          )}
        </li>
      ))}
    </ul>
  );
}

const DEFAULT_LEVEL = 'normal';

export function Lobby({ room, seat, isHost, gameOptions, levels }: {
  room: RoomInfo;
  seat: Seat;
  isHost: boolean;
  gameOptions: GameOptionInfo[];
  levels: string[];
}) {
  const [error, setError] = useState<string | null>(null);
  const [policy, setPolicy] = useState(DEFAULT_LEVEL);
  const ref = room.roomId;
  const run = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().catch((e) => setError(e instanceof ApiError ? e.message : '문제가 생겼어요.'));
  };
  const count = room.seats.length;
  const canStart = count >= room.minPlayers && count <= room.maxPlayers;
  return (
    <main class="page lobby">
      <header class="bar">
        <h1>{room.title}</h1>
        <span class="muted">👀 관전 {room.spectators}명</span>
      </header>
      <ShareLink code={room.code} />
      <section class="card">
        <h2>
          자리 {count}/{room.maxPlayers} <small class="muted">({room.minPlayers}명부터 시작)</small>
        </h2>
        <ul class="seats">
          {room.seats.map((s) => (
            <SeatRow
              key={s.playerId}
              s={s}
              room={room}
              me={seat.playerId}
              isHost={isHost}
              onKick={(id) => run(() => api.kick(ref, seat.token, id))}
              onRemoveBot={(id) => run(() => api.removeBot(ref, seat.token, id))}
            />
          ))}
        </ul>
        {isHost && count < room.maxPlayers && (
          <div class="row">
            <select
              value={policy}
              onChange={(e) => setPolicy((e.target as HTMLSelectElement).value)}
              aria-label="봇 난이도"
              data-testid="bot-level"
            >
              {(levels.length ? levels : [DEFAULT_LEVEL]).map((level) => (
                <option key={level} value={level}>
                  {BOT_LABELS[level] ?? level}
                </option>
              ))}
            </select>
            <button class="btn" data-testid="add-bot" onClick={() => run(() => api.addBot(ref, seat.token, policy))}>
              🤖 봇 추가
            </button>
          </div>
        )}
      </section>

      <section class="card">
        <h2>옵션</h2>
        <OptionList room={room} token={seat.token} isHost={isHost} gameOptions={gameOptions} onError={setError} />
      </section>

      {error && (
        <p class="error-line" role="alert">
          ⚠️ {error}
        </p>
      )}
      {isHost ? (
        <button
          class="btn primary big wide"
          data-testid="start-game"
          disabled={!canStart}
          onClick={() => run(() => api.start(ref, seat.token))}
        >
          {canStart ? '게임 시작' : `${room.minPlayers}명이 모이면 시작할 수 있어요`}
        </button>
      ) : (
        <p class="muted center">방장이 시작하기를 기다리고 있어요…</p>
      )}
    </main>
  );
}
