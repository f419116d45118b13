// One short Korean line per card-game event for the table's feed.
import type { GameEvent } from '../../net/api';
import { JESTER } from './hand';
import { cardLabel } from './words';

export function describeDalmutiEvent(e: GameEvent, names: (id: string) => string): string | null {
  const p = names(String(e.player));
  switch (e.type) {
    case 'played':
      return `🃏 ${p}: ${Number(e.rank) === JESTER ? '광대' : cardLabel(Number(e.rank))} × ${e.count}장`;
    case 'passed':
      return `🙅 ${p}: 패스`;
    case 'trickWon':
      return `🧹 ${p}님이 가져갔어요. ${names(String(e.next))}님이 새로 시작해요`;
    case 'handEmptied':
      return `🎉 ${p}: ${e.place}등으로 다 냈어요!`;
    case 'revolution':
      return e.kind === 'great' ? `✊ ${p}: 대혁명! 신분이 뒤집혀요` : `✊ ${p}: 혁명! 이번 라운드는 세금이 없어요`;
    case 'taxPaid':
      return `💰 ${names(String(e.from))} → ${names(String(e.to))}: 세금 ${e.count}장`;
    case 'taxReturned':
      return `↩️ ${names(String(e.from))} → ${names(String(e.to))}: ${e.count}장 돌려줌`;
    case 'dealt':
      return '🂠 카드를 나눠 줬어요';
    case 'roundOver':
      return `🔔 ${e.round}라운드 끝`;
    case 'gameOver':
      return '🏁 게임 끝!';
    default:
      return null;
  }
}
