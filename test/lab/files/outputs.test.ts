import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareOutputs } from '../../../lib/lab/probe/compare-model';
import { collectOutputs, parseOutputs, readOutputsFile, stacksOnly, synthesizedStackNames } from '../../../lib/lab/files/outputs';
import { gatherOutputs } from '../../../lib/commands/pipeline/gather';
import { nothingDeployed } from '../../../lib/lab/files/local-state';
import { renderCompare } from '../../../lib/commands/compare/render-compare';
import { fixture } from '../../support/fixtures';
import { LOOPBACK_CA } from '../../support/kubernetes-api';

const FIXTURE = fixture('outputs.json');
const tmp = () => mkdtempSync(join(tmpdir(), 'hoplab-compare-test-'));

describe('reading outputs', () => {
  test('GIVEN the outputs of a deployed lab THEN one environment, clusters and exposures of both clouds in mode order', () => {
    const outputs = readOutputsFile(FIXTURE);
    expect(outputs.environments.map((e) => e.env)).toEqual(['lab']);
    const [lab] = outputs.environments;
    expect(lab.exposures.aws?.map((e) => e.mode)).toEqual(['native', 'nodeport', 'nodeport-local']);
    expect(lab.exposures.gcp?.[2]).toMatchObject({ mode: 'nodeport-local', lb_kind: 'gcp-passthrough-nlb', url: 'http://35.192.55.66/', expected_hops: 1 });
    expect(lab.clusters.aws).toEqual({
      cluster_name: 'lab-eks',
      region: 'us-east-1',
      node_count: 3,
      max_pods_per_node: 17,
      pod_address_range: ['10.0.0.0/19', '10.0.32.0/19'],
      node_address_range: [],
      dataplane: null,
      cluster_endpoint: 'https://0123456789ABCDEF0123456789ABCDEF.gr7.us-east-1.eks.amazonaws.com',
      cluster_ca_certificate: Buffer.from(LOOPBACK_CA).toString('base64'),
      cluster_location: 'us-east-1',
      placement: null,
    });
    // GKE exports an address and its own location; both are read as a URL and the cluster's location.
    expect([lab.clusters.gcp?.cluster_endpoint, lab.clusters.gcp?.cluster_location]).toEqual(['https://34.58.12.101', 'us-central1-a']);
    expect(lab.clusters.gcp?.pod_address_range).toEqual(['10.20.0.0/16']);
    expect(lab.clusters.gcp?.node_address_range).toEqual(['10.10.0.0/20']);
  });

  test('GIVEN cluster stacks with the dataplane output THEN compare shows it in the same words on both clouds', () => {
    const outputs = parseOutputs(
      { 'lab-aws-cluster': { cloud: 'aws', cluster_name: 'lab-eks', dataplane: 'cilium-ebpf' }, 'lab-gcp-cluster': { cloud: 'gcp', cluster_name: 'lab-gke', dataplane: 'cilium-ebpf' } },
      'test',
    );
    expect([outputs.environments[0].clusters.aws?.dataplane, outputs.environments[0].clusters.gcp?.dataplane]).toEqual(['cilium-ebpf', 'cilium-ebpf']);
  });

  test('GIVEN placed environments WHEN read THEN each cluster says its slot: the account or project and the region, from the placement output', () => {
    const placement = (cloud: string, owner: Record<string, string>) => ({ cloud, slot: `${Object.values(owner)[0]}/eu-west-1`, ...owner, region: 'eu-west-1', zones: ['eu-west-1a'] });
    const outputs = parseOutputs(
      {
        'ann-aws-cluster': { cluster_name: 'ann-eks', placement: placement('aws', { account: '111122223333' }) },
        // Terraform may hand an object over as JSON text.
        'ann-gcp-cluster': { cluster_name: 'ann-gke', placement: JSON.stringify(placement('gcp', { project: 'lab-ws-2' })) },
        'bob-aws-cluster': { cluster_name: 'bob-eks', placement: { cloud: 'aws', region: 'eu-west-1' } },
        'cy-aws-cluster': { cluster_name: 'cy-eks', placement: { ...placement('aws', { account: '444455556666' }), role_arn: 'arn:aws:iam::444455556666:role/HoplabDeployer' } },
      },
      'test',
    );
    const [ann, bob, cy] = outputs.environments;
    expect(cy.clusters.aws?.placement).toMatchObject({ account: '444455556666', role_arn: 'arn:aws:iam::444455556666:role/HoplabDeployer' });
    expect(ann.clusters.aws?.placement).toEqual({ cloud: 'aws', slot: '111122223333/eu-west-1', account: '111122223333', region: 'eu-west-1', zones: ['eu-west-1a'] });
    expect(ann.clusters.gcp?.placement).toEqual({ cloud: 'gcp', slot: 'lab-ws-2/eu-west-1', project: 'lab-ws-2', region: 'eu-west-1', zones: ['eu-west-1a'] });
    expect(bob.clusters.aws?.placement).toBeNull();
  });

  test('GIVEN odd values THEN unknown fields, JSON-text objects accepted, stray stacks ignored', () => {
    const outputs = parseOutputs(
      {
        'team-a-aws-lb': { exposure_native: JSON.stringify({ mode: 'native', url: 'http://x/' }), exposure_nodeport: 42, other: 'x' },
        'team-a-aws-cluster': {},
        'something-else': {},
      },
      'test',
    );
    expect(outputs.ignored_stacks).toEqual(['something-else']);
    expect(outputs.environments[0].exposures.aws).toEqual([
      {
        mode: 'native',
        cloud: 'aws',
        url: 'http://x/',
        lb_kind: null,
        target_type: null,
        expected_hops: null,
        source_nat: null,
        client_ip_via: null,
        client_ip_preserved: null,
        client_ip_seen_as: null,
        health_check: null,
        external_traffic_policy: null,
      },
    ]);
  });

  test.each([
    ['a missing file', () => '/nonexistent/outputs.json', 'cannot read outputs file /nonexistent/outputs.json: ENOENT'],
    [
      'a file that is not JSON',
      () => {
        const file = join(tmp(), 'o.json');
        writeFileSync(file, 'nope');
        return file;
      },
      'is not valid JSON',
    ],
    [
      'a JSON array',
      () => {
        const file = join(tmp(), 'o.json');
        writeFileSync(file, '[]');
        return file;
      },
      'is not an outputs file: expected a JSON object (an outputs file is what `npx cdktf output --outputs-file FILE` writes, `npx hoplab compare --format json > FILE`, or the hoplab-compare.json of `npx hoplab pipeline --gather`)',
    ],
    [
      'no stacks',
      () => {
        const file = join(tmp(), 'o.json');
        writeFileSync(file, '{}');
        return file;
      },
      'has no hoplab stacks (names like lab-aws-cluster, lab-aws-lb, lab-gcp-cluster, lab-gcp-lb); it is empty: deploy first (npm run deploy)',
    ],
  ])('GIVEN %s THEN an error says what and how to fix it', (_, makeFile, message) => {
    const file = makeFile();
    expect(() => readOutputsFile(file)).toThrow(message);
  });
});

