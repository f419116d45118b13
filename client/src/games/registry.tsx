// Every game the client can show, by the game id of the server's catalogue (GET /api/games).
// A third game is its own folder plus one line here; titles and player counts come from the
// catalogue, never from the client.
import type { FunctionComponent } from 'preact';
import type { SessionState } from '../net/session';
import { navigate } from '../router';
import { DalmutiRules } from './dalmuti/Rules';
import { DalmutiTable } from './dalmuti/DalmutiTable';
import { MarbleRules } from './marble/Rules';
import { MarbleTable } from './marble/MarbleTable';

export type Act = (action: Record<string, unknown>) => void;

/** A table's props: the session, its view as this game's type, and how to send an action. */
export interface TableProps<V> {
  state: SessionState;
  view: V;
  act: Act;
}

export interface GameEntry {
  /** the table of a session whose view is this game's */
  Table: FunctionComponent<{ state: SessionState; act: Act }>;
  Rules: FunctionComponent;
  /** one line on the home screen, before the catalogue's player counts */
  blurb: string;
}

function entry<V>(Table: FunctionComponent<TableProps<V>>, rest: Omit<GameEntry, 'Table'>): GameEntry {
  // The one place where the wire's untyped view becomes the game's generated type: in a room of
  // this game the server sends this game's view (jokeapp/games/<id>/wire.py).
  const Typed = ({ state, act }: { state: SessionState; act: Act }) => <Table state={state} view={state.view as V} act={act} />;
  return { ...rest, Table: Typed };
}

const GAMES: Record<string, GameEntry> = {
  marble: entry(MarbleTable, {
    Rules: MarbleRules,
    blurb: '주사위를 굴려 세계 도시를 사고, 통행료를 받아요.',
  }),
  dalmuti: entry(DalmutiTable, {
    Rules: DalmutiRules,
    blurb: '낮은 숫자가 강해요! 손패를 먼저 털면 신분이 올라가요.',
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
