/**
 * Where a JSON config stops being JSON, and why, in words that do not depend
 * on the Node version: jsonc-parser (strict: no comments, no trailing commas)
 * finds the first token that is wrong and what the grammar expected there;
 * the words are V8's own for the same mistake (Node 20 and 24 word most of
 * them alike, but not all, and name the position differently), so the
 * messages read as they did when they were taken from `JSON.parse`.
 * {@link parseJson} gives the same words for every JSON file a command reads
 * (outputs, compare reports, synthesized stacks, state files).
 */
import { printParseErrorCode, visit } from 'jsonc-parser';

/** What a JSON text's first mistake is: where (an offset into the text) and what is wrong there. */
export interface JsonSyntaxProblem {
  readonly offset: number;
  readonly words: string;
}

/** What the grammar expects next, in the innermost object or array (or at the top). */
type Expect = 'value' | 'first-name' | 'name' | 'colon' | 'comma' | 'end';

interface Frame {
  readonly kind: 'top' | 'object' | 'array';
  expect: Expect;
}

/** The first error jsonc-parser reports, with the state it came in. */
interface FirstError {
  readonly code: string;
  readonly offset: number;
  readonly length: number;
  readonly frame: Frame;
  /** The value just before, when the error comes right after one. */
  readonly previous?: { readonly end: number; readonly text: string };
}

const END_OF_INPUT = 'the file ends before the JSON does';
/** Texts V8 names whole: `"NaN" is not valid JSON`. */
const WHOLE_TEXT_MISTAKES = ['NaN', 'Infinity', 'undefined', '[object Object]'];
const LITERALS = ['true', 'false', 'null'];

