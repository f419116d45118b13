import { useEffect, useRef, useState } from 'preact/hooks';
import { setTips, tipsOn } from '../../logic/storage';
import type { SeatInfo } from '../../net/protocol.gen';
import type { SessionState } from '../../net/session';
import { manwon, seatStyle, signedManwon } from '../../text/ko';
import { Countdown } from '../../ui/Countdown';
import { RulesButton } from '../../screens/Rules';
import { Board } from './Board';
import { useMarbleAnimation } from './animation';
import { DebtSheet, DecisionSheet, SpaceSheet, TileInfoSheet, TradeAnswerSheet, TradeProposeSheet } from './Sheets';
import { landsOf, type MarbleView } from './view';
import { describeEvent, PHASE_LABELS } from './words';
import { PresenceBadge } from '../../ui/Presence';
import { useFeed, useNames } from '../../ui/feed';

type Act = (action: Record<string, unknown>) => void;

const DIE_FACES = ['', '⚀', '⚁', '⚂', '⚃', '⚄', '⚅'];

/** What the current player is doing, in the words they need ("우주여행: 갈 칸을 고르세요"). */
export function phaseLabel(view: MarbleView): string {
  const p = view.players[view.currentPlayer];
  if (view.phase === 'turnStart' && p?.spacePending) return PHASE_LABELS.space;
  if (view.phase === 'turnStart' && p && p.islandLeft > 0) return PHASE_LABELS.island;
  return PHASE_LABELS[view.phase];
}

function Center({ view, me, act, state, names, onTrade }: {
  view: MarbleView;
  me: string | null;
  act: Act;
  state: SessionState;
  names: (id: string) => string;
  onTrade: () => void;
}) {
  const current = view.currentPlayer;
  const mine = me === current && view.phase === 'turnStart';
  const player = me ? view.players[me] : undefined;
  const pending = state.pending.find((p) => p.player === me) ?? state.pending[0];
  const style = seatStyle(current);
  const rollKey = useRef(0);
  if (state.events.some((e) => e.type === 'rolled' || e.type === 'islandRoll')) rollKey.current = state.eventSerial;
  const maxRounds = Number(view.options.maxRounds ?? 0);
  const islandFee = Number(view.options.islandFee ?? 0);
  return (
    <div class="center-stack">
      <div class="center-info">
        <span data-testid="round">
          {view.round}
          {maxRounds ? `/${maxRounds}` : ''}라운드
        </span>
        <span>💰 기금 {manwon(view.fund)}</span>
      </div>
      <div
        class="dice"
        aria-label="주사위"
        data-testid="dice"
        key={rollKey.current}
      >
        {view.lastRoll ? (
          <>
            <span class="die">{DIE_FACES[view.lastRoll[0]]}</span>
            <span class="die">{DIE_FACES[view.lastRoll[1]]}</span>
            <small>
              {view.lastRoll[0] + view.lastRoll[1]}
              {view.lastRoll[0] === view.lastRoll[1] ? ' 더블!' : ''}
            </small>
          </>
        ) : (
          <span class="die muted">🎲</span>
        )}
      </div>
      <div class={`turn-line${current === me && view.phase !== 'finished' ? ' mine' : ''}`} data-testid="turn-line" role="status">
        {view.phase === 'finished' ? (
          '🏁 게임 끝'
        ) : (
          <>
            <span style={{ color: style.color }}>{style.mark}</span> {current === me ? '내 차례' : `${names(current)} 차례`} ·{' '}
            {phaseLabel(view)}
          </>
        )}
      </div>
      <Countdown deadline={pending?.deadline} offset={state.offset} totalSeconds={view.options.turnSeconds as number | null} />
      {mine && player?.spacePending && (
        <>
          <p class="hint">🚀 🎯 표시된 칸을 눌러 고르세요</p>
          <p class="space-note muted" data-testid="space-timeout">시간이 지나면 출발로 이동해요</p>
        </>
      )}
      {mine && !player?.spacePending && (
        <>
          {player && player.islandLeft > 0 && <p class="hint">🏝 무인도 · 남은 {player.islandLeft}차례</p>}
          <button class="btn roll" data-testid="roll" onClick={() => act({ type: 'ROLL' })}>
            굴리기
          </button>
          {player && player.islandLeft > 0 && player.heldCards.includes('L11') && (
            <button class="btn small" onClick={() => act({ type: 'USE_ESCAPE_CARD' })}>
              🚤 탈출권 쓰기
            </button>
          )}
          {player && player.islandLeft > 0 && islandFee > 0 && (
            <button class="btn small" onClick={() => act({ type: 'PAY_ISLAND_FEE' })}>
              💵 {islandFee}만 내고 탈출
            </button>
          )}
          {view.options.trade === true && view.tradesThisTurn < 2 && (
            <button class="btn small" data-testid="open-trade" onClick={onTrade}>
              🤝 교환 제안
            </button>
          )}
        </>
      )}
      {!me && <p class="hint">👀 관전 중</p>}
    </div>
  );
}

