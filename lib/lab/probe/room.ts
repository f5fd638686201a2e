/**
 * The room at a glance, for a projector: one row per attendee (environment),
 * each of their exposures one cell, a glyph saying whether it answers, fails,
 * or measures a client-IP verdict other than its output claims. `watch --room`
 * redraws it every interval (from its snapshots), `compare --room` prints it
 * once (from the compare model), and `watch --serve` sends the same cells to
 * its page. Sized so that 30 attendees, legend and a few changes fit an 80 x 40
 * terminal, every name whole; a room too tall for the terminal goes side by
 * side when the width allows, names cut so that they stay told apart.
 */
import { Cloud } from '../../model/contract';
import { EXPOSURE_MODES } from '../../model/modes';
import { Paint, stripAnsi, Style } from '../../kit/terminal/terminal';
import { abbreviate, abbreviateDistinct, wrapWords } from '../../kit/text/wrap';
import { CompareModel } from './compare-model';

/** What a cell says. */
export type RoomCellState = 'ok' | 'unmeasured' | 'mismatch' | 'errors' | 'pending' | 'not-probed';

/** Each state's glyph, its meaning (the legend) and its colour on a terminal. */
export const ROOM_GLYPHS: Readonly<Record<RoomCellState, { readonly glyph: string; readonly meaning: string; readonly style?: Style }>> = {
  ok: { glyph: 'o', meaning: 'as claimed', style: 'green' },
  unmeasured: { glyph: '~', meaning: 'answers, IP not measured' },
  mismatch: { glyph: 'M', meaning: 'client-IP MISMATCH', style: 'yellow' },
  errors: { glyph: 'E', meaning: 'errors', style: 'red' },
  pending: { glyph: '?', meaning: 'nothing measured yet' },
  'not-probed': { glyph: '-', meaning: 'no URL', style: 'dim' },
};

/** The order of the legend: the good, the bad, the not yet. */
const LEGEND_ORDER: readonly RoomCellState[] = ['ok', 'errors', 'mismatch', 'unmeasured', 'pending', 'not-probed'];

/** Column codes of the exposures (3 characters at most), in the matrix order. */
export const MODE_CODES: Readonly<Record<string, string>> = {
  native: 'nat',
  gateway: 'gw',
  nodeport: 'np',
  'nodeport-l4': 'l4',
  'nodeport-local': 'loc',
  'native-l4': 'n4',
};

export interface RoomCell {
  readonly cloud: Cloud;
  readonly mode: string;
  readonly state: RoomCellState;
  /** Something changed in it just now (shown reversed). @default false */
  readonly changed?: boolean;
}

export interface RoomRow {
  /** The attendee (environment). */
  readonly env: string;
  readonly cells: readonly RoomCell[];
}

export interface RoomColumn {
  readonly cloud: Cloud;
  readonly mode: string;
}

const CLOUDS: readonly Cloud[] = ['aws', 'gcp'];
const modeRank = (mode: string) => ((EXPOSURE_MODES as readonly string[]).indexOf(mode) + 1 || 99) * 1000;

/** Every exposure any attendee has, as columns: per cloud, in the matrix order. */
export function roomColumns(rows: readonly RoomRow[]): RoomColumn[] {
  const seen = new Map<string, RoomColumn>();
  for (const row of rows) for (const c of row.cells) seen.set(`${c.cloud} ${c.mode}`, { cloud: c.cloud, mode: c.mode });
  return [...seen.values()].sort((a, b) => CLOUDS.indexOf(a.cloud) - CLOUDS.indexOf(b.cloud) || modeRank(a.mode) - modeRank(b.mode) || a.mode.localeCompare(b.mode));
}

/** The code a column is headed by. */
export function modeCode(mode: string): string {
  return MODE_CODES[mode] ?? abbreviate(mode, 3);
}

