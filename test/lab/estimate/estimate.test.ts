import { validConfig } from '../../../lib/config/load';
import { estimateCost, formatCostEstimate } from '../../../lib/lab/estimate/cost-estimate';
import { PRICE_TABLE } from '../../../lib/lab/estimate/price-table';

const near = (value: number) => expect.closeTo(value, 6);

describe('estimateCost', () => {
  test('GIVEN the default lab WHEN estimated THEN each line is quantity x table price, per cloud', () => {
    const estimate = estimateCost(validConfig({}, 'test'));
    const aws = PRICE_TABLE.aws;
    const gcp = PRICE_TABLE.gcp;
    // AWS: ALBs for native, gateway and nodeport, NLBs for nodeport-l4, nodeport-local and native-l4; GKE: every mode but native-l4.
    const [albs, nlbs, gcpLbs] = [3, 3, 5];
    const awsHour =
      aws.eksClusterHour + 3 * aws.instanceHour['t3.medium'] + 3 * aws.nodeVolumeHour + aws.natGatewayHour + albs * aws.albHour + nlbs * aws.nlbHour + (1 + (albs + nlbs) * 2) * aws.publicIpv4Hour;
    const gcpHour = gcp.gkeClusterHour + 3 * gcp.machineHour['e2-standard-2'] + 3 * gcp.nodeDiskHour + 3 * gcp.natPerVmHour + gcpLbs * gcp.forwardingRuleHour;
    expect(estimate.perEnvironmentHour).toEqual({ aws: near(awsHour), gcp: near(gcpHour) });
    expect(estimate.hour.total).toBeCloseTo(awsHour + gcpHour, 6);
    expect(estimate.workshop.total).toBeCloseTo((awsHour + gcpHour) * 8, 6);
    expect(estimate.unpriced).toEqual([]);
  });

  test('GIVEN 30 attendees for 6 hours WHEN estimated THEN the totals scale by environments and hours', () => {
    const one = estimateCost(validConfig({}, 'test'));
    const many = estimateCost(validConfig({ attendees: Array.from({ length: 30 }, (_, i) => `a${i}`), workshop: { durationHours: 6 } }, 'test'));
    expect(many.environments).toBe(30);
    expect(many.hour.total).toBeCloseTo(one.hour.total * 30, 6);
    expect(many.workshop.total).toBeCloseTo(one.hour.total * 30 * 6, 6);
  });

  test('GIVEN fewer exposures and a NAT per AZ WHEN estimated THEN load balancers, NAT gateways and public IPs follow', () => {
    const estimate = estimateCost(validConfig({ exposures: ['native'], aws: { natGateways: 'one-per-az' } }, 'test'));
    const qty = (item: string) => estimate.lines.find((l) => l.item === item)?.quantity;
    expect([
      qty('Application Load Balancer'),
      qty('Network Load Balancer'),
      qty('NAT gateway'),
      qty('public IPv4 address (NAT)'),
      qty('public IPv4 address (load balancers)'),
      qty('load balancer forwarding rule'),
    ]).toEqual([1, undefined, 2, 2, 2, 1]);
  });

  test('GIVEN a machine type missing from the price table WHEN estimated THEN it is counted as 0 and named', () => {
    const estimate = estimateCost(validConfig({ gcp: { machineType: 'c3-standard-4' } }, 'test'));
    expect(estimate.unpriced).toEqual(['gcp: Compute Engine c3-standard-4 node']);
    expect(formatCostEstimate(estimate).at(-1)).toBe('  not priced (add to lib/lab/estimate/price-table.ts): gcp: Compute Engine c3-standard-4 node');
  });

  test.each([
    ['a narrowed list with the GKE Ingress', { exposures: ['native'], app: { allowedSourceCidrs: ['198.51.100.0/24'] } }, ['gcp: Cloud Armor policy (2 rules)']],
    ['11 blocks and the GKE Gateway', { exposures: ['gateway'], app: { allowedSourceCidrs: Array.from({ length: 11 }, (_, i) => `198.51.${i}.0/24`) } }, ['gcp: Cloud Armor policy (3 rules)']],
    ['a narrowed list but only L4 exposures', { exposures: ['nodeport-l4'], app: { allowedSourceCidrs: ['198.51.100.0/24'] } }, []],
    ['the default list', { exposures: ['native'] }, []],
  ])('GIVEN %s WHEN estimated THEN the Cloud Armor policy is named as not priced exactly when the cluster stack makes it', (_, config, unpriced) => {
    const estimate = estimateCost(validConfig(config, 'test'));
    expect(estimate.unpriced).toEqual(unpriced);
    // Not priced: counted as 0, so the totals are those without it.
    const without = estimateCost(validConfig({ ...config, app: undefined }, 'test'));
    expect(estimate.hour.total).toBeCloseTo(without.hour.total, 9);
    expect(estimateCost(validConfig(config, 'test'), { kinds: ['gcp-lb'] }).unpriced).toEqual([]);
  });

  test('GIVEN the estimate WHEN formatted THEN it states the price date, the regions and the totals', () => {
    const lines = formatCostEstimate(estimateCost(validConfig({ attendees: ['a', 'b'] }, 'test')));
    expect(lines[0]).toBe(`Estimated cost (list prices of ${PRICE_TABLE.asOf}, us-east-1 and us-central1; no data transfer or LB capacity units):`);
    expect(lines.at(-2)).toMatch(/^ {2}2 environments: AWS \$\d+\.\d\d\/h \+ GCP \$\d+\.\d\d\/h = \$\d+\.\d\d\/h$/);
    expect(lines.at(-1)).toMatch(/^ {2}for 8 h \(workshop\.durationHours\): AWS \$\d+\.\d\d \+ GCP \$\d+\.\d\d = \$\d+\.\d\d$/);
  });

  test('GIVEN every instance type hoplab knows the ENI limits of WHEN priced THEN the table has a price for it', () => {
    const { KNOWN_INSTANCE_TYPES } = jest.requireActual('../../../lib/model/eni-limits') as { KNOWN_INSTANCE_TYPES: string[] };
    expect(KNOWN_INSTANCE_TYPES.filter((t) => PRICE_TABLE.aws.instanceHour[t] === undefined)).toEqual([]);
  });

  test("GIVEN regions the price table has no prices for WHEN formatted THEN the estimate says it used the table's regions", () => {
    const estimate = estimateCost(validConfig({ aws: { region: 'eu-west-1', availabilityZones: ['eu-west-1a', 'eu-west-1b'] }, gcp: { region: 'europe-west1', zones: ['europe-west1-b'] } }, 'test'));
    expect(estimate.otherRegions).toEqual(['aws eu-west-1', 'gcp europe-west1']);
    expect(formatCostEstimate(estimate)).toContain("  the lab runs in aws eu-west-1 and gcp europe-west1: prices there differ (often by 5-20%); this uses the table's regions");
    expect(estimateCost(validConfig({}, 'test')).otherRegions).toEqual([]);
  });

  test.each([
    ['aws-cluster,aws-lb', ['aws-cluster', 'aws-lb'], 'aws'],
    ['gcp-lb', ['gcp-lb'], 'gcp'],
  ] as const)('GIVEN --stacks %s WHEN estimated THEN only those stacks are priced, and the other cloud costs nothing', (_text, kinds, cloud) => {
    const all = estimateCost(validConfig({}, 'test'));
    const some = estimateCost(validConfig({}, 'test'), { kinds });
    expect(some.stacks).toEqual(kinds);
    expect(some.lines).toEqual(all.lines.filter((l) => (kinds as readonly string[]).includes(l.stack)));
    const other = cloud === 'aws' ? 'gcp' : 'aws';
    expect([some.hour[other], some.workshop[other]]).toEqual([0, 0]);
    expect(some.hour.total).toBeCloseTo(some.hour[cloud], 6);
  });

  test('GIVEN --stacks aws-cluster,aws-lb WHEN formatted THEN no GCP price, line or total is printed', () => {
    const lines = formatCostEstimate(estimateCost(validConfig({}, 'test'), { kinds: ['aws-cluster', 'aws-lb'] }));
    expect(lines[0]).toBe(`Estimated cost (list prices of ${PRICE_TABLE.asOf}, us-east-1; no data transfer or LB capacity units; only the stacks aws-cluster, aws-lb):`);
    expect(lines[1]).toMatch(/^ {2}per environment: AWS \$\d+\.\d\d\/h$/);
    expect(lines.filter((l) => /gcp|GCP/.test(l))).toEqual([]);
    expect(lines.at(-2)).toMatch(/^ {2}1 environment: AWS \$\d+\.\d\d\/h$/);
    expect(lines.at(-1)).toMatch(/^ {2}for 8 h \(workshop\.durationHours\): AWS \$\d+\.\d\d$/);
  });

  test('GIVEN --env naming 2 of 5 environments WHEN estimated THEN the totals are for 2', () => {
    const config = validConfig({ attendees: ['a', 'b', 'c', 'd', 'e'] }, 'test');
    const all = estimateCost(config);
    const two = estimateCost(config, { envs: ['a', 'c'] });
    expect([all.environments, two.environments]).toEqual([5, 2]);
    expect(two.hour.total).toBeCloseTo((all.hour.total / 5) * 2, 6);
    expect(formatCostEstimate(two).at(-2)).toMatch(/^ {2}2 environments: /);
  });
});
