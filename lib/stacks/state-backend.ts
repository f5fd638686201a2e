import { GcsBackend, LocalBackend, S3Backend, TerraformStack } from 'cdktf';
import { BackendConfig } from '../config/schema';
import { chooseStatePlacement, EmulatorState, StatePlacement } from './state-placement';

export { chooseStatePlacement, EMULATOR_STATE_DIR } from './state-placement';
export type { EmulatorState, StatePlacement } from './state-placement';

/**
 * Puts a stack's state where {@link chooseStatePlacement} says, one state per stack.
 * Cross-stack references read the other stack's state through the same backend.
 */
export function addStateBackend(stack: TerraformStack, backend: BackendConfig, stackName: string, emulator?: EmulatorState): StatePlacement {
  const placement = chooseStatePlacement(backend, stackName, emulator);
  switch (placement.kind) {
    case 'local':
      break;
    case 's3': {
      const s3 = new S3Backend(stack, { bucket: placement.bucket, region: placement.region, key: placement.key, encrypt: true });
      s3.addOverride('use_lockfile', true);
      break;
    }
    case 'gcs':
      new GcsBackend(stack, { bucket: placement.bucket, prefix: placement.prefix });
      break;
    case 'emulator-s3':
      new S3Backend(stack, {
        bucket: placement.bucket,
        region: placement.region,
        key: placement.key,
        endpoints: { s3: placement.endpoint, sts: placement.endpoint, iam: placement.endpoint },
        usePathStyle: true,
        accessKey: 'hoplab-local',
        secretKey: 'hoplab-local',
        skipCredentialsValidation: true,
        skipRequestingAccountId: true,
        skipMetadataApiCheck: true,
        skipRegionValidation: true,
      });
      break;
    case 'emulator-local':
      new LocalBackend(stack, { path: placement.path });
      break;
  }
  return placement;
}

/**
 * Creates `bucket` in the emulator's S3 if it is not there yet (moto keeps
 * state in memory, so a fresh emulator never has it). Only ever called with an
 * emulator endpoint: the real bucket is the host's and must already exist.
 */
export async function ensureEmulatorStateBucket(endpoint: string, bucket: string, region: string): Promise<void> {
  const url = `${endpoint.replace(/\/$/, '')}/${bucket}`;
  const head = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
  if (head.ok) return;
  const body =
    region === 'us-east-1' ? undefined : `<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>${region}</LocationConstraint></CreateBucketConfiguration>`;
  const created = await fetch(url, { method: 'PUT', body, signal: AbortSignal.timeout(10_000) });
  if (!created.ok) {
    throw new Error(`could not create the state bucket "${bucket}" in the AWS emulator at ${endpoint}: HTTP ${created.status} ${(await created.text()).slice(0, 200)}`);
  }
}
