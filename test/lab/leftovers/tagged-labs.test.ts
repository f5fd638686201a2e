/** The labs among resources found by their tags, and what each is to the reaper: a pure function, tested with plain data. */
import { judgeLabs, JudgeContext, labsOf } from '../../../lib/lab/leftovers/tagged-labs';
import { TaggedResource } from '../../../lib/lab/leftovers/tagged-resource';
import { standingCost } from '../../../lib/lab/estimate/standing-cost';
import { expiryOfTag, labTags } from '../../../lib/model/tags';
import { gcpLabelValue } from '../../../lib/constructs/gcp/gke-providers';

const NOW = new Date('2026-12-07T10:00:00Z');
const tags = (env: string, expiresAt: string | undefined, workshop = 'ws') =>
  labTags({ name: env, workshop: { name: workshop, owner: 'o', ...(expiresAt ? { expiresAt } : {}) } }, `${env}-aws-cluster`);
const vpc = (env: string, expiresAt: string | undefined, slot = 'host/us-east-1', workshop = 'ws'): TaggedResource => ({
  cloud: 'aws',
  slot,
  region: slot.split('/')[1],
  kind: 'ec2:vpc',
  id: `vpc-${env}-${slot}`,
  tags: tags(env, expiresAt, workshop),
});
const context = (over: Partial<JudgeContext> = {}): JudgeContext => ({ now: NOW, stateSlot: () => undefined, tornDown: new Map(), ...over });
const statuses = (resources: TaggedResource[], over: Partial<JudgeContext> = {}) => judgeLabs(labsOf(resources), context(over)).map((l) => [l.env, l.slot, l.status, l.expired]);

describe('expiryOfTag', () => {
  test.each([
    ['2026-12-01T18:00:00Z', '2026-12-01T18:00:00.000Z'],
    ['2026-12-01T18:00Z', '2026-12-01T18:00:00.000Z'],
    // GCP labels, as gcpLabelValue makes them.
    [gcpLabelValue('2026-12-01T18:00:00Z'), '2026-12-01T18:00:00.000Z'],
    [gcpLabelValue('2026-12-01T18:30Z'), '2026-12-01T18:30:00.000Z'],
  ])('GIVEN %s WHEN read back THEN it is %s', (tag, iso) => {
    expect((expiryOfTag(tag) as Date).toISOString()).toBe(iso);
  });

  test('GIVEN unset, or what is no time WHEN read back THEN unset, or nothing', () => {
    expect(expiryOfTag('unset')).toBe('unset');
    for (const text of [undefined, '', 'tomorrow', '2026-13-45T99:00:00Z']) expect(expiryOfTag(text)).toBeUndefined();
  });
});

