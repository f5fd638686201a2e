import { join } from 'node:path';
import { App, Testing } from 'cdktf';
import { validConfig } from '../../lib/config/load';
import { LabConfigInput } from '../../lib/config/schema';
import { addLab } from '../../lib/stacks/hoplab-app';
import { chooseStatePlacement } from '../../lib/stacks/state-backend';

const EMULATOR = { endpoint: 'http://127.0.0.1:5000', stateDir: '/proj/.hoplab/emulator' };
const backendOf = (input: LabConfigInput) => validConfig(input, 'test').backend;

describe('chooseStatePlacement', () => {
  test.each([
    ['local', {}, { kind: 'local' }],
    ['s3', { backend: { type: 's3', bucket: 'acme-state', region: 'eu-west-1' } }, { kind: 's3', bucket: 'acme-state', region: 'eu-west-1', key: 'hoplab/lab-aws-cluster.tfstate' }],
    ['gcs', { backend: { type: 'gcs', bucket: 'acme-state' } }, { kind: 'gcs', bucket: 'acme-state', prefix: 'hoplab/lab-aws-cluster' }],
  ] as const)('GIVEN a %s backend WHEN a real run places state THEN it is the configured one', (_kind, input, expected) => {
    expect(chooseStatePlacement(backendOf(input as LabConfigInput), 'lab-aws-cluster')).toEqual(expected);
  });

  test.each([
    ['local', {}],
    ['gcs', { backend: { type: 'gcs', bucket: 'acme-state' } }],
  ] as const)('GIVEN a %s backend WHEN an emulator run places state THEN it is a local file under .hoplab/emulator, never the real one', (_kind, input) => {
    expect(chooseStatePlacement(backendOf(input as LabConfigInput), 'lab-aws-cluster', EMULATOR)).toEqual({
      kind: 'emulator-local',
      path: '/proj/.hoplab/emulator/terraform.lab-aws-cluster.tfstate',
    });
  });

  test('GIVEN an s3 backend WHEN an emulator run places state THEN it is the same bucket and key in the emulator', () => {
    expect(chooseStatePlacement(backendOf({ backend: { type: 's3', bucket: 'acme-state', region: 'eu-west-1', keyPrefix: 'ws' } }), 'lab-aws-cluster', EMULATOR)).toEqual({
      kind: 'emulator-s3',
      bucket: 'acme-state',
      region: 'eu-west-1',
      key: 'ws/lab-aws-cluster.tfstate',
      endpoint: 'http://127.0.0.1:5000',
    });
  });
});

describe('addLab state backends', () => {
  const synthBackend = (input: LabConfigInput, emulator: boolean, stack = 'lab-aws-cluster') => {
    const app = Testing.app();
    const stacks = addLab(app as App, validConfig(input, 'test'), emulator ? { awsEmulator: { endpoint: EMULATOR.endpoint }, emulatorStateDir: EMULATOR.stateDir } : {});
    const all = stacks.flatMap((s) => [s.awsCluster, s.awsLb, s.gcpCluster, s.gcpLb]);
    return JSON.parse(Testing.synth(all.find((s) => s.node.id === stack)!)).terraform.backend;
  };

  test.each(['lab-aws-cluster', 'lab-aws-lb', 'lab-gcp-cluster', 'lab-gcp-lb'])(
    'GIVEN a gcs backend WHEN %s is synthesized for the emulator THEN its backend is a local file under .hoplab/emulator',
    (stack) => {
      expect(synthBackend({ backend: { type: 'gcs', bucket: 'acme-state' } }, true, stack)).toEqual({ local: { path: join(EMULATOR.stateDir, `terraform.${stack}.tfstate`) } });
    },
  );

  test('GIVEN an s3 backend WHEN synthesized for the emulator THEN the backend talks to the emulator, path-style, with dummy credentials', () => {
    expect(synthBackend({ backend: { type: 's3', bucket: 'acme-state', region: 'eu-west-1' } }, true)).toEqual({
      s3: {
        bucket: 'acme-state',
        key: 'hoplab/lab-aws-cluster.tfstate',
        region: 'eu-west-1',
        endpoints: { s3: EMULATOR.endpoint, sts: EMULATOR.endpoint, iam: EMULATOR.endpoint },
        use_path_style: true,
        access_key: 'hoplab-local',
        secret_key: 'hoplab-local',
        skip_credentials_validation: true,
        skip_requesting_account_id: true,
        skip_metadata_api_check: true,
        skip_region_validation: true,
      },
    });
  });

  test('GIVEN an s3 backend WHEN synthesized for real THEN the configured bucket with the native lock file', () => {
    expect(synthBackend({ backend: { type: 's3', bucket: 'acme-state', region: 'eu-west-1' } }, false)).toEqual({
      s3: { bucket: 'acme-state', key: 'hoplab/lab-aws-cluster.tfstate', region: 'eu-west-1', encrypt: true, use_lockfile: true },
    });
  });
});
