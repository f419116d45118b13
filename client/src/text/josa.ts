// Korean particles picked from the word they follow. Hangul words go to es-hangul's josa;
// a trailing number is read as Korean (7 → 칠, so "7을", "7로"); a Latin nickname by how its
// last letters sound in Korean (Tom → 톰이, Mike → 마이크가). Anything else reads as ending in
// a vowel, the form that stays correct for most emoji and symbols.
import { josa as hangulJosa, numberToHangul } from 'es-hangul';

export type JosaPair = '이/가' | '을/를' | '은/는' | '와/과' | '으로/로' | '이나/나' | '이에요/예요' | '아/야';

type Ending = { batchim: boolean; rieul: boolean };

const LATIN_CLOSED = /(m|n|ng|l|ll|b|ck|k|p|t|tt|d)$/i;

function ending(word: string): Ending {
  const trimmed = word.trim();
  const last = trimmed.slice(-1);
  if (/[가-힣]/.test(last)) {
    const index = (last.charCodeAt(0) - 0xac00) % 28;
    return { batchim: index !== 0, rieul: index === 8 };
  }
  const digits = /(\d+)$/.exec(trimmed);
  if (digits) {
    const reading = numberToHangul(Number(digits[1].slice(-12)) || 0) || '영';
    return ending(reading);
  }
  if (/[a-z]$/i.test(trimmed)) {
    const closed = LATIN_CLOSED.test(trimmed);
    return { batchim: closed, rieul: /l{1,2}$/i.test(trimmed) };
  }
  return { batchim: false, rieul: false };
}

/** The word followed by the right particle of the pair: josa('서울', '으로/로') → '서울로'. */
export function josa(word: string, pair: JosaPair): string {
  const last = word.trim().slice(-1);
  if (/[가-힣]/.test(last)) return hangulJosa(word, pair);
  return word + particle(word, pair);
}

/** Only the particle, for words that are styled apart from it. */
export function particle(word: string, pair: JosaPair): string {
  const last = word.trim().slice(-1);
  if (/[가-힣]/.test(last)) return hangulJosa(word, pair).slice(word.length);
  const [withBatchim, without] = pair.split('/') as [string, string];
  const end = ending(word);
  if (pair === '으로/로') return end.batchim && !end.rieul ? withBatchim : without;
  return end.batchim ? withBatchim : without;
}
