import { useEffect, useState } from 'preact/hooks';
import { gameEntry, UnknownGame } from '../games/registry';
import { forgetSeat, loadNickname, loadSeat, saveNickname, saveSeat, type Seat } from '../logic/storage';
import { api, ApiError } from '../net/api';
import type { GameInfo, RoomInfo } from '../net/protocol.gen';
import type { SessionState, RoomSession } from '../net/session';
import { navigate } from '../router';
import { LINK_LABELS } from '../text/ko';
import { Sheet, Toast } from '../ui/Sheet';
import { Lobby } from './Lobby';
import { ResultPanel } from './Result';
import { useSession } from './useSession';

function JoinByLink({ code, onSeat }: { code: string; onSeat: (s: Seat) => void }) {
  const [room, setRoom] = useState<RoomInfo | null>(null);
  const [nickname, setNickname] = useState(loadNickname());
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.room(code).then(setRoom).catch((e: ApiError) => setError(e.message));
  }, [code]);
  const join = (role: 'player' | 'spectator') => {
    const name = nickname.trim();
    // spectators need no nickname
    if (!name && role === 'player') return setError('닉네임을 먼저 적어 주세요.');
    if (name) saveNickname(name);
    api
      .join(code, name, role)
      .then((j) => {
        const seat = { roomId: j.roomId, code: j.code, token: j.token, playerId: j.playerId ?? null };
        saveSeat(seat);
        onSeat(seat);
      })
      .catch((e: ApiError) => setError(e.message));
  };
  const open = room?.status === 'lobby' && room.seats.length < room.maxPlayers;
  return (
    <main class="page">
      <h1>{room ? room.title : '방에 들어가기'}</h1>
      {room && (
        <p class="muted">
          코드 {room.code} · {room.seats.map((s) => s.nickname).join(', ')}
        </p>
      )}
      <section class="card">
        <label class="field">
          <span>닉네임</span>
          <input data-testid="nickname" value={nickname} maxLength={12} onInput={(e) => setNickname((e.target as HTMLInputElement).value)} />
        </label>
        <div class="row">
          {open && (
            <button class="btn primary big" data-testid="join-player" onClick={() => join('player')}>
              참가하기
            </button>
          )}
          <button class="btn big" data-testid="join-spectator" onClick={() => join('spectator')}>
            👀 관전하기
          </button>
        </div>
      </section>
      {error && <p class="error-line" role="alert">⚠️ {error}</p>}
      <button class="btn" onClick={() => navigate('/')}>
        처음으로
      </button>
    </main>
  );
}

export function RoomScreen({ code }: { code: string }) {
  const [seat, setSeat] = useState<Seat | null>(() => loadSeat(code));
  const [state, session] = useSession(seat);
  const [games, setGames] = useState<GameInfo[]>([]);
  const [asking, setAsking] = useState(false);
  useEffect(() => {
    api.games().then(setGames).catch(() => undefined);
  }, []);

  if (!seat) return <JoinByLink code={code} onSeat={setSeat} />;
  if (state.fatal) {
    if (state.fatal.code === 'bad_token' || state.fatal.code === 'kicked') forgetSeat(seat);
    return (
      <main class="page">
        <p class="error-line" role="alert">⚠️ {state.fatal.message}</p>
        <button class="btn primary big" onClick={() => navigate('/')}>
          처음으로
        </button>
      </main>
    );
  }
  const room = state.room;
  if (!room) return <main class="page center">{LINK_LABELS[state.link]}</main>;
  const isHost = !!state.you?.host;
  const gameInfo = games.find((g) => g.id === room.game);

  const leaveNow = () => {
    void api.leave(room.roomId, seat.token).catch(() => undefined);
    forgetSeat(seat);
    navigate('/');
  };
  // a player leaving a game in play is asked first, in the app's own sheet
  const leave = () => (room.status === 'playing' && state.you?.role === 'player' ? setAsking(true) : leaveNow());

  return (
    <div class="room-screen">
      {state.link !== 'open' && (
        <div class="link-banner" role="status" data-testid="link-banner">
          📡 {LINK_LABELS[state.link]}
        </div>
      )}
      {state.rejection && <Toast message={state.rejection.message} onClose={() => session?.dismissRejection()} />}
      {room.status === 'lobby' || !state.view ? (
        <Lobby
          room={room}
          seat={seat}
          isHost={isHost}
          gameOptions={gameInfo?.options ?? []}
          levels={gameInfo?.levels ?? []}
        />
      ) : (
        <GameArea state={state} session={session} />
      )}
      {isHost && room.status === 'playing' && (room.afkOffers ?? []).length > 0 && (
        <AfkOffers room={room} token={seat.token} />
      )}
      {room.status === 'finished' && <ResultPanel room={room} state={state} token={seat.token} isHost={isHost} gameOptions={gameInfo?.options ?? []} />}
      <footer class="room-foot">
        <button class="btn small" onClick={leave} data-testid="leave">
          나가기
        </button>
      </footer>
      {asking && (
        <Sheet title="정말 나갈까요?" onClose={() => setAsking(false)} testId="leave-confirm">
          <p>남은 게임은 자동으로 진행되고, 이 자리로 돌아올 수 없어요.</p>
          <div class="row">
            <button class="btn danger big" data-testid="leave-yes" onClick={leaveNow}>
              나가기
            </button>
            <button class="btn big" data-testid="leave-no" onClick={() => setAsking(false)}>
              계속하기
            </button>
          </div>
        </Sheet>
      )}
    </div>
  );
}

/** Marble: a seat absent two rounds in a row; the host removes it or keeps waiting. */
function AfkOffers({ room, token }: { room: RoomInfo; token: string }) {
  const name = (id: string) => room.seats.find((s) => s.playerId === id)?.nickname ?? id;
  return (
    <div class="afk" role="alert" data-testid="afk-offer">
      {(room.afkOffers ?? []).map((offer) => (
        <div key={offer.playerId} class="row">
          <span>
            ⏸ {name(offer.playerId)}님이 {offer.rounds}라운드째 자리를 비웠어요. 강퇴할까요?
          </span>
          <button class="btn small danger" data-testid={`afk-kick-${offer.playerId}`} onClick={() => void api.afk(room.roomId, token, offer.playerId, 'kick').catch(() => undefined)}>
            강퇴
          </button>
          <button class="btn small" data-testid={`afk-keep-${offer.playerId}`} onClick={() => void api.afk(room.roomId, token, offer.playerId, 'keep').catch(() => undefined)}>
            계속 기다리기
          </button>
        </div>
      ))}
    </div>
  );
}

function GameArea({ state, session }: { state: SessionState; session: RoomSession | null }) {
  const act = (action: Record<string, unknown>) => session?.act(action);
  // the lobby may have been scrolled to its start button: a game starts at the top, with the
  // board and the controls of the first turn on screen
  const match = state.room?.match;
  useEffect(() => scrollTo(0, 0), [match]);
  const game = gameEntry(state.room?.game);
  if (!game) return <UnknownGame />;
  return <game.Table state={state} act={act} />;
}
