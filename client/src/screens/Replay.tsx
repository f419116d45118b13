export function Replay({ roomId }: { roomId: string; match?: number }) {
  return <main class="page">{roomId}</main>;
}