describe('labsOf and judgeLabs', () => {
  test('GIVEN resources of several labs WHEN grouped THEN one lab per slot, environment and workshop; its expiry the latest its resources say', () => {
    const labs = labsOf([
      vpc('ann', '2026-12-01T18:00:00Z'),
      { ...vpc('ann', '2026-12-09T18:00:00Z'), id: 'vpc-2' },
      vpc('ann', '2026-12-01T18:00:00Z', 'host/eu-west-1'),
      vpc('ann', '2026-12-01T18:00:00Z', 'host/us-east-1', 'other-ws'),
    ]);
    expect(labs.map((l) => [l.env, l.slot, l.workshop, l.expiresTag, l.resources.length])).toEqual([
      ['ann', 'host/us-east-1', 'ws', '2026-12-09T18:00:00Z', 2],
      ['ann', 'host/eu-west-1', 'ws', '2026-12-01T18:00:00Z', 1],
      ['ann', 'host/us-east-1', 'other-ws', '2026-12-01T18:00:00Z', 1],
    ]);
  });

  test("GIVEN a controller's load balancer with only the cluster tag WHEN grouped THEN it goes with the cluster of that name in its slot", () => {
    const cluster: TaggedResource = { ...vpc('ann', '2026-12-01T18:00:00Z'), kind: 'eks:cluster', id: 'ann-eks', nodegroups: [] };
    const lb: TaggedResource = {
      cloud: 'aws',
      slot: 'host/us-east-1',
      region: 'us-east-1',
      kind: 'elbv2:load-balancer',
      id: 'arn:lb',
      name: 'k8s-x',
      lbType: 'network',
      internetFacing: false,
      zones: 2,
      tags: { 'elbv2.k8s.aws/cluster': 'ann-eks' },
    };
    expect(labsOf([cluster, lb]).map((l) => [l.env, l.resources.map((r) => r.kind)])).toEqual([['ann', ['eks:cluster', 'elbv2:load-balancer']]]);
  });

  test('GIVEN each case WHEN judged THEN not expired, no expiry, left after teardown, teardown failed, state here and no state here', () => {
    const here = (_cloud: string, env: string) => ({ ann: 'host/us-east-1', bob: 'host/us-east-1', cy: 'host/us-east-1', dee: 'host/us-east-1' }[env]);
    const found = [
      vpc('ann', '2026-12-07T09:00:00Z'),
      vpc('bob', '2026-12-07T09:00:00Z'),
      vpc('cy', '2026-12-07T09:00:00Z'),
      // dee's state says us-east-1; this lab of dee's is in another region: not the one its state knows.
      vpc('dee', '2026-12-07T09:00:00Z', 'host/eu-west-1'),
      vpc('eve', '2026-12-08T09:00:00Z'),
      vpc('fay', undefined),
      vpc('gus', '2026-12-07T10:00:00Z'),
    ];
    const tornDown = new Map([
      ['ann', 'destroyed' as const],
      ['bob', 'failed' as const],
    ]);
    expect(statuses(found, { stateSlot: here, tornDown })).toEqual([
      ['ann', 'host/us-east-1', 'left after teardown', true],
      ['bob', 'host/us-east-1', 'teardown failed', true],
      ['cy', 'host/us-east-1', 'state here', true],
      ['dee', 'host/eu-west-1', 'no state here', true],
      ['eve', 'host/us-east-1', 'not expired', false],
      ['fay', 'host/us-east-1', 'no expiry', false],
      // An expiry at this very minute has passed, as deploy's check counts it.
      ['gus', 'host/us-east-1', 'no state here', true],
    ]);
  });
});

describe('standingCost', () => {
  test('GIVEN resources in a region the table holds and one it holds in part WHEN priced THEN each priced from its own region, the rest named, never borrowed', () => {
    const at = (region: string) => ({ cloud: 'aws' as const, slot: `host/${region}`, region, tags: {} });
    const cost = standingCost([
      { ...at('us-east-1'), kind: 'ec2:instance', id: 'i-1', instanceType: 't3.medium' },
      { ...at('us-east-1'), kind: 'ec2:instance', id: 'i-2', instanceType: 't3.medium' },
      { ...at('us-east-1'), kind: 'ec2:vpc', id: 'vpc-1' },
      { ...at('eu-west-1'), kind: 'ec2:instance', id: 'i-3', instanceType: 't3.medium' },
      { ...at('eu-west-1'), kind: 'ec2:nat-gateway', id: 'nat-1' },
      { ...at('eu-west-1'), kind: 'ec2:elastic-ip', id: 'eip-1' },
      { ...at('eu-west-1'), kind: 'eks:cluster', id: 'x-eks', nodegroups: [] },
    ]);
    expect(cost.lines.map((l) => [l.region, l.item, l.quantity, l.unitPerHour])).toEqual([
      ['us-east-1', 'EC2 t3.medium', 2, 0.0416],
      ['eu-west-1', 'EC2 t3.medium', 1, 0.0456],
      ['eu-west-1', 'NAT gateway', 1, undefined],
      ['eu-west-1', 'public IPv4 address (Elastic IP)', 1, 0.005],
      ['eu-west-1', 'EKS control plane', 1, 0.1],
    ]);
    expect(cost.perHour).toBeCloseTo(2 * 0.0416 + 0.0456 + 0.005 + 0.1, 10);
    expect(cost.unpriced).toEqual(['aws eu-west-1: NAT gateway']);
  });
});
