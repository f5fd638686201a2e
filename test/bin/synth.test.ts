import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { placedAwsState } from '../support/tf-state';

const ROOT = resolve(__dirname, '..', '..');
const APP = join(ROOT, 'dist', 'hoplab.js');

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', 'hoplab'], { cwd: ROOT });
});

function runIn(files: Record<string, string>, extra: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'hoplab-cli-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
  const env = { ...process.env, ...extra };
  delete env.HOPLAB_CONFIG;
  delete env.CDKTF_OUTDIR;
  const result = spawnSync(process.execPath, [APP], { cwd, env, encoding: 'utf8' });
  return { ...result, cwd };
}

describe('npm run synth (dist/hoplab.js)', () => {
  test('GIVEN no config WHEN synthesized THEN the default stacks are written and it exits 0', () => {
    const result = runIn({});
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readdirSync(join(result.cwd, 'cdktf.out', 'stacks'))).toContain('lab-aws-cluster');
    // The bundled app finds the local charts and writes each once, next to stacks/.
    expect(readdirSync(join(result.cwd, 'cdktf.out', 'charts')).sort()).toEqual([expect.stringMatching(/^gateway-api-crds-[0-9A-F]{32}$/), expect.stringMatching(/^hoplab-manifests-[0-9A-F]{32}$/)]);
    expect(result.stdout).toMatch(/^hoplab: synthesized \d+ stacks for "lab" \(config: defaults\) into cdktf.out\/stacks\n$/);
  });

  test('GIVEN six attendees WHEN synthesized THEN stderr notes the VPC default limit they exceed, as a default, not the account limit', () => {
    const result = runIn({ 'hoplab.config.yaml': 'attendees: [a1, a2, a3, a4, a5, a6]\n' });
    expect(result.status).toBe(0);
    expect(result.stderr.split('\n')).toContain(
      "hoplab: note: VPCs per Region: 6 environments need 6 in us-east-1, 7 with the default VPC of every region of a fresh account (1), over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (npx hoplab preflight checks your own)",
    );
    expect(result.stdout).toMatch(/^hoplab: synthesized 24 stacks for 6 environments/);
  });

  test('GIVEN a lab deployed in us-east-2 WHEN synthesized with us-east-2 removed THEN its stacks stay where its local state says, and a note says deploy refuses it and how to keep it', () => {
    const state = placedAwsState({ slot: 'host/us-east-2', account: 'host', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'] });
    const result = runIn({ 'hoplab.config.yaml': 'aws:\n  regions: [us-west-2]\n', 'terraform.lab-aws-cluster.tfstate': JSON.stringify(state) });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(
      "hoplab: note: lab's AWS environment is deployed in host/us-east-2 (its state, terraform.lab-aws-cluster.tfstate), but aws.regions no longer lists us-east-2: " +
        'the config would put it in host/us-west-2, and moving it would recreate it there and leave the old one billing; ' +
        'deploy refuses this: to keep it, add us-east-2 back to aws.regions, or tear it down first (npx hoplab teardown --env lab destroys it where its state says)\n',
    );
    const cluster = JSON.parse(readFileSync(join(result.cwd, 'cdktf.out', 'stacks', 'lab-aws-cluster', 'cdk.tf.json'), 'utf8'));
    expect(cluster.provider.aws[0].region).toBe('us-east-2');
  });

  test('GIVEN stacks of an earlier config WHEN the config changes and synth runs again THEN only the new stacks are left', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'hoplab-cli-'));
    const env = { ...process.env };
    delete env.HOPLAB_CONFIG;
    delete env.CDKTF_OUTDIR;
    writeFileSync(join(cwd, 'hoplab.config.yaml'), 'attendees: [ann, bob]\n');
    spawnSync(process.execPath, [APP], { cwd, env, encoding: 'utf8' });
    expect(readdirSync(join(cwd, 'cdktf.out', 'stacks'))).toHaveLength(8);
    writeFileSync(join(cwd, 'hoplab.config.yaml'), 'attendees: [ann]\n');
    const again = spawnSync(process.execPath, [APP], { cwd, env, encoding: 'utf8' });
    expect(again.status).toBe(0);
    expect(readdirSync(join(cwd, 'cdktf.out', 'stacks')).sort()).toEqual(['ann-aws-cluster', 'ann-aws-lb', 'ann-gcp-cluster', 'ann-gcp-lb']);
  });

  test('GIVEN a config with two bad values WHEN synthesized THEN it exits 1, prints one line per problem, and writes nothing', () => {
    const result = runIn({ 'hoplab.config.yaml': 'name: Lab\naws:\n  vpcCidr: 10.0.0.0/33\n' });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      [
        `hoplab: the lab config (${join(result.cwd, 'hoplab.config.yaml')}) has 2 problems; nothing was synthesized:`,
        '  - name: "Lab" is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (e.g. "lab" or "team-a")',
        '  - aws.vpcCidr: "10.0.0.0/33" is not an IPv4 CIDR block (each octet 0-255 without leading zeroes, prefix 0-32)',
        '',
      ].join('\n'),
    );
    expect(existsSync(join(result.cwd, 'cdktf.out'))).toBe(false);
  });

  test('GIVEN aws.datapath ipvs WHEN synthesized THEN it exits 0 and prints the deprecation note on stderr', () => {
    const result = runIn({ 'hoplab.config.yaml': 'aws:\n  datapath: ipvs\n' });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(
      'hoplab: note: aws.datapath: "ipvs" is deprecated upstream since Kubernetes 1.35 (kube-proxy may drop it in a later release); hoplab still offers it for comparison. "nftables" is its successor for large Service counts\n',
    );
  });

  test('GIVEN the old gcp.dataplaneV2 WHEN synthesized THEN it exits 1 with the fix', () => {
    const result = runIn({ 'hoplab.config.yaml': 'gcp:\n  dataplaneV2: true\n' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('  - gcp.dataplaneV2: true was replaced by gcp.datapath; write gcp.datapath: "dataplane-v2" instead (allowed: legacy, dataplane-v2)');
  });

  test('GIVEN 30 attendees over 8 AWS regions and 8 GCP projects WHEN synthesized THEN no quota note, and stdout shows where each went, every line within 80 columns', () => {
    const attendees = Array.from({ length: 30 }, (_, i) => `a${String(i + 1).padStart(2, '0')}`);
    const config = {
      attendees,
      aws: { regions: ['us-east-1', 'us-east-2', 'us-west-1', 'us-west-2', 'eu-west-1', 'eu-west-2', 'eu-central-1', 'ap-southeast-2'] },
      gcp: { projects: Array.from({ length: 8 }, (_, i) => `hoplab-ws-${i + 1}`) },
    };
    const result = runIn({ 'hoplab.config.json': JSON.stringify(config) }, { COLUMNS: '80' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^hoplab: synthesized 120 stacks for 30 environments/);
    expect(lines[1]).toBe('Placement of 30 environments:');
    expect(lines).toContain('| host/ap-southeast-2 | 2/4  | a29, a30 | 3/5  | 3/5  | 12    |');
    // Every line of the placement (the first names the config's path, as before).
    expect(lines.slice(1).filter((l) => l.length > 80)).toEqual([]);
  });

  test('GIVEN 30 attendees and two regions WHEN synthesized THEN it exits 1 naming how many fit, and writes nothing', () => {
    const result = runIn({ 'hoplab.config.yaml': `attendees: [${Array.from({ length: 30 }, (_, i) => `a${i + 1}`).join(', ')}]\naws: { regions: [us-east-1, us-east-2] }\n` });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('aws.regions: ["us-east-1","us-east-2"] hold 8 of the 30 environments on AWS');
    expect(existsSync(join(result.cwd, 'cdktf.out', 'stacks'))).toBe(false);
  });
});
