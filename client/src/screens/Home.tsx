import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../net/api';
import type { GameInfo, RoomInfo } from '../net/protocol.gen';
import { loadNickname, saveNickname, saveSeat } from '../logic/storage';
import { navigate } from '../router';
import { GAME_BLURBS, GAME_TITLES, STATUS_LABELS, optionValueLabel } from '../text/ko';
import { RulesButton } from './Rules';

/** A join code or a room link pasted as is. */
export function codeFrom(input: string): string | null {
  const text = input.trim();
  const link = /\/r\/([A-Za-z0-9]{6})/.exec(text);
  if (link) return link[1].toUpperCase();
  return /^[A-Za-z0-9]{6}$/.test(text) ? text.toUpperCase() : null;
}

export function Home() {
  const [nickname, setNickname] = useState(loadNickname());
  const [games, setGames] = useState<GameInfo[]>([]);
  const [rooms, setRooms] = useState<RoomInfo[]>([]);
  const [game, setGame] = useState('marble');
  const [options, setOptions] = useState<Record<string, unknown>>({});
  const [joinText, setJoinText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.games().then(setGames).catch((e: ApiError) => setError(e.message));
    const load = () => api.rooms().then(setRooms).catch(() => undefined);
    load();
    const id = setInterval(load, 5000);
    return () => clearInterval(id);
  }, []);

  const info = games.find((g) => g.id === game);
  const name = nickname.trim();

  /** Runs a join or create; the error goes next to the field it is about (`at`). */
  async function guarded(fn: () => Promise<void>, at: 'top' | 'code' = 'top', needsName = true) {
    if (needsName && !name) {
      setError('닉네임을 먼저 적어 주세요.');
      return;
    }
    if (name) saveNickname(name);
    setBusy(true);
    setError(null);
    setCodeError(null);
    try {
      await fn();
    } catch (e) {
      const message = e instanceof ApiError ? e.message : '문제가 생겼어요. 다시 해 주세요.';
      if (at === 'code') setCodeError(message);
      else setError(message);
    } finally {
      setBusy(false);
    }
  }

  const create = () =>
    guarded(async () => {
      const made = await api.create(game, name, options);
      saveSeat({ roomId: made.roomId, code: made.code, token: made.token, playerId: made.playerId });
      navigate(`/r/${made.code}`);
    });

  // spectators need no nickname (the server names them)
  const join = (ref: string, role: 'player' | 'spectator', at: 'top' | 'code' = 'top') =>
    guarded(async () => {
      const joined = await api.join(ref, name, role);
      saveSeat({ roomId: joined.roomId, code: joined.code, token: joined.token, playerId: joined.playerId ?? null });
      navigate(`/r/${joined.code}`);
    }, at, role === 'player');

  const joinCode = codeFrom(joinText);
  const joinByCode = (role: 'player' | 'spectator') => {
    if (!joinCode) {
      setCodeError(joinText.trim() ? '방 코드는 영문과 숫자 6자예요 (예: K7QH2M).' : '방 코드나 링크를 적어 주세요.');
      return;
    }
    void join(joinCode, role, 'code');
  };

  return (
    <main class="page home">
      <header class="home-head">
        <h1>🎲 조크앱 게임</h1>
        <p>친구나 봇과 함께 바로 한 판!</p>
      </header>

      <section class="card">
        <label class="field">
          <span>닉네임</span>
          <input
            data-testid="nickname"
            value={nickname}
            maxLength={12}
            placeholder="1~12자"
            onInput={(e) => setNickname((e.target as HTMLInputElement).value)}
          />
        </label>
      </section>

      {error && (
        <p class="error-line" role="alert" data-testid="home-error">
          ⚠️ {error}
        </p>
      )}

      <section class="card">
        <h2>방 만들기</h2>
        <div class="game-picker" role="radiogroup" aria-label="게임">
          {(games.length ? games : [{ id: 'marble' }, { id: 'dalmuti' }]).map((g) => (
            <button
              key={g.id}
              role="radio"
              aria-checked={game === g.id}
              class={`game-choice${game === g.id ? ' chosen' : ''}`}
              data-testid={`game-${g.id}`}
              onClick={() => {
                setGame(g.id);
                setOptions({});
              }}
            >
              <strong>{game === g.id ? '✔ ' : ''}{GAME_TITLES[g.id] ?? g.id}</strong>
              <small>{GAME_BLURBS[g.id]}</small>
            </button>
          ))}
        </div>
        {info && (
          <details class="options">
            <summary>옵션 (기본값으로 해도 돼요)</summary>
            {info.options.map((opt) => (
              <label class="field" key={opt.key}>
                <span>{opt.label}</span>
                <select
                  data-testid={`opt-${opt.key}`}
                  value={JSON.stringify(opt.key in options ? options[opt.key] : opt.default)}
                  onChange={(e) =>
                    setOptions({ ...options, [opt.key]: JSON.parse((e.target as HTMLSelectElement).value) })
                  }
                >
                  {opt.choices.map((choice) => (
                    <option key={String(choice)} value={JSON.stringify(choice)}>
                      {optionValueLabel(choice)}
                      {choice === opt.default ? ' (기본)' : ''}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </details>
        )}
        <div class="row">
          <button class="btn primary big" data-testid="create-room" disabled={busy} onClick={create}>
            방 만들기
          </button>
          <RulesButton game={game} />
        </div>
      </section>

      <section class="card">
        <h2>코드나 링크로 들어가기</h2>
        <input
          data-testid="join-code"
          value={joinText}
          placeholder="예: K7QH2M 또는 링크"
          aria-label="방 코드나 링크"
          aria-invalid={!!codeError}
          aria-describedby={codeError ? 'code-error' : undefined}
          onInput={(e) => {
            setJoinText((e.target as HTMLInputElement).value);
            setCodeError(null);
          }}
          onKeyDown={(e) => e.key === 'Enter' && joinByCode('player')}
        />
        {codeError && (
          <p class="field-error" id="code-error" role="alert" data-testid="code-error">
            ⚠️ {codeError}
          </p>
        )}
        <div class="row">
          <button class="btn primary" data-testid="join-player" disabled={busy} onClick={() => joinByCode('player')}>
            참가하기
          </button>
          <button class="btn" data-testid="join-spectator" disabled={busy} onClick={() => joinByCode('spectator')}>
            👀 관전하기
          </button>
        </div>
        <p class="muted">관전은 닉네임 없이도 돼요.</p>
      </section>

      <section class="card">
        <h2>열린 방</h2>
        {rooms.length === 0 && <p class="muted">지금은 열린 방이 없어요. 새로 만들어 보세요!</p>}
        <ul class="room-list">
          {rooms.map((r) => {
            const full = r.seats.length >= r.maxPlayers;
            return (
              <li key={r.roomId} class="room-item">
                <div>
                  <strong>{GAME_TITLES[r.game] ?? r.title}</strong>
                  <small>
                    {' '}
                    · {STATUS_LABELS[r.status]} · {r.seats.length}/{r.maxPlayers}명 · 코드 {r.code}
                  </small>
                  <div class="muted">{r.seats.map((s) => s.nickname).join(', ')}</div>
                </div>
                <div class="row">
                  {r.status === 'lobby' && !full && (
                    <button class="btn" disabled={busy} onClick={() => join(r.code, 'player')}>
                      참가
                    </button>
                  )}
                  <button class="btn" disabled={busy} onClick={() => join(r.code, 'spectator')}>
                    관전
                  </button>
                </div>
              </li>
            );
          })}
        </ul>
      </section>
    </main>
  );
}
