// The own hand of dalmuti.md section 9: grouped by number, which groups can be played on the
// current trick (5.1), and the selection a tap, +/- and the "광대 섞기" toggle make.

import { josa } from '../../text/josa';

export const JESTER = 13;

export interface DCard {
  id: string;
  n: number;
}

export interface TopPlay {
  count: number;
  rank: number;
}

export interface HandGroup {
  n: number; // 1..12, or 13 for the jesters on their own
  cards: DCard[];
}

export type Playability = 'playable' | 'needsJester' | 'blocked';

export interface Selection {
  n: number; // the group tapped
  count: number; // cards in total, jesters included
  mixJesters: boolean;
}

/** Number groups in ascending order (best first); the jesters, if any, as a last group 13. */
export function groupHand(hand: DCard[]): HandGroup[] {
  const byNumber = new Map<number, DCard[]>();
  for (const card of hand) {
    const list = byNumber.get(card.n) ?? [];
    list.push(card);
    byNumber.set(card.n, list);
  }
  return [...byNumber.entries()]
    .sort(([a], [b]) => a - b)
    .map(([n, cards]) => ({ n, cards: [...cards].sort((x, y) => x.id.localeCompare(y.id)) }));
}

export function jesterCount(hand: DCard[]): number {
  return hand.filter((c) => c.n === JESTER).length;
}

/** How many cards a play must have now: the top's count when following, null when leading. */
export function neededCount(top: TopPlay | null): number | null {
  return top ? top.count : null;
}

/**
 * Whether the group can go on the trick: on its own, only with jesters mixed in, or not at all.
 * Jesters alone count 13, so they only lead (nothing is worse than 13 to follow).
 */
export function playability(group: HandGroup, jesters: number, top: TopPlay | null): Playability {
  if (group.n === JESTER) {
    if (!top) return 'playable';
    return 'blocked';
  }
  if (!top) return 'playable';
  if (group.n >= top.rank) return 'blocked';
  if (group.cards.length >= top.count) return 'playable';
  if (group.cards.length + jesters >= top.count) return 'needsJester';
  return 'blocked';
}

/** The most cards a selection on this group may hold. */
export function maxCount(group: HandGroup, jesters: number, mixJesters: boolean): number {
  if (group.n === JESTER) return group.cards.length;
  return group.cards.length + (mixJesters ? jesters : 0);
}

/** A tap on a group: following selects the needed count (mixing jesters if that is the only
 * way); leading selects the whole group. Returns null when the group cannot be played. */
export function tapGroup(group: HandGroup, jesters: number, top: TopPlay | null): Selection | null {
  const how = playability(group, jesters, top);
  if (how === 'blocked') return null;
  if (!top) return { n: group.n, count: group.cards.length, mixJesters: false };
  return { n: group.n, count: top.count, mixJesters: how === 'needsJester' };
}

/** The counts +/- may reach: following, only the needed count (anything else cannot be
 * played); leading, 1..max. */
export function countRange(group: HandGroup, jesters: number, mixJesters: boolean, top: TopPlay | null): [number, number] {
  const max = maxCount(group, jesters, mixJesters);
  if (top) return [top.count, top.count];
  return [mixJesters && group.n !== JESTER ? Math.min(2, max) : 1, max];
}

/** +1 / −1 on the count, kept within the playable range (see countRange). */
export function stepCount(sel: Selection, group: HandGroup, jesters: number, delta: number, top: TopPlay | null = null): Selection {
  const [low, high] = countRange(group, jesters, sel.mixJesters, top);
  return { ...sel, count: Math.min(high, Math.max(low, sel.count + delta)) };
}

/** Turning "광대 섞기" on or off. Leading, switching on adds one jester and switching off
 * trims the count to the number cards; following, the count stays the needed one. */
export function toggleJesters(sel: Selection, group: HandGroup, jesters: number, top: TopPlay | null = null): Selection {
  const mixJesters = !sel.mixJesters && jesters > 0 && group.n !== JESTER;
  if (top) return { ...sel, mixJesters };
  const grown = mixJesters && sel.count >= group.cards.length ? sel.count + 1 : sel.count;
  const count = Math.min(grown, maxCount(group, jesters, mixJesters));
  return { ...sel, mixJesters, count };
}