/** The room of a compare model: with --probe what was measured, without it only whether each exposure has a URL. */
export function roomFromCompare(model: CompareModel): RoomRow[] {
  return model.environments.map((env) => ({
    env: env.env,
    cells: env.rows.flatMap((row) =>
      env.clouds.flatMap((cloud): RoomCell[] => {
        const cell = row.clouds[cloud];
        if (!cell) return [];
        let state: RoomCellState;
        if (cell.exposure.url === null || cell.not_probed_because !== null) state = 'not-probed';
        else if (!cell.probe) state = 'pending';
        else if (cell.probe.ok === 0 || Object.keys(cell.probe.errors).length > 0) state = 'errors';
        else if (cell.probe.client_ip.as_expected === false) state = 'mismatch';
        else state = cell.probe.client_ip.as_expected === true ? 'ok' : 'unmeasured';
        return [{ cloud, mode: row.mode, state }];
      }),
    ),
  }));
}

/** Cells are 3 characters and a space; the clouds are 2 spaces apart. */
const CELL = 4;
const CLOUD_GAP = 1;
/** Room between blocks of attendees side by side. */
const BLOCK_GAP = 4;
/** The name column is never narrower than its head, `attendee`. */
const MIN_NAME = 8;

export interface RoomLayout {
  /** Columns of the terminal. */
  readonly width: number;
  /** Lines there are for the whole view. @default - as many as it takes */
  readonly maxLines?: number;
  readonly paint: Paint;
  /** The first line(s): what is shown, and when. */
  readonly header: string;
  /** The latest changes in words, oldest first, each naming the attendee; as many as fit are shown. @default - no changes section */
  readonly changes?: readonly string[];
}

/**
 * The room as terminal lines within `width`: the header, the column heads (clouds, exposure
 * codes), one row per attendee, the legend, then as many of the latest changes as the height
 * leaves. Without the room to show every attendee, the rows go side by side (blocks) as the
 * width allows, and what still does not fit is cut with a note.
 */
