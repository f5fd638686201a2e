/**
 * The one place that decides colour and width: colour only on a TTY and never
 * with NO_COLOR (any value); width from $COLUMNS, then the TTY, then 80.
 */
import { colorEnabled, fitWidth, formatElapsed, paint, plural, redrawEnabled, stripAnsi, terminalWidth } from '../../../lib/plumbing/cli/terminal';
import { FakeStream } from '../../support/fake-terminal';

describe('colour and width', () => {
  test.each([
    ['a terminal', new FakeStream(true, 100), {}, true],
    ['a terminal with NO_COLOR=1', new FakeStream(true, 100), { NO_COLOR: '1' }, false],
    ['a terminal with NO_COLOR set empty', new FakeStream(true, 100), { NO_COLOR: '' }, false],
    ['a dumb terminal', new FakeStream(true, 100), { TERM: 'dumb' }, false],
    ['a pipe', new FakeStream(false), {}, false],
  ])('GIVEN %s WHEN asked for colour THEN %s', (_what, stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });

  test('GIVEN NO_COLOR WHEN asked whether to redraw in place THEN yes on a terminal (NO_COLOR is about colour), never on a pipe or a dumb terminal', () => {
    expect(redrawEnabled(new FakeStream(true, 80), { NO_COLOR: '1' })).toBe(true);
    expect(redrawEnabled(new FakeStream(false), {})).toBe(false);
    expect(redrawEnabled(new FakeStream(true, 80), { TERM: 'dumb' })).toBe(false);
  });

  test.each([
    ['$COLUMNS first', new FakeStream(true, 100), { COLUMNS: '72' }, 72],
    ['the terminal next', new FakeStream(true, 100), {}, 100],
    ['a bad $COLUMNS is ignored', new FakeStream(true, 100), { COLUMNS: 'wide' }, 100],
    ['$COLUMNS=0 is ignored', new FakeStream(true, 100), { COLUMNS: '0' }, 100],
    ['80 on a pipe', new FakeStream(false), {}, 80],
    ['$COLUMNS on a pipe too', new FakeStream(false), { COLUMNS: '132' }, 132],
  ])('GIVEN %s WHEN the width is asked THEN it is the right one', (_what, stream, env, expected) => {
    expect(terminalWidth(stream, env)).toBe(expected);
  });

  test('GIVEN text WHEN painted, cut and timed THEN the escapes, the cut and the durations are exact', () => {
    expect(paint('hi', 'bold', true)).toBe('\x1b[1mhi\x1b[0m');
    expect(paint('hi', 'bold', false)).toBe('hi');
    expect(stripAnsi(paint('hi', 'red', true))).toBe('hi');
    expect(fitWidth('abcdefghij', 10)).toBe('abcdefghij');
    expect(fitWidth('abcdefghijk', 10)).toBe('abcdefg...');
    expect([0, 999, 42_000, 303_000, 3_725_000].map(formatElapsed)).toEqual(['0s', '0s', '42s', '5m03s', '1h02m']);
    expect([plural(1, 'resource'), plural(14, 'resource'), plural(0, 'stack'), plural(2, 'blocking problem')]).toEqual(['1 resource', '14 resources', '0 stacks', '2 blocking problems']);
  });
});
