// The title pictures of 규칙 보기 (dalmuti.md 9): our own emoji art, neutral title names.
import { TITLE_ICONS } from './words';

const TITLES: { title: string; line: string }[] = [
  { title: '대왕', line: '1등 · 세금 2장을 받아요' },
  { title: '소왕', line: '2등 · 세금 1장을 받아요' },
  { title: '평민', line: '가운데 · 세금이 없어요' },
  { title: '소농노', line: '뒤에서 2등 · 1장을 내요' },
  { title: '대농노', line: '꼴찌 · 2장을 내요, 다음엔 역전!' },
];

export function TitlePictures() {
  return (
    <ol class="title-pics" data-testid="title-pictures">
      {TITLES.map((t) => (
        <li key={t.title} class="title-pic">
          <span class="face" aria-hidden="true">
            {TITLE_ICONS[t.title]}
          </span>
          <strong>{t.title}</strong>
          <br />
          <small>{t.line}</small>
        </li>
      ))}
    </ol>
  );
}
