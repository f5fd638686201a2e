import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_SCHEMA_PATH, labConfigJsonSchema, labConfigJsonSchemaText } from '../../lib/config/json-schema';

describe('published JSON Schema', () => {
  test('GIVEN the zod schema WHEN the JSON Schema is generated THEN it equals the committed file (run `npm run schema` after changing the config)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', JSON_SCHEMA_PATH), 'utf8');
    expect(committed).toBe(labConfigJsonSchemaText());
  });

  test('GIVEN the JSON Schema WHEN read THEN every section and field is described and unknown fields are rejected', () => {
    const schema = labConfigJsonSchema() as {
      additionalProperties: boolean;
      properties: Record<string, { description?: string; additionalProperties?: boolean; properties?: Record<string, { description?: string }> }>;
    };
    expect(schema.additionalProperties).toBe(false);
    for (const [section, body] of Object.entries(schema.properties)) {
      expect([section, body.description]).toEqual([section, expect.any(String)]);
      for (const [field, fieldBody] of Object.entries(body.properties ?? {})) {
        expect([`${section}.${field}`, fieldBody.description]).toEqual([`${section}.${field}`, expect.any(String)]);
      }
    }
  });
});
