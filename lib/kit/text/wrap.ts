/**
 * Words laid out in lines of at most a width, breaking between words: the one
 * word wrapper of terminal tables, live terminal views and SVG labels. Newlines
 * in the text start new lines. They differ only in what becomes of a word
 * longer than a whole line ({@link LongWords}).
 */

/**
 * What becomes of a word longer than a whole line:
 * - `cut`: cut into pieces a line wide, every character kept (table cells);
 * - `abbreviate`: its start and `~`, on one line (a live view redrawn in place, where a row stays a row);
 * - `punctuation`: broken after the last `/`, `-`, `.`, `:` or `,` that fits, else cut (names and URLs in diagrams).
 */
export type LongWords = 'cut' | 'abbreviate' | 'punctuation';

/** Where `punctuation` may break a word: after one of these. */
const BREAK_AFTER = ['/', '-', '.', ':', ','];

/** `word` if it fits in `width`, else its first `width - 1` characters and `~`. */
export function abbreviate(word: string, width: number): string {
  if (word.length <= width) return word;
  if (width <= 1) return '~';
  return `${word.slice(0, width - 1)}~`;
}

/** `word` within `width`, `head` characters of its start, `~` and the rest of the width from its end. */
function cutAt(word: string, width: number, head: number): string {
  return `${word.slice(0, head)}~${word.slice(word.length - (width - 1 - head))}`;
}

/**
 * Each of `words` within `width`, the ones too long cut in the middle to `head~tail`, so that words
 * that differ still read differently: `london-team-alice-1` and `london-team-alice-2` at 16 are
 * `london-t~alice-1` and `london-t~alice-2`, where {@link abbreviate} makes both `london-team-ali~`.
 * Every cut word is cut at one place, the middle where that tells them all apart, else the place
 * nearest the middle that does; where no one place does (words that differ only in what any cut
 * drops), each is cut at a place of its own: two words cut at different places never read the same,
 * `~` standing elsewhere (for words without `~`, as names are). Equal words stay equal.
 */
export function abbreviateDistinct(words: readonly string[], width: number): string[] {
  if (width <= 1) return words.map((w) => (w.length <= width ? w : '~'));
  const kept = width - 1;
  // Head lengths from the middle outwards: 8, 7, 9, 6, ... for 15 characters kept.
  const middle = Math.ceil(kept / 2);
  const heads: number[] = [];
  for (let d = 0; heads.length <= kept; d += 1) for (const head of d === 0 ? [middle] : [middle - d, middle + d]) if (head >= 0 && head <= kept) heads.push(head);
  const long = [...new Set(words.filter((w) => w.length > width))];
  const everyone = heads.find((head) => new Set(long.map((w) => cutAt(w, width, head))).size === long.length);
  const chosen = new Map<string, string>();
  if (everyone !== undefined) for (const w of long) chosen.set(w, cutAt(w, width, everyone));
  else {
    const taken = new Set<string>();
    for (const w of long) {
      const cut = heads.map((head) => cutAt(w, width, head)).find((c) => !taken.has(c)) ?? cutAt(w, width, middle);
      taken.add(cut);
      chosen.set(w, cut);
    }
  }
  return words.map((w) => chosen.get(w) ?? w);
}

/** The pieces a word is laid out as: itself when it fits, else as {@link LongWords} says. */
function pieces(word: string, width: number, long: LongWords): string[] {
  if (word.length <= width) return [word];
  if (long === 'abbreviate') return [abbreviate(word, width)];
  const out: string[] = [];
  let rest = word;
  while (rest.length > width) {
    const after = long === 'punctuation' ? Math.max(...BREAK_AFTER.map((c) => rest.lastIndexOf(c, width - 1))) : -1;
    const at = after > 0 ? after + 1 : width;
    out.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  out.push(rest);
  return out;
}

/**
 * `text` in lines of at most `width` characters (at least 1), broken only
 * between words but for a word longer than a whole line (`long`, see
 * {@link LongWords}; its pieces join the lines around them where they fit).
 * An empty text, or an empty line in it, is one empty line.
 */
export function wrapWords(text: string, width: number, long: LongWords = 'cut'): string[] {
  const max = Math.max(1, width);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line: string | undefined;
    for (const word of paragraph.split(/\s+/).filter((w) => w !== '')) {
      for (const piece of pieces(word, max, long)) {
        if (line === undefined) line = piece;
        else if (line.length + 1 + piece.length <= max) line += ` ${piece}`;
        else {
          lines.push(line);
          line = piece;
        }
      }
    }
    lines.push(line ?? '');
  }
  return lines;
}
