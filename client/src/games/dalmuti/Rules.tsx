// The card game's rules sheet: the rules in short, the card table and the five title pictures.
import { ReportFacts } from '../../ui/Facts';
import { TitlePictures } from './TitlePictures';
import { CARD_NAMES } from './words';

export function DalmutiRules() {
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
      <ReportFacts game="dalmuti" />
      <p class="muted">점수는 이 방 결과 표시용이에요.</p>
    </div>
  );
}
