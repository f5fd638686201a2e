/**
 * Where a JSON config stops being JSON and why (lib/config/json-syntax.ts, on
 * jsonc-parser): the offset and V8's words for each kind of mistake, fixed
 * here so that they cannot follow the Node version (Node 20 and 24 word a name
 * without its colon differently; these are Node 24's words).
 */
import { jsonSyntaxProblem, lineAndColumn } from '../../lib/config/json-syntax';

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
  ])('GIVEN %p WHEN read THEN JSON stops at %p', (text, offset) => {
    expect(jsonSyntaxProblem(text)?.offset).toBe(offset);
    // It agrees with JSON.parse about what is valid.
    if (offset === undefined) expect(() => JSON.parse(text)).not.toThrow();
    else expect(() => JSON.parse(text)).toThrow(SyntaxError);
  });

  test.each<[string, string, number]>([
    // where a value should be
    ['{"a": }', "Unexpected token '}'", 6],
    ['[1,]', "Unexpected token ']'", 3],
    ['{"a": yes}', "Unexpected token 'y'", 6],
    ['{"a": tru}', "Unexpected token '}'", 9],
    ['[n"x"]', 'Unexpected string', 2],
    ['{"a": 0123}', 'Unexpected number', 7],
    ['01', 'Unexpected number', 1],
    ['{"a": -x}', 'No number after minus sign', 7],
    ['{"a": 1.}', 'Unterminated fractional number', 8],
    ['{"a": 1e+}', 'Exponent part is missing a number', 9],
    ['NaN', '"NaN" is not valid JSON', 0],
    ['', 'the file ends before the JSON does', 0],
    ['{"a": [1,', 'the file ends before the JSON does', 9],
    ['{"a": fals', 'the file ends before the JSON does', 10],
    // in a string
    ['{"a": "abc', 'Unterminated string', 10],
    ['{"a": "x\ty"}', 'Bad control character in string literal', 8],
    ['{"a": "\\q"}', 'Bad escaped character', 8],
    ['{"a": "\\u12"}', 'Bad Unicode escape', 11],
    ['{"a": "\\', 'the file ends before the JSON does', 8],
    // between names and values
    ['{', "Expected property name or '}'", 1],
    ["{'a': 1}", "Expected property name or '}'", 1],
    ['{"a": 1,}', 'Expected double-quoted property name', 8],
    ['{"a" 1}', "Expected ':' after property name", 5],
    ['{"a", "b": 1}', "Expected ':' after property name", 4],
    ['{"a": 1 "b": 2}', "Expected ',' or '}' after property value", 8],
    ['{"a": "x"",}', "Expected ',' or '}' after property value", 9],
    ['{"a": 1', "Expected ',' or '}' after property value", 7],
    ['[1 2]', "Expected ',' or ']' after array element", 3],
    ['[true1]', "Expected ',' or ']' after array element", 5],
    ['{"a": 1} x', 'Unexpected non-whitespace character after JSON', 9],
    ['{"a": 1}\n// note', 'Unexpected non-whitespace character after JSON', 9],
  ])('GIVEN %j WHEN read THEN it says %p at %p', (text, words, offset) => {
    expect(jsonSyntaxProblem(text)).toEqual({ offset, words });
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
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
