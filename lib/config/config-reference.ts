/**
 * The configuration reference (docs/config-reference.md), generated from the
 * lab config's JSON Schema, which is itself generated from the zod schema and
 * its `.describe()` texts: the reference, the schema and the validation cannot
 * drift apart. `npm run docs` writes the file; a test keeps it current.
 *
 * Imports only the JSON Schema (and node builtins), so it stays within the config layer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { labConfigJsonSchema } from './json-schema';

/** Where the generated reference lives, relative to the repo root. */
export const CONFIG_REFERENCE_PATH = 'docs/config-reference.md';

/** The part of a JSON Schema node this reference reads. */
interface SchemaNode {
  type?: string;
  description?: string;
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  anyOf?: SchemaNode[];
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
}

/** One table row: a field, by its dotted path from the top of the config. */
interface Row {
  path: string;
  type: string;
  default: string;
  description: string;
}

const NONE = '—';

/** Text for a Markdown table cell: one line, pipes escaped (also inside code spans, as GFM tables need). */
function cell(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
}

function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}

function json(value: unknown): string {
  return code(JSON.stringify(value));
}

/** A value of an enum or const, as a config file writes it: strings bare, anything else as JSON. */
function literal(value: unknown): string {
  return typeof value === 'string' ? code(value) : json(value);
}

/** A GitHub heading anchor for a heading made of one code span, e.g. `` `aws` `` -> `aws`, `` `$schema` `` -> `schema`. */
function anchor(field: string): string {
  return field
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

/** "1 to 50", "at least 2 items", "at most 1 item"; `unit` is singular, an `s` is added past one. */
function range(min: number | undefined, max: number | undefined, unit: string): string | undefined {
  const of = (count: number) => (unit ? `${unit}${count === 1 ? '' : 's'}` : '');
  if (min !== undefined && max !== undefined) {
    return `${min} to ${max}${of(max)}`;
  }
  if (min !== undefined) {
    return `at least ${min}${of(min)}`;
  }
  if (max !== undefined) {
    return `at most ${max}${of(max)}`;
  }
  return undefined;
}

/** The type of a node with its enum values and limits, e.g. "string, one of `single`, `one-per-az`". */
function typeText(node: SchemaNode): string {
  if (node.const !== undefined) {
    return literal(node.const);
  }
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives && node.type === undefined) {
    return alternatives.map(typeText).join(', or ');
  }
  const type = node.type ?? 'any';
  const parts: string[] = [type];
  if (type === 'array') {
    parts[0] = `array of ${node.items ? typeText(node.items) : 'any'}`;
    const items = range(node.minItems, node.maxItems, ' item');
    if (items) {
      parts.push(items);
    }
    return parts.length > 1 ? `${parts[0]}; ${parts.slice(1).join(', ')}` : parts[0];
  }
  if (node.enum) {
    parts.push(`one of ${node.enum.map(literal).join(', ')}`);
  }
  const bounds = range(node.minimum, node.maximum, '');
  if (bounds) {
    parts.push(bounds);
  }
  if (node.maxLength !== undefined) {
    parts.push(`at most ${node.maxLength} characters`);
  }
  if (node.pattern !== undefined) {
    parts.push(`matching ${code(node.pattern)}`);
  }
  return parts.join(', ');
}

/** Rows for `node` at `path` and, for an object, for each of its fields (depth first, in schema order). */
function rows(path: string, node: SchemaNode, required: boolean): Row[] {
  const own: Row = {
    path,
    type: typeText(node),
    default: node.default !== undefined && !isEmptyObject(node.default) ? json(node.default) : required ? 'required' : NONE,
    description: node.description ?? NONE,
  };
  const children = Object.entries(node.properties ?? {}).flatMap(([name, child]) => rows(`${path}.${name}`, child, node.required?.includes(name) ?? false));
  // A list whose items may be objects (attendees): a row per field of the object, at `<path>[].<field>`.
  const itemObjects = [node.items, ...(node.items?.anyOf ?? node.items?.oneOf ?? [])].filter((item): item is SchemaNode => item?.type === 'object' && item.properties !== undefined);
  const itemFields = itemObjects.flatMap((item) => Object.entries(item.properties ?? {}).flatMap(([name, child]) => rows(`${path}[].${name}`, child, item.required?.includes(name) ?? false)));
  // A field of one of several shapes, one an object (placement.perSlot): a row per field of the object, at `<path>.<field>`.
  const shapes = (node.anyOf ?? node.oneOf ?? []).filter((option) => option.type === 'object' && option.properties !== undefined);
  const shapeFields = shapes.flatMap((shape) => Object.entries(shape.properties ?? {}).flatMap(([name, child]) => rows(`${path}.${name}`, child, shape.required?.includes(name) ?? false)));
  return [own, ...children, ...itemFields, ...shapeFields];
}

