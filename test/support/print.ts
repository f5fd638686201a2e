/**
 * A page as it prints, in the real browser of test/support/browser.ts: its PDF
 * on a paper size with its page count, and where the printed lines of its
 * `pre` blocks break.
 */
import type { OpenedPage } from './browser';

/** The paper sizes a workshop prints on, and their widths. */
export const PAPER = {
  A4: { widthMm: 210 },
  Letter: { widthMm: 215.9 },
} as const;
export type Paper = keyof typeof PAPER;

/** CSS pixels per millimetre (96 per inch). */
const PX_PER_MM = 96 / 25.4;

/** The page as a PDF on `paper` (chromium's print, the page's own `@page` margins), and how many pages it has. */
export async function printedPages(opened: OpenedPage, paper: Paper): Promise<{ readonly pages: number; readonly bytes: number }> {
  const pdf = await opened.page.pdf({ format: paper, printBackground: true });
  // Each page object of the PDF is a dictionary of /Type /Page (the page tree is /Type /Pages).
  const pages = (pdf.toString('latin1').match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
  return { pages, bytes: pdf.length };
}

/**
 * The page laid out as it prints on `paper` with `marginMm` on each side (print
 * media, the width of the paper's printable area), then where the lines of its
 * `pre` blocks (or what `selector` picks) wrap: how many wraps, every wrap between two characters that
 * are not blanks (a word cut in two), as the text around it with `⏎` at the wrap,
 * the blocks whose text runs past their edge, and whether the page is wider than
 * the paper (both cut off on paper).
 */
export async function preWraps(
  opened: OpenedPage,
  paper: Paper,
  marginMm: number,
  selector = 'pre',
): Promise<{ readonly wraps: number; readonly insideWords: readonly string[]; readonly overflowing: readonly string[]; readonly pageWiderThanPaper: boolean }> {
  const width = Math.floor((PAPER[paper].widthMm - 2 * marginMm) * PX_PER_MM);
  await opened.page.emulateMedia({ media: 'print' });
  await opened.page.setViewportSize({ width, height: 1200 });
  const all = await opened.page.$$eval(selector, (pres) =>
    pres.map((pre) => {
      const found: string[] = [];
      let wraps = 0;
      // Runs in the page: no DOM globals in this project's types, so through the element's own document.
      const page = pre.ownerDocument;
      const SHOW_TEXT = 4; // NodeFilter.SHOW_TEXT
      const walker = page.createTreeWalker(pre, SHOW_TEXT);
      type TextNode = NonNullable<ReturnType<typeof walker.nextNode>> & { readonly data: string };
      const chars: { node: TextNode; offset: number; char: string }[] = [];
      for (let node = walker.nextNode() as TextNode | null; node; node = walker.nextNode() as TextNode | null) {
        for (let offset = 0; offset < node.data.length; offset++) chars.push({ node, offset, char: node.data[offset] });
      }
      const range = page.createRange();
      let lastTop: number | null = null;
      for (let i = 0; i < chars.length; i++) {
        const { node, offset, char } = chars[i];
        if (char === '\n') {
          lastTop = null;
          continue;
        }
        range.setStart(node, offset);
        range.setEnd(node, offset + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (lastTop !== null && rect.top > lastTop + 1) {
          wraps++;
          if (!/\s/.test(chars[i - 1].char) && !/\s/.test(char)) {
            const text = chars.map((c) => c.char).join('');
            found.push(`${text.slice(Math.max(0, i - 30), i)}⏎${text.slice(i, i + 30)}`);
          }
        }
        lastTop = rect.top;
      }
      // A word too long for the line would run past the block instead: cut off on paper.
      const overflow = pre.scrollWidth > pre.clientWidth + 1 ? [pre.textContent ?? ''] : [];
      return { wraps, found, overflow };
    }),
  );
  const pageWidth = await opened.page.$eval('html', (root) => root.scrollWidth);
  await opened.page.emulateMedia({ media: null });
  return {
    wraps: all.reduce((sum, p) => sum + p.wraps, 0),
    insideWords: all.flatMap((p) => p.found),
    overflowing: all.flatMap((p) => p.overflow),
    pageWiderThanPaper: pageWidth > width,
  };
}
