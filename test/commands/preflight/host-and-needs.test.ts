/**
 * Preflight's host checks (tools, provider sources, the host's public address),
 * the quota needs counted from the synthesized stacks, the report formats and
 * the gate deploy runs.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig, LabConfig } from '../../../lib/config/schema';
import { explainDir } from '../../../lib/plumbing/plan/explain-dir';
import { readSynthDir } from '../../../lib/plumbing/terraform/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { renderFindings } from '../../../lib/plumbing/cli/finding';
import { addressFindings, learnPublicAddress, providerSourceFinding, ToolRunner, toolFindings } from '../../../lib/plumbing/host-checks';
import { preflightGate } from '../../../lib/commands/preflight/preflight-cli';
import { awsQuotaNeeds, countLoadBalancers, gcpQuotaNeeds, machineTypeVcpus } from '../../../lib/commands/preflight/quota-needs';
import { deadUrl } from '../../support/echo-servers';

function synthesized(input: unknown) {
  const config: LabConfig = labConfig.parse(input);
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-needs-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, config);
    app.synth();
    return { config, synth: readSynthDir(dir), model: explainDir(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function textServer(body: string, status = 200): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('tools', () => {
  const tools =
    (answers: Record<string, { ok: boolean; output: string }>): ToolRunner =>
    (command) =>
      answers[command] ?? { ok: false, output: 'not found on the PATH' };

  test('GIVEN terraform 1.9, the AWS CLI v1 and no auth plugin WHEN checked THEN each fails with its fix', () => {
    const findings = toolFindings(
      { awsCli: true, gcloud: true, gkeAuthPlugin: true },
      tools({
        terraform: { ok: true, output: '{"terraform_version":"1.9.8"}' },
        aws: { ok: true, output: 'aws-cli/1.45.11 Python/3.11.7' },
        gcloud: { ok: true, output: 'Google Cloud SDK 528.0.0\nbq 2.1.0' },
      }),
    );
    expect(findings.map((f) => [f.check, f.verdict, f.detail])).toEqual([
      ['terraform', 'fail', 'Terraform 1.9.8 is older than 1.10'],
      ['aws cli', 'fail', 'AWS CLI 1.45.11 is v1'],
      ['gcloud', 'pass', 'Google Cloud SDK 528.0.0'],
      ['gke-gcloud-auth-plugin', 'fail', 'gke-gcloud-auth-plugin: not found on the PATH'],
    ]);
    expect(findings[3].fix).toBe('gcloud components install gke-gcloud-auth-plugin');
  });

  test('GIVEN terraform 1.11 with CLI-config warnings around its JSON and the AWS CLI v2 WHEN checked THEN both pass; unneeded tools are not asked', () => {
    const findings = toolFindings(
      { awsCli: true, gcloud: false, gkeAuthPlugin: false },
      tools({
        terraform: { ok: true, output: '{\n  "terraform_version": "1.11.4"\n}\nWarning: Unable to open CLI configuration file' },
        aws: { ok: true, output: 'aws-cli/2.27.1 Python/3.13.2 Linux' },
      }),
    );
    expect(findings.map((f) => [f.check, f.verdict, f.detail])).toEqual([
      ['terraform', 'pass', 'Terraform 1.11.4'],
      ['aws cli', 'pass', 'AWS CLI 2.27.1'],
    ]);
  });
});

describe('provider sources and the host address', () => {
  test('GIVEN the registry unreachable WHEN checked THEN it fails; the emulator uses the mirror instead', async () => {
    const offline = await providerSourceFinding({ emulator: false, registryUrl: await deadUrl(), timeoutMs: 2000 });
    expect(offline).toMatchObject({ check: 'provider sources', verdict: 'fail' });
    expect(offline.detail).toMatch(/^127\.0\.0\.1:\d+ is not reachable/);
    expect(await providerSourceFinding({ emulator: true, mirror: '/opt/tf-plugins' })).toEqual({
      check: 'provider sources',
      verdict: 'pass',
      detail: 'filesystem mirror /opt/tf-plugins (emulator mode installs from it only)',
    });
  });

  test('GIVEN the address service answers WHEN the address is outside one allow-list THEN that list fails with the fix', async () => {
    const api = await textServer('198.51.100.23\n');
    try {
      const learned = await learnPublicAddress({ url: api.url });
      expect(learned).toEqual({ address: '198.51.100.23', source: api.url });
      const findings = addressFindings(learned, [
        { field: 'aws.endpointPublicAccessCidrs', cidrs: ['198.51.100.0/24'] },
        { field: 'gcp.masterAuthorizedCidrs', cidrs: ['203.0.113.0/24'] },
      ]);
      expect(findings).toEqual([
        { check: 'host address aws', verdict: 'pass', detail: `198.51.100.23 (from ${api.url}) is inside aws.endpointPublicAccessCidrs 198.51.100.0/24` },
        {
          check: 'host address gcp',
          verdict: 'fail',
          detail: `198.51.100.23 (from ${api.url}) is outside gcp.masterAuthorizedCidrs 203.0.113.0/24: Terraform could create the cluster but not reach its API`,
          fix: "add 198.51.100.23/32 (or your network's range) to gcp.masterAuthorizedCidrs",
        },
      ]);
    } finally {
      await api.close();
    }
  });

  test('GIVEN no network WHEN the address is learned THEN it is a warning; --my-ip makes no request', async () => {
    const offline = await learnPublicAddress({ url: await deadUrl(), timeoutMs: 1000 });
    expect(addressFindings(offline, [{ field: 'aws.endpointPublicAccessCidrs', cidrs: ['0.0.0.0/0'] }])).toEqual([
      expect.objectContaining({ check: 'host address', verdict: 'warn', fix: 'pass --my-ip <your public address>' }),
    ]);
    expect(await learnPublicAddress({ myIp: '192.0.2.9', url: 'http://127.0.0.1:9/' })).toEqual({ address: '192.0.2.9', source: '--my-ip' });
  });
});

describe('quota needs from the synthesized stacks', () => {
  test('GIVEN two attendees with the default exposures WHEN counted THEN VPC pieces per environment and one load balancer per exposure', () => {
    const { config, synth, model } = synthesized({ attendees: ['ann', 'bob'] });
    // Default modes: native, gateway, nodeport (ALB), nodeport-l4, nodeport-local, native-l4 (NLB); GKE has no native-l4.
    expect(countLoadBalancers(model, 'aws')).toEqual({ byKind: { alb: 6, nlb: 6 }, unknown: [] });
    expect(awsQuotaNeeds(synth, model)).toEqual({ vpcs: 2, internetGateways: 2, natGatewaysPerAz: 2, elasticIps: 2, eksClusters: 2, albs: 6, nlbs: 6, clbs: 0, notes: [] });
    // 3 e2-standard-2 nodes per environment; NAT and two passthrough NLBs each; 3 L7 (Ingress x2, Gateway) + default backend + 2 L4 backend services each.
    expect(gcpQuotaNeeds(synth, model, config)).toEqual({ cpus: 12, regionalInUseAddresses: 6, backendServices: 12, forwardingRules: 10, notes: [] });
  });

  test.each([
    ['single', 2, { natGatewaysPerAz: 2, elasticIps: 2 }],
    ['single', 3, { natGatewaysPerAz: 2, elasticIps: 2 }],
    ['one-per-az', 2, { natGatewaysPerAz: 2, elasticIps: 4 }],
    ['one-per-az', 3, { natGatewaysPerAz: 2, elasticIps: 6 }],
  ])(
    'GIVEN two attendees with natGateways %s in %i zones WHEN counted THEN each environment puts at most one NAT gateway in any zone, and one Elastic IP per NAT gateway: %j',
    (natGateways, zones, expected) => {
      const availabilityZones = ['us-east-1a', 'us-east-1b', 'us-east-1c'].slice(0, zones);
      const { synth, model } = synthesized({ attendees: ['ann', 'bob'], exposures: ['native'], aws: { natGateways, availabilityZones } });
      const needs = awsQuotaNeeds(synth, model);
      expect({ natGatewaysPerAz: needs.natGatewaysPerAz, elasticIps: needs.elasticIps }).toEqual(expected);
    },
  );

  test.each([
    [['nodeport-l4'], { nlb: 1 }],
    [['native-l4'], { nlb: 1 }],
  ])('GIVEN exposures %j WHEN counted THEN the new mode counts from its synthesized -lb stack: %j', (exposures, byKind) => {
    const { model } = synthesized({ exposures });
    expect(countLoadBalancers(model, 'aws')).toEqual({ byKind, unknown: [] });
  });

  test('GIVEN one exposure mode WHEN counted THEN only its load balancer counts', () => {
    const { synth, model } = synthesized({ exposures: ['nodeport-local'] });
    expect(awsQuotaNeeds(synth, model)).toMatchObject({ albs: 0, nlbs: 1 });
  });

  test.each([
    ['e2-standard-2', 2],
    ['n2-highmem-16', 16],
    ['e2-medium', 2],
    ['n2-custom-6-24576', 6],
    ['t2a-standard-4', 4],
    ['a2-ultragpu-1g', undefined],
  ])('GIVEN machine type %s WHEN its vCPUs are read THEN %p', (type, vcpus) => {
    expect(machineTypeVcpus(type)).toBe(vcpus);
  });
});

describe('report and gate', () => {
  const findings = [
    { check: 'terraform', verdict: 'pass' as const, detail: 'Terraform 1.11.4' },
    { check: 'aws quota vpcs', verdict: 'fail' as const, detail: 'VPCs per Region: 5 in use + 1 = 6 of 5', fix: 'request more' },
  ];

  test('GIVEN a failing finding WHEN rendered THEN each format says it blocks', () => {
    expect(renderFindings(findings, 'table', { title: 't' })).toBe(
      ['t', 'ok    terraform       Terraform 1.11.4', 'FAIL  aws quota vpcs  VPCs per Region: 5 in use + 1 = 6 of 5', '                      fix: request more', '1 finding blocks a deploy', ''].join(
        '\n',
      ),
    );
    expect(renderFindings(findings, 'markdown', { title: 't' })).toContain('| aws quota vpcs | FAIL | VPCs per Region: 5 in use + 1 = 6 of 5 | request more |');
    expect(JSON.parse(renderFindings(findings, 'json', { title: 't' }))).toMatchObject({ schema: 'hoplab.preflight/v1', ok: false, findings });
  });

  test('GIVEN --skip-preflight WHEN deploy gates THEN it goes on without checking, loudly', async () => {
    const lines: string[] = [];
    const go = await preflightGate({ config: labConfig.parse({}), skip: true, write: (l) => lines.push(l) });
    expect(go).toBe(true);
    expect(lines).toEqual(['hoplab deploy: --skip-preflight: PREFLIGHT SKIPPED. Nothing was checked before spending money; a missing permission or quota fails mid-deploy.']);
  });
});
