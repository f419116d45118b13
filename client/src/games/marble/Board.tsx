import type { ComponentChildren } from 'preact';
import { seatStyle } from '../../text/ko';
import { BOARD, LEVEL_ICONS, cellOf, sideOf, type Tile } from './board';
import { deedAt, type MarbleView } from './view';

const SHORT: Record<string, string> = {
  부에노스아이레스: '부에노스', 샌프란시스코: '샌프란', '기금 받는 곳': '기금받기', '기금 내는 곳': '기금내기',
};

const GROUP_COLORS: Record<string, string> = {
  A: '#f4a3a3', B: '#f7c873', C: '#f2e26b', D: '#a8dd8c', E: '#8fd1d9', F: '#92b4ef', G: '#c3a3e8', H: '#e8a3cf',
};

const KIND_ICONS: Record<string, string> = {
  start: '🏁', card: '🍀', island: '🏝', fundReceive: '💰', space: '🚀', fundPay: '🏦', tour: '📸',
};

interface Props {
  view: MarbleView;
  positionOf: (player: string) => number;
  trail: number | null;
  grey: number[];
  selectable: boolean;
  selected: number | null;
  onTile: (pos: number) => void;
  children: ComponentChildren;
}

function TileCell({ tile, view, tokens, lit, greyed, selectable, selected, onTile }: {
  tile: Tile;
  view: MarbleView;
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
  const label = `${tile.name}${deed ? `, 주인 있음` : ''}`;
  return (
    <button
      class={classes.join(' ')}
      style={{
        gridRow: row + 1,
        gridColumn: col + 1,
        borderColor: owner && !greyed ? owner.color : undefined,
      }}
      aria-label={label}
      data-pos={tile.pos}
      data-testid={`tile-${tile.pos}`}
      onClick={() => onTile(tile.pos)}
    >
      {tile.group && <span class="band" style={{ background: GROUP_COLORS[tile.group] }} />}
      <span class="tile-name">
        {KIND_ICONS[tile.kind] ?? ''}
        {tile.kind === 'card' ? '' : SHORT[tile.name] ?? tile.name}
      </span>
      {deed && (
        <span class="tile-owner" style={{ color: greyed ? '#999' : owner!.color }}>
          {owner!.mark}
          {LEVEL_ICONS[deed.level]}
        </span>
      )}
      {tokens.length > 0 && (
        <span class="tokens">
          {tokens.map((p) => (
            <span key={p} class="token" style={{ background: seatStyle(p).color }} data-testid={`token-${p}`}>
              {seatStyle(p).mark}
            </span>
          ))}
        </span>
      )}
    </button>
  );
}

/** The square board fitted to the width: 40 squares round the edge, the middle for dice. */
export function Board({ view, positionOf, trail, grey, selectable, selected, onTile, children }: Props) {
  const alive = view.order.filter((p) => view.players[p]?.alive);
  return (
    <div class="board" data-testid="board">
      {BOARD.map((tile) => (
        <TileCell
          key={tile.pos}
          tile={tile}
          view={view}
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
