/**
 * The placement as synth, cost and preflight show it: per slot the
 * environments, each binding quota's figure (what the slot or its project
 * takes with what a fresh account or project holds, of the default) and the
 * vCPUs its nodes need; a compact table that fits 80 columns for 30
 * environments over 8 slots, Markdown, and the data the JSON forms carry.
 */
import { validConfig } from '../../../lib/config/load';
import { EnvironmentNeeds } from '../../../lib/lab/estimate/environment-needs';
import { placeLab } from '../../../lib/lab/placement/lab-placement';
import { formatPlacement, perEnvironmentNeeds, placementMarkdown, placementReport } from '../../../lib/lab/placement/placement-report';
import { attendeeNames, EIGHT_GCP_PROJECTS } from '../../support/placed-lab';

// One default environment's needs, as environment-needs.ts counts them from its stacks (held by quotas.test.ts).
const ONE: EnvironmentNeeds = {
  aws: new Map([
    ['vpcs', 1],
    ['internetGateways', 1],
    ['natGatewaysPerAz', 1],
    ['elasticIps', 1],
    ['eksClusters', 1],
    ['albs', 3],
    ['nlbs', 3],
    ['vcpus', 6],
  ]),
  gcp: new Map([
    ['NETWORKS', 1],
    ['CPUS', 8],
  ]),
};

const CONFIG = {
  attendees: attendeeNames(30),
  aws: { accounts: [{ id: '111122223333' }, { id: '444455556666' }], regions: ['us-east-1', 'us-east-2', 'us-west-1', 'ap-southeast-2'] },
  gcp: { projects: EIGHT_GCP_PROJECTS },
};

const reportOf = (raw: unknown) => {
  const placement = placeLab(validConfig(raw, 'test'), { needs: ONE });
  return { placement, report: placementReport(placement, perEnvironmentNeeds(placement, ONE)) };
};

describe('the placement report', () => {
  test('GIVEN 30 over 2 accounts x 4 regions and 8 projects WHEN reported THEN each slot has its environments, its binding figures and its vCPUs', () => {
    const { report } = reportOf(CONFIG);
    expect(report.environments).toBe(30);
    expect(report.slots).toHaveLength(16);
    expect(report.slots[0]).toEqual({
      cloud: 'aws',
      slot: '111122223333/us-east-1',
      account: '111122223333',
      region: 'us-east-1',
      zones: ['us-east-1a', 'us-east-1b'],
      environments: ['a01', 'a02', 'a03', 'a04'],
      capacity: 4,
      binding: [
        { quota: 'vpcs', name: 'VPCs per Region', short: 'VPCs', total: 5, limit: 5, per: 'slot' },
        { quota: 'internetGateways', name: 'Internet gateways per Region', short: 'IGWs', total: 5, limit: 5, per: 'slot' },
      ],
      vcpus: 24,
    });
    expect(report.slots[7]).toMatchObject({ slot: '444455556666/ap-southeast-2', environments: ['a29', 'a30'], binding: [{ total: 3 }, { total: 3 }], vcpus: 12 });
    expect(report.slots[8]).toMatchObject({ cloud: 'gcp', slot: 'hoplab-ws-1/us-central1', project: 'hoplab-ws-1', binding: [{ quota: 'NETWORKS', total: 5, limit: 5, per: 'project' }], vcpus: 32 });
  });

  test('GIVEN the report WHEN printed for an 80-column terminal THEN every line fits, a row per slot, each cloud its own table', () => {
    const { report, placement } = reportOf(CONFIG);
    const lines = formatPlacement(report, placement.envs, 80);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    expect(lines).toContain('| 111122223333/us-east-1      | 4/4  | a01..a04 | 5/5  | 5/5  | 24    |');
    expect(lines).toContain('| 444455556666/ap-southeast-2 | 2/4  | a29, a30 | 3/5  | 3/5  | 12    |');
    expect(lines.find((l) => l.startsWith('| AWS slot'))).toMatch(/^\| AWS slot +\| envs \| who +\| VPCs \| IGWs \| vCPUs \|$/);
    expect(lines.find((l) => l.startsWith('| GCP slot'))).toMatch(/\| NETWORKS per project \| vCPUs \|$/);
    expect(lines.filter((l) => /^\| (\d{12}|hoplab-ws-\d)\//.test(l))).toHaveLength(16);
  });

  test('GIVEN pinned environments out of attendee order WHEN printed THEN the slot names them instead of a range', () => {
    const pinned = { name: 'zed', placement: { aws: { region: 'us-east-1' } } };
    const { report, placement } = reportOf({ attendees: [...attendeeNames(5), pinned], aws: { regions: ['us-east-1', 'us-east-2'] } });
    expect(report.slots.find((s) => s.slot === 'host/us-east-1')?.environments).toEqual(['a01', 'a02', 'a03', 'zed']);
    expect(formatPlacement(report, placement.envs).find((l) => l.startsWith('| host/us-east-1'))).toContain('| a01, a02 +2 |');
  });

  test('GIVEN the report WHEN written as Markdown THEN a table per cloud under a Placement heading', () => {
    const { report, placement } = reportOf(CONFIG);
    const markdown = placementMarkdown(report, placement.envs);
    expect(markdown).toMatch(/^### Placement\n\n- AWS: 8 slots \(2 accounts x 4 regions\), 4 per slot by VPCs per Region/);
    expect(markdown).toContain('| AWS slot | envs | who | VPCs | IGWs | vCPUs |');
    expect(markdown).toContain('| hoplab-ws-8/us-central1 | 2 | a29, a30 | 3/5 | 16 |');
  });

  test('GIVEN placement.perSlot WHEN reported THEN no quota binds, and the words say so', () => {
    const { report } = reportOf({ attendees: attendeeNames(3), placement: { perSlot: 2 }, aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2'] } });
    expect(report.capacity.aws).toBe('2 slots (1 account x 2 regions) of placement.perSlot 2 each');
    expect(report.slots.map((s) => [s.slot, s.environments.length, s.binding.length])).toEqual([
      ['host/us-east-1', 2, 0],
      ['host/us-east-2', 1, 0],
      ['lab-one-1/us-central1', 2, 0],
      ['lab-two-2/us-central1', 1, 0],
    ]);
  });
});
