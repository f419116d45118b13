import type { ComponentChildren } from 'preact';
import { seatStyle } from '../../text/ko';
import { BOARD, LEVEL_ICONS, LEVEL_NAMES, cellOf, sideOf, type Tile } from './board';
import { deedAt, type MarbleView } from './view';

/** How each square's name is written on the board: at most two short lines, so a 30 px
 * square at 360 px still shows the whole word (long names get their usual short form). */
export const NAME_LINES: Record<string, string[]> = {
  타이베이: ['타이', '베이'], 싱가포르: ['싱가', '포르'], 이스탄불: ['이스', '탄불'], 코펜하겐: ['코펜', '하겐'],
  스톡홀름: ['스톡', '홀름'], 부에노스아이레스: ['부에', '노스'], 상파울루: ['상파', '울루'], 우주센터: ['우주', '센터'],
  마드리드: ['마드', '리드'], 샌프란시스코: ['샌프란', '시스코'], '기금 내는 곳': ['기금', '내기'],
  '기금 받는 곳': ['기금', '받기'], 우주여행: ['우주', '여행'], 행운카드: [],
};

export function nameLines(name: string): string[] {
  return NAME_LINES[name] ?? [name];
}

/** Each city group has a letter as well as a colour (information never by colour alone). */
export const GROUP_COLORS: Record<string, string> = {
  A: '#f4a3a3', B: '#f7c873', C: '#f2e26b', D: '#a8dd8c', E: '#8fd1d9', F: '#92b4ef', G: '#c3a3e8', H: '#e8a3cf',
};

const KIND_ICONS: Record<string, string> = {
  start: '🏁', card: '🍀', island: '🏝', fundReceive: '💰', space: '🚀', fundPay: '🏦', tour: '📸',
};

interface Props {
  view: MarbleView;
  names: (id: string) => string;
  positionOf: (player: string) => number;
  trail: number | null;
  grey: number[];
  selectable: boolean;
  selected: number | null;
  onTile: (pos: number) => void;
  children: ComponentChildren;
}

/** The square's accessible name: its name first, then group, owner and building. */
export function tileLabel(tile: Tile, owner: string | null, level: number, greyed: boolean, tokens: string[]): string {
  const parts = [tile.name];
  if (tile.group) parts.push(`${tile.group}그룹`);
  if (tile.kind === 'tour') parts.push('관광지');
  if (owner) parts.push(`주인 ${owner}`, LEVEL_NAMES[level]);
  if (greyed) parts.push('파산해서 은행으로 돌아감');
  if (tokens.length) parts.push(`${tokens.join(', ')} 있음`);
  return parts.join(', ');
}

function TileCell({ tile, view, names, tokens, lit, greyed, selectable, selected, onTile }: {
  tile: Tile;
  view: MarbleView;
  names: (id: string) => string;
  tokens: string[];
  lit: boolean;
  greyed: boolean;
  selectable: boolean;
  selected: boolean;
  onTile: (pos: number) => void;
}) {
  const { row, col } = cellOf(tile.pos);
  const deed = deedAt(view, tile.pos);
  const owner = deed ? seatStyle(deed.owner) : null;
  const classes = ['tile', `side-${sideOf(tile.pos)}`, `kind-${tile.kind}`];
  if (lit) classes.push('lit');
  if (greyed) classes.push('greyed');
  if (selectable) classes.push('selectable');
  if (selected) classes.push('selected');
  if (deed) classes.push('owned');
  const icon = tile.kind === 'city' || tile.kind === 'tour' ? '' : KIND_ICONS[tile.kind] ?? '';
  // corners and special squares carry their icon at the start of the first line
  const words = nameLines(tile.name);
  const lines = icon && words.length ? [icon + words[0], ...words.slice(1)] : words;
  if (lines.length <= 1) classes.push('one-line');
  const chars = Math.max(2, ...lines.map((l) => [...l].length));
  const style: Record<string, string | number> = { gridRow: row + 1, gridColumn: col + 1, '--chars': chars, '--lines': Math.max(1, lines.length) };
  if (owner) style['--owner'] = owner.color;
  return (
    <button
      class={classes.join(' ')}
      style={style}
      aria-label={tileLabel(tile, deed ? names(deed.owner) : null, deed?.level ?? 0, greyed, tokens.map((p) => `${names(p)}의 말`))}
      aria-pressed={selectable ? selected : undefined}
      data-pos={tile.pos}
      data-testid={`tile-${tile.pos}`}
      onClick={() => onTile(tile.pos)}
    >
      {tile.group ? (
        <span class="band" style={{ background: GROUP_COLORS[tile.group] }} aria-hidden="true">
          {tile.group}
        </span>
      ) : tile.kind === 'tour' ? (
        <span class="band tour" aria-hidden="true">관광</span>
      ) : null}
      <span class="tile-body">
        <span class={`tile-name${tile.kind === 'card' ? ' icon-only' : ''}`} aria-hidden="true">
          {tile.kind === 'card' && icon}
          {lines.map((l) => (
            <span key={l} class="tile-line">{l}</span>
          ))}
        </span>
      </span>
      <span class="tile-foot">
        {deed && owner && (
          <span class="tile-owner" aria-hidden="true" data-testid={`owner-${tile.pos}`}>
            {owner.mark}
            {deed.level > 0 ? LEVEL_ICONS[deed.level] : ''}
          </span>
        )}
        {greyed && !deed && <span class="tile-owner lost" aria-hidden="true">💥</span>}
        {selectable && <span class="pick-mark" aria-hidden="true">🎯</span>}
        {tokens.map((p) => (
          <span
            key={p}
            class="token"
            role="img"
            style={{ background: seatStyle(p).color }}
            aria-label={`${names(p)}의 말`}
            data-testid={`token-${p}`}
          >
            {seatStyle(p).mark}
          </span>
        ))}
      </span>
    </button>
  );
}

/** The square board fitted to the width: 40 squares round the edge, the middle for dice. */
export function Board({ view, names, positionOf, trail, grey, selectable, selected, onTile, children }: Props) {
  const alive = view.order.filter((p) => view.players[p]?.alive);
  return (
    <div class={`board${selectable ? ' choosing' : ''}`} data-testid="board">
      {BOARD.map((tile) => (
        <TileCell
          key={tile.pos}
          tile={tile}
          view={view}
          names={names}
          tokens={alive.filter((p) => positionOf(p) === tile.pos)}
          lit={trail === tile.pos}
          greyed={grey.includes(tile.pos)}
          selectable={selectable && tile.pos !== 30}
          selected={selected === tile.pos}
          onTile={onTile}
        />
      ))}
      <div class="board-center">{children}</div>
    </div>
  );
}