/** True when every object in the schema rejects fields it does not list (zod's strictObject). */
function everyObjectIsClosed(node: SchemaNode): boolean {
  const closed = node.type !== 'object' || node.additionalProperties === false;
  const children = [...Object.values(node.properties ?? {}), ...(node.oneOf ?? []), ...(node.anyOf ?? []), ...(node.items ? [node.items] : [])];
  return closed && children.every(everyObjectIsClosed);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

function table(list: Row[]): string[] {
  return ['| field | type | default | description |', '|---|---|---|---|', ...list.map((row) => `| ${cell(code(row.path))} | ${cell(row.type)} | ${cell(row.default)} | ${cell(row.description)} |`)];
}

/** The object variants of a node (a discriminated union such as `backend`), each named by its constant field. */
function variants(node: SchemaNode): { label: string; node: SchemaNode }[] | undefined {
  const options = node.oneOf ?? node.anyOf;
  if (!options || !options.every((option) => option.type === 'object' && option.properties)) {
    return undefined;
  }
  return options.map((option) => {
    const discriminator = Object.entries(option.properties ?? {}).find(([, field]) => field.const !== undefined);
    return { label: discriminator ? `${discriminator[0]}: ${String(discriminator[1].const)}` : 'object', node: option };
  });
}

function section(field: string, node: SchemaNode, rootRequired: string[]): string[] {
  const lines = [`## ${code(field)}`, ''];
  // A field that is not an object is one row: its description is in it.
  if (node.description && (node.properties || variants(node))) {
    lines.push(node.description, '');
  }
  const options = variants(node);
  if (options) {
    lines.push(`Default: ${node.default !== undefined ? json(node.default) : NONE}. One of:`, '');
    for (const option of options) {
      lines.push(`### ${code(option.label)}`, '');
      const fields = Object.entries(option.node.properties ?? {}).flatMap(([name, child]) => rows(`${field}.${name}`, child, option.node.required?.includes(name) ?? false));
      lines.push(...table(fields), '');
    }
    return lines;
  }
  // An object's own row would repeat the paragraph above: its table starts with its fields.
  const list = rows(field, node, rootRequired.includes(field));
  lines.push(...table(node.properties ? list.slice(1) : list), '');
  return lines;
}

/** The whole reference page, as committed in {@link CONFIG_REFERENCE_PATH}. */
export function configReferenceMarkdown(): string {
  const schema = labConfigJsonSchema() as SchemaNode & { title?: string };
  const fields = Object.entries(schema.properties ?? {});
  const lines = [
    '<!-- GENERATED from the config schema by lib/config/config-reference.ts: do not edit. Regenerate with `npm run docs`. -->',
    '',
    '# Configuration reference',
    '',
    schema.description ?? '',
    '',
    'This page is generated from the descriptions in the zod schema (`lib/config/schema.ts`), by way of',
    'the JSON Schema in [`schema/hoplab.config.schema.json`](../schema/hoplab.config.schema.json), and a test',
    'keeps it current: after changing the schema, run `npm run schema` and `npm run docs`. For a guide and',
    'an example config, see [Configuration](configuration.md).',
    '',
  ];
  if (everyObjectIsClosed(schema)) {
    lines.push('Unknown fields are rejected, at the top level and inside every section.', '');
  }
  lines.push('## Top-level fields', '', '| field | type | description |', '|---|---|---|');
  for (const [field, node] of fields) {
    const type = variants(node) ? 'object, one of several shapes' : typeText(node);
    lines.push(`| [${cell(code(field))}](#${anchor(field)}) | ${cell(type)} | ${cell(node.description ?? NONE)} |`);
  }
  lines.push('');
  for (const [field, node] of fields) {
    lines.push(...section(field, node, schema.required ?? []));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Writes the reference to {@link CONFIG_REFERENCE_PATH} under `root` (`npm run docs`); returns the path written. */
export function writeConfigReference(root: string = process.cwd()): string {
  const file = join(root, CONFIG_REFERENCE_PATH);
  writeFileSync(file, configReferenceMarkdown());
  return file;
}
