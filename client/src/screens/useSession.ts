import { useEffect, useState } from 'preact/hooks';
import type { Seat } from '../logic/storage';
import { browserDeps, initialState, RoomSession, socketUrl, type SessionState } from '../net/session';

/** One live session per seat; closed when the screen goes away. */
export function useSession(seat: Seat | null): [SessionState, RoomSession | null] {
  const [session, setSession] = useState<RoomSession | null>(null);
  const [state, setState] = useState<SessionState>(initialState());
  useEffect(() => {
    if (!seat) return undefined;
    const s = new RoomSession(socketUrl(seat.roomId), seat.token, browserDeps());
    setSession(s);
    const off = s.subscribe(setState);
    s.connect();
    return () => {
      off();
      s.close();
    };
  }, [seat?.token]);
  return [state, session];
}
