/**
 * What the lab takes of each quota, counted from the synthesized stacks, and the documented
 * defaults a config exceeds (said without credentials, by preflight and by synth).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig, LabConfig } from '../../../lib/config/schema';
import { explainDir } from '../../../lib/lab/anatomy/explain-dir';
import { readSynthDir } from '../../../lib/lab/files/synth-dir';
import { addLab } from '../../../lib/stacks/hoplab-app';
import {
  AWS_DEFAULT_QUOTAS,
  awsQuotaNeeds,
  countLoadBalancers,
  defaultLimitNotes,
  exposuresOfModel,
  exposuresOfOutputs,
  GCP_DEFAULT_QUOTAS,
  gcpQuotaNeeds,
  machineTypeVcpus,
  overDefaultLimits,
} from '../../../lib/lab/estimate/quotas';
import { defaultLimitFindings } from '../../../lib/commands/preflight/preflight';

/** Synthesizes `input` into a temporary directory and reads it with `read`. */
function synthesizedIn<T>(input: unknown, read: (dir: string, config: LabConfig) => T): T {
  const config: LabConfig = labConfig.parse(input);
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-needs-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, config);
    app.synth();
    return read(dir, config);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
const synthesized = (input: unknown) => synthesizedIn(input, (dir, config) => ({ config, synth: readSynthDir(dir), model: explainDir(dir) }));
// What synth has at hand: no explain run.
const synthesizedOnly = (input: unknown) => synthesizedIn(input, (dir, config) => ({ config, synth: readSynthDir(dir) }));

const names = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);

