/**
 * The room view's layout (lib/lab/probe/room.ts): columns in the matrix order
 * per cloud, a glyph per state, rows side by side when the terminal is short
 * but wide, a note when even that does not fit, and as many changes as the
 * height leaves.
 */
import { RoomCellState, roomColumns, roomLines, RoomRow, ROOM_GLYPHS } from '../../../lib/lab/probe/room';
import { painter, stripAnsi } from '../../../lib/kit/terminal/terminal';

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