describe('files that are not JSON: where and why, in the same words on every Node', () => {
  test('GIVEN an outputs file holding {x THEN its line and column, what JSON expected there, the line, and how to write the file', () => {
    const file = join(tmp(), 'bad.json');
    writeFileSync(file, '{x');
    expect(() => readOutputsFile(file)).toThrow(
      new Error(`outputs file ${file} is not valid JSON at line 1, column 2: Expected property name or '}' (line 1: "{x"); write it with \`npx cdktf output --outputs-file ${file}\``),
    );
  });

  test('GIVEN a synthesized manifest.json with a trailing comma THEN where, why, and to synthesize again', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'manifest.json'), '{\n  "stacks": {\n    "lab-aws-cluster": {},\n  }\n}\n');
    expect(() => synthesizedStackNames(dir)).toThrow(
      new Error(`${join(dir, 'manifest.json')} is not valid JSON at line 4, column 3: Expected double-quoted property name; JSON allows no comma before "}" or "]" (line 4: "  }"); synthesize again`),
    );
  });
});

describe('every outputs file hoplab writes', () => {
  const cdktf = readOutputsFile(FIXTURE);
  /** What `compare --format json` prints for `outputs`, parsed back. */
  const compareJson = (outputs = cdktf) => JSON.parse(renderCompare(compareOutputs(outputs, 'outputs.json'), 'json')) as Record<string, unknown>;

  test('GIVEN compare --format json of the outputs WHEN read as outputs THEN the same environments, clusters, exposures and lb stacks as the cdktf file', () => {
    expect(parseOutputs(compareJson(), 'compare.json')).toEqual(cdktf);
  });

  test('GIVEN a cluster whose lb stack gave no exposure_* outputs WHEN it goes through compare --format json THEN the lb stack is still there', () => {
    const outputs = parseOutputs({ 'lab-aws-cluster': { cluster_name: 'lab-eks' }, 'lab-aws-lb': { other: 'x' }, 'lab-gcp-cluster': { cluster_name: 'lab-gke' } }, 'x');
    const back = parseOutputs(compareJson(outputs), 'compare.json');
    expect(back.environments[0].lbStacks).toEqual(['aws']);
    expect(compareOutputs(back, 'compare.json').environments[0].notes).toEqual(compareOutputs(outputs, 'x').environments[0].notes);
  });

  test("GIVEN shards' compare files gathered by pipeline --gather WHEN the gathered file is read THEN every shard's environments, with their exposures", () => {
    const dir = tmp();
    const renamed = (env: string) => ({ environments: cdktf.environments.map((e) => ({ ...e, env })), ignored_stacks: [] });
    writeFileSync(join(dir, 'hoplab-compare-1.json'), JSON.stringify(compareJson(renamed('ann'))));
    writeFileSync(join(dir, 'hoplab-compare-2.json'), JSON.stringify(compareJson(renamed('bob'))));
    const gathered = parseOutputs(JSON.parse(JSON.stringify(gatherOutputs(dir, 2).document)), 'hoplab-compare.json');
    expect(gathered.environments.map((e) => e.env)).toEqual(['ann', 'bob']);
    expect(gathered.environments[1]).toEqual({ ...cdktf.environments[0], env: 'bob' });
  });

  test('GIVEN a compare document written before lb_stacks WHEN read THEN the clouds with exposures are lb stacks', () => {
    const doc = compareJson();
    const environments = (doc.environments as Record<string, unknown>[]).map((e) => Object.fromEntries(Object.entries(e).filter(([key]) => key !== 'lb_stacks')));
    expect(parseOutputs({ ...doc, environments }, 'old.json')).toEqual(cdktf);
  });

  test.each([
    [{ schema: 'hoplab.verify/v1', ok: true }, 'r.json is a hoplab.verify/v1 document, which holds no outputs; an outputs file is what `npx cdktf output --outputs-file FILE` writes'],
    [{ schema: 'hoplab.compare/v1', environments: [] }, 'r.json (hoplab.compare/v1) holds no environment'],
    [{ schema: 'hoplab.compare/v1', environments: [{ rows: [] }] }, 'r.json (hoplab.compare/v1): an environment without a name'],
  ])('GIVEN %j WHEN read as outputs THEN the error says what it is and what to pass', (doc, message) => {
    expect(() => parseOutputs(doc, 'r.json')).toThrow(message);
  });

  test('GIVEN outputs WHEN narrowed to some stacks THEN only their clusters and exposures stay, and environments left empty go', () => {
    const two = { environments: [...cdktf.environments, { ...cdktf.environments[0], env: 'bob' }], ignored_stacks: [] };
    const only = stacksOnly(two, (stack) => stack === 'lab-gcp-lb' || stack === 'lab-aws-cluster');
    expect(only.environments.map((e) => [e.env, Object.keys(e.clusters), e.lbStacks, Object.keys(e.exposures)])).toEqual([['lab', ['aws'], ['gcp'], ['gcp']]]);
  });
});

