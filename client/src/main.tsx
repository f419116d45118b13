import { render } from 'preact';
import { Home } from './screens/Home';
import { Replay } from './screens/Replay';
import { RoomScreen } from './screens/RoomScreen';
import { useRoute } from './router';
import './styles.css';

function App() {
  const route = useRoute();
  if (route.page === 'room') return <RoomScreen key={route.code} code={route.code} />;
  if (route.page === 'replay') return <Replay key={route.roomId} roomId={route.roomId} match={route.match} />;
  return <Home />;
}

render(<App />, document.getElementById('app')!);
