// Reading the marble view the server sends. Its type is generated from the engine's wire
// types (src/net/games.gen.ts from jokeapp/games/marble/wire.py: the spec's State shape without
// deck and rng, plus deckCount, currentPlayer, viewer, choices, saleCandidates …).
import type { MarbleDeed, MarbleView } from '../../net/games.gen';
import { BOARD, FUND_PAYMENT, SPACE_FEE, SPACEPORT_POS, isLand, isTour, passesStart, tollAt } from './board';

export type {
  MarbleChoice as Choice,
  MarbleDeed as Deed,
  MarblePlayer,
  MarbleSaleCandidate as SaleCandidate,
  MarbleTrade as TradeOffer,
  MarbleView,
} from '../../net/games.gen';

export function deedAt(view: MarbleView, pos: number): MarbleDeed | undefined {
  return view.owners[String(pos)] ?? undefined;
}

export function landsOf(view: MarbleView, player: string): number[] {
  return Object.entries(view.owners)
    .filter(([, d]) => d?.owner === player)
    .map(([pos]) => Number(pos))
    .sort((a, b) => a - b);
}

export function tourCount(view: MarbleView, player: string): number {
  return landsOf(view, player).filter(isTour).length;
}

/** The toll a visitor would pay on `pos` now (0 if unowned). */
export function currentToll(view: MarbleView, pos: number): number {
  const deed = deedAt(view, pos);
  if (!deed) return 0;
  return tollAt(pos, deed.level, tourCount(view, deed.owner));
}

/** What happens if `player` flies from 30 to `dest` (spec 5.5), in short Korean lines. */
export function spacePreview(view: MarbleView, player: string, dest: number): string[] {
  const lines: string[] = [];
  const port = deedAt(view, SPACEPORT_POS);
  if (port && port.owner !== player) lines.push(`탑승료 ${SPACE_FEE}만을 내요`);
  const salary = Number(view.options.salary ?? 20);
  if (passesStart(30, dest)) lines.push(`출발을 지나서 월급 ${salary}만을 받아요`);
  const tile = BOARD[dest];
  const deed = deedAt(view, dest);
  if (isLand(dest)) {
    if (!deed) lines.push(`${tile.name}: 주인이 없어요. ${tile.price}만에 살 수 있어요`);
    else if (deed.owner === player) lines.push(`${tile.name}: 내 땅이에요. 건물을 지을 수 있어요`);
    else lines.push(`${tile.name}: 통행료 ${currentToll(view, dest)}만을 내요`);
  } else if (tile.kind === 'card') lines.push('행운카드를 뽑아요');
  else if (tile.kind === 'fundReceive') lines.push(`기금 ${view.fund}만을 받아요`);
  else if (tile.kind === 'fundPay') lines.push(`기금에 ${FUND_PAYMENT}만을 내요`);
  else if (tile.kind === 'island') lines.push('무인도에 갇혀요');
  return lines;
}

/** Total assets as the ranking counts them (6): cash + land prices + building costs. */
export function totalAssets(view: MarbleView, player: string, investedAt: (pos: number, level: number) => number): number {
  return landsOf(view, player).reduce(
    (sum, pos) => sum + investedAt(pos, deedAt(view, pos)!.level),
    view.players[player]?.cash ?? 0,
  );
}
