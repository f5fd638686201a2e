import { GcsBackend, S3Backend, TerraformStack } from 'cdktf';
import { BackendConfig } from './config/schema';

/**
 * Puts a stack's state where the config says, one state per stack:
 * - `local` (default): cdktf's local backend, `terraform.<stack>.tfstate` in the project directory;
 * - `s3`: `s3://<bucket>/<keyPrefix>/<stack>.tfstate`, locked with S3's native lock file
 *   (`use_lockfile`, Terraform 1.10+; no DynamoDB table);
 * - `gcs`: `gs://<bucket>/<prefix>/<stack>/default.tfstate` (GCS locks natively).
 * Cross-stack references read the other stack's state through the same backend.
 */
export function addStateBackend(stack: TerraformStack, backend: BackendConfig, stackName: string): void {
  switch (backend.type) {
    case 'local':
      return;
    case 's3': {
      const s3 = new S3Backend(stack, { bucket: backend.bucket, region: backend.region, key: `${backend.keyPrefix}/${stackName}.tfstate`, encrypt: true });
      s3.addOverride('use_lockfile', true);
      return;
    }
    case 'gcs':
      new GcsBackend(stack, { bucket: backend.bucket, prefix: `${backend.prefix}/${stackName}` });
      return;
  }
}
