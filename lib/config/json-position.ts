/**
 * Where a JSON text stops being JSON, as a line and column a person can find in an editor:
 * `JSON.parse` names a byte offset (Node 20), or an offset and a line (Node 22+), or neither
 * (`Unexpected token 'x', "..." is not valid JSON`).
 */

/** 1-based line and column of `offset` in `text` (a tab counts as one column). */
export function lineAndColumn(text: string, offset: number): { readonly line: number; readonly column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/**
 * The offset of the first character that is not JSON (RFC 8259), or `text.length` when the text
 * ends too early; undefined when the text is valid JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    for (const c of word) {
      if (text[i] !== c) fail();
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    for (;;) {
      if (i >= text.length || text.charCodeAt(i) < 0x20) fail();
      const c = text[i];
      if (c === '"') break;
      if (c === '\\') {
        i++;
        if (i >= text.length) fail();
        if (text[i] === 'u') {
          for (let k = 0; k < 4; k++) {
            i++;
            if (i >= text.length || !/[0-9a-fA-F]/.test(text[i])) fail();
          }
        } else if (!'"\\/bfnrt'.includes(text[i])) fail();
      }
      i++;
    }
    i++;
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail();
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') return void i++;
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ':') fail();
        i++;
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === '}') return void i++;
        else fail();
      }
    }
    if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ',') i++;
        else if (text[i] === ']') return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    number();
  };
  try {
    value();
    ws();
    return i < text.length ? i : undefined;
  } catch (offset) {
    if (typeof offset !== 'number') throw offset;
    return Math.min(offset, text.length);
  }
}