describe('collecting outputs with cdktf', () => {
  function synthDir(): string {
    const dir = tmp();
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ stacks: { 'lab-aws-lb': {}, 'lab-aws-cluster': {} } }));
    return dir;
  }

  test('runs `npx cdktf output --outputs-file <tmp> --skip-synth` for every synthesized stack and reads the file', async () => {
    const dir = synthDir();
    const calls: (readonly string[])[] = [];
    const outputs = await collectOutputs(dir, async (command, args) => {
      calls.push([command, ...args]);
      writeFileSync(args[args.indexOf('--outputs-file') + 1], JSON.stringify({ 'lab-aws-cluster': { cluster_name: 'lab-eks' } }));
      return { code: 0, stderr: '' };
    });
    expect(calls).toHaveLength(1);
    expect(calls[0].slice(0, 3)).toEqual(['npx', 'cdktf', 'output']);
    expect(calls[0].slice(5)).toEqual(['--skip-synth', '--output', dir, 'lab-aws-cluster', 'lab-aws-lb']);
    expect(outputs.environments[0].clusters.aws?.cluster_name).toBe('lab-eks');
  });

  test('GIVEN cdktf fails THEN the error says so and how to avoid it', async () => {
    await expect(collectOutputs(synthDir(), async () => ({ code: 1, stderr: 'Error: state not found' }))).rejects.toThrow(
      /failed \(exit 1\); are the stacks deployed\? Pass --outputs FILE to read saved outputs instead\nError: state not found/,
    );
  });

  /** A synthesized app whose two stacks keep local state in `dir`, the first `deployed` with one resource. */
  function localStateDir(deployed: 'none' | 'cluster' | 'empty files'): string {
    const dir = synthDir();
    for (const stack of ['lab-aws-cluster', 'lab-aws-lb']) {
      mkdirSync(join(dir, 'stacks', stack), { recursive: true });
      const path = join(dir, `terraform.${stack}.tfstate`);
      writeFileSync(join(dir, 'stacks', stack, 'cdk.tf.json'), JSON.stringify({ terraform: { backend: { local: { path } } } }));
      if (deployed === 'empty files') writeFileSync(path, JSON.stringify({ version: 4, resources: [] }));
      if (deployed === 'cluster' && stack === 'lab-aws-cluster') writeFileSync(path, JSON.stringify({ version: 4, resources: [{ type: 'aws_vpc', name: 'vpc' }] }));
    }
    return dir;
  }

  test.each(['none', 'empty files'] as const)('GIVEN local state and nothing deployed (%s) WHEN outputs are collected THEN one line says so, before cdktf runs', async (deployed) => {
    const dir = localStateDir(deployed);
    const run = jest.fn(async () => ({ code: 0, stderr: '' }));
    await expect(collectOutputs(dir, run)).rejects.toThrow(
      `nothing is deployed: none of the 2 stacks (lab-aws-cluster, lab-aws-lb) has state with resources (local state, e.g. ${join(dir, 'terraform.lab-aws-cluster.tfstate')}); ` +
        'deploy first (npx hoplab deploy), or pass --outputs FILE to read saved outputs',
    );
    expect(run).not.toHaveBeenCalled();
  });

  test('GIVEN local state with resources in one stack, or remote state WHEN surveyed THEN it is deployed, or unknown, and cdktf runs', async () => {
    // lab-aws-cluster holds resources, lab-aws-lb's state is empty: something is deployed; lab-aws-lb alone, nothing.
    const cluster = localStateDir('cluster');
    expect(nothingDeployed(cluster, ['lab-aws-cluster', 'lab-aws-lb'])).toBeUndefined();
    expect(nothingDeployed(cluster, ['lab-aws-lb'])).toMatch(/^nothing is deployed: none of the 1 stack \(lab-aws-lb\) has state with resources/);
    const remote = synthDir();
    mkdirSync(join(remote, 'stacks', 'lab-aws-lb'), { recursive: true });
    writeFileSync(join(remote, 'stacks', 'lab-aws-lb', 'cdk.tf.json'), JSON.stringify({ terraform: { backend: { s3: { bucket: 'b', key: 'k' } } } }));
    // Remote state cannot be read: unknown, so not "nothing deployed".
    expect(nothingDeployed(remote, ['lab-aws-lb'])).toBeUndefined();
  });

  test('GIVEN no synthesized app THEN an input error before running anything', async () => {
    const dir = tmp();
    mkdirSync(join(dir, 'x'));
    await expect(collectOutputs(dir, async () => ({ code: 0, stderr: '' }))).rejects.toThrow(`no ${join(dir, 'manifest.json')}: synthesize first (npm run synth), or pass --outputs FILE`);
  });
});

