// Paths the server serves index.html for: /, /r/{code}, /replay/{roomId}[?match=N].
import { useEffect, useState } from 'preact/hooks';

export type Route =
  | { page: 'home' }
  | { page: 'room'; code: string }
  | { page: 'replay'; roomId: string; match?: number };

export function parseRoute(path: string, search = ''): Route {
  const room = /^\/r\/([A-Za-z0-9]+)\/?$/.exec(path);
  if (room) return { page: 'room', code: room[1].toUpperCase() };
  const replay = /^\/replay\/([A-Za-z0-9_-]+)\/?$/.exec(path);
  if (replay) {
    const match = Number(new URLSearchParams(search).get('match'));
    return { page: 'replay', roomId: replay[1], match: match > 0 ? match : undefined };
  }
  return { page: 'home' };
}

export function navigate(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname, location.search));
  useEffect(() => {
    const onPop = () => setRoute(parseRoute(location.pathname, location.search));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return route;
}