function PlayerCards({ view, me, names, popups, seats }: {
  view: MarbleView;
  me: string | null;
  names: (id: string) => string;
  popups: { id: number; player: string; amount: number }[];
  seats: SeatInfo[];
}) {
  return (
    <div class="player-cards">
      {view.order.map((id) => {
        const p = view.players[id];
        const style = seatStyle(id);
        const current = view.currentPlayer === id;
        return (
          <div
            key={id}
            class={`pcard${current ? ' current' : ''}${p.alive ? '' : ' out'}`}
            style={{ borderColor: style.color }}
            data-testid={`pcard-${id}`}
          >
            <div class="pname">
              {current ? '▶ ' : ''}
              <span style={{ color: style.color }}>{style.mark}</span> {names(id)}
              {id === me ? ' (나)' : ''}
            </div>
            <PresenceBadge seat={seats.find((x) => x.playerId === id)} testId={`presence-${id}`} />
            <div class="pcash" data-testid={`cash-${id}`}>{manwon(p.cash)}</div>
            <div class="pmeta">
              🏠 {landsOf(view, id).length}곳
              {p.islandLeft > 0 ? ' 🏝' : ''}
              {p.spacePending ? ' 🚀' : ''}
              {p.heldCards.includes('L11') ? ' 🚤' : ''}
              {p.heldCards.includes('L12') ? ' 🎟' : ''}
            </div>
            {!p.alive && <div class="pout">💥 파산</div>}
            {popups
              .filter((x) => x.player === id)
              .map((x) => (
                <span key={x.id} class={`popup ${x.amount > 0 ? 'gain' : 'loss'}`}>
                  {signedManwon(x.amount)}
                </span>
              ))}
          </div>
        );
      })}
    </div>
  );
}

export function MarbleTable({ state, act }: { state: SessionState; act: Act }) {
  const view = state.view as unknown as MarbleView;
  const me = state.you?.playerId ?? null;
  const names = useNames(state);
  const anim = useMarbleAnimation(view, state);
  const feed = useFeed(state, (e) => describeEvent(e, names));
  const [info, setInfo] = useState<number | null>(null);
  const [dest, setDest] = useState<number | null>(null);
  const [trading, setTrading] = useState(false);
  const [tips, setTipsState] = useState(tipsOn());
  const mine = me !== null && view.currentPlayer === me;
  const spaceChoosing = mine && view.phase === 'turnStart' && !!view.players[me!]?.spacePending;

  const mineDeadline = state.pending.find((p) => p.player === me)?.deadline;
  const timer = (
    <Countdown
      deadline={mineDeadline}
      offset={state.offset}
      totalSeconds={view.phase === 'tradeResponse' ? 20 : (view.options.turnSeconds as number | null)}
    />
  );

  // a destination picked on an earlier trip must not come back on the next one
  useEffect(() => setDest(null), [spaceChoosing]);

  const onTile = (pos: number) => {
    if (spaceChoosing && pos !== 30) setDest(pos);
    else setInfo(pos);
  };

  return (
    <main class="table marble" data-testid="marble-table">
      <header class="bar">
        <h1>세계 여행 땅따먹기</h1>
        <RulesButton game="marble" />
      </header>
      <Board
        view={view}
        names={names}
        positionOf={anim.positionOf}
        trail={anim.trail}
        grey={anim.grey}
        selectable={spaceChoosing}
        selected={dest}
        onTile={onTile}
      >
        <Center view={view} me={me} act={act} state={state} names={names} onTrade={() => setTrading(true)} />
      </Board>
      <PlayerCards view={view} me={me} names={names} popups={anim.popups} seats={state.room?.seats ?? []} />
      {tips ? (
        <aside class="tips" data-testid="tips">
          <span>💡 더블이면 한 번 더, 3번 연속이면 무인도예요. 칸을 누르면 정보를 볼 수 있어요.</span>
          <button class="btn small" data-testid="tips-off" onClick={() => { setTips(false); setTipsState(false); }}>
            도움말 끄기
          </button>
        </aside>
      ) : (
        <button class="btn small tips-on" data-testid="tips-on" onClick={() => { setTips(true); setTipsState(true); }}>
          💡 도움말 켜기
        </button>
      )}
      <ol class="feed" data-testid="feed">
        {feed.map((line, i) => (
          <li key={`${state.eventSerial}-${i}`}>{line}</li>
        ))}
      </ol>
      {info !== null && <TileInfoSheet view={view} pos={info} names={names} onClose={() => setInfo(null)} />}
      {spaceChoosing && dest !== null && <SpaceSheet view={view} me={me!} dest={dest} act={act} onClose={() => setDest(null)} />}
      {!anim.moving && mine && view.phase === 'decide' && view.choices && <DecisionSheet view={view} act={act} timer={timer} />}
      {!anim.moving && view.phase === 'debt' && view.debt?.player === me && me && <DebtSheet view={view} me={me} act={act} timer={timer} />}
      {view.phase === 'tradeResponse' && view.pendingTrade?.to === me && (
        <TradeAnswerSheet view={view} names={names} act={act} timer={timer} />
      )}
      {trading && me && <TradeProposeSheet view={view} me={me} names={names} act={act} onClose={() => setTrading(false)} />}
    </main>
  );
}
