// Matching text items (getTextContent) to the glyphs that drew them, keeping their visible characters.
import type { TextItem } from 'pdfjs-dist/types/src/display/api';
import { HIDDEN_MARK } from '../text.js';
import type { GlyphRecord } from './record.js';

/** Characters that take part in matching: NFKC, no white space or format marks. */
function compact(s: string): string {
  return s.normalize('NFKC').replace(/[\s\p{Cf}]/gu, '');
}

/**
 * Each text item to the glyphs that drew it: the content stream's order is shared, so each item's
 * characters are looked for in the glyphs' from where the previous item ended (then reversed, for
 * right-to-left text, then from the start). An item that matches nothing counts as not visible.
 */
export function mapItems(items: TextItem[], glyphs: GlyphRecord[], visible: boolean[], painted: boolean[]): { visible: string[]; hiddenLetters: number; unmatched: number } {
  const owner: number[] = [];
  let stream = '';
  glyphs.forEach((g, i) => {
    const c = compact(g.text);
    stream += c;
    for (let k = 0; k < c.length; k++) owner.push(i);
  });
  let from = 0;
  let hiddenLetters = 0;
  let unmatched = 0;
  const out = items.map((item) => {
    const points = [...item.str];
    const parts = points.map(compact);
    const s = parts.join('');
    if (!s) return item.str;
    let at = stream.indexOf(s, from);
    let reversed = false;
    if (at >= 0) from = at + s.length;
    else {
      const r = [...parts].reverse().map((p) => [...p].reverse().join('')).join('');
      reversed = true;
      at = stream.indexOf(r, from);
      if (at >= 0) from = at + r.length;
      else {
        at = stream.indexOf(s, 0);
        reversed = false;
        if (at < 0) {
          at = stream.indexOf(r, 0);
          reversed = at >= 0;
        }
      }
    }
    if (at < 0) {
      unmatched++;
      hiddenLetters += (item.str.match(/\p{L}/gu) ?? []).length;
      return '';
    }
    // Code unit `u` of `s` is drawn by glyph owner[at + u] (mirrored when the item is reversed).
    const glyphOf = (u: number) => owner[reversed ? at + s.length - 1 - u : at + u];
    const every = (test: (glyph: number) => boolean) => {
      let u = 0;
      return parts.map((part) => {
        let all = part.length > 0;
        for (let j = 0; j < part.length; j++) all = test(glyphOf(u + j)) && all;
        u += part.length;
        return all;
      });
    };
    const ok = every((g) => visible[g]);
    // Letters and digits are shown when drawn visibly; punctuation and symbols (a full stop is a
    // pixel or two, not judged) go with them: shown when any letter or digit of the item is, or, in
    // an item of punctuation alone, when painted on the page.
    const word = points.map((p) => /[\p{L}\p{N}]/u.test(p));
    if (!word.some(Boolean)) {
      const drawn = every((g) => painted[g]);
      return points.filter((p, k) => /\s/u.test(p) || drawn[k]).join('');
    }
    if (!points.some((_, k) => word[k] && ok[k])) {
      hiddenLetters += points.filter((p) => /\p{L}/u.test(p)).length;
      return HIDDEN_MARK;
    }
    return points
      .map((p, k) => {
        if (/\s/u.test(p)) return p;
        if (!parts[k]) return ''; // a format mark
        if (!word[k] || ok[k]) return p;
        if (/\p{L}/u.test(p)) hiddenLetters++;
        return HIDDEN_MARK;
      })
      .join('');
  });
  return { visible: out, hiddenLetters, unmatched };
}
