/**
 * The few SVG pieces the path diagrams are drawn with: boxes, text with
 * wrapping by an estimated character width, and arrows whose heads are
 * polygons (no `<marker>`: its `id` would clash between the many diagrams of
 * one page). Everything is an attribute: no stylesheet, no external
 * reference, so each `<svg>` stands alone.
 */
import { wrapWords } from '../text/wrap';
import { escapeHtml } from './html-page';

/** The font every diagram uses: fonts that are on the machine, nothing fetched. */
export const FONT = "'DejaVu Sans', Verdana, Arial, Helvetica, sans-serif";

/** Colours: high contrast on white, each meaning also said in words. */
export const INK = {
  text: '#000000',
  muted: '#3a3a3a',
  line: '#1f1f1f',
  box: '#ffffff',
  client: '#e8eefc',
  lb: '#fff3d6',
  node: '#f2f2f2',
  pod: '#dff3e4',
  snat: '#b00020',
  dnat: '#8a5300',
  good: '#0b6b2b',
  cluster: '#5a5a5a',
} as const;

/** Average width of a character of {@link FONT}, as a share of the font size (DejaVu Sans is wide). */
const CHAR_WIDTH = 0.6;

/** How many characters of `size` fit in `width` pixels. */
export function charsIn(width: number, size: number): number {
  return Math.max(4, Math.floor(width / (CHAR_WIDTH * size)));
}

/** The estimated width of `text` at `size`. */
export function textWidth(text: string, size: number): number {
  return text.length * CHAR_WIDTH * size;
}

export interface TextOptions {
  readonly size?: number;
  readonly weight?: 'normal' | 'bold';
  readonly fill?: string;
  readonly anchor?: 'start' | 'middle' | 'end';
  /** Line height as a multiple of the size. @default 1.25 */
  readonly leading?: number;
  readonly italic?: boolean;
}

/** One `<text>` of one or more lines, the first line's baseline at `y`. */
export function text(x: number, y: number, lines: string | readonly string[], options: TextOptions = {}): string {
  const size = options.size ?? 14;
  const all = typeof lines === 'string' ? [lines] : lines;
  const step = Math.round(size * (options.leading ?? 1.25));
  const attrs = [
    `x="${x}"`,
    `y="${y}"`,
    `font-size="${size}"`,
    `fill="${options.fill ?? INK.text}"`,
    options.weight === 'bold' ? 'font-weight="bold"' : '',
    options.italic ? 'font-style="italic"' : '',
    options.anchor && options.anchor !== 'start' ? `text-anchor="${options.anchor}"` : '',
  ]
    .filter((a) => a !== '')
    .join(' ');
  if (all.length === 1) {
    return `<text ${attrs}>${escapeHtml(all[0])}</text>`;
  }
  const spans = all.map((line, i) => `<tspan x="${x}" ${i === 0 ? '' : `dy="${step}"`}>${escapeHtml(line)}</tspan>`.replace(' >', '>')).join('');
  return `<text ${attrs}>${spans}</text>`;
}

export interface BoxOptions {
  readonly fill?: string;
  readonly stroke?: string;
  readonly strokeWidth?: number;
  readonly dashed?: boolean;
  readonly radius?: number;
}

/** A rectangle. */
export function rect(x: number, y: number, width: number, height: number, options: BoxOptions = {}): string {
  return (
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" rx="${options.radius ?? 6}" fill="${options.fill ?? INK.box}" ` +
    `stroke="${options.stroke ?? INK.line}" stroke-width="${options.strokeWidth ?? 1.5}"${options.dashed ? ' stroke-dasharray="8 5"' : ''}/>`
  );
}

/**
 * A box with its label centred and wrapped to fit (`size` shrinks by one
 * step when the label would not fit in the height).
 */
