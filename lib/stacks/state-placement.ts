/**
 * Where a stack's state lives, decided without cdktf: the commands that only read
 * state files (cost, synth, the local-state checks) start without loading it.
 * `state-backend.ts` puts a stack's state where this says.
 */
import { join } from 'node:path';
import { BackendConfig } from '../config/schema';

/** Where emulator runs keep state, relative to the project directory. */
export const EMULATOR_STATE_DIR = join('.hoplab', 'emulator');

/** An emulator run: where the emulator answers and where its local state goes. */
export interface EmulatorState {
  /** Base URL of the AWS emulator, e.g. `http://127.0.0.1:5000`. */
  readonly endpoint: string;
  /** Absolute directory for emulator-only local state (`<project>/.hoplab/emulator`). */
  readonly stateDir: string;
}

/** Where one stack's state goes: the decision, before any construct is made. */
export type StatePlacement =
  /** The configured local files, `terraform.<stack>.tfstate` in the project directory (cdktf's default). */
  | { readonly kind: 'local' }
  | { readonly kind: 's3'; readonly bucket: string; readonly region: string; readonly key: string }
  | { readonly kind: 'gcs'; readonly bucket: string; readonly prefix: string }
  /** Emulator run, configured `s3`: the same bucket and key, in the emulator's own S3. */
  | { readonly kind: 'emulator-s3'; readonly bucket: string; readonly region: string; readonly key: string; readonly endpoint: string }
  /** Emulator run, configured `local` or `gcs`: a local file under `.hoplab/emulator/`. */
  | { readonly kind: 'emulator-local'; readonly path: string };

/**
 * The one place that decides where a stack's state lives.
 *
 * Real runs use the configured backend:
 * - `local` (default): cdktf's local backend, `terraform.<stack>.tfstate` in the project directory;
 * - `s3`: `s3://<bucket>/<keyPrefix>/<stack>.tfstate`, locked with S3's native lock file
 *   (`use_lockfile`, Terraform 1.10+; no DynamoDB table);
 * - `gcs`: `gs://<bucket>/<prefix>/<stack>/default.tfstate` (GCS locks natively).
 *
 * Emulator runs (`emulator` given: HOPLAB_AWS_ENDPOINT) never touch the real state: a refresh
 * against an emulator drops from the state whatever the emulator does not know, which would
 * orphan real cloud resources. An `s3` backend is redirected to the same bucket and key in the
 * emulator's own S3 (path-style, dummy credentials); anything else becomes a local file under
 * `emulator.stateDir`, never the project's `terraform.<stack>.tfstate`.
 */
export function chooseStatePlacement(backend: BackendConfig, stackName: string, emulator?: EmulatorState): StatePlacement {
  if (emulator) {
    if (backend.type === 's3') {
      return { kind: 'emulator-s3', bucket: backend.bucket, region: backend.region, key: `${backend.keyPrefix}/${stackName}.tfstate`, endpoint: emulator.endpoint };
    }
    return { kind: 'emulator-local', path: join(emulator.stateDir, `terraform.${stackName}.tfstate`) };
  }
  switch (backend.type) {
    case 'local':
      return { kind: 'local' };
    case 's3':
      return { kind: 's3', bucket: backend.bucket, region: backend.region, key: `${backend.keyPrefix}/${stackName}.tfstate` };
    case 'gcs':
      return { kind: 'gcs', bucket: backend.bucket, prefix: `${backend.prefix}/${stackName}` };
  }
}
