import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../lib/config/problems';
import { loadConfig } from '../../lib/config/load';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-load-'));
  for (const [name, text] of Object.entries(files)) {
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function loadError(cwd: string, env: NodeJS.ProcessEnv = {}): ConfigError {
  try {
    loadConfig({ cwd, env });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  test('GIVEN no config file WHEN loaded THEN the defaults apply', () => {
    const loaded = loadConfig({ cwd: dirWith({}), env: {} });
    expect(loaded.source).toBe('defaults');
    expect(loaded.config.name).toBe('lab');
  });

  test('GIVEN a malformed workshop.expiresAt WHEN loaded on a given date THEN the hint gives the next day of that date, 18:00 UTC', () => {
    const cwd = dirWith({ 'hoplab.config.yaml': 'workshop:\n  expiresAt: next friday\n' });
    expect(() => loadConfig({ cwd, env: {}, now: new Date('2027-03-04T20:00:00Z') })).toThrow('workshop.expiresAt: "next friday" is not a real ISO 8601 UTC time; write it as "2027-03-05T18:00:00Z"');
  });

  test('GIVEN no config file, one found, or one HOPLAB_CONFIG names WHEN loaded THEN the origin says which, or where none was found', () => {
    const empty = dirWith({});
    expect(loadConfig({ cwd: empty, env: {} }).origin).toBe(
      `no config file found (no hoplab.config.json, hoplab.config.yaml or hoplab.config.yml in ${empty}, and HOPLAB_CONFIG is not set): the defaults apply`,
    );
    const cwd = dirWith({ 'hoplab.config.yaml': 'name: yaml-lab\n', 'other.json': '{}' });
    expect(loadConfig({ cwd, env: {} }).origin).toBe(`config read: ${join(cwd, 'hoplab.config.yaml')}`);
    expect(loadConfig({ cwd, env: { HOPLAB_CONFIG: 'other.json' } }).origin).toBe(`config read: ${join(cwd, 'other.json')} (named by HOPLAB_CONFIG)`);
  });

  test('GIVEN hoplab.config.json WHEN loaded THEN it is read', () => {
    const cwd = dirWith({ 'hoplab.config.json': JSON.stringify({ name: 'json-lab' }) });
    expect(loadConfig({ cwd, env: {} })).toMatchObject({ source: join(cwd, 'hoplab.config.json'), config: { name: 'json-lab' } });
  });

  test('GIVEN hoplab.config.yaml WHEN loaded THEN it is read', () => {
    const cwd = dirWith({ 'hoplab.config.yaml': 'name: yaml-lab\naws:\n  nodeCount: 4\n' });
    expect(loadConfig({ cwd, env: {} }).config).toMatchObject({ name: 'yaml-lab', aws: { nodeCount: 4 } });
  });

  test('GIVEN HOPLAB_CONFIG WHEN loaded THEN that file wins over the working directory', () => {
    const other = dirWith({ 'custom.yml': 'name: from-env\n' });
    const cwd = dirWith({ 'hoplab.config.json': '{"name":"from-cwd"}' });
    expect(loadConfig({ cwd, env: { HOPLAB_CONFIG: join(other, 'custom.yml') } }).config.name).toBe('from-env');
  });

  test('GIVEN HOPLAB_CONFIG naming a missing file WHEN loaded THEN the error says so', () => {
    const error = loadError(dirWith({}), { HOPLAB_CONFIG: 'nope.yaml' });
    expect(error.message).toBe(
      'hoplab: the lab config (nope.yaml) has 1 problem; nothing was synthesized:\n' +
        '  - HOPLAB_CONFIG: "nope.yaml" names a file that does not exist; point it at a hoplab.config.json or .yaml file, or unset it',
    );
  });

  test('GIVEN both a JSON and a YAML config WHEN loaded THEN the ambiguity is an error', () => {
    const cwd = dirWith({ 'hoplab.config.json': '{}', 'hoplab.config.yaml': '{}' });
    expect(loadError(cwd).problems[0].reason).toBe('are several config files in one directory; keep one, or choose with HOPLAB_CONFIG');
  });

  test('GIVEN JSON with a syntax error WHEN loaded THEN the error names the file and the parser message', () => {
    const cwd = dirWith({ 'hoplab.config.json': '{"name": }' });
    const error = loadError(cwd);
    expect(error.problems).toHaveLength(1);
    expect(error.problems[0].reason).toBe('is not valid JSON at line 1, column 10: Unexpected token \'}\' (line 1: "{\\"name\\": }")');
  });

  // The same words on every Node version (jsonc-parser finds the mistake, not JSON.parse).
  test.each([
    [
      'a trailing comma',
      '{\n  "aws": {\n    "region": "us-east-1",\n    "nodeCount": 3,\n  }\n}\n',
      'is not valid JSON at line 5, column 3: Expected double-quoted property name; JSON allows no comma before "}" or "]" (line 5: "  }")',
    ],
    [
      'a missing comma',
      '{\n  "name": "lab"\n  "attendees": ["ann"]\n}\n',
      'is not valid JSON at line 3, column 3: Expected \',\' or \'}\' after property value (line 3: "  \\"attendees\\": [\\"ann\\"]")',
    ],
    [
      'a comment',
      '{\n  // the lab\n  "name": "lab"\n}\n',
      'is not valid JSON at line 2, column 3: Expected property name or \'}\'; JSON has no comments (a hoplab.config.yaml may have them) (line 2: "  // the lab")',
    ],
    ['single quotes', "{\n  'name': 'lab'\n}\n", "is not valid JSON at line 2, column 3: Expected property name or '}'; JSON strings and names take double quotes (line 2: \"  'name': 'lab'\")"],
    ['a word that is not a value', '{\n  "allowWorldOpenEndpoints": yes\n}\n', 'is not valid JSON at line 2, column 30: Unexpected token \'y\' (line 2: "  \\"allowWorldOpenEndpoints\\": yes")'],
    ['a file cut short', '{\n  "attendees": ["ann",\n', 'is not valid JSON at line 3, column 1: the file ends before the JSON does'],
  ])('GIVEN JSON with %s WHEN loaded THEN the error names line and column, not a byte position', (_name, text, reason) => {
    const cwd = dirWith({ 'hoplab.config.json': text });
    const error = loadError(cwd);
    expect(error.problems).toEqual([{ path: '(config file)', value: join(cwd, 'hoplab.config.json'), reason }]);
  });

  test('GIVEN YAML with a syntax error WHEN loaded THEN the error names the file and the parser message', () => {
    const cwd = dirWith({ 'hoplab.config.yaml': 'name: [unclosed\n' });
    expect(loadError(cwd).problems[0].reason).toMatch(/^is not valid YAML: /);
  });

  test('GIVEN an invalid value WHEN loaded THEN the message lists each problem under the file name', () => {
    const cwd = dirWith({ 'hoplab.config.yaml': 'name: Bad\naws:\n  nodeCount: 0\n' });
    const error = loadError(cwd);
    expect(error.message.split('\n')).toEqual([
      `hoplab: the lab config (${join(cwd, 'hoplab.config.yaml')}) has 2 problems; nothing was synthesized:`,
      '  - name: "Bad" is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (e.g. "lab" or "team-a")',
      '  - aws.nodeCount: 0 must be at least 1 nodes (allowed: 1 to 50)',
    ]);
  });

  test('GIVEN an empty YAML file WHEN loaded THEN the defaults apply', () => {
    expect(loadConfig({ cwd: dirWith({ 'hoplab.config.yaml': '' }), env: {} }).config.name).toBe('lab');
  });
});