/** 1-based line and column of `offset` in `text` (a tab counts as one column). */
export function lineAndColumn(text: string, offset: number): { readonly line: number; readonly column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** The first mistake in `text` as JSON (RFC 8259), or undefined when it is JSON. */
export function jsonSyntaxProblem(text: string): JsonSyntaxProblem | undefined {
  const stack: Frame[] = [{ kind: 'top', expect: 'value' }];
  const top = () => stack[stack.length - 1];
  let previous: FirstError['previous'];
  let first: FirstError | undefined;
  const valueDone = (offset: number, length: number) => {
    top().expect = top().kind === 'top' ? 'end' : 'comma';
    previous = { end: offset + length, text: text.slice(offset, offset + length) };
  };
  // An object or array closed; one whose closing bracket is missing (length 0) is ended before the error that says so: it stays open.
  const closed = (offset: number, length: number) => {
    if (length === 0) return;
    stack.pop();
    valueDone(offset, length);
  };
  const unlessFailed =
    <A extends unknown[]>(handle: (...args: A) => void) =>
    (...args: A) => {
      if (first === undefined) handle(...args);
    };
  visit(
    text,
    {
      onObjectBegin: unlessFailed(() => void stack.push({ kind: 'object', expect: 'first-name' })),
      onArrayBegin: unlessFailed(() => void stack.push({ kind: 'array', expect: 'value' })),
      onObjectProperty: unlessFailed(() => void (top().expect = 'colon')),
      onSeparator: unlessFailed((character: string) => void (top().expect = character === ':' ? 'value' : top().kind === 'object' ? 'name' : 'value')),
      onLiteralValue: unlessFailed((_value: unknown, offset: number, length: number) => valueDone(offset, length)),
      onObjectEnd: unlessFailed(closed),
      onArrayEnd: unlessFailed(closed),
      onError: unlessFailed((code: number, offset: number, length: number) => {
        first = { code: printParseErrorCode(code), offset, length, frame: { ...top() }, ...(previous?.end === offset ? { previous } : {}) };
      }),
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return first && problemOf(text, first);
}

function problemOf(text: string, error: FirstError): JsonSyntaxProblem {
  const { offset, length, frame } = error;
  // A string or a number that is wrong inside, where one may stand (a string is also a name): what is wrong inside it.
  const named = frame.expect === 'first-name' || frame.expect === 'name';
  switch (error.code) {
    case 'UnexpectedEndOfString':
    case 'InvalidCharacter':
    case 'InvalidEscapeCharacter':
    case 'InvalidUnicode':
      if (frame.expect === 'value' || named) return stringProblem(text, offset);
      break;
    case 'UnexpectedEndOfNumber':
      if (frame.expect === 'value')
        return { offset: offset + length, words: /[eE]/.test(text.slice(offset, offset + length)) ? 'Exponent part is missing a number' : 'Unterminated fractional number' };
  }
  // A number that starts with 0 and goes on with a digit (`01`): V8 reads the 0, then stops at the digit.
  if (error.previous && /^-?0$/.test(error.previous.text) && /^\d/.test(text[offset] ?? '')) return { offset, words: 'Unexpected number' };
  if (frame.expect === 'value') return valueProblem(text, offset, frame);
  return { offset, words: expected(frame) };
}

/** What stands at `offset` where the grammar expects something other than a value. */
function expected(frame: Frame): string {
  switch (frame.expect) {
    case 'first-name':
      return "Expected property name or '}'";
    case 'name':
      return 'Expected double-quoted property name';
    case 'colon':
      return "Expected ':' after property name";
    case 'comma':
      return frame.kind === 'object' ? "Expected ',' or '}' after property value" : "Expected ',' or ']' after array element";
    default:
      return 'Unexpected non-whitespace character after JSON';
  }
}

/** What is wrong where a value should start. */
function valueProblem(text: string, offset: number, frame: Frame): JsonSyntaxProblem {
  if (WHOLE_TEXT_MISTAKES.includes(text)) return { offset, words: `"${text}" is not valid JSON` };
  if (offset >= text.length) return { offset: text.length, words: END_OF_INPUT };
  const literal = LITERALS.find((l) => l[0] === text[offset]);
  if (literal !== undefined) {
    // Read letter by letter, as V8 does: a whole literal with more after it is a value, and what follows is out of place.
    for (let i = 0; i < literal.length; i += 1) {
      if (offset + i >= text.length) return { offset: text.length, words: END_OF_INPUT };
      if (text[offset + i] !== literal[i]) return { offset: offset + i, words: unexpected(text[offset + i]) };
    }
    return { offset: offset + literal.length, words: expected({ kind: frame.kind, expect: frame.kind === 'top' ? 'end' : 'comma' }) };
  }
  if (text[offset] === '-') return { offset: offset + 1, words: 'No number after minus sign' };
  return { offset, words: unexpected(text[offset]) };
}

/** V8's words for a character that cannot stand where it does: by the token it starts. */
function unexpected(c: string): string {
  if (c === '"') return 'Unexpected string';
  if (c === '-' || /^\d$/.test(c)) return 'Unexpected number';
  return `Unexpected token '${c}'`;
}

/** The first mistake in the string that starts (its opening quote) at `start`. */
function stringProblem(text: string, start: number): JsonSyntaxProblem {
  for (let i = start + 1; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') break;
    if (c < ' ') return { offset: i, words: 'Bad control character in string literal' };
    if (c !== '\\') continue;
    const escaped = text[i + 1];
    if (escaped === undefined) return { offset: text.length, words: END_OF_INPUT };
    if (escaped === 'u') {
      for (let k = i + 2; k < i + 6; k += 1) if (!/^[0-9a-fA-F]$/.test(text[k] ?? '')) return { offset: Math.min(k, text.length), words: 'Bad Unicode escape' };
      i += 5;
    } else if ('"\\/bfnrt'.includes(escaped)) i += 1;
    else return { offset: i + 1, words: 'Bad escaped character' };
  }
  return { offset: text.length, words: 'Unterminated string' };
}

/**
 * A JSON syntax error as a line and column, what is wrong, a hint for the usual slips (a
 * trailing comma, a comment, single quotes), and the line itself:
 * `is not valid JSON at line 5, column 3: Expected double-quoted property name; JSON allows no comma before "}" or "]" (line 5: "  }")`.
 * Undefined when `text` is JSON.
 */
export function jsonSyntaxReason(text: string): string | undefined {
  const problem = jsonSyntaxProblem(text);
  if (problem === undefined) return undefined;
  const { offset, words } = problem;
  const { line, column } = lineAndColumn(text, offset);
  const before = text.slice(0, offset).trimEnd();
  const at = text[offset];
  const hint =
    (at === '}' || at === ']') && before.endsWith(',')
      ? 'JSON allows no comma before "}" or "]"'
      : at === '/' || at === '#'
      ? 'JSON has no comments (a hoplab.config.yaml may have them)'
      : at === "'"
      ? 'JSON strings and names take double quotes'
      : undefined;
  const lineText = (text.split('\n')[line - 1] ?? '').trimEnd();
  return `is not valid JSON at line ${line}, column ${column}: ${words}${hint ? `; ${hint}` : ''}${lineText.trim() ? ` (${quotedLine(lineText, line, column)})` : ''}`;
}

/** The longest line quoted whole; of a longer one (a file written on one line), the part around the column. */
const QUOTED_LINE = 120;

/** `line 5: "  }"`; of a line longer than {@link QUOTED_LINE}, `line 1 from column 941: "..."`, that many characters around `column`. */
function quotedLine(lineText: string, line: number, column: number): string {
  if (lineText.length <= QUOTED_LINE) return `line ${line}: ${JSON.stringify(lineText)}`;
  const start = Math.max(0, Math.min(column - 1 - QUOTED_LINE / 2, lineText.length - QUOTED_LINE));
  return `line ${line} from column ${start + 1}: ${JSON.stringify(lineText.slice(start, start + QUOTED_LINE))}`;
}

/**
 * `text` parsed as JSON; when it is not JSON, throws `error(reason)` with the reason in
 * {@link jsonSyntaxReason}'s words (`is not valid JSON at line 1, column 2: Expected property
 * name or '}' (line 1: "{x")`), the same on every Node version, where `JSON.parse`'s own message
 * differs between Node 20 and 22+. A valid text is read by `JSON.parse` alone.
 */
export function parseJson(text: string, error: (reason: string) => Error): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw error(notJsonReason(text));
  }
}

function notJsonReason(text: string): string {
  try {
    return jsonSyntaxReason(text) ?? 'is not valid JSON';
  } catch {
    // jsonc-parser reads nested arrays and objects recursively: nesting thousands deep runs out of stack.
    return 'is not valid JSON';
  }
}
