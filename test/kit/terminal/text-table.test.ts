import fc from 'fast-check';
import { fitColumns, tableFits, textTable, wrapIndented } from '../../../lib/kit/terminal/text-table';

/** The words of a cell, in order. */
function wordsOf(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}

/** The text of each cell of a table, read back: its wrapped lines joined by spaces. */
function cellsOf(table: string): string[][] {
  const rows: string[][] = [];
  let current: string[][] | undefined;
  for (const line of table.split('\n')) {
    if (line.startsWith('+')) {
      if (current) rows.push(current.map((parts) => parts.join(' ').trim()));
      current = undefined;
      continue;
    }
    const cells = line.slice(2, -2).split(' | ');
    current ??= cells.map(() => []);
    cells.forEach((cell, i) => {
      if (cell.trim() !== '') current![i].push(cell.trim());
    });
  }
  return rows;
}

describe('wrapIndented', () => {
  test('GIVEN a hanging indent THEN the first line has the first prefix and the others the rest', () => {
    expect(wrapIndented('one two three four', 12, '- ', '  ')).toEqual(['- one two', '  three four']);
  });
});

describe('fitColumns', () => {
  test('GIVEN room for every column on one line THEN each gets what it needs', () => {
    expect(fitColumns([3, 5], [10, 20], 40)).toEqual([10, 20]);
  });

  test('GIVEN too little room THEN short columns stay whole and the long ones share the rest', () => {
    expect(fitColumns([4, 6, 6], [4, 60, 40], 40)).toEqual([4, 18, 18]);
  });

  test('GIVEN less room than the longest words THEN it says so (undefined)', () => {
    expect(fitColumns([10, 10], [10, 10], 19)).toBeUndefined();
  });

  test('GIVEN a wide-word column first and room that the shared level fills exactly THEN the level takes it all, and nothing is left to hand out first come first', () => {
    // Level 10: 15 + 10 + 10 = 35 = the room. One level lower would leave 2 to hand out, and the first column (15, wanting 30) would take one.
    expect(fitColumns([15, 1, 1], [30, 20, 20], 35)).toEqual([15, 10, 10]);
    // One column less room: level 9, and the one left over goes to the first column that can grow.
    expect(fitColumns([15, 1, 1], [30, 20, 20], 34)).toEqual([16, 9, 9]);
  });

  test('GIVEN such a table WHEN laid out in exactly the width its level needs THEN the columns after the wide word are equally wide', () => {
    // 3 columns: 4 + 2 * 3 of borders and padding = 10, and the 35 of the level above: 45 columns.
    // The first header's longest word is 15 wide, the others' 2 (each 20 on one line).
    const table = textTable(['targetGroupARNs of the exposure', 'ab cd ef gh ij kl mn', 'ab cd ef gh ij kl mn'], [], { width: 45 });
    const [rule] = table.split('\n');
    expect(rule).toBe(`+${'-'.repeat(17)}+${'-'.repeat(12)}+${'-'.repeat(12)}+`);
    expect(rule).toHaveLength(45);
  });
});

describe('textTable', () => {
  test('GIVEN a cell with nodeport-local at 60 columns THEN the word stays whole (it was split as nodeport-loc|al)', () => {
    const table = textTable(['', 'native', 'nodeport', 'nodeport-local'], [['differs in one variable from', 'nodeport-local (traffic policy)', 'x', 'y']], { width: 60 });
    expect(table).toContain('nodeport-local');
    expect(table).not.toMatch(/nodeport-loc\s*\|/);
    expect(Math.max(...table.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
  });

  test('GIVEN rules "header" THEN there is a rule above and below the header and at the bottom only', () => {
    const table = textTable(
      ['a', 'b'],
      [
        ['1', '2'],
        ['3', '4'],
      ],
      { width: 40, rules: 'header' },
    );
    expect(table.split('\n').filter((l) => l.startsWith('+'))).toHaveLength(3);
  });

  const word = fc.stringMatching(/^[a-z0-9.:/>-]{1,14}$/);
  const cell = fc.array(word, { minLength: 0, maxLength: 8 }).map((words) => words.join(' '));
  const shape = fc.integer({ min: 2, max: 5 }).chain((columns) =>
    fc.record({
      header: fc.array(word, { minLength: columns, maxLength: columns }),
      rows: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 5 }),
      width: fc.constantFrom(60, 80, 120, 200),
    }),
  );

  test('GIVEN random cells at widths 60, 80, 120, 200 WHEN the longest words fit THEN no line is longer than the width and every word is whole, in its cell', () => {
    fc.assert(
      fc.property(shape, ({ header, rows, width }) => {
        fc.pre(tableFits(header, rows, width));
        const table = textTable(header, rows, { width });
        const lines = table.split('\n');
        expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(width);
        expect(new Set(lines.map((l) => l.length)).size).toBe(1);
        // Read back cell by cell: each cell's words, whole and in order.
        expect(cellsOf(table)).toEqual([header, ...rows].map((row) => row.map((c) => wordsOf(c).join(' '))));
      }),
      { numRuns: 300 },
    );
  });
});