describe('quota needs from the synthesized stacks', () => {
  test('GIVEN two attendees with the default exposures WHEN counted THEN VPC pieces per environment and one load balancer per exposure', () => {
    const { config, synth, model } = synthesized({ attendees: ['ann', 'bob'] });
    const exposures = exposuresOfModel(model);
    // Default modes: native, gateway, nodeport (ALB), nodeport-l4, nodeport-local, native-l4 (NLB); GKE has no native-l4.
    expect(countLoadBalancers(exposures, 'aws')).toEqual({ byKind: { alb: 6, nlb: 6 }, unknown: [] });
    expect(awsQuotaNeeds(synth, exposures)).toEqual({ vpcs: 2, internetGateways: 2, natGatewaysPerAz: 2, elasticIps: 2, eksClusters: 2, albs: 6, nlbs: 6, clbs: 0, notes: [] });
    // Per environment: 3 e2-standard-2 nodes with 50 GB pd-balanced disks, and the default pool's e2-medium with GKE's 100 GB pd-balanced
    // while it exists; one network; Cloud NAT's address and two passthrough NLBs; Ingress x2 (classic ALB) + its default backend; the Gateway
    // (global external ALB: its backend and the default 404 backend). The exact per-metric counts are in gcp-quota-needs.test.ts.
    expect(Object.fromEntries(gcpQuotaNeeds(synth, exposures).quotas.map((q) => [q.metric, q.need]))).toEqual({
      CPUS: 16,
      CPUS_ALL_REGIONS: 16,
      SSD_TOTAL_GB: 500,
      DISKS_TOTAL_GB: 0,
      NETWORKS: 2,
      IN_USE_ADDRESSES: 6,
      FORWARDING_RULES: 4,
      GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES: 6,
      GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES: 2,
      GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES: 4,
      EXTERNAL_NETWORK_LB_FORWARDING_RULES: 4,
      REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES: 4,
    });
    expect(config.gcp.nodeCount).toBe(3);
  });

  test('GIVEN the synthesized stacks WHEN their exposures are read from the -lb outputs THEN they are those explain derives (synth counts what preflight counts)', () => {
    const { synth, model } = synthesized({ attendees: ['ann', 'bob'] });
    const key = (x: { env: string; cloud: string; mode: string; lb_kind: string | null }) => `${x.env} ${x.cloud} ${x.mode} ${x.lb_kind}`;
    expect(exposuresOfOutputs(synth).map(key).sort()).toEqual(exposuresOfModel(model).map(key).sort());
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
      const needs = awsQuotaNeeds(synth, exposuresOfModel(model));
      expect({ natGatewaysPerAz: needs.natGatewaysPerAz, elasticIps: needs.elasticIps }).toEqual(expected);
    },
  );

  test.each([
    [['nodeport-l4'], { nlb: 1 }],
    [['native-l4'], { nlb: 1 }],
  ])('GIVEN exposures %j WHEN counted THEN the new mode counts from its synthesized -lb stack: %j', (exposures, byKind) => {
    const { model } = synthesized({ exposures });
    expect(countLoadBalancers(exposuresOfModel(model), 'aws')).toEqual({ byKind, unknown: [] });
  });

  test('GIVEN one exposure mode WHEN counted THEN only its load balancer counts', () => {
    const { synth, model } = synthesized({ exposures: ['nodeport-local'] });
    expect(awsQuotaNeeds(synth, exposuresOfModel(model))).toMatchObject({ albs: 0, nlbs: 1 });
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

describe('documented default limits', () => {
  test('GIVEN the default tables WHEN read THEN every default names its source, and every AWS one its Service Quotas code', () => {
    for (const quota of [...AWS_DEFAULT_QUOTAS, ...GCP_DEFAULT_QUOTAS]) expect(quota.source).toMatch(/\S{10,}/);
    for (const quota of AWS_DEFAULT_QUOTAS) expect(quota.quotaCode).toMatch(/^L-[0-9A-F]{8}$/);
    expect(AWS_DEFAULT_QUOTAS.map((q) => [q.need, q.defaultLimit])).toEqual([
      ['vpcs', 5],
      ['internetGateways', 5],
      ['natGatewaysPerAz', 5],
      ['elasticIps', 5],
      ['eksClusters', 100],
      ['albs', 50],
      ['nlbs', 50],
    ]);
    expect(GCP_DEFAULT_QUOTAS.map((q) => [q.need, q.defaultLimit])).toEqual([['NETWORKS', 5]]);
  });

  test('GIVEN 20 attendees WHEN synth notes the defaults THEN the VPC, gateway, Elastic IP and network notes say the default is not the account limit', () => {
    const { config, synth } = synthesizedOnly({ attendees: names(20) });
    expect(defaultLimitNotes(synth, config)).toEqual([
      "VPCs per Region: 20 environments need 20 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (npx hoplab preflight checks your own)",
      "Internet gateways per Region: 20 environments need 20 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-A4707A72 (npx hoplab preflight checks your own)",
      "NAT gateways per Availability Zone: 20 environments need 20 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-FE5A380F (npx hoplab preflight checks your own)",
      "EC2-VPC Elastic IPs: 20 environments need 20 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas ec2 L-0263D0A3 (npx hoplab preflight checks your own)",
      "Application Load Balancers per Region: 20 environments need 60 in us-east-1, over AWS's default limit of 50: a default limit, not your account's; Service Quotas elasticloadbalancing L-53DA6B97 (npx hoplab preflight checks your own)",
      "Network Load Balancers per Region: 20 environments need 60 in us-east-1, over AWS's default limit of 50: a default limit, not your account's; Service Quotas elasticloadbalancing L-69A177A2 (npx hoplab preflight checks your own)",
      `VPC networks (NETWORKS): 20 environments need 20 in project ${config.gcp.project}, over Google Cloud's default limit of 5 (the project's "default" network counts too): a default limit, not your account's (npx hoplab preflight checks your own)`,
    ]);
  });

  test('GIVEN the one default environment WHEN checked without credentials THEN nothing is over and preflight says it fits, without credentials', () => {
    const { config, synth, model } = synthesized({});
    const exposures = exposuresOfModel(model);
    expect(defaultLimitNotes(synth, config)).toEqual([]);
    expect(defaultLimitFindings(awsQuotaNeeds(synth, exposures), gcpQuotaNeeds(synth, exposures), config, 1)).toEqual([
      { check: 'default quotas', verdict: 'pass', detail: "1 environment fits AWS's and Google Cloud's default limits (checked without credentials)" },
    ]);
  });

  test('GIVEN 6 attendees on AWS only WHEN preflight checks the defaults THEN each over-default quota is a warning with how to raise it', () => {
    const { config, synth, model } = synthesized({ attendees: names(6) });
    const aws = awsQuotaNeeds(synth, exposuresOfModel(model));
    expect(overDefaultLimits(aws, undefined).map((o) => o.quota.need)).toEqual(['vpcs', 'internetGateways', 'natGatewaysPerAz', 'elasticIps']);
    expect(defaultLimitFindings(aws, undefined, config, 6)[0]).toEqual({
      check: 'aws default quota vpcs',
      verdict: 'warn',
      detail: "VPCs per Region: 6 environments need 6 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (checked without credentials)",
      fix: "with credentials preflight checks your account's own (aws quota vpcs); to raise it: Service Quotas, vpc L-F678F1CE in us-east-1, or deploy fewer environments (--env)",
    });
    expect(defaultLimitFindings(aws, undefined, config, 6, true)).toEqual([]);
  });
});
