/**
 * A workshop of 30 over eight slots per cloud, synthesized: no default-limit
 * note, each slot within every documented default with what a fresh account or
 * project holds, the vCPU need listed per slot; the same 30 in one region get a
 * note for each quota they exceed and their vCPU need; and appending a 31st
 * attendee changes no stack of the first 30. (Apart from lab-placement.test.ts:
 * these synthesize four labs of 30, so jest runs them beside other files.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultLimitNotes, exposuresOfOutputs, labQuotaNeeds } from '../../../lib/lab/estimate/quotas';
import { slotEnvironments } from '../../../lib/lab/placement/lab-placement';
import { overDefault, sizesSlots } from '../../../lib/model/quotas';
import { attendeeNames, EIGHT_AWS_REGIONS, EIGHT_GCP_PROJECTS, synthesizedPlaced } from '../../support/placed-lab';

const WORKSHOP = { attendees: attendeeNames(30), aws: { regions: EIGHT_AWS_REGIONS }, gcp: { projects: EIGHT_GCP_PROJECTS } };
const TWO_ACCOUNTS = {
  attendees: attendeeNames(30),
  aws: { accounts: [{ id: '111122223333' }, { id: '444455556666', roleName: 'HoplabDeployer' }], regions: EIGHT_AWS_REGIONS.slice(0, 4) },
  gcp: { projects: EIGHT_GCP_PROJECTS },
};

/** What the tests below read of one synthesized lab: its needs and notes per slot, and every stack's text. */
function synthesizedLab(raw: unknown) {
  return synthesizedPlaced(raw, ({ synth, placement, dir }) => ({
    notes: defaultLimitNotes(synth, slotEnvironments(placement)),
    quotas: labQuotaNeeds(synth, exposuresOfOutputs(synth), slotEnvironments(placement)),
    stacks: new Map(synth.clouds.flatMap((c) => [c.cluster!, c.lb!]).map((s) => [s.name, readFileSync(join(dir, 'stacks', s.name, 'cdk.tf.json'), 'utf8')])),
  }));
}

describe('a workshop of 30 in its slots, synthesized', () => {
  // Each lab is synthesized once (30 environments take seconds): the tests share them.
  let labs: Record<'workshop' | 'accounts' | 'appended' | 'oneRegion', ReturnType<typeof synthesizedLab>>;
  beforeAll(() => {
    labs = {
      workshop: synthesizedLab(WORKSHOP),
      accounts: synthesizedLab(TWO_ACCOUNTS),
      appended: synthesizedLab({ ...WORKSHOP, attendees: attendeeNames(31) }),
      oneRegion: synthesizedLab({ attendees: attendeeNames(30) }),
    };
  });

  test.each([
    ['eight AWS regions and eight GCP projects', 'workshop'],
    ['two AWS accounts x four regions and eight GCP projects', 'accounts'],
  ] as const)('GIVEN 30 attendees over %s WHEN synthesized THEN no default-limit note, and every slot is within every documented default with what a fresh account or project holds', (_name, key) => {
    const { notes, quotas } = labs[key];
    expect(notes).toEqual([]);
    expect(quotas.notes).toEqual([]);
    const needs = quotas.needs;
    // Counted for every quota of the table in every slot (or project) that holds environments: 8 AWS slots x 8 quotas.
    expect(needs.filter((n) => n.quota.cloud === 'aws')).toHaveLength(8 * 8);
    const within = needs.filter((n) => sizesSlots(n.quota)).map((n) => ({ quota: n.quota.id, where: n.where, total: n.need + n.quota.fresh, limit: n.quota.defaultLimit }));
    expect(within.filter((n) => n.total > n.limit!)).toEqual([]);
    expect(needs.filter((n) => overDefault(n.quota, n.need))).toEqual([]);
    // The binding ones sit at their limit in a full slot: 4 VPCs and the default VPC = 5 of 5; 4 networks and the default network = 5 of 5.
    expect(within.find((n) => n.quota === 'vpcs')).toMatchObject({ total: 5, limit: 5 });
    expect(within.find((n) => n.quota === 'NETWORKS')).toMatchObject({ total: 5, limit: 5 });
    // vCPUs are listed per slot as a need (3 t3.medium nodes, 6 vCPUs each environment), never over a default.
    expect(needs.filter((n) => n.quota.id === 'vcpus').map((n) => n.need)).toEqual([24, 24, 24, 24, 24, 24, 24, 12]);
  });

  test('GIVEN the same 30 in one region and one project WHEN synthesized THEN a note for each quota they exceed, and their vCPU needs on both clouds', () => {
    const { notes } = labs.oneRegion;
    expect(notes.map((n) => n.slice(0, n.indexOf(':')))).toEqual([
      'VPCs per Region',
      'Internet gateways per Region',
      'NAT gateways per Availability Zone',
      'EC2-VPC Elastic IPs',
      'Application Load Balancers per Region',
      'Network Load Balancers per Region',
      'VPC networks (NETWORKS)',
      'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances (vCPUs)',
      'vCPUs (CPUS)',
    ]);
    // Both clouds' vCPU needs, as needs for preflight to check with credentials: neither cloud publishes a default for them.
    expect(notes.slice(-2)).toEqual([
      'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances (vCPUs): 30 environments need 180 in us-east-1; its value is set per account, not a published default (Service Quotas ec2 L-1216C47A) (npx hoplab preflight checks your own)',
      'vCPUs (CPUS): 30 environments need 240 in us-central1 of project hoplab-demo; its value is set per project, not a published default (Cloud Quotas CPUS-per-project-region) (npx hoplab preflight checks your own)',
    ]);
  });

  test('GIVEN 30 attendees in their slots WHEN a 31st is appended THEN every stack of the first 30 is the same, byte for byte', () => {
    const before = labs.workshop.stacks;
    const after = labs.appended.stacks;
    expect([before.size, after.size]).toEqual([120, 124]);
    expect([...before].filter(([name, text]) => after.get(name) !== text).map(([name]) => name)).toEqual([]);
  });
});
