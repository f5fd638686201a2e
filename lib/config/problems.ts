/** One thing wrong with the lab config: the field, the value found there, and why it is not allowed. */
export interface ConfigProblem {
  /** Field path, e.g. `aws.availabilityZones[1]`. */
  readonly path: string;
  /** The value found at that path (undefined when the field is missing). */
  readonly value: unknown;
  /** What is wrong and how to fix it, phrased to follow the value: `is not ...`, `must ...`. */
  readonly reason: string;
}

/** `aws.vpcCidr: "10.0.0.0/33" is not an IPv4 CIDR block ...` */
export function formatProblem(problem: ConfigProblem): string {
  const value = problem.value === undefined ? '(missing)' : JSON.stringify(problem.value);
  return `${problem.path}: ${value} ${problem.reason}`;
}

/**
 * Thrown when the lab config cannot be used; its message lists every problem,
 * one a line. It is worded whole, so commands print it as it is (`userMessage`).
 */
export class ConfigError extends Error {
  constructor(
    /** Where the config came from (a file path, or "defaults"). */
    readonly source: string,
    /** Every problem found. */
    readonly problems: readonly ConfigProblem[],
  ) {
    const noun = problems.length === 1 ? 'problem' : 'problems';
    super([`hoplab: the lab config (${source}) has ${problems.length} ${noun}; nothing was synthesized:`, ...problems.map((p) => `  - ${formatProblem(p)}`)].join('\n'));
    this.name = 'ConfigError';
  }

  /** The message as the user reads it: already headed, printed without a prefix. */
  get userMessage(): string {
    return this.message;
  }
}

/** Renders a path array as `aws.availabilityZones[1]`. */
export function pathToString(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)), '');
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== 'object') {
      return undefined;
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
