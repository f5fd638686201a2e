/**
 * Where a JSON config stops being JSON and why (lib/config/json-syntax.ts, on
 * jsonc-parser): the offset and V8's words for each kind of mistake, fixed
 * here so that they cannot follow the Node version (Node 20 and 24 word a name
 * without its colon differently; these are Node 24's words).
 */
import { jsonSyntaxProblem, jsonSyntaxReason, lineAndColumn, parseJson } from '../../lib/config/json-syntax';

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

describe('parseJson: the files hoplab reads, not only its config', () => {
  const refuse = (reason: string) => new Error(`f.json ${reason}`);

  test('GIVEN JSON THEN its value, as JSON.parse reads it (nesting deeper than jsonc-parser could follow included)', () => {
    expect(parseJson('{"a": [1, "\\u00e9", null]}', refuse)).toEqual({ a: [1, 'é', null] });
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(() => parseJson(deep, refuse)).not.toThrow();
  });

  test('GIVEN a text that is not JSON THEN the error made of the reason: line, column, V8 words, the line', () => {
    expect(() => parseJson('{\n  "a": 1,\n}', refuse)).toThrow(
      new Error('f.json is not valid JSON at line 3, column 1: Expected double-quoted property name; JSON allows no comma before "}" or "]" (line 3: "}")'),
    );
  });

  test('GIVEN a mistake on a line longer than 120 characters (a file written on one line) THEN 120 characters around it are quoted, from their column', () => {
    const items = Array.from({ length: 50 }, (_, i) => `"v${i}"`).join(',');
    const text = `[${items},,${items}]`;
    const column = text.indexOf(',,') + 2;
    expect([column, text.length]).toEqual([292, 582]);
    expect(() => parseJson(text, refuse)).toThrow(new Error(`f.json is not valid JSON at line 1, column 292: Unexpected token ',' (line 1 from column 232: ${JSON.stringify(text.slice(231, 351))})`));
    // Near the end of the line the window ends with it.
    expect(jsonSyntaxReason(`[${items},]`)).toBe(
      `is not valid JSON at line 1, column ${items.length + 3}: Unexpected token ']'; JSON allows no comma before "}" or "]" (line 1 from column ${items.length + 4 - 120}: ${JSON.stringify(
        `[${items},]`.slice(-120),
      )})`,
    );
    // A line of 120 is quoted whole.
    expect(jsonSyntaxReason(`[${'1,'.repeat(59)}x`)).toBe(`is not valid JSON at line 1, column 120: Unexpected token 'x' (line 1: "[${'1,'.repeat(59)}x")`);
  });

  test('GIVEN nesting too deep for jsonc-parser that is not JSON either THEN the reason without a position, never a stack overflow', () => {
    expect(() => parseJson(`${'['.repeat(100_000)}x`, refuse)).toThrow(new Error('f.json is not valid JSON'));
  });
});
