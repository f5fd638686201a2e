/**
 * Reading a synthesized stack (`cdk.tf.json`) the way cdktf writes it:
 * resources by type and key, blocks as objects (or one-element lists),
 * references as `${type.key.attr[0].field}` strings. Nothing here throws on a
 * missing piece: lookups answer `undefined` and callers report "unknown".
 */

/** One synthesized stack. */
export interface SynthStack {
  /** Stack name, e.g. `lab-aws-cluster`. */
  readonly name: string;
  /** File it was read from (for messages). */
  readonly file: string;
  /** The parsed `cdk.tf.json`. */
  readonly json: Record<string, unknown>;
}

/** A resource of a stack: its type, key and configuration. */
export interface TfResource {
  readonly type: string;
  readonly key: string;
  /** Terraform address, `type.key`. */
  readonly address: string;
  readonly config: Record<string, unknown>;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Blocks appear as objects or one-element lists depending on the provider schema; this gives the object. */
export function block(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value)) {
    return isRecord(value[0]) ? value[0] : undefined;
  }
  return isRecord(value) ? value : undefined;
}

/** Every resource of `type` in the stack, in key order. */
export function resourcesOf(stack: SynthStack, type: string): TfResource[] {
  const byType = block(block(stack.json.resource)?.[type]);
  if (!byType) {
    return [];
  }
  return Object.keys(byType)
    .sort()
    .flatMap((key) => {
      const config = block(byType[key]);
      return config ? [{ type, key, address: `${type}.${key}`, config }] : [];
    });
}

/** Walks a dotted path through blocks (`spec.rule.http`), taking the first element of lists. */
export function dig(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (Array.isArray(current)) {
      current = current[0];
    }
    if (!isRecord(current)) {
      return undefined;
    }
    current = current[part];
  }
  return current;
}

const REFERENCE = /^\$\{([a-z0-9_]+)\.([A-Za-z0-9_-]+)\.([^}]+)\}$/;

/**
 * Resolves a value that is a plain reference to another resource's argument
 * in the same stack (`${kubernetes_service_v1.svc.metadata[0].name}`) to that
 * argument's literal. Answers `undefined` for computed attributes, references
 * into expressions, and anything not literal after a few steps.
 */
export function resolve(stack: SynthStack, value: unknown, depth = 0): unknown {
  if (typeof value !== 'string' || !value.includes('${')) {
    return value;
  }
  const match = REFERENCE.exec(value);
  if (!match || depth > 5) {
    return undefined;
  }
  const [, type, key, path] = match;
  const target = block(block(block(stack.json.resource)?.[type])?.[key]);
  if (!target) {
    return undefined;
  }
  // metadata[0].name -> metadata.name: blocks are objects in the synthesized JSON.
  const parts = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p !== '');
  let current: unknown = target;
  for (const part of parts) {
    if (/^\d+$/.test(part)) {
      if (Array.isArray(current)) {
        current = current[Number(part)];
      }
      continue;
    }
    const holder = block(current);
    if (!holder) {
      return undefined;
    }
    current = holder[part];
  }
  return resolve(stack, current, depth + 1);
}

/** A resolved string, or `undefined` when it is not known offline. */
export function literalString(stack: SynthStack, value: unknown): string | undefined {
  const resolved = resolve(stack, value);
  return typeof resolved === 'string' ? resolved : undefined;
}

/** A resolved number (numeric strings too), or `undefined`. */
export function literalNumber(stack: SynthStack, value: unknown): number | undefined {
  const resolved = resolve(stack, value);
  if (typeof resolved === 'number' && Number.isFinite(resolved)) {
    return resolved;
  }
  if (typeof resolved === 'string' && /^\d+$/.test(resolved)) {
    return Number(resolved);
  }
  return undefined;
}

/** A string map (labels, annotations) with its values resolved where possible. */
export function stringMap(stack: SynthStack, value: unknown): Record<string, string> {
  const map = block(value);
  if (!map) {
    return {};
  }
  const result: Record<string, string> = {};
  for (const [key, raw] of Object.entries(map)) {
    const resolved = literalString(stack, raw);
    if (resolved !== undefined) {
      result[key] = resolved;
    }
  }
  return result;
}

/** The literal value of an output, or `undefined` when missing or computed by Terraform. */
export function outputValue(stack: SynthStack, name: string): unknown {
  const output = block(block(stack.json.output)?.[name]);
  if (!output || !('value' in output)) {
    return undefined;
  }
  const value = output.value;
  if (typeof value === 'string') {
    return literalString(stack, value);
  }
  return JSON.stringify(value).includes('${') ? undefined : value;
}
