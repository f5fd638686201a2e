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
  labQuotaNeeds,
  machineTypeVcpus,
  overDefaultLimits,
  QuotaExposure,
} from '../../../lib/lab/estimate/quotas';
import { defaultLimitFindings } from '../../../lib/commands/preflight/preflight';
import { slotEnvironments } from '../../../lib/lab/placement/lab-placement';
import { AWS_QUOTAS, environmentsWithin, GCP_QUOTAS, overDefault, QuotaSpec, sizesSlots } from '../../../lib/model/quotas';
import { attendeeNames, synthesizedPlaced } from '../../support/placed-lab';
import { INSTANCE_VCPUS, KNOWN_INSTANCE_TYPES } from '../../../lib/model/eni-limits';

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

const TABLE: readonly QuotaSpec[] = [...AWS_QUOTAS, ...GCP_QUOTAS];
const names = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);

describe('quota needs from the synthesized stacks', () => {
  test('GIVEN two attendees with the default exposures WHEN counted THEN VPC pieces per environment and one load balancer per exposure', () => {
    const { config, synth, model } = synthesized({ attendees: ['ann', 'bob'] });
    const exposures = exposuresOfModel(model);
    // Default modes: native, gateway, nodeport (ALB), nodeport-l4, nodeport-local, native-l4 (NLB); GKE has no native-l4.
    expect(countLoadBalancers(exposures, 'aws')).toEqual({ byKind: { alb: 6, nlb: 6 }, unknown: [] });
    // vCPUs: 3 t3.medium nodes of 2 vCPUs per environment.
    expect(awsQuotaNeeds(synth, exposures)).toEqual({ vpcs: 2, internetGateways: 2, natGatewaysPerAz: 2, elasticIps: 2, eksClusters: 2, albs: 6, nlbs: 6, vcpus: 12, clbs: 0, notes: [] });
    // Per environment: 3 e2-standard-2 nodes with 50 GB pd-balanced disks, and the default pool's e2-medium with GKE's 100 GB pd-balanced
    // while it exists; one network; Cloud NAT's address and two passthrough NLBs; Ingress x2 (classic ALB, one backend service each: the
    // defaultBackend is the app's Service); the Gateway (global external ALB: its backend and the default 404 backend); health checks:
    // the Ingresses' and the Gateway's, and the passthrough NLBs' regional ones (the Local Service's, the Cluster one's shared). The exact
    // per-metric counts are in gcp-quota-needs.test.ts.
    expect(Object.fromEntries(gcpQuotaNeeds(synth, exposures).quotas.map((q) => [q.metric, q.need]))).toEqual({
      CPUS: 16,
      CPUS_ALL_REGIONS: 16,
      SSD_TOTAL_GB: 500,
      DISKS_TOTAL_GB: 0,
      NETWORKS: 2,
      SUBNETWORKS: 2,
      ROUTERS: 2,
      FIREWALLS: 22,
      HEALTH_CHECKS: 10,
      TARGET_HTTP_PROXIES: 6,
      URL_MAPS: 6,
      NETWORK_ENDPOINT_GROUPS: 8,
      SECURITY_POLICIES: 0,
      SECURITY_POLICY_RULES: 0,
      IN_USE_ADDRESSES: 6,
      FORWARDING_RULES: 4,
      GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES: 4,
      GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES: 2,
      GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES: 4,
      EXTERNAL_NETWORK_LB_FORWARDING_RULES: 4,
      REGIONAL_EXTERNAL_NETWORK_LB_BACKEND_SERVICES: 4,
    });
    expect(config.gcp.nodeCount).toBe(3);
  });

  test('GIVEN the synthesized stacks WHEN their exposures are read from the -lb outputs THEN they are those explain derives (synth counts what preflight counts)', () => {
    const { synth, model } = synthesized({ attendees: ['ann', 'bob'] });
    const key = (x: QuotaExposure) => `${x.env} ${x.cloud} ${x.mode} ${x.lb_kind} ${x.target_type} ${x.external_traffic_policy}`;
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

  test('GIVEN the instance table WHEN read THEN every instance type with ENI limits has its vCPUs (node count x vCPUs is the EC2 vCPU need)', () => {
    expect(Object.keys(INSTANCE_VCPUS).sort()).toEqual([...KNOWN_INSTANCE_TYPES]);
  });

  test('GIVEN 2 m5.xlarge nodes WHEN counted THEN 8 vCPUs per environment', () => {
    const { synth, model } = synthesized({ aws: { nodeInstanceType: 'm5.xlarge', nodeCount: 2 }, exposures: ['native'] });
    expect(awsQuotaNeeds(synth, exposuresOfModel(model)).vcpus).toBe(8);
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
  test('GIVEN the default tables WHEN read THEN every default names its source, and every AWS one its Service Quotas code; vCPUs have none', () => {
    for (const quota of [...AWS_DEFAULT_QUOTAS, ...GCP_DEFAULT_QUOTAS]) expect(quota.source).toMatch(/\S{10,}/);
    for (const quota of AWS_QUOTAS) expect(quota.quotaCode).toMatch(/^L-[0-9A-F]{8}$/);
    expect(AWS_DEFAULT_QUOTAS.map((q) => [q.need, q.defaultLimit, q.fresh])).toEqual([
      ['vpcs', 5, 1],
      ['internetGateways', 5, 1],
      ['natGatewaysPerAz', 5, 0],
      ['elasticIps', 5, 0],
      ['eksClusters', 100, 0],
      ['albs', 50, 0],
      ['nlbs', 50, 0],
    ]);
    expect(GCP_DEFAULT_QUOTAS.map((q) => [q.need, q.defaultLimit, q.fresh])).toEqual([['NETWORKS', 5, 1]]);
    const vcpus = AWS_QUOTAS.find((q) => q.id === 'vcpus')!;
    expect([vcpus.serviceCode, vcpus.quotaCode, 'defaultLimit' in vcpus, vcpus.variesByAccount]).toEqual(['ec2', 'L-1216C47A', false, true]);
    // Google publishes a default for networks only: every other metric is listed as a need, never as over a default.
    expect(GCP_QUOTAS.filter((q) => 'defaultLimit' in q).map((q) => q.id)).toEqual(['NETWORKS']);
  });

  // The slipped mutation (`>` turned into `>=`) dies here: a need exactly at the limit is not over it.
  test.each(TABLE.filter(sizesSlots).map((q) => [q.cloud, q.id, q] as const))(
    "GIVEN %s %s WHEN the need with a fresh account's holding is below, at and above the default THEN only above is over it",
    (_cloud, _id, quota) => {
      const atLimit = quota.defaultLimit! - quota.fresh;
      expect([overDefault(quota, atLimit - 1), overDefault(quota, atLimit), overDefault(quota, atLimit + 1)]).toEqual([false, false, true]);
      expect(environmentsWithin(quota, 1)).toBe(atLimit);
    },
  );

  test.each(TABLE.filter((q) => !sizesSlots(q)).map((q) => [q.cloud, q.id, q] as const))(
    'GIVEN %s %s, with no default or a value set per account WHEN any need is counted THEN it is never over a default and sizes no slot',
    (_cloud, _id, quota) => {
      expect(overDefault(quota, 1_000_000)).toBe(false);
      expect(environmentsWithin(quota, 1)).toBeUndefined();
    },
  );

  test.each([
    [4, []],
    [5, ['vpcs', 'internetGateways', 'NETWORKS']],
  ])('GIVEN %i attendees in one region WHEN synth notes the defaults THEN the default VPC, its gateway and the default network count: %j over (4 fit, the fifth does not)', (n, over) => {
    synthesizedPlaced({ attendees: attendeeNames(n), exposures: ['native'] }, ({ synth, placement }) => {
      const needs = labQuotaNeeds(synth, exposuresOfOutputs(synth), slotEnvironments(placement)).needs;
      expect(overDefaultLimits(needs).map((o) => o.quota.id)).toEqual(over);
    });
  });

  test.each([
    [16, []],
    [17, ['albs']],
  ])('GIVEN %i attendees with three ALB exposures WHEN counted THEN 48 ALBs fit the 50 and 51 do not: %j', (n, over) => {
    synthesizedPlaced({ attendees: attendeeNames(n), exposures: ['native', 'gateway', 'nodeport'] }, ({ synth, placement }) => {
      const needs = labQuotaNeeds(synth, exposuresOfOutputs(synth), slotEnvironments(placement)).needs;
      expect(
        overDefaultLimits(needs)
          .filter((o) => o.quota.id === 'albs' || o.quota.id === 'nlbs')
          .map((o) => o.quota.id),
      ).toEqual(over);
    });
  });

  test('GIVEN 20 attendees WHEN synth notes the defaults THEN each quota over its default with what a fresh account holds, the default not the account limit, and the vCPU needs of both clouds with them', () => {
    synthesizedPlaced({ attendees: names(20) }, ({ config, synth, placement }) => {
      expect(defaultLimitNotes(synth, slotEnvironments(placement))).toEqual([
        "VPCs per Region: 20 environments need 20 in us-east-1, 21 with the default VPC of every region of a fresh account (1), over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (npx hoplab preflight checks your own)",
        "Internet gateways per Region: 20 environments need 20 in us-east-1, 21 with the default VPC's internet gateway (1), over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-A4707A72 (npx hoplab preflight checks your own)",
        "NAT gateways per Availability Zone: 20 environments need 20 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-FE5A380F (npx hoplab preflight checks your own)",
        "EC2-VPC Elastic IPs: 20 environments need 20 in us-east-1, over AWS's default limit of 5: a default limit, not your account's; Service Quotas ec2 L-0263D0A3 (npx hoplab preflight checks your own)",
        "Application Load Balancers per Region: 20 environments need 60 in us-east-1, over AWS's default limit of 50: a default limit, not your account's; Service Quotas elasticloadbalancing L-53DA6B97 (npx hoplab preflight checks your own)",
        "Network Load Balancers per Region: 20 environments need 60 in us-east-1, over AWS's default limit of 50: a default limit, not your account's; Service Quotas elasticloadbalancing L-69A177A2 (npx hoplab preflight checks your own)",
        `VPC networks (NETWORKS): 20 environments need 20 in project ${config.gcp.project}, 21 with the "default" network of a new project (1), over Google Cloud's default limit of 5: a default limit, not your account's (npx hoplab preflight checks your own)`,
        'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances (vCPUs): 20 environments need 120 in us-east-1; its value is set per account, not a published default (Service Quotas ec2 L-1216C47A) (npx hoplab preflight checks your own)',
        // 4 e2-medium nodes each (3 in the node pool, and the default pool's one until it is removed): 8 vCPUs.
        `vCPUs (CPUS): 20 environments need 160 in us-central1 of project ${config.gcp.project}; its value is set per project, not a published default (Cloud Quotas CPUS-per-project-region) (npx hoplab preflight checks your own)`,
      ]);
    });
  });

  test('GIVEN the one default environment WHEN checked without credentials THEN nothing is over and preflight says it fits, without credentials', () => {
    synthesizedPlaced({}, ({ synth, placement }) => {
      expect(defaultLimitNotes(synth, slotEnvironments(placement))).toEqual([]);
      const needs = labQuotaNeeds(synth, exposuresOfOutputs(synth), slotEnvironments(placement)).needs;
      // It fits; the needs no default decides are listed for the credential checks (the vCPUs of AWS, every GCP metric).
      expect(defaultLimitFindings(needs, 1).map((f) => [f.check, f.verdict])).toEqual([
        ['default quotas', 'pass'],
        ['aws quota needs', 'skip'],
        ['gcp quota needs', 'skip'],
      ]);
      expect(defaultLimitFindings(needs, 1)[0].detail).toBe("1 environment fits AWS's and Google Cloud's default limits (checked without credentials)");
    });
  });

  test('GIVEN 6 attendees on AWS only WHEN preflight checks the defaults THEN each over-default quota is a warning with how to raise it', () => {
    synthesizedPlaced({ attendees: names(6) }, ({ synth, placement }) => {
      const needs = labQuotaNeeds(
        synth,
        exposuresOfOutputs(synth),
        slotEnvironments(placement).filter((s) => s.slot.cloud === 'aws'),
      ).needs;
      expect(overDefaultLimits(needs).map((o) => o.quota.id)).toEqual(['vpcs', 'internetGateways', 'natGatewaysPerAz', 'elasticIps']);
      expect(defaultLimitFindings(needs, 6)[0]).toEqual({
        check: 'aws default quota vpcs',
        verdict: 'warn',
        detail:
          "VPCs per Region: 6 environments need 6 in us-east-1, 7 with the default VPC of every region of a fresh account (1), over AWS's default limit of 5: a default limit, not your account's; Service Quotas vpc L-F678F1CE (checked without credentials)",
        fix: "with credentials preflight checks your account's own (aws quota vpcs); if it holds the default, request 7: aws service-quotas request-service-quota-increase --service-code vpc --quota-code L-F678F1CE --desired-value 7 --region us-east-1; or deploy fewer environments (--env)",
      });
      expect(defaultLimitFindings(needs, 6, true)).toEqual([]);
    });
  });
});
