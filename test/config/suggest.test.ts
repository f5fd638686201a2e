import { closestMatch, didYouMean, editDistance } from '../../lib/config/suggest';
import { jsonErrorOffset, lineAndColumn } from '../../lib/config/json-position';
import { EXPOSURE_MODES } from '../../lib/model/modes';

describe('did you mean', () => {
  test.each([
    ['nodeport', 'nodeprot', 1],
    ['datapath', 'datapth', 1],
    ['vpcCidr', 'vpcCIDR', 0],
    ['native', 'ingress', 6],
    ['', 'abc', 3],
  ])('GIVEN %p and %p WHEN compared THEN they are %p edits apart (a swap of neighbours is one, case is ignored)', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  test.each([
    ['nodeprot', 'nodeport'],
    ['nodeport-l', 'nodeport-l4'],
    ['Native', 'native'],
    ['gatway', 'gateway'],
    ['ingress', undefined],
    ['l4', undefined],
    ['nodeport-loca', 'nodeport-local'],
  ])('GIVEN the exposure mode %p WHEN matched THEN the suggestion is %p', (input, expected) => {
    expect(closestMatch(input, EXPOSURE_MODES)).toBe(expected);
  });

  test('GIVEN a value that is not a string, or an exact one WHEN asked THEN there is nothing to suggest', () => {
    expect(didYouMean(3, ['3'])).toBeUndefined();
    expect(didYouMean('native', EXPOSURE_MODES)).toBeUndefined();
    expect(didYouMean('nativ', EXPOSURE_MODES)).toBe('did you mean "native"?');
  });
});

describe('JSON positions', () => {
  test.each([
    ['{}', undefined],
    [' [1, -2.5e3, {"a": null, "b": [true, false]}, "\\u00e9\\n"] ', undefined],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['{"a": 01}', 7],
    ['{"a": "x\ny"}', 8],
    ['{"a": "\\x"}', 8],
    ['{"a": "\\u12g4"}', 11],
    ['{"a": tru}', 9],
    ['{"a": 1}}', 8],
    ['[1, 2', 5],
    ['', 0],
  ])('GIVEN %p WHEN scanned THEN JSON stops at %p', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
    // The scanner agrees with JSON.parse about what is valid.
    if (offset === undefined) expect(() => JSON.parse(text)).not.toThrow();
    else expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  test('GIVEN offsets WHEN turned into lines THEN lines and columns count from 1', () => {
    const text = 'ab\ncd\n\nef';
    expect([0, 1, 2, 3, 6, 7, 9, 99].map((o) => lineAndColumn(text, o))).toEqual([
      { line: 1, column: 1 },
      { line: 1, column: 2 },
      { line: 1, column: 3 },
      { line: 2, column: 1 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
      { line: 4, column: 3 },
      { line: 4, column: 3 },
    ]);
  });
});
