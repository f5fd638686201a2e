import { existsSync, readFileSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseJson } from './json-syntax';
import { ConfigError } from './problems';
import { LabConfig } from './schema';
import { validateConfig } from './validate';

/** File names looked for in the working directory, in order. */
export const CONFIG_FILE_NAMES = ['hoplab.config.json', 'hoplab.config.yaml', 'hoplab.config.yml'] as const;

/** A validated lab config and where it came from. */
export interface LoadedConfig {
  readonly config: LabConfig;
  /** The file read, or `defaults` when there was none. */
  readonly source: string;
  /**
   * Which config was read, in words, for a refusal's last line: `config read: <path>`, or that
   * none was found (where it was looked for) and the defaults apply.
   */
  readonly origin: string;
  /** What validation says about accepted choices (deprecations, what a change recreates), one a line. */
  readonly notes: readonly string[];
}

export interface LoadConfigOptions {
  /** Directory to look for `hoplab.config.*` in. @default process.cwd() */
  readonly cwd?: string;
  /** Environment to read `HOPLAB_CONFIG` from. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** The date example expiries in the problems' hints are made from (the command's clock). @default the host's clock */
  readonly now?: Date;
}

/**
 * Finds, parses and validates the lab config: the file named by `HOPLAB_CONFIG`,
 * else `hoplab.config.json`/`.yaml`/`.yml` in `cwd`, else the defaults.
 * Throws a {@link ConfigError} listing every problem.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const path = findConfigFile(cwd, env);
  const source = path ?? 'defaults';
  const result = checkedConfig(path === undefined ? {} : readConfigFile(path), source, options.now);
  return { config: result.config, source, origin: configOrigin(path, resolve(cwd), env), notes: result.notes };
}

/** {@link LoadedConfig.origin}: the file read (and whether HOPLAB_CONFIG named it), or where none was found. */
export function configOrigin(path: string | undefined, cwd: string, env: NodeJS.ProcessEnv): string {
  if (path !== undefined) return `config read: ${path}${env.HOPLAB_CONFIG ? ' (named by HOPLAB_CONFIG)' : ''}`;
  const names = `${CONFIG_FILE_NAMES.slice(0, -1).join(', ')} or ${CONFIG_FILE_NAMES.at(-1)}`;
  return `no config file found (no ${names} in ${cwd}, and HOPLAB_CONFIG is not set): the defaults apply`;
}

/** Validates an already parsed config object; throws a {@link ConfigError} on problems. */
export function validConfig(raw: unknown, source: string): LabConfig {
  return checkedConfig(raw, source).config;
}

function checkedConfig(raw: unknown, source: string, now?: Date): { readonly config: LabConfig; readonly notes: readonly string[] } {
  const result = validateConfig(raw, { now });
  if (!result.ok) {
    throw new ConfigError(source, result.problems);
  }
  return result;
}

function findConfigFile(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const fromEnv = env.HOPLAB_CONFIG;
  if (fromEnv !== undefined && fromEnv !== '') {
    const path = resolve(cwd, fromEnv);
    if (!existsSync(path)) {
      throw new ConfigError(fromEnv, [{ path: 'HOPLAB_CONFIG', value: fromEnv, reason: 'names a file that does not exist; point it at a hoplab.config.json or .yaml file, or unset it' }]);
    }
    return path;
  }
  const found = CONFIG_FILE_NAMES.map((name) => resolve(cwd, name)).filter((path) => existsSync(path));
  if (found.length > 1) {
    throw new ConfigError(found.join(', '), [{ path: '(config file)', value: found, reason: 'are several config files in one directory; keep one, or choose with HOPLAB_CONFIG' }]);
  }
  return found[0];
}

function readConfigFile(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  const json = extname(path).toLowerCase() === '.json';
  if (json) {
    // Where and why it is not JSON, from jsonc-parser: the same words on every Node version.
    return parseJson(text, (reason) => new ConfigError(path, [{ path: '(config file)', value: path, reason }]));
  }
  try {
    return parseYaml(text);
  } catch (error) {
    // The parser's first lines: the message and the offending line with its position.
    const reason = `is not valid YAML: ${
      error instanceof Error
        ? error.message
            .split('\n')
            .filter((l) => l.trim() !== '')
            .slice(0, 3)
            .join(' | ')
        : String(error)
    }`;
    throw new ConfigError(path, [{ path: '(config file)', value: path, reason }]);
  }
}
