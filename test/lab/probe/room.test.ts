/**
 * The room view's layout (lib/lab/probe/room.ts): columns in the matrix order
 * per cloud, a glyph per state, rows side by side when the terminal is short
 * but wide, a note when even that does not fit, as many changes as the
 * height leaves, and attendees' names whole where the width allows, else cut
 * so that they stay told apart.
 */
import { RoomCellState, roomColumns, roomLines, RoomRow, ROOM_GLYPHS } from '../../../lib/lab/probe/room';
import { painter, stripAnsi } from '../../../lib/kit/terminal/terminal';
import { ENV_NAME_MAX } from '../../../lib/config/schema';
import { EXPOSURE_MODES } from '../../../lib/model/modes';
import { EXPOSURE_UNAVAILABLE } from '../../../lib/model/exposure-facts';

const plain = painter(false);

function rows(count: number, state: (i: number) => RoomCellState = () => 'ok'): RoomRow[] {
  return Array.from({ length: count }, (_, i) => ({
    env: `a${String(i + 1).padStart(2, '0')}`,
    cells: [
      { cloud: 'gcp', mode: 'nodeport', state: state(i) },
      { cloud: 'aws', mode: 'nodeport-local', state: 'ok' },
      { cloud: 'aws', mode: 'native', state: 'not-probed' },
    ],
  }));
}

test('GIVEN cells in any order THEN the columns are per cloud, aws first, in the matrix order', () => {
  expect(roomColumns(rows(1))).toEqual([
    { cloud: 'aws', mode: 'native' },
    { cloud: 'aws', mode: 'nodeport-local' },
    { cloud: 'gcp', mode: 'nodeport' },
  ]);
});

test('GIVEN every state THEN each has its own glyph, and the legend names them all', () => {
  const glyphs = Object.values(ROOM_GLYPHS).map((g) => g.glyph);
  expect(new Set(glyphs).size).toBe(glyphs.length);
  const states = Object.keys(ROOM_GLYPHS) as RoomCellState[];
  const text = roomLines(
    rows(states.length, (i) => states[i]),
    { width: 80, paint: plain, header: 'h' },
  ).join('\n');
  for (const s of states) expect(text).toContain(`${ROOM_GLYPHS[s].glyph} ${ROOM_GLYPHS[s].meaning}`);
  expect(text).toMatch(/^a06 +- +o +-$/m);
});

test('GIVEN 40 attendees on a short, wide terminal THEN they go side by side in two blocks, every one shown, within the width', () => {
  const lines = roomLines(rows(40), { width: 100, maxLines: 30, paint: plain, header: 'h', changes: [] });
  expect(lines.length).toBeLessThanOrEqual(30);
  expect(lines.every((l) => l.length <= 100)).toBe(true);
  expect(lines[2]).toMatch(/^attendee nat loc +np +attendee nat loc +np$/);
  expect(lines.find((l) => l.startsWith('a01 '))).toMatch(/^a01 +- +o +o +a21 +- +o +o$/);
  for (let i = 1; i <= 40; i += 1) expect(lines.join('\n')).toContain(`a${String(i).padStart(2, '0')} `);
});

test('GIVEN more attendees than fit even side by side THEN the rows are cut with a note saying how many are left out', () => {
  const lines = roomLines(rows(99), { width: 80, maxLines: 20, paint: plain, header: 'h', changes: [] });
  expect(lines.length).toBeLessThanOrEqual(20);
  const shown = lines.flatMap((l) => l.match(/\ba\d\d /g) ?? []).length;
  expect(shown).toBeGreaterThan(20);
  expect(lines).toContain(`(${99 - shown} more attendees: make the terminal taller or wider, or use --env)`);
});

test('GIVEN more changes than the height leaves THEN the latest are shown, oldest first', () => {
  const changes = Array.from({ length: 10 }, (_, i) => `00:0${i} a01 aws native: change ${i}`);
  const lines = roomLines(rows(2), { width: 80, maxLines: 12, paint: plain, header: 'h', changes });
  expect(lines.length).toBe(12);
  expect(lines.slice(lines.indexOf('changes:') + 1)).toEqual(['  00:07 a01 aws native: change 7', '  00:08 a01 aws native: change 8', '  00:09 a01 aws native: change 9']);
});