/** The card ids of a selection: number cards first, then as many jesters as needed. With
 * "광대 섞기" on, at least one jester goes in (that is what the toggle says). */
export function selectedCardIds(sel: Selection, hand: DCard[]): string[] {
  const groups = groupHand(hand);
  const group = groups.find((g) => g.n === sel.n);
  if (!group) return [];
  const jesters = hand.filter((c) => c.n === JESTER).map((c) => c.id).sort();
  const wantJesters = sel.n !== JESTER && sel.mixJesters && jesters.length > 0;
  const numberCount = wantJesters ? Math.max(1, Math.min(group.cards.length, sel.count - 1)) : sel.count;
  const numbers = group.cards.slice(0, Math.min(numberCount, sel.count)).map((c) => c.id);
  if (!wantJesters || numbers.length >= sel.count) return numbers;
  return [...numbers, ...jesters.slice(0, sel.count - numbers.length)];
}

const NATIVE = ['', '한', '두', '세', '네', '다섯', '여섯', '일곱', '여덟', '아홉', '열', '열한', '열두', '열세', '열네'];

/** "두 장" (native Korean numbers, as people count cards). */
export function countWord(count: number): string {
  return `${NATIVE[count] ?? String(count)} 장`;
}

/** Exactly what a selection will put down: "12 두 장 · 광대 1장 포함", "광대 한 장". */
export function describeSelection(sel: Selection, hand: DCard[]): string {
  const ids = selectedCardIds(sel, hand);
  const jesters = ids.filter((id) => Number.parseInt(id.slice(0, 2), 10) === JESTER).length;
  if (sel.n === JESTER) return `광대 ${countWord(ids.length)}`;
  return `${sel.n} ${countWord(ids.length)}${jesters ? ` · 광대 ${jesters}장 포함` : ''}`;
}

/** Why a group cannot go on the trick now (null when it can). */
export function blockedReason(group: HandGroup, jesters: number, top: TopPlay | null): string | null {
  if (playability(group, jesters, top) !== 'blocked' || !top) return null;
  if (group.n === JESTER) return '광대만 내면 13이라 따라 낼 수 없어요';
  if (group.n >= top.rank) return '더 낮은 숫자만 낼 수 있어요';
  if (jesters > 0) return `앞사람과 같은 ${countWord(top.count)}이 필요해요 · 광대를 섞어도 모자라요`;
  return `앞사람과 같은 ${countWord(top.count)}이 필요해요 · ${josa(String(group.n), '은/는')} ${group.cards.length}장뿐이에요`;
}

/** Why the selection cannot be played as it is (null when it can; the server checks again). */
export function selectionProblem(sel: Selection, hand: DCard[], top: TopPlay | null): string | null {
  const ids = selectedCardIds(sel, hand);
  if (ids.length === 0) return '낼 카드를 골라 주세요';
  if (ids.length !== sel.count) return '카드가 모자라요';
  if (!top) return null;
  if (ids.length !== top.count) return `앞사람과 같은 장수(${top.count}장)로 내야 해요`;
  if (sel.n >= top.rank) return '더 낮은 숫자만 낼 수 있어요';
  return null;
}

/** Whether the selection is a legal play on the trick (the server checks it again). */
export function selectionLegal(sel: Selection, hand: DCard[], top: TopPlay | null): boolean {
  return selectionProblem(sel, hand, top) === null;
}

/** The worst cards to give back in the tax return: highest numbers first, jesters last. */
export function suggestReturn(hand: DCard[], count: number): string[] {
  const numbers = hand
    .filter((c) => c.n !== JESTER)
    .sort((a, b) => b.n - a.n || a.id.localeCompare(b.id));
  const jesters = hand.filter((c) => c.n === JESTER);
  return [...numbers, ...jesters].slice(0, count).map((c) => c.id);
}