describe('side by side, without probing', () => {
  const model = compareOutputs(readOutputsFile(FIXTURE), 'outputs.json');

  test('clouds as columns, exposures as rows', () => {
    const [lab] = model.environments;
    expect(lab.clouds).toEqual(['aws', 'gcp']);
    expect(lab.rows.map((r) => r.mode)).toEqual(['native', 'nodeport', 'nodeport-local']);
    expect(lab.rows[1].clouds.aws?.exposure).toMatchObject({
      lb_kind: 'alb',
      target_type: 'instance',
      expected_hops: 2,
      source_nat: true,
      client_ip_via: 'x-forwarded-for',
      client_ip_preserved: true,
    });
    expect(lab.rows[1].clouds.aws?.probe).toBeNull();
  });

  test('the table shows URL, LB kind, targets, expected hops and client-IP preservation (regression guard)', () => {
    const table = renderCompare(model, 'table', 120);
    expect(table).toContain('| exposure       | AWS (EKS)');
    expect(table).toContain('expected: 2 hops LB -> Pod; source NAT: yes;');
    expect(table).toContain('client IP via: x-forwarded-for (preserved: yes)');
    expect(table).toContain('lab-eks in us-east-1: 3 nodes, max 17 Pods per ');
    expect(table).toContain('  aws nodeport        http://k8s-hoplab-echonode-8e2d4b6a1c-987654321.us-east-1.elb.amazonaws.com/');
    expect(table).toMatchSnapshot();
    expect(renderCompare(model, 'markdown')).toMatchSnapshot();
    expect(JSON.parse(renderCompare(model, 'json'))).toEqual(JSON.parse(JSON.stringify(model)));
  });

  test('GIVEN a cluster without -lb outputs THEN a note, not an error', () => {
    const only = compareOutputs(parseOutputs({ 'lab-aws-cluster': { cluster_name: 'lab-eks' } }, 'x'), 'x');
    expect(only.environments[0].notes).toEqual(['lab-aws-lb has no outputs: not deployed (exposures come with that stack)']);
    expect(renderCompare(only, 'table')).toContain('note: lab-aws-lb has no outputs');
  });
});