export function labelledBox(
  x: number,
  y: number,
  width: number,
  height: number,
  label: string,
  options: BoxOptions & { readonly size?: number; readonly weight?: 'normal' | 'bold'; readonly textFill?: string } = {},
): string {
  let size = options.size ?? 15;
  let lines = wrapWords(label, charsIn(width - 12, size), 'punctuation');
  while (lines.length * size * 1.2 > height - 6 && size > 10) {
    size -= 1;
    lines = wrapWords(label, charsIn(width - 12, size), 'punctuation');
  }
  const step = Math.round(size * 1.2);
  const first = y + height / 2 - ((lines.length - 1) * step) / 2 + size * 0.35;
  return rect(x, y, width, height, options) + text(x + width / 2, Math.round(first), lines, { size, anchor: 'middle', weight: options.weight, fill: options.textFill, leading: 1.2 });
}

export interface ArrowOptions {
  readonly color?: string;
  readonly width?: number;
  readonly dashed?: boolean;
}

/** A straight arrow from (x1, y1) to (x2, y2), its head a polygon at the end. */
export function arrow(x1: number, y1: number, x2: number, y2: number, options: ArrowOptions = {}): string {
  const color = options.color ?? INK.line;
  const width = options.width ?? 2;
  const angle = Math.atan2(y2 - y1, x2 - x1);
  const head = 8 + width * 2;
  const back = (a: number) => [x2 - head * Math.cos(angle + a), y2 - head * Math.sin(angle + a)];
  const [ax, ay] = back(Math.PI / 7);
  const [bx, by] = back(-Math.PI / 7);
  // The line stops inside the head so a thick line does not poke out of its tip.
  const ex = x2 - head * 0.8 * Math.cos(angle);
  const ey = y2 - head * 0.8 * Math.sin(angle);
  const r = (n: number) => Math.round(n * 10) / 10;
  return (
    `<line x1="${r(x1)}" y1="${r(y1)}" x2="${r(ex)}" y2="${r(ey)}" stroke="${color}" stroke-width="${width}"${options.dashed ? ' stroke-dasharray="6 4"' : ''}/>` +
    `<polygon points="${r(x2)},${r(y2)} ${r(ax)},${r(ay)} ${r(bx)},${r(by)}" fill="${color}"/>`
  );
}

export interface BadgeOptions {
  readonly size?: number;
  readonly fill?: string;
  readonly color?: string;
  readonly stroke?: string;
  readonly weight?: 'normal' | 'bold';
}

/** The width and height {@link badge} draws `label` at. */
export function badgeSize(label: string, options: Pick<BadgeOptions, 'size' | 'weight'> = {}): { readonly width: number; readonly height: number } {
  const size = options.size ?? 13;
  // Bold type is wider than the estimate.
  return { width: Math.ceil(textWidth(label, size) * (options.weight === 'normal' ? 1 : 1.1) + 14), height: Math.round(size * 1.6) };
}

/** A label on a white patch, so it stays readable over lines. */
export function badge(cx: number, cy: number, label: string, options: BadgeOptions = {}): string {
  const size = options.size ?? 13;
  const { width, height } = badgeSize(label, options);
  return (
    rect(Math.round(cx - width / 2), Math.round(cy - height / 2), width, height, { fill: options.fill ?? INK.box, stroke: options.stroke ?? options.color ?? INK.line, strokeWidth: 1.5, radius: 4 }) +
    text(Math.round(cx), Math.round(cy + size * 0.35), label, { size, anchor: 'middle', weight: options.weight ?? 'bold', fill: options.color ?? INK.text })
  );
}

/** The `<svg>` element around `content`: fixed `viewBox`, its size as width and height, `role="img"`, a `<title>` and a `<desc>`. */
export function svgDocument(width: number, height: number, title: string, description: string, content: readonly string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ` +
      `font-family="${FONT}" style="background:#ffffff;max-width:100%;height:auto">`,
    `<title>${escapeHtml(title)}</title>`,
    `<desc>${escapeHtml(description)}</desc>`,
    `<rect x="0" y="0" width="${width}" height="${height}" fill="#ffffff"/>`,
    ...content,
    '</svg>',
  ].join('\n');
}
