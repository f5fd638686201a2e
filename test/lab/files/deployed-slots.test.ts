/**
 * Where the environments of a lab are deployed, read from their cluster stacks'
 * state: the local state files (the configured `local` backend, or an emulator
 * run's own), remote ones through `terraform state pull` (a stand-in here; the
 * real pull is tested against the emulator's S3 in test/emulator/lifecycle-cli.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validConfig } from '../../../lib/config/load';
import { readDeployedSlots } from '../../../lib/lab/files/deployed-slots';
import { placedAwsState, placedGcpState, tfState, writeState } from '../../support/tf-state';

let cwd: string;
beforeEach(() => (cwd = mkdtempSync(join(tmpdir(), 'hoplab-deployed-'))));
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const WORKSHOP = { attendees: ['ann', 'bob', 'cy'], aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['acme-lab-1', 'acme-lab-2'] } };
const summary = (slots: ReadonlyMap<string, { slot: { id: string }; where: string; from: string }>) => Object.fromEntries([...slots].map(([env, d]) => [env, `${d.slot.id} ${d.from} ${d.where}`]));

describe('readDeployedSlots', () => {
  test('GIVEN local state files of some environments THEN each deployed one with the slot its state says and where the state is; empty and missing ones are not deployed', async () => {
    writeState(join(cwd, 'terraform.ann-aws-cluster.tfstate'), placedAwsState({ slot: 'host/us-east-2', account: 'host', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] }));
    writeState(join(cwd, 'terraform.bob-aws-cluster.tfstate'), tfState({}, []));
    writeState(join(cwd, 'terraform.cy-gcp-cluster.tfstate'), placedGcpState({ project: 'acme-lab-2', region: 'us-central1', zones: ['us-central1-a'] }));
    const deployed = await readDeployedSlots(validConfig(WORKSHOP, 'test'), { cwd });
    expect(summary(deployed.aws)).toEqual({ ann: 'host/us-east-2 placement output terraform.ann-aws-cluster.tfstate' });
    expect(deployed.aws.get('ann')?.accountId).toBe('123456789012');
    expect(summary(deployed.gcp)).toEqual({ cy: 'acme-lab-2/us-central1 placement output terraform.cy-gcp-cluster.tfstate' });
    expect(deployed.unread).toEqual([]);
    expect(deployed.notRead).toEqual([]);
  });

  test("GIVEN an emulator run THEN the emulator's own state is read, never the real one beside it", async () => {
    writeState(join(cwd, 'terraform.ann-aws-cluster.tfstate'), placedAwsState({ slot: 'host/us-east-2', account: 'host', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] }));
    writeState(
      join(cwd, '.hoplab', 'emulator', 'terraform.bob-aws-cluster.tfstate'),
      placedAwsState({ slot: 'host/us-east-1', account: 'host', region: 'us-east-1', zones: ['us-east-1a', 'us-east-1b'] }),
    );
    const deployed = await readDeployedSlots(validConfig(WORKSHOP, 'test'), { cwd, awsEndpoint: 'http://127.0.0.1:5000', clouds: ['aws'] });
    expect(summary(deployed.aws)).toEqual({ bob: `host/us-east-1 placement output ${join('.hoplab', 'emulator', 'terraform.bob-aws-cluster.tfstate')}` });
  });

  test('GIVEN a state file that is not JSON, and one that says not where THEN both are unread, with why', async () => {
    writeFileSync(join(cwd, 'terraform.ann-aws-cluster.tfstate'), '{"version": 4, "resources": [');
    writeState(join(cwd, 'terraform.bob-gcp-cluster.tfstate'), tfState({}, [['random_id', { hex: 'ab' }]]));
    const deployed = await readDeployedSlots(validConfig(WORKSHOP, 'test'), { cwd });
    expect(deployed.unread).toEqual([
      {
        kind: 'not read',
        env: 'ann',
        cloud: 'aws',
        stack: 'ann-aws-cluster',
        where: 'terraform.ann-aws-cluster.tfstate',
        reason: 'is not valid JSON at line 1, column 30: the file ends before the JSON does (line 1: "{\\"version\\": 4, \\"resources\\": [")',
      },
      {
        kind: 'no location',
        env: 'bob',
        cloud: 'gcp',
        stack: 'bob-gcp-cluster',
        where: 'terraform.bob-gcp-cluster.tfstate',
        reason: 'holds resources but names no project (no placement output, no resource that says)',
      },
    ]);
  });

  test('GIVEN an s3 backend THEN the cluster stacks of the clouds asked for are pulled, once, and a pull that fails is unread', async () => {
    const config = validConfig({ ...WORKSHOP, backend: { type: 's3', bucket: 'acme-state', region: 'eu-west-1', keyPrefix: 'ws' } }, 'test');
    const asked: string[][] = [];
    const deployed = await readDeployedSlots(config, {
      cwd,
      clouds: ['aws'],
      pull: async (stacks) => {
        asked.push([...stacks]);
        return new Map([
          ['ann-aws-cluster', { state: placedAwsState({ slot: 'host/us-east-2', account: 'host', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] }) }],
          ['bob-aws-cluster', { state: undefined }],
          ['cy-aws-cluster', { error: 'terraform init of its backend failed: No valid credential sources found' }],
        ]);
      },
    });
    expect(asked).toEqual([['ann-aws-cluster', 'bob-aws-cluster', 'cy-aws-cluster']]);
    expect(summary(deployed.aws)).toEqual({ ann: 'host/us-east-2 placement output s3://acme-state/ws/ann-aws-cluster.tfstate' });
    expect(deployed.unread).toEqual([
      {
        kind: 'not read',
        env: 'cy',
        cloud: 'aws',
        stack: 'cy-aws-cluster',
        where: 's3://acme-state/ws/cy-aws-cluster.tfstate',
        reason: 'could not be read: terraform init of its backend failed: No valid credential sources found',
      },
    ]);
  });

  test('GIVEN a gcs backend and remote: false (synth) THEN nothing is pulled and the stacks are listed as not read', async () => {
    const config = validConfig({ ...WORKSHOP, backend: { type: 'gcs', bucket: 'acme-state' } }, 'test');
    const deployed = await readDeployedSlots(config, { cwd, remote: false, pull: () => Promise.reject(new Error('not asked')) });
    expect(deployed.notRead).toEqual(['ann-aws-cluster', 'ann-gcp-cluster', 'bob-aws-cluster', 'bob-gcp-cluster', 'cy-aws-cluster', 'cy-gcp-cluster']);
    expect(deployed.aws.size + deployed.gcp.size).toBe(0);
  });
});
