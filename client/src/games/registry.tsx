// Every game the client can show, by the game id of the server's catalogue (GET /api/games).
// A third game is its own folder plus one line here; titles and player counts come from the
// catalogue, never from the client.
import type { FunctionComponent } from 'preact';
import type { RankRow } from '../net/api';
import type { ReplayFrame } from '../net/protocol.gen';
import type { SessionState } from '../net/session';
import { navigate } from '../router';
import { ReplayHands } from './dalmuti/ReplayHands';
import { DalmutiRules } from './dalmuti/Rules';
import { DalmutiTable } from './dalmuti/DalmutiTable';
import { DALMUTI_RANKING } from './dalmuti/words';
import { MarbleRules } from './marble/Rules';
import { MarbleTable } from './marble/MarbleTable';
import { MARBLE_RANKING } from './marble/words';

export type Act = (action: Record<string, unknown>) => void;

/** A table's props: the session, its view as this game's type, and how to send an action. */
export interface TableProps<V> {
  state: SessionState;
  view: V;
  act: Act;
}

/** What a replay shows beside the table: the frame's view and, for `viewer=all`, each seat's
 * own view (the keys that differ from the spectator's, e.g. the card game's hands). */
export interface ReplayExtraProps<V> {
  view: V;
  seatViews: Record<string, Partial<V>>;
  names: (id: string) => string;
}

type Names = (id: string) => string;

/** The two columns a game's ranking shows after place and name, and a note after the name. */
export interface RankingColumns<R> {
  heads: readonly [string, string];
  cells: (row: R) => readonly [string, string];
  note?: (row: R) => string | null;
}

export interface GameEntry {
  /** the table of a session whose view is this game's */
  Table: FunctionComponent<{ state: SessionState; act: Act }>;
  Rules: FunctionComponent;
  /** one line on the home screen, before the catalogue's player counts */
  blurb: string;
  /** whose eyes a finished match is replayed through (`all`: the card game shows every hand) */
  replayViewer: 'spectator' | 'all';
  ReplayExtra?: FunctionComponent<{ frame: ReplayFrame; names: Names }>;
  ranking: RankingColumns<RankRow>;
}

interface GameParts<V, R extends RankRow> {
  Table: FunctionComponent<TableProps<V>>;
  ranking: RankingColumns<R>;
  Rules: FunctionComponent;
  blurb: string;
  replayViewer: 'spectator' | 'all';
  ReplayExtra?: FunctionComponent<ReplayExtraProps<V>>;
}

function entry<V, R extends RankRow>({ Table, ReplayExtra, ranking, ...rest }: GameParts<V, R>): GameEntry {
  // The one place where the wire's untyped views become the game's generated type: in a room
  // of this game the server sends this game's view (jokeapp/games/<id>/wire.py).
  const TypedTable = ({ state, act }: { state: SessionState; act: Act }) => (
    <Table state={state} view={state.view as V} act={act} />
  );
  const TypedExtra = ReplayExtra && (({ frame, names }: { frame: ReplayFrame; names: Names }) => (
    <ReplayExtra view={frame.view as V} seatViews={(frame.seatViews ?? {}) as Record<string, Partial<V>>} names={names} />
  ));
  // ...and where a ranking row becomes the game's own (its result came from this game's engine)
  const typedRanking: RankingColumns<RankRow> = {
    heads: ranking.heads,
    cells: (row) => ranking.cells(row as R),
    note: ranking.note && ((row) => ranking.note!(row as R)),
  };
  return { ...rest, Table: TypedTable, ReplayExtra: TypedExtra, ranking: typedRanking };
}

const GAMES: Record<string, GameEntry> = {
  marble: entry({
    Table: MarbleTable,
    Rules: MarbleRules,
    blurb: '주사위를 굴려 세계 도시를 사고, 통행료를 받아요.',
    replayViewer: 'spectator',
    ranking: MARBLE_RANKING,
  }),
  dalmuti: entry({
    Table: DalmutiTable,
    Rules: DalmutiRules,
    blurb: '낮은 숫자가 강해요! 손패를 먼저 털면 신분이 올라가요.',
    replayViewer: 'all', // a finished game hides nothing: its seed and log are public
    ReplayExtra: ReplayHands,
    ranking: DALMUTI_RANKING,
  }),
};

/** The client's entry for a game id; null for a game this client does not know. */
export function gameEntry(id: string | null | undefined): GameEntry | null {
  return id && Object.prototype.hasOwnProperty.call(GAMES, id) ? GAMES[id] : null;
}

export const UNKNOWN_GAME = '이 게임은 이 화면에서 아직 열 수 없어요. 새로 고침해 보세요.';

/** Shown instead of a table for a game the client does not know (never another game's table). */
export function UnknownGame() {
  return (
    <main class="page">
      <p class="error-line" role="alert" data-testid="unknown-game">
        ⚠️ {UNKNOWN_GAME}
      </p>
      <button class="btn primary big" onClick={() => navigate('/')}>
        처음으로
      </button>
    </main>
  );
}
