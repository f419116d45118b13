// Marble's display words: lucky cards, tile kinds for the beginner help, event lines.
import type { GameEvent } from '../../net/api';
import { josa } from '../../text/josa';
import { BOARD, LEVEL_NAMES } from './board';

export const CARD_TITLES: Record<string, string> = {
  L01: '복권 당첨 (+20)', L02: '장학금 (+10)', L03: '주식 배당 (+15)', L04: '생일 축하 (모두에게 5씩 받기)',
  L05: '예금 이자 (+10)', L06: '과속 벌금 (기금에 5)', L07: '병원비 (−10)', L08: '이웃 돕기 성금 (기금에 10)',
  L09: '건물 수리비', L10: '폭풍 경보 (무인도로)', L11: '무인도 탈출권', L12: '통행료 면제권',
  L13: '출발지로', L14: '우주 초대장', L15: '서울 관광', L16: '뒤로 3칸', L17: '기부 천사',
  L18: '관광 안내', L19: '여행 경비 (모두에게 5씩)', L20: '재산세',
};

export const KIND_HELP: Record<string, string> = {
  start: '지나가거나 도착하면 월급을 받아요.',
  city: '주인이 없으면 살 수 있어요. 내 땅이면 건물을 한 단계 지어요. 남의 땅이면 통행료를 내요.',
  tour: '관광지는 건물을 못 지어요. 두 곳 이상 가지면 통행료가 2배예요.',
  card: '행운카드를 한 장 뽑아요.',
  island: '갇히면 더블이 나오거나 정해진 차례만큼 쉬어야 나와요.',
  fundReceive: '모인 사회복지기금을 모두 받아요.',
  space: '다음 차례에 원하는 칸으로 날아가요.',
  fundPay: '사회복지기금에 15만을 내요.',
};

export const PHASE_LABELS: Record<string, string> = {
  turnStart: '굴릴 차례',
  space: '우주여행: 갈 칸을 고르세요',
  island: '무인도: 굴리거나 탈출하세요',
  decide: '고르는 중',
  debt: '빚 갚는 중',
  tradeResponse: '교환 답 기다리는 중',
  finished: '게임 끝',
};

const place = (pos: unknown) => BOARD[Number(pos)]?.name ?? String(pos);
const who = (names: (id: string) => string, id: unknown) =>
  id === 'bank' ? '은행' : id === 'fund' ? '기금' : names(String(id));

/** One short Korean line per event for the table's feed; null for events not worth a line. */
export function describeEvent(e: GameEvent, names: (id: string) => string): string | null {
  const p = who(names, e.player);
  switch (e.type) {
    case 'rolled': {
      const dice = e.dice as number[];
      return `🎲 ${p}: ${dice[0]} + ${dice[1]}${e.double ? ' 더블!' : ''}`;
    }
    case 'moved':
      return e.by === 'dice' ? null : `➡️ ${p}: ${josa(place(e.to), '으로/로')} 이동`;
    case 'salary':
      return `💵 ${p}: 월급 +${e.amount}`;
    case 'bought':
      return `🏷 ${p}: ${place(e.pos)} 구입 (−${e.price})`;
    case 'built':
      return `🏗 ${p}: ${place(e.pos)}에 ${LEVEL_NAMES[Number(e.level)]} (−${e.cost})`;
    case 'tollPaid':
      return e.waived
        ? `🎟 ${who(names, e.from)}: 면제권으로 통행료 면제`
        : `💸 ${who(names, e.from)} → ${who(names, e.to)}: 통행료 ${e.amount}`;
    case 'takeover':
      return `🤝 ${p}: ${place(e.pos)} 인수 (−${e.price})`;
    case 'cardDrawn':
      return `🍀 ${p}: ${CARD_TITLES[String(e.cardId)] ?? e.cardId}`;
    case 'transfer':
      return `💱 ${who(names, e.from)} → ${who(names, e.to)}: ${e.amount}`;
    case 'fundPaid':
      return `🏦 ${p}: 기금에 ${e.amount}`;
    case 'fundReceived':
      return `🎉 ${p}: 기금 ${e.amount} 받음`;
    case 'toIsland':
      return `🏝 ${p}: 무인도로!`;
    case 'islandRoll':
      return e.escaped ? `🏝 ${p}: 더블로 탈출!` : `🏝 ${p}: 무인도에서 쉬어요`;
    case 'escaped':
      return `🚤 ${p}: 무인도 탈출`;
    case 'spaceTravel':
      return `🚀 ${p}: ${josa(place(e.dest), '으로/로')} 우주여행${Number(e.fee) > 0 ? ` (탑승료 ${e.fee})` : ''}`;
    case 'sold':
      return `🔨 ${p}: ${place(e.pos)} ${e.what === 'all' ? '땅' : '건물'} 매각 (+${e.amount})`;
    case 'debt':
      return `😰 ${p}: ${e.amount}만이 모자라요`;
    case 'bankrupt':
      return `💥 ${p}: 파산`;
    case 'tradeProposed':
      return `📨 ${who(names, e.from)} → ${who(names, e.to)}: 교환 제안`;
    case 'tradeResolved':
      return e.accepted ? '🤝 교환 성사!' : '🙅 교환 거절';
    case 'roundEnd':
      return `🔔 ${e.round}라운드 끝`;
    case 'monopoly':
      return `🏆 ${p}: 독점!`;
    case 'gameOver':
      return '🏁 게임 끝!';
    default:
      return null;
  }
}