export function roomLines(rows: readonly RoomRow[], layout: RoomLayout): string[] {
  const { width, paint } = layout;
  const columns = roomColumns(rows);
  const wrap = (text: string, indent = '') => wrapWords(text, Math.max(1, width - indent.length), 'abbreviate').map((l) => `${indent}${l}`);
  const cloudsShown = CLOUDS.filter((c) => columns.some((col) => col.cloud === c));
  /** What a row takes after the name: a space, the cells, the gaps between clouds. */
  const cellsWidth = 1 + columns.length * CELL + (cloudsShown.length - 1) * CLOUD_GAP;

  const header = wrap(layout.header);
  /** Items `gap` apart, a line as full as the width allows, an item never split but when longer than a line. */
  const pack = (items: readonly string[], gap: string) => {
    const out: string[] = [];
    for (const item of items) {
      if (out.length > 0 && out[out.length - 1].length + gap.length + item.length <= width) out[out.length - 1] += `${gap}${item}`;
      else out.push(...wrap(item));
    }
    return out;
  };
  const legend = pack(
    LEGEND_ORDER.map((s) => `${ROOM_GLYPHS[s].glyph} ${ROOM_GLYPHS[s].meaning}`),
    '  ',
  );
  const codes = pack(
    EXPOSURE_MODES.filter((m) => columns.some((c) => c.mode === m)).map((m) => `${modeCode(m)}=${m}`),
    ' ',
  );
  const fixed = header.length + 2 + legend.length + codes.length;
  const room = layout.maxLines === undefined ? Infinity : layout.maxLines - fixed - (layout.changes ? 2 : 0);
  // Side by side when the rows do not fit one under the other and the width allows names of 8
  // columns or more; the names then as wide as the longest within the width (an attendee's name
  // has at most 20 characters: the whole grid takes 66 columns).
  const nameRoom = (blocks: number) => Math.floor((width - (blocks - 1) * BLOCK_GAP) / blocks) - cellsWidth;
  let blocks = 1;
  while (rows.length > blocks * Math.max(1, room) && nameRoom(blocks + 1) >= MIN_NAME) blocks += 1;
  const nameWidth = Math.max(MIN_NAME, Math.min(Math.max(0, ...rows.map((r) => r.env.length)), nameRoom(blocks)));
  const blockWidth = nameWidth + cellsWidth;
  // Names cut to fit stay told apart (london-t~alice-1, london-t~alice-2).
  const shownNames = abbreviateDistinct(
    rows.map((r) => r.env),
    nameWidth,
  );
  const nameOf = new Map(rows.map((r, i) => [r, shownNames[i]]));
  const cellsAt = (line: (col: RoomColumn, i: number) => string, name: string) => {
    let out = name;
    columns.forEach((col, i) => {
      if (i > 0 && columns[i - 1].cloud !== col.cloud) out += ' '.repeat(CLOUD_GAP);
      out += line(col, i);
    });
    return out;
  };
  const cloudHead = cellsAt((col, i) => (i === 0 || columns[i - 1].cloud !== col.cloud ? col.cloud.padEnd(CELL) : ' '.repeat(CELL)), ' '.repeat(nameWidth + 1)).trimEnd();
  const modeHead = cellsAt((col) => modeCode(col.mode).padEnd(CELL), 'attendee'.padEnd(nameWidth + 1)).trimEnd();
  const rowText = (row: RoomRow): string => {
    const byColumn = new Map(row.cells.map((c) => [`${c.cloud} ${c.mode}`, c]));
    const name = (nameOf.get(row) ?? row.env).padEnd(nameWidth + 1);
    let out = name;
    columns.forEach((col, i) => {
      if (i > 0 && columns[i - 1].cloud !== col.cloud) out += ' '.repeat(CLOUD_GAP);
      const cell = byColumn.get(`${col.cloud} ${col.mode}`);
      if (!cell) {
        out += ' '.repeat(CELL);
        return;
      }
      const { glyph, style } = ROOM_GLYPHS[cell.state];
      const styles: Style[] = [...(style ? [style] : []), ...(cell.changed ? (['reverse'] as const) : [])];
      out += ` ${styles.length ? paint(glyph, ...styles) : glyph}  `;
    });
    return out.trimEnd();
  };

  const perBlock = Math.ceil(rows.length / blocks);
  const shown = Math.min(perBlock, Math.max(1, room));
  const cut = rows.length > shown * blocks;
  /** Blocks side by side, each padded to the block's width (measured without colour codes). */
  const sideBySide = (texts: readonly string[]) => texts.map((t, i) => (i < texts.length - 1 ? t + ' '.repeat(Math.max(0, blockWidth - stripAnsi(t).length) + BLOCK_GAP) : t)).join('');
  const lines = [...header];
  lines.push(paint(sideBySide(Array.from({ length: blocks }, () => cloudHead)).trimEnd(), 'bold'));
  lines.push(paint(sideBySide(Array.from({ length: blocks }, () => modeHead)).trimEnd(), 'bold'));
  const rowCount = cut ? Math.max(1, shown - 1) : shown;
  for (let r = 0; r < rowCount; r += 1) {
    const parts = Array.from({ length: blocks }, (_, b) => rows[b * perBlock + r]).filter((row): row is RoomRow => row !== undefined);
    lines.push(sideBySide(parts.map(rowText)));
  }
  if (cut) {
    const left = rows.length - rowCount * blocks;
    lines.push(...wrap(`(${left} more attendee${left === 1 ? '' : 's'}: make the terminal taller or wider, or use --env)`).slice(0, 1));
  }
  lines.push(...legend, ...codes);
  if (layout.changes) {
    const spare = layout.maxLines === undefined ? Infinity : Math.max(0, layout.maxLines - lines.length - 1);
    lines.push(paint(layout.changes.length ? 'changes:' : 'changes: none yet', 'bold'));
    const latest: string[] = [];
    for (const change of [...layout.changes].reverse()) {
      const wrapped = wrap(change, '  ');
      if (latest.length + wrapped.length > spare) break;
      latest.unshift(...wrapped);
    }
    lines.push(...latest);
  }
  return lines;
}
