import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { manwon, seatStyle } from '../../text/ko';
import { Sheet } from '../../ui/Sheet';
import { BOARD, LEVEL_ICONS, LEVEL_NAMES, buildCosts, cityTolls, isLand, tollAt } from './board';
import { josa } from '../../text/josa';
import { KIND_HELP } from './words';
import { currentToll, deedAt, landsOf, spacePreview, type Choice, type MarbleView } from './view';

type Act = (action: Record<string, unknown>) => void;
type Names = (id: string) => string;

const LOW_CASH = 50;

export function TileInfoSheet({ view, pos, names, onClose }: { view: MarbleView; pos: number; names: Names; onClose: () => void }) {
  const tile = BOARD[pos];
  const deed = deedAt(view, pos);
  const landmark = !!view.options.landmark;
  return (
    <Sheet title={tile.name} onClose={onClose} testId="tile-info">
      <p class="muted">{KIND_HELP[tile.kind]}</p>
      {isLand(pos) && (
        <>
          <p>
            주인:{' '}
            {deed ? (
              <strong style={{ color: seatStyle(deed.owner).color }}>
                {seatStyle(deed.owner).mark} {names(deed.owner)} · {LEVEL_NAMES[deed.level]} {LEVEL_ICONS[deed.level]}
              </strong>
            ) : (
              '없음'
            )}
          </p>
          <p>땅값 {manwon(tile.price ?? 0)}{deed ? ` · 지금 통행료 ${manwon(currentToll(view, pos))}` : ''}</p>
          {tile.kind === 'city' ? (
            <table class="toll-table">
              <thead>
                <tr>
                  <th>단계</th>
                  <th>건설비</th>
                  <th>통행료</th>
                </tr>
              </thead>
              <tbody>
                {cityTolls(tile.price!).slice(0, landmark ? 5 : 4).map((toll, level) => (
                  <tr key={level} class={deed?.level === level ? 'here' : ''}>
                    <td>
                      {deed?.level === level ? '▶ ' : ''}
                      {LEVEL_NAMES[level]} {LEVEL_ICONS[level]}
                    </td>
                    <td>{level === 0 ? tile.price : buildCosts(tile.price!)[level - 1]}</td>
                    <td>{toll}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p>통행료 {tollAt(pos, 0, 1)}만 (관광지 2곳 이상이면 2배)</p>
          )}
        </>
      )}
    </Sheet>
  );
}

/** "상파울루를 22만에 살까요?": the particle follows the name (src/text/josa.ts). */
export function question(choice: Choice, pos: number): string {
  const name = BOARD[pos].name;
  if (choice.type === 'BUY') return `${josa(name, '을/를')} ${choice.cost}만에 살까요?`;
  if (choice.type === 'BUILD') return `${name}에 ${josa(LEVEL_NAMES[choice.level ?? 1], '을/를')} ${choice.cost}만에 지을까요?`;
  return `${josa(name, '을/를')} ${choice.cost}만에 인수할까요?`;
}

const YES: Record<string, string> = { BUY: '사기', BUILD: '짓기', TAKEOVER: '인수하기' };
const NO: Record<string, string> = { BUY: '안 사기', BUILD: '안 짓기', TAKEOVER: '안 하기' };
const IF_DONE: Record<string, string> = { BUY: '사면', BUILD: '지으면', TAKEOVER: '인수하면' };

/** The line under a choice: the cash it leaves (orange under 50), or how much is missing. */
export function previewText(choice: Choice): { text: string; low: boolean; short: number } {
  if (!choice.affordable) {
    const short = -choice.cashAfter;
    return { text: `돈이 부족해요 · ${manwon(short)} 부족해요`, low: true, short };
  }
  const low = choice.cashAfter < LOW_CASH;
  return { text: `${IF_DONE[choice.type] ?? '하면'} 남는 돈 ${manwon(choice.cashAfter)}${low ? ' (50만 미만이에요)' : ''}`, low, short: 0 };
}

export function DecisionSheet({ view, act, timer }: { view: MarbleView; act: Act; timer?: ComponentChildren }) {
  const choices = view.choices ?? [];
  const main = choices.find((c) => c.type !== 'PASS');
  const others = choices.filter((c) => c.type !== 'PASS' && c !== main);
  const pos = view.decision?.pos ?? 0;
  if (!main) {
    return (
      <Sheet title="결정" testId="decision" timer={timer} pos={pos}>
        <button class="btn big wide" data-testid="decision-pass" onClick={() => act({ type: 'PASS' })}>
          넘어가기
        </button>
      </Sheet>
    );
  }
  const preview = previewText(main);
  const payload = (c: Choice) => (c.type === 'BUILD' ? { type: 'BUILD', level: c.level } : { type: c.type });
  return (
    <Sheet title={question(main, pos)} testId="decision" timer={timer} pos={pos}>
      <p class={`cash-after${preview.low ? ' low' : ''}`} data-testid="cash-after">
        {preview.low ? '⚠️ ' : ''}
        {preview.text}
      </p>
      <div class="row">
        <button
          class="btn primary big"
          data-testid="decision-yes"
          disabled={!main.affordable}
          aria-disabled={!main.affordable}
          onClick={() => main.affordable && act(payload(main))}
        >
          {YES[main.type]}
          {!main.affordable && <small class="short"> ({manwon(preview.short)} 부족)</small>}
        </button>
        <button class="btn big" data-testid="decision-pass" onClick={() => act({ type: 'PASS' })}>
          {NO[main.type]}
        </button>
      </div>
      {others.map((c) => {
        const p = previewText(c);
        return (
          <button
            key={c.type}
            class={`btn wide${p.low ? ' low' : ''}`}
            data-testid={`decision-${c.type.toLowerCase()}`}
            disabled={!c.affordable}
            aria-disabled={!c.affordable}
            onClick={() => c.affordable && act(payload(c))}
          >
            {question(c, pos)} · {p.text}
          </button>
        );
      })}
    </Sheet>
  );
}

export function DebtSheet({ view, me, act, timer }: { view: MarbleView; me: string; act: Act; timer?: ComponentChildren }) {
  const debt = view.debt!;
  const cash = view.players[me]?.cash ?? 0;
  const short = view.shortfall ?? debt.amount - cash;
  const part = Math.min(1, Math.max(0, cash / Math.max(1, debt.amount)));
  return (
    <Sheet title={`${short}만이 모자라요`} testId="debt" timer={timer}>
      <div class="progress" role="progressbar" aria-valuenow={cash} aria-valuemax={debt.amount}>
        <span style={{ width: `${part * 100}%` }} />
        <em>
          {manwon(cash)} / {manwon(debt.amount)}
        </em>
      </div>
      <p class="muted">팔 것을 고르세요. 다 모이면 자동으로 내요.</p>
      <ul class="sale-list">
        {(view.saleCandidates ?? []).map((c) => {
          const deed = deedAt(view, c.pos);
          const what = c.what === 'top' ? `${LEVEL_NAMES[deed?.level ?? 1]} 팔기` : '땅째 팔기';
          return (
            <li key={`${c.pos}-${c.what}`}>
              <button class="btn wide" data-testid={`sell-${c.pos}-${c.what}`} onClick={() => act({ type: 'SELL', pos: c.pos, what: c.what })}>
                {BOARD[c.pos].name} · {what} <strong>+{c.amount}</strong>
              </button>
            </li>
          );
        })}
      </ul>
    </Sheet>
  );
}

export function SpaceSheet({ view, me, dest, act, onClose }: { view: MarbleView; me: string; dest: number; act: Act; onClose: () => void }) {
  const lines = spacePreview(view, me, dest);
  return (
    <Sheet title={`🚀 ${josa(BOARD[dest].name, '으로/로')} 갈까요?`} onClose={onClose} testId="space-preview">
      <p class="muted">여기로 가면:</p>
      <ul>
        {lines.length ? lines.map((l) => <li key={l}>{l}</li>) : <li>특별한 일은 없어요</li>}
      </ul>
      <button class="btn primary big wide" data-testid="space-go" onClick={() => act({ type: 'SPACE_TRAVEL', dest })}>
        출발!
      </button>
    </Sheet>
  );
}

export function TradeAnswerSheet({ view, names, act, timer }: { view: MarbleView; names: Names; act: Act; timer?: ComponentChildren }) {
  const t = view.pendingTrade!;
  const list = (lands: number[], cash: number) =>
    [...lands.map((p) => BOARD[p].name), cash ? manwon(cash) : ''].filter(Boolean).join(', ') || '없음';
  return (
    <Sheet title={`${names(t.from)}님의 교환 제안`} testId="trade-answer" timer={timer}>
      <p>받는 것: {list(t.give.lands, t.give.cash)}</p>
      <p>주는 것: {list(t.take.lands, t.take.cash)}</p>
      <div class="row">
        <button class="btn primary big" onClick={() => act({ type: 'TRADE_RESPOND', accept: true })}>
          좋아요
        </button>
        <button class="btn big" onClick={() => act({ type: 'TRADE_RESPOND', accept: false })}>
          싫어요
        </button>
      </div>
    </Sheet>
  );
}

export function TradeProposeSheet({ view, me, names, act, onClose }: { view: MarbleView; me: string; names: Names; act: Act; onClose: () => void }) {
  const partners = view.order.filter((p) => p !== me && view.players[p]?.alive);
  const [to, setTo] = useState(partners[0] ?? '');
  const [give, setGive] = useState<number[]>([]);
  const [take, setTake] = useState<number[]>([]);
  const [giveCash, setGiveCash] = useState(0);
  const [takeCash, setTakeCash] = useState(0);
  const toggle = (list: number[], pos: number) => (list.includes(pos) ? list.filter((p) => p !== pos) : [...list, pos]);
  const empty = !give.length && !take.length && !giveCash && !takeCash;
  return (
    <Sheet title="교환 제안" onClose={onClose} testId="trade-propose">
      <label class="field">
        <span>누구에게</span>
        <select value={to} onChange={(e) => { setTo((e.target as HTMLSelectElement).value); setTake([]); }}>
          {partners.map((p) => (
            <option key={p} value={p}>
              {names(p)}
            </option>
          ))}
        </select>
      </label>
      <p>내가 줄 땅</p>
      <div class="chips">
        {landsOf(view, me).length === 0 && <span class="muted">가진 땅이 없어요</span>}
        {landsOf(view, me).map((p) => (
          <button key={p} class={`chip${give.includes(p) ? ' on' : ''}`} aria-pressed={give.includes(p)} onClick={() => setGive(toggle(give, p))}>
            {give.includes(p) ? '✔ ' : ''}
            {BOARD[p].name}
          </button>
        ))}
      </div>
      <p>받고 싶은 땅</p>
      <div class="chips">
        {landsOf(view, to).length === 0 && <span class="muted">상대가 가진 땅이 없어요</span>}
        {landsOf(view, to).map((p) => (
          <button key={p} class={`chip${take.includes(p) ? ' on' : ''}`} aria-pressed={take.includes(p)} onClick={() => setTake(toggle(take, p))}>
            {take.includes(p) ? '✔ ' : ''}
            {BOARD[p].name}
          </button>
        ))}
      </div>
      <label class="field">
        <span>내가 줄 돈(만)</span>
        <input data-testid="trade-give-cash" type="number" min={0} max={view.players[me]?.cash ?? 0} value={giveCash} onInput={(e) => setGiveCash(Number((e.target as HTMLInputElement).value) || 0)} />
      </label>
      <label class="field">
        <span>받고 싶은 돈(만)</span>
        <input type="number" min={0} value={takeCash} onInput={(e) => setTakeCash(Number((e.target as HTMLInputElement).value) || 0)} />
      </label>
      <button
        class="btn primary big wide"
        data-testid="trade-send"
        disabled={empty || !to}
        onClick={() => {
          act({ type: 'PROPOSE_TRADE', to, give: { lands: give, cash: giveCash }, take: { lands: take, cash: takeCash } });
          onClose();
        }}
      >
        제안하기
      </button>
    </Sheet>
  );
}
