/**
 * The one place that decides colour, width and redraw: colour only on a TTY
 * and never with NO_COLOR (any value) or TERM=dumb; width from $COLUMNS, then
 * the TTY, then 80.
 */
import { colorEnabled, fitWidth, formatElapsed, highlight, paint, painter, plural, redrawEnabled, stripAnsi, terminalHeight, terminalWidth } from '../../../lib/kit/terminal/terminal';

describe('colour, redraw and size', () => {
  test.each([
    ['a terminal', { isTTY: true, columns: 100 }, {}, true],
    ['a terminal with NO_COLOR=1', { isTTY: true, columns: 100 }, { NO_COLOR: '1' }, false],
    ['a terminal with NO_COLOR set empty', { isTTY: true, columns: 100 }, { NO_COLOR: '' }, false],
    ['a dumb terminal', { isTTY: true, columns: 100 }, { TERM: 'dumb' }, false],
    ['a pipe', { isTTY: false }, {}, false],
    ['a stream that does not say', {}, {}, false],
  ])('GIVEN %s WHEN asked for colour THEN %s', (_what, stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });

  test('GIVEN NO_COLOR WHEN asked whether to redraw in place THEN yes on a terminal (NO_COLOR is about colour), never on a pipe or a dumb terminal', () => {
    expect(redrawEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(true);
    expect(redrawEnabled({ isTTY: false }, {})).toBe(false);
    expect(redrawEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
  });

  test.each([
    ['$COLUMNS first', { isTTY: true, columns: 100 }, { COLUMNS: '72' }, 72],
    ['$COLUMNS with spaces', {}, { COLUMNS: ' 100 ' }, 100],
    ['the terminal next', { isTTY: true, columns: 100 }, {}, 100],
    ['a bad $COLUMNS is ignored', { isTTY: true, columns: 100 }, { COLUMNS: 'wide' }, 100],
    ['$COLUMNS=0 is ignored', { isTTY: true, columns: 100 }, { COLUMNS: '0' }, 100],
    ['80 on a pipe, whatever its columns say', { isTTY: false, columns: 132 }, {}, 80],
    ['$COLUMNS on a pipe too', { isTTY: false }, { COLUMNS: '132' }, 132],
  ])('GIVEN %s WHEN the width is asked THEN it is %#', (_what, stream, env, expected) => {
    expect(terminalWidth(stream, env)).toBe(expected);
  });

  test.each([
    ['$LINES first', { isTTY: true, rows: 40 }, { LINES: '30' }, 30],
    ['the terminal next', { isTTY: true, rows: 40 }, {}, 40],
    ['unknown on a pipe', { isTTY: false, rows: 40 }, {}, undefined],
  ])('GIVEN %s WHEN the height is asked THEN it is the right one', (_what, stream, env, expected) => {
    expect(terminalHeight(stream, env)).toBe(expected);
  });
});

describe('painting, cutting, wrapping, counting', () => {
  test('GIVEN text WHEN painted, cut and timed THEN the escapes, the cut and the durations are exact', () => {
    expect(paint('hi', 'bold', true)).toBe('\x1b[1mhi\x1b[0m');
    expect(paint('hi', 'bold', false)).toBe('hi');
    expect(painter(true)('hi', 'red', 'bold')).toBe('\x1b[31;1mhi\x1b[0m');
    expect(painter(false)('hi', 'red', 'bold')).toBe('hi');
    expect(stripAnsi(`\x1b[2K\x1b[1A${paint('hi', 'red', true)}`)).toBe('hi');
    expect([...stripAnsi(paint('héllo', 'green', true))].length).toBe(5);
    expect(fitWidth('abcdefghij', 10)).toBe('abcdefghij');
    expect(fitWidth('abcdefghijk', 10)).toBe('abcdefg...');
    expect([0, 999, 42_000, 303_000, 3_725_000].map(formatElapsed)).toEqual(['0s', '0s', '42s', '5m03s', '1h02m']);
    expect([plural(1, 'resource'), plural(14, 'resource'), plural(0, 'stack'), plural(2, 'blocking problem')]).toEqual(['1 resource', '14 resources', '0 stacks', '2 blocking problems']);
  });
});

describe('highlight', () => {
  const line = 'nodeport-l4: DNAT+SNAT on the node, client IP LOST; native: no SNAT [as expected]; MISMATCH: x [NOT as expected]';

  test('GIVEN colour off THEN the text is unchanged', () => {
    expect(highlight(line, false)).toBe(line);
  });

  test('GIVEN colour on THEN SNAT, LOST, MISMATCH and NOT as expected are red, "no SNAT" is not, "as expected" is green, DNAT yellow', () => {
    const coloured = highlight(line, true);
    expect(stripAnsi(coloured)).toBe(line);
    expect([...stripAnsi(coloured)].length).toBe(line.length);
    expect(coloured).toContain(`${paint('DNAT', 'yellow', true)}+${paint('SNAT', 'red', true)}`);
    expect(coloured).toContain(paint('LOST', 'red', true));
    expect(coloured).toContain(`no SNAT [${paint('as expected', 'green', true)}]`);
    expect(coloured).toContain(paint('MISMATCH', 'red', true));
    expect(coloured).toContain(paint('NOT as expected', 'red', true));
  });

  test('GIVEN a word that only contains a highlighted one THEN it is left alone', () => {
    expect(highlight('LOSTLY SNATS no-SNAT', true)).toBe('LOSTLY SNATS no-SNAT');
  });
});
