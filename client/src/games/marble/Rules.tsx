// The marble rules sheet: pictures of the special squares and building steps, the rules in short.
import { ReportFacts } from '../../ui/Facts';

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

export function MarbleRules() {
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
      <ReportFacts game="marble" />
      <p class="muted">돈은 이 방 안에서만 쓰는 놀이용 돈이에요. 저장되거나 바꿀 수 없어요.</p>
    </div>
  );
}
