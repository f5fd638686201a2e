/**
 * One self-contained HTML page: `<!doctype html>`, UTF-8, inline CSS, no
 * external URL (a Content-Security-Policy forbids loading anything but
 * inline styles, inline scripts and `data:` images, and an empty `data:` icon
 * keeps the browser from asking for /favicon.ico). It opens from disk, prints,
 * and reads on a projector: large type, black on white, colour never the
 * only carrier of a meaning. `explain --format html`, the handouts and the
 * watch chart use it.
 */

/** What a page is made of. */
export interface HtmlPageProps {
  /** The page's title (escaped here). */
  readonly title: string;
  /** The page's body, already HTML (escape user text with {@link escapeHtml}). */
  readonly body: string;
  /**
   * More CSS, after the base style.
   * @default - none
   */
  readonly css?: string;
  /**
   * The page is served and reads its own server (`connect-src 'self'`: `watch --serve`'s live
   * page); still nothing from anywhere else.
   * @default false
   */
  readonly connectSelf?: boolean;
}

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` safe inside HTML or SVG text and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** What every page may load: nothing from outside. */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; font-src data:";

/** What a served page may load: what every page may, and requests to the server it came from. */
export const SERVED_PAGE_CSP = `${PAGE_CSP}; connect-src 'self'`;

/** The base style: projector-friendly (large type, high contrast) and print-friendly. */
export const BASE_CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
html { font-size: 20px; }
body { margin: 0 auto; padding: 1rem 1.5rem 3rem; max-width: 80rem; color: #000; background: #fff;
  font-family: system-ui, "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; line-height: 1.45; }
h1 { font-size: 2rem; margin: 0.5rem 0 1rem; }
h2 { font-size: 1.6rem; margin: 2rem 0 0.75rem; border-bottom: 3px solid #000; padding-bottom: 0.2rem; }
h3 { font-size: 1.3rem; margin: 1.5rem 0 0.5rem; }
h4 { font-size: 1.1rem; margin: 1rem 0 0.4rem; }
p, li { max-width: 60rem; }
code, pre, kbd { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
code { background: #f1f1f1; padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
pre { background: #f1f1f1; padding: 0.6rem 0.8rem; overflow-x: auto; border-left: 4px solid #333; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #555; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #e8e8e8; }
a { color: #0645ad; }
figure { margin: 1rem 0 1.5rem; page-break-inside: avoid; break-inside: avoid; }
figcaption { font-size: 0.9rem; color: #222; margin-top: 0.3rem; }
svg { display: block; max-width: 100%; height: auto; }
.bad { color: #b00020; font-weight: bold; }
.good { color: #0b6b2b; font-weight: bold; }
.warn { color: #8a5300; font-weight: bold; }
.muted { color: #444; }
nav ul { columns: 2; }
@media print {
  html { font-size: 12pt; }
  body { max-width: none; padding: 0; }
  a { color: #000; }
  h2 { page-break-after: avoid; break-after: avoid; }
  section.page { page-break-before: always; break-before: page; }
  section.page:first-of-type { page-break-before: auto; break-before: auto; }
}
`;

/** A whole page: `<!doctype html>`, UTF-8, the base style plus `css`, and `body`. */
export function htmlPage({ title, body, css, connectSelf = false }: HtmlPageProps): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${connectSelf ? SERVED_PAGE_CSP : PAGE_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<link rel="icon" href="data:,">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${BASE_CSS}${css ?? ''}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
