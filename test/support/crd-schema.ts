/**
 * Validates custom resources against the OpenAPI v3 schema of their CRD, as the
 * API server's structural schema check would (CEL rules in
 * `x-kubernetes-validations` are not evaluated): the Gateway API CRDs hoplab
 * installs (charts/gateway-api-crds, v1.6.0) and the AWS Load Balancer
 * Controller's Gateway CRDs of v3.5.0 (test/fixtures/crds, copied from its chart).
 */
import Ajv, { ValidateFunction } from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const ROOT = join(__dirname, '..', '..');
const SOURCES = [join(ROOT, 'charts', 'gateway-api-crds', 'crds'), join(ROOT, 'test', 'fixtures', 'crds')];

interface CrdVersion {
  name: string;
  served: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
}
interface Crd {
  kind: string;
  spec: { group: string; names: { kind: string }; versions: CrdVersion[] };
}

let validators: Map<string, ValidateFunction> | undefined;

function load(): Map<string, ValidateFunction> {
  const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
  const found = new Map<string, ValidateFunction>();
  for (const dir of SOURCES) {
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.yaml'))) {
      for (const doc of parseAllDocuments(readFileSync(join(dir, file), 'utf8'))) {
        const crd = doc.toJS() as Crd | null;
        if (crd?.kind !== 'CustomResourceDefinition') continue;
        for (const version of crd.spec.versions) {
          const schema = version.schema?.openAPIV3Schema;
          if (version.served && schema) {
            found.set(`${crd.spec.group}/${version.name}/${crd.spec.names.kind}`, ajv.compile(schema));
          }
        }
      }
    }
  }
  return found;
}

/** Whether a CRD schema for `apiVersion`/`kind` is known here. */
export function hasCrdSchema(apiVersion: string, kind: string): boolean {
  validators ??= load();
  return validators.has(`${apiVersion}/${kind}`);
}

/** Throws with the schema errors when `object` does not fit its CRD's schema. */
export function validateCustomResource(object: { apiVersion: string; kind: string }): void {
  validators ??= load();
  const validate = validators.get(`${object.apiVersion}/${object.kind}`);
  if (!validate) {
    throw new Error(`no CRD schema for ${String((object as { apiVersion: string }).apiVersion)} in charts/gateway-api-crds or test/fixtures/crds`);
  }
  if (!validate(object)) {
    throw new Error(`${String((object as { kind: string }).kind)}: ${JSON.stringify(validate.errors)}`);
  }
}
