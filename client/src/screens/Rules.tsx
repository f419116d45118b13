import { useState } from 'preact/hooks';
import { TitlePictures } from '../games/dalmuti/TitlePictures';
import { CARD_NAMES } from '../games/dalmuti/words';
import { Sheet } from '../ui/Sheet';

/** The pictures at the top of the rules: the board's special squares and the building
 * steps of spec 9 (별장 → 빌딩 → 호텔 → 랜드마크), drawn with emoji. */
const MARBLE_PICTURES: [string, string][] = [
  ['🏁', '출발'], ['🏝', '무인도'], ['🚀', '우주여행'], ['💰', '기금'], ['🍀', '행운카드'],
];
const BUILDING_PICTURES: [string, string][] = [['🏠', '별장'], ['🏢', '빌딩'], ['🏨', '호텔'], ['🗼', '랜드마크']];

function Pictures({ items, testId }: { items: [string, string][]; testId: string }) {
  return (
    <div class="rules-pictures" data-testid={testId}>
      {items.map(([icon, caption]) => (
        <figure key={caption}>
          <span aria-hidden="true">{icon}</span>
          <figcaption>{caption}</figcaption>
        </figure>
      ))}
    </div>
  );
}

function MarbleRules() {
  return (
    <div class="rules">
      <Pictures items={MARBLE_PICTURES} testId="rules-pictures" />
      <p>주사위 2개를 굴려 판을 돌며 도시를 사고 건물을 지어요. 남이 내 땅에 오면 통행료를 받아요.</p>
      <ul>
        <li>🏁 출발을 지나거나 도착하면 월급을 받아요.</li>
        <li>🎲 더블이면 한 번 더! 3번 연속 더블이면 무인도로 가요.</li>
        <li>🏝 무인도에서는 더블이 나오거나 정해진 차례만큼 쉬면 나와요.</li>
        <li>🏠 내 도시에 다시 오면 별장 → 빌딩 → 호텔 순서로 한 단계씩 지을 수 있어요.</li>
        <li>🚀 우주여행 칸에 서면 다음 차례에 원하는 칸으로 날아가요.</li>
        <li>🍀 행운카드 칸에서는 카드를 뽑아요. 좋은 일도, 아쉬운 일도 있어요.</li>
        <li>💸 돈이 모자라면 건물이나 땅을 팔아서 갚아요. 그래도 모자라면 파산이에요.</li>
        <li>🏆 혼자 남거나, 라운드가 끝났을 때 총자산(현금 + 땅 + 건물)이 가장 많으면 이겨요.</li>
      </ul>
      <Pictures items={BUILDING_PICTURES} testId="rules-buildings" />
      <p class="muted">돈은 이 방 안에서만 쓰는 놀이용 돈이에요. 저장되거나 바꿀 수 없어요.</p>
    </div>
  );
}

function DalmutiRules() {
  return (
    <div class="rules">
      <p>숫자가 낮을수록 강한 카드예요. 손패를 먼저 다 내면 다음 라운드에 높은 신분이 돼요.</p>
      <ul>
        <li>🃏 처음 내는 사람은 같은 숫자를 원하는 장수만큼 내요.</li>
        <li>⬇️ 다음 사람은 같은 장수로, 더 낮은 숫자만 낼 수 있어요. 아니면 패스!</li>
        <li>🤡 광대는 혼자 내면 13, 다른 숫자와 섞으면 그 숫자가 돼요.</li>
        <li>👑 모두 패스하면 마지막에 낸 사람이 새로 시작해요.</li>
        <li>💰 라운드가 시작되면 대농노는 좋은 카드 2장, 소농노는 1장을 세금으로 내요. 받은 사람은 아무 카드나 같은 장수만큼 돌려줘요.</li>
        <li>✊ 광대 2장을 가진 사람은 혁명을 선언할 수 있어요. 대농노가 선언하면 신분이 뒤집혀요!</li>
      </ul>
      <table class="rules-table">
        <thead>
          <tr>
            <th>숫자</th>
            <th>이름</th>
            <th>장수</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(CARD_NAMES).map(([n, name]) => (
            <tr key={n}>
              <td>{n === '13' ? '광대' : n}</td>
              <td>{name}</td>
              <td>{n === '13' ? 2 : n}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>신분: 👑 대왕 → 🎩 소왕 → 🧢 평민 → 🧺 소농노 → 🪣 대농노</p>
      <TitlePictures />
      <p class="muted">점수는 이 방 결과 표시용이에요.</p>
    </div>
  );
}

export function RulesSheet({ game, onClose }: { game: string; onClose: () => void }) {
  return (
    <Sheet title="규칙 보기" onClose={onClose} testId="rules">
      {game === 'dalmuti' ? <DalmutiRules /> : <MarbleRules />}
    </Sheet>
  );
}

export function RulesButton({ game }: { game: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button class="btn" data-testid="rules-button" onClick={() => setOpen(true)}>
        📖 규칙 보기
      </button>
      {open && <RulesSheet game={game} onClose={() => setOpen(false)} />}
    </>
  );
}
