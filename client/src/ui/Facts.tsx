import { FACTS } from '../gen/facts.gen';

/** A few facts from the game's balance report (docs/analysis/<id>/, `joke analyze`), for the
 * rules sheet; nothing when the game has no report. */
export function ReportFacts({ game }: { game: string }) {
  const found = FACTS[game];
  if (!found || found.facts.length === 0) return null;
  return (
    <section class="rules-facts" data-testid="rules-facts">
      <h4>📊 봇 {found.games.toLocaleString('ko-KR')}판으로 알아봤어요</h4>
      <ul>
        {found.facts.map((fact) => (
          <li key={fact}>{fact}</li>
        ))}
      </ul>
    </section>
  );
}
