import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_REFERENCE_PATH, configReferenceMarkdown } from '../../lib/config/config-reference';
import { labConfigJsonSchema } from '../../lib/config/json-schema';

interface Node {
  description?: string;
  properties?: Record<string, Node>;
  oneOf?: Node[];
  anyOf?: Node[];
}

/**
 * Every field of the schema with its dotted path and description: object fields
 * at any depth, and the fields of each variant of a union (`backend.bucket` of
 * both the s3 and the gcs shape). Walked here, not by the generator, so a field
 * the generator skipped cannot skip this list too.
 */
function describedFields(node: Node, path = ''): { path: string; description?: string }[] {
  const own = path ? [{ path, description: node.description }] : [];
  const fields = Object.entries(node.properties ?? {}).flatMap(([name, child]) => describedFields(child, path ? `${path}.${name}` : name));
  const variants = [...(node.oneOf ?? []), ...(node.anyOf ?? [])].flatMap((option) => Object.entries(option.properties ?? {}).flatMap(([name, child]) => describedFields(child, `${path}.${name}`)));
  return [...own, ...fields, ...variants];
}

describe('generated configuration reference', () => {
  test(`GIVEN the config schema WHEN the reference is generated THEN it equals the committed ${CONFIG_REFERENCE_PATH} (run \`npm run docs\` after changing the config)`, () => {
    const committed = readFileSync(join(__dirname, '..', '..', CONFIG_REFERENCE_PATH), 'utf8');
    const generated = configReferenceMarkdown();
    if (committed !== generated) {
      throw new Error(`${CONFIG_REFERENCE_PATH} is not what the config schema generates: run \`npm run docs\` (and \`npm run schema\` if the zod schema changed), then commit the result`);
    }
  });

  test('GIVEN the JSON Schema WHEN the reference is generated THEN every field appears, as a section or a table row, with its description', () => {
    const schema = labConfigJsonSchema() as Node;
    const markdown = configReferenceMarkdown();
    const rows = markdown.split('\n').filter((line) => line.startsWith('| `'));
    const fields = describedFields(schema);
    expect(fields.map((f) => f.path)).toEqual(
      expect.arrayContaining(['name', 'aws', 'aws.region', 'aws.cilium.loadBalancerAlgorithm', 'backend', 'backend.bucket', 'backend.keyPrefix', 'backend.prefix', 'deploy.parallelism']),
    );
    // A section (`aws`, `backend`) is a heading with its description under it; every other field is a row holding its description.
    const shown = ({ path, description }: { path: string; description?: string }) =>
      markdown.includes(`\n## \`${path}\`\n\n${description ?? ''}`) || rows.some((row) => row.startsWith(`| \`${path}\` |`) && row.includes((description ?? '').replace(/\|/g, '\\|')));
    expect(fields.filter((field) => !shown(field)).map((field) => field.path)).toEqual([]);
  });

  test('GIVEN the reference WHEN read THEN enum values and defaults are shown', () => {
    const markdown = configReferenceMarkdown();
    expect(markdown).toContain('| `aws.datapath` | string, one of `iptables`, `nftables`, `ipvs`, `cilium` | `"iptables"` |');
    expect(markdown).toContain('| `deploy.parallelism` | `auto`, or integer, 1 to 32 | `4` |');
    expect(markdown).toContain('| `backend.bucket` | string, matching `^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$` | required |');
  });
});
