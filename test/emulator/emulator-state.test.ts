/**
 * Emulator runs never share state with real runs, shown with real Terraform
 * against moto: the lab's real aws-cluster stack with an `s3` backend,
 * synthesized in emulator mode as `deploy` does, is applied (only its VPC,
 * `-target`, to keep this fast) and destroyed with its state in the emulator's
 * own S3, next to a real-looking state file that must stay byte-for-byte as it was;
 * while it stands, where it is deployed is read back from that S3 state.
 * The local-backend case runs in full in lifecycle-emulator.test.ts.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { LabConfigInput } from '../../lib/config/schema';
import { validConfig } from '../../lib/config/load';
import { addLab, synthFresh } from '../../lib/stacks/hoplab-app';
import { Emulator, startMoto } from '../../lib/commands/local/moto';
import { writeMirrorCliConfig } from '../../lib/kit/terraform/terraform';
import { findProviderMirror } from '../../lib/lab/files/terraform-env';
import { EMULATOR_STATE_DIR, ensureEmulatorStateBucket } from '../../lib/stacks/state-backend';
import { readDeployedSlots } from '../../lib/lab/files/deployed-slots';
import { runWatched } from './watchdog';

/** A state file as a real deploy leaves it: a real VPC the emulator knows nothing of. */
const REAL_STATE = `${JSON.stringify(
  {
    version: 4,
    terraform_version: '1.11.4',
    serial: 17,
    lineage: '5b1c7e0e-real-real-real-9f0c4d2a7e11',
    outputs: { cluster_name: { value: 'lab-eks', type: 'string' } },
    resources: [
      {
        mode: 'managed',
        type: 'aws_vpc',
        name: 'vpc_vpc_0A1B2C3D',
        provider: 'provider["registry.terraform.io/hashicorp/aws"]',
        instances: [{ schema_version: 1, attributes: { id: 'vpc-0123456789abcdef0', cidr_block: '10.0.0.0/16', tags: { 'hoplab-env': 'lab' } } }],
      },
    ],
    check_results: null,
  },
  null,
  2,
)}\n`;

describe('emulator runs keep their own state', () => {
  let moto: Emulator;
  const mirror = findProviderMirror();

  beforeAll(async () => {
    moto = await startMoto();
  });
  afterAll(async () => {
    await moto?.stop();
  });

  /** Synthesizes the lab in emulator mode in `cwd`, as `deploy` does, and returns the aws-cluster stack folder. */
  const synthForEmulator = (cwd: string, input: LabConfigInput): string => {
    const app = new App({ outdir: join(cwd, 'cdktf.out'), stackTraces: false });
    addLab(app, validConfig(input, 'test'), { awsEmulator: { endpoint: moto.endpoint }, emulatorStateDir: join(cwd, EMULATOR_STATE_DIR) });
    synthFresh(app);
    mkdirSync(join(cwd, EMULATOR_STATE_DIR), { recursive: true });
    return join(cwd, 'cdktf.out', 'stacks', 'lab-aws-cluster');
  };
  /** `terraform <args>` in `dir`, watched (watchdog.ts: it fails when Terraform stalls, not after a fixed time); its stdout, or an error with its output. */
  const terraform = async (dir: string, cwd: string, args: string[]) => {
    const env = { ...process.env, TF_IN_AUTOMATION: '1', CHECKPOINT_DISABLE: '1', ...writeMirrorCliConfig(join(cwd, 'terraform.rc'), mirror!) };
    const result = await runWatched('terraform', args, { cwd: dir, env });
    if (result.code !== 0) throw new Error(`terraform ${args.join(' ')} exited ${result.code}:\n${result.out.slice(-3000)}`);
    return result.stdout;
  };
  /** Applies and destroys only the VPC (and what it needs) of the real stack. */
  const applyAndDestroy = (dir: string, cwd: string, during: () => Promise<void> | void) => async () => {
    await terraform(dir, cwd, ['init', '-input=false', '-no-color']);
    const vpc = JSON.parse(readFileSync(join(dir, 'cdk.tf.json'), 'utf8')).resource.aws_vpc;
    const target = `aws_vpc.${Object.keys(vpc)[0]}`;
    await terraform(dir, cwd, ['apply', '-auto-approve', '-input=false', '-no-color', `-target=${target}`]);
    await during();
    await terraform(dir, cwd, ['destroy', '-auto-approve', '-input=false', '-no-color', `-target=${target}`]);
  };

  test('GIVEN an s3 backend WHEN applied in emulator mode THEN the state is the same bucket and key in the emulator, which the run created, and no local state file appears', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hoplab-emustate-'));
    const realFile = join(cwd, 'terraform.lab-aws-cluster.tfstate');
    writeFileSync(realFile, REAL_STATE);
    const input = { backend: { type: 's3', bucket: 'acme-real-state', region: 'eu-west-1', keyPrefix: 'workshops/dec' } } as const;
    const config = validConfig(input, 'test');
    const dir = synthForEmulator(cwd, input);
    await ensureEmulatorStateBucket(moto.endpoint, 'acme-real-state', 'eu-west-1');
    // Twice is fine: a bucket already there is kept.
    await ensureEmulatorStateBucket(moto.endpoint, 'acme-real-state', 'eu-west-1');
    const listing = `${moto.endpoint}/acme-real-state/`;

    await applyAndDestroy(dir, cwd, async () => {
      // Unsigned listing works in moto (an unsigned object GET is refused); Terraform reads the state back from there.
      expect(await (await fetch(listing)).text()).toContain('<Key>workshops/dec/lab-aws-cluster.tfstate</Key>');
      expect((await terraform(dir, cwd, ['state', 'list'])).trim().split('\n')).toEqual([expect.stringMatching(/^aws_vpc\./)]);
      // Where the lab is deployed, read back from that state with `terraform state pull` (a folder holding only the backend).
      const deployed = await readDeployedSlots(config, { cwd, awsEndpoint: moto.endpoint, clouds: ['aws'] });
      expect(deployed.unread).toEqual([]);
      expect(deployed.aws.get('lab')).toMatchObject({ slot: { id: 'host/us-east-1' }, where: "s3://acme-real-state/workshops/dec/lab-aws-cluster.tfstate (the emulator's S3)" });
    })();

    expect(readFileSync(realFile, 'utf8')).toBe(REAL_STATE);
    expect(existsSync(join(cwd, EMULATOR_STATE_DIR, 'terraform.lab-aws-cluster.tfstate'))).toBe(false);
    expect((await terraform(dir, cwd, ['state', 'list'])).trim()).toBe('');
  });
});
