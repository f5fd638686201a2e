import { colorEnabled, highlight, paint, stripColor, terminalWidth, visibleLength } from '../../../lib/plumbing/cli/terminal';

describe('colorEnabled', () => {
  test.each([
    [{ isTTY: true }, {}, true],
    [{ isTTY: true }, { NO_COLOR: '1' }, false],
    [{ isTTY: true }, { NO_COLOR: '' }, false],
    [{ isTTY: false }, {}, false],
    [{}, {}, false],
  ])('GIVEN stream %j and env %j THEN %s', (stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });
});

describe('terminalWidth', () => {
  test.each([
    [{ isTTY: true, columns: 132 }, { COLUMNS: '60' }, 60],
    [{ isTTY: true, columns: 132 }, {}, 132],
    [{ isTTY: false, columns: 132 }, {}, 80],
    [{}, { COLUMNS: ' 100 ' }, 100],
    [{ isTTY: true, columns: 90 }, { COLUMNS: 'wide' }, 90],
    [{ isTTY: true, columns: 90 }, { COLUMNS: '0' }, 90],
    [{}, {}, 80],
  ])('GIVEN stream %j and env %j THEN %i', (stream, env, expected) => {
    expect(terminalWidth(stream, env)).toBe(expected);
  });
});

describe('highlight', () => {
  const line = 'nodeport-l4: DNAT+SNAT on the node, client IP LOST; native: no SNAT [as expected]; MISMATCH: x [NOT as expected]';

  test('GIVEN colour off THEN the text is unchanged', () => {
    expect(highlight(line, false)).toBe(line);
  });

  test('GIVEN colour on THEN SNAT, LOST, MISMATCH and NOT as expected are red, "no SNAT" is not, "as expected" is green, DNAT yellow', () => {
    const coloured = highlight(line, true);
    expect(stripColor(coloured)).toBe(line);
    expect(visibleLength(coloured)).toBe(line.length);
    expect(coloured).toContain(`DNAT+${paint('SNAT', 'red', true)}`.replace('DNAT', paint('DNAT', 'yellow', true)));
    expect(coloured).toContain(paint('LOST', 'red', true));
    expect(coloured).toContain(`no SNAT ${'['}${paint('as expected', 'green', true)}]`);
    expect(coloured).toContain(paint('MISMATCH', 'red', true));
    expect(coloured).toContain(paint('NOT as expected', 'red', true));
  });

  test('GIVEN a word that only contains a highlighted one THEN it is left alone', () => {
    expect(highlight('LOSTLY SNATS no-SNAT', true)).toBe('LOSTLY SNATS no-SNAT');
  });
});
