/**
 * verify's Terraform runs as deploy's and teardown's do (labTerraformEnv): the
 * filesystem provider mirror only for an emulator run. HOPLAB_PROVIDER_MIRROR
 * set on a host's machine must not switch a real verify to the mirror, which
 * holds the AWS provider only: `terraform init` of an `-lb` stack would then
 * fail for want of the helm and kubernetes providers. (`A || B ? x : y` is
 * `(A || B) ? x : y`: verify had that precedence slip.)
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { validConfig } from '../../../lib/config/load';
import { runVerify } from '../../../lib/commands/verify/verify';
import { AWS_PROVIDER_VERSION } from '../../../lib/lab/files/terraform-env';

/** A stand-in that logs each call with the CLI config Terraform was given. */
const CONFIG_LOGGING_TERRAFORM = `#!/bin/sh
echo "$1 \${TF_CLI_CONFIG_FILE:-none}" >> "$HOPLAB_TF_LOG"
case "$1" in
  version) echo '{"terraform_version":"1.11.4","provider_selections":{}}' ;;
  output) echo '{}' ;;
  *) echo "$1 ok" ;;
esac
exit 0
`;

describe("verify's Terraform and the provider mirror", () => {
  test('GIVEN HOPLAB_PROVIDER_MIRROR set and no emulator WHEN verified THEN no Terraform call is given the mirror-only CLI config', async () => {
    const { dir, restore } = fakeTerraformOnPath('hoplab-verify-mirror-', CONFIG_LOGGING_TERRAFORM);
    const mirror = mkdtempSync(join(tmpdir(), 'hoplab-mirror-'));
    mkdirSync(join(mirror, 'registry.terraform.io', 'hashicorp', 'aws', AWS_PROVIDER_VERSION), { recursive: true });
    const saved = { mirror: process.env.HOPLAB_PROVIDER_MIRROR, log: process.env.HOPLAB_TF_LOG };
    process.env.HOPLAB_PROVIDER_MIRROR = mirror;
    process.env.HOPLAB_TF_LOG = join(dir, 'calls.log');
    try {
      await runVerify({
        config: validConfig({ backend: { type: 's3', bucket: 'hoplab-state', region: 'us-east-1' } }, 'test'),
        kinds: ['aws-cluster'],
        cwd: dir,
        waitMs: 0,
        reportPath: 'mirror',
        probe: { count: 1, concurrency: 1, timeoutMs: 1_000 },
        progress: () => undefined,
        credentials: async () => ({}),
      });
      const calls = readFileSync(join(dir, 'calls.log'), 'utf8').trim().split('\n');
      expect(calls.some((c) => c.startsWith('plan '))).toBe(true);
      expect(calls.filter((c) => c.includes(join('.hoplab', 'terraform.rc')))).toEqual([]);
    } finally {
      restore();
      for (const [key, value] of [
        ['HOPLAB_PROVIDER_MIRROR', saved.mirror],
        ['HOPLAB_TF_LOG', saved.log],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});