test('GIVEN colour THEN errors are red and a changed cell reversed; the plain text is the same', () => {
  const room: RoomRow[] = [{ env: 'ann', cells: [{ cloud: 'aws', mode: 'native', state: 'errors', changed: true }] }];
  const coloured = roomLines(room, { width: 80, paint: painter(true), header: 'h' });
  expect(coloured.join('\n')).toContain('\x1b[31;7mE\x1b[0m');
  expect(coloured.map(stripAnsi)).toEqual(roomLines(room, { width: 80, paint: plain, header: 'h' }));
});

describe("attendees' names", () => {
  /** `count` attendees with every exposure of both clouds (11 cells), named by `name`. */
  const fullRoom = (count: number, name: (i: number) => string): RoomRow[] =>
    Array.from({ length: count }, (_, i) => ({
      env: name(i + 1),
      cells: (['aws', 'gcp'] as const).flatMap((cloud) => EXPOSURE_MODES.filter((mode) => !(mode in EXPOSURE_UNAVAILABLE[cloud])).map((mode) => ({ cloud, mode, state: 'ok' as const }))),
    }));
  /** 30 names of the longest a config allows, alike but for their last two characters. */
  const alike = (i: number) => `london-team-alice-${String(i).padStart(2, '0')}`;
  const changes = ['00:01 london-team-alice-01 aws native: errors started: connection refused'];

  test('GIVEN 30 attendees with names of the longest the config allows, alike but for their ends, and every exposure WHEN drawn on 80 x 40 THEN every name is whole, every row shown, within the terminal', () => {
    expect(alike(1)).toHaveLength(ENV_NAME_MAX);
    const room = fullRoom(30, alike);
    const lines = roomLines(room, { width: 80, maxLines: 39, paint: plain, header: 'hoplab watch: 30 attendees, 330 exposures at 5 req/s; 4 s of 4 s; Ctrl-C ends it', changes });
    expect(lines.length).toBeLessThanOrEqual(39);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    const rowsShown = lines.filter((l) => l.startsWith('london-'));
    expect(rowsShown.map((l) => l.slice(0, ENV_NAME_MAX + 1))).toEqual(room.map((r) => `${r.env} `));
    expect(rowsShown[0]).toBe(`${alike(1)} ${' o  '.repeat(6)} ${' o  '.repeat(5)}`.trimEnd());
    expect(lines).not.toContainEqual(expect.stringContaining('more attendee'));
  });

  test('GIVEN the same names on a terminal too narrow for them WHEN drawn THEN they are cut in the middle, each keeping its distinguishing end, all different', () => {
    const room = fullRoom(30, alike);
    const lines = roomLines(room, { width: 64, paint: plain, header: 'h' });
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(64);
    const names = lines.filter((l) => l.startsWith('london')).map((l) => l.split(' ')[0]);
    expect(names).toHaveLength(30);
    expect(new Set(names).size).toBe(30);
    expect(names[0]).toBe('london-te~alice-01');
    names.forEach((n, i) => expect(n.endsWith(`-${String(i + 1).padStart(2, '0')}`)).toBe(true));
  });

  test('GIVEN 60 attendees with long names on a short terminal WHEN three blocks fit side by side only with the names cut THEN three blocks, every attendee, each name distinct', () => {
    const room = fullRoom(60, alike).map((r) => ({ ...r, cells: r.cells.filter((c) => c.cloud === 'aws').slice(0, 3) }));
    const lines = roomLines(room, { width: 80, maxLines: 30, paint: plain, header: 'h', changes: [] });
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    expect(lines.find((l) => l.startsWith('attendee'))!.match(/attendee/g)).toHaveLength(3);
    const names = lines.flatMap((l) => l.match(/\blondo\S*/g) ?? []);
    expect(names).toHaveLength(60);
    expect(new Set(names).size).toBe(60);
    expect(names[0]).toBe('londo~ce-01');
  });
});
