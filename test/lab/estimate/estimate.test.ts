import { validConfig } from '../../../lib/config/load';
import { estimateCost, formatCostEstimate, RegionCost } from '../../../lib/lab/estimate/cost-estimate';
import { awsPrices, gcpPrices, PRICE_TABLE, PRICES_READ } from '../../../lib/lab/estimate/price-table';
import { AWS_REGION_ZONES, GCP_REGION_ZONES } from '../../../lib/model/zones';

const near = (value: number) => expect.closeTo(value, 6);
const region = (estimate: { regions: readonly RegionCost[] }, cloud: 'aws' | 'gcp', name: string) => estimate.regions.find((r) => r.cloud === cloud && r.region === name)!;
/** The CloudWatch Logs line: named, never priced (per GB ingested, a volume not estimated). */
const LOGS = 'CloudWatch Logs ingestion (EKS logs)';
/** What the default lab has no price for in an AWS region whose EC2 prices alone are in the table, in line order. */
const UNPRICED_BUT_EC2 = ['node root volume (gp3 20 GiB)', 'NAT gateway', LOGS, 'Application Load Balancer', 'Network Load Balancer'];
/** Formatted lines as one text, wrapped lines joined. */
const text = (lines: readonly string[]) => lines.map((l) => l.trim()).join(' ');

describe('estimateCost', () => {
  test('GIVEN the default lab WHEN estimated THEN each line is quantity x its region’s price, per cloud', () => {
    const estimate = estimateCost(validConfig({}, 'test'));
    const aws = { ...PRICE_TABLE.aws.everyRegion, ...awsPrices('us-east-1') };
    const gcp = { ...PRICE_TABLE.gcp.everyRegion, ...gcpPrices('us-central1') };
    // AWS: ALBs for native, gateway and nodeport, NLBs for nodeport-l4, nodeport-local and native-l4; GKE: every mode but native-l4.
    const [albs, nlbs, gcpLbs] = [3, 3, 5];
    const awsHour =
      aws.eksClusterHour +
      3 * aws.instanceHour!['t3.medium'] +
      (3 * 20 * aws.gp3GbMonth!) / 730 +
      aws.natGatewayHour! +
      albs * aws.albHour! +
      nlbs * aws.nlbHour! +
      (1 + (albs + nlbs) * 2) * aws.publicIpv4Hour;
    // GKE: the Ingresses and the Gateway (native, gateway, nodeport) have global forwarding rules, the passthrough NLBs regional ones.
    const gcpHour =
      gcp.gkeClusterHour +
      3 * gcp.machineHour!['e2-standard-2'] +
      (3 * 50 * gcp.pdBalancedGbMonth!) / 730 +
      3 * gcp.natPerVmHour +
      3 * gcp.globalForwardingRuleHour +
      (gcpLbs - 3) * gcp.regionalForwardingRuleHour!;
    expect(estimate.regions.map((r) => [r.cloud, r.region, r.environments, r.perEnvironmentHour])).toEqual([
      ['aws', 'us-east-1', 1, near(awsHour)],
      ['gcp', 'us-central1', 1, near(gcpHour)],
    ]);
    expect(estimate.hour.total).toBeCloseTo(awsHour + gcpHour, 6);
    expect(estimate.workshop.total).toBeCloseTo((awsHour + gcpHour) * 8, 6);
    // Only the control-plane logs are named as not priced, and no region lacks a price.
    expect(estimate.unpriced).toEqual([`aws us-east-1: ${LOGS}`]);
    expect(estimate.unpricedRegions).toEqual([]);
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
    const lines = estimate.regions.flatMap((r) => r.lines);
    const qty = (item: string) => lines.find((l) => l.item === item)?.quantity;
    expect([
      qty('Application Load Balancer'),
      qty('Network Load Balancer'),
      qty('NAT gateway'),
      qty('public IPv4 address (NAT)'),
      qty('public IPv4 address (load balancers)'),
      qty('global forwarding rule (L7)'),
      qty('regional forwarding rule (L4)'),
    ]).toEqual([1, undefined, 2, 2, 2, 1, undefined]);
  });

  test('GIVEN a machine type missing from the price table WHEN estimated THEN it is counted as 0 and named with its region', () => {
    const estimate = estimateCost(validConfig({ gcp: { machineType: 'c3-standard-4' } }, 'test'));
    expect(estimate.unpriced).toEqual([`aws us-east-1: ${LOGS}`, 'gcp us-central1: Compute Engine c3-standard-4 node']);
    expect(estimate.unpricedRegions).toEqual(['gcp us-central1']);
    expect(text(formatCostEstimate(estimate))).toContain('no price in the table for some items in gcp us-central1: counted as $0, so the totals are low (lib/lab/estimate/price-table.ts)');
  });

  test.each([
    ['a narrowed list with the GKE Ingress', { exposures: ['native'], app: { allowedSourceCidrs: ['198.51.100.0/24'] } }, ['gcp us-central1: Cloud Armor policy (2 rules)']],
    [
      '11 blocks and the GKE Gateway',
      { exposures: ['gateway'], app: { allowedSourceCidrs: Array.from({ length: 11 }, (_, i) => `198.51.${i}.0/24`) } },
      ['gcp us-central1: Cloud Armor policy (3 rules)'],
    ],
    ['a narrowed list but only L4 exposures', { exposures: ['nodeport-l4'], app: { allowedSourceCidrs: ['198.51.100.0/24'] } }, []],
    ['the default list', { exposures: ['native'] }, []],
  ])('GIVEN %s WHEN estimated THEN the Cloud Armor policy is named as not priced exactly when the cluster stack makes it', (_, config, unpriced) => {
    const estimate = estimateCost(validConfig(config, 'test'));
    expect(estimate.unpriced.filter((u) => u.startsWith('gcp'))).toEqual(unpriced);
    // Not priced: counted as 0, so the totals are those without it.
    const without = estimateCost(validConfig({ ...config, app: undefined }, 'test'));
    expect(estimate.hour.total).toBeCloseTo(without.hour.total, 9);
    expect(estimateCost(validConfig(config, 'test'), { kinds: ['gcp-lb'] }).unpriced).toEqual([]);
  });

  test('GIVEN the estimate WHEN formatted THEN it states the price date, each region with its environments, the totals and what is not priced, within 80 columns', () => {
    const lines = formatCostEstimate(estimateCost(validConfig({ attendees: ['a', 'b'] }, 'test')));
    expect(text(lines)).toMatch(new RegExp(`^Estimated cost \\(list prices of each region, read ${PRICES_READ}; no data transfer or LB capacity units\\): AWS us-east-1`));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}AWS us-east-1, 2 environments: \$\d+\.\d\d\/h each$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}GCP us-central1, 2 environments: \$\d+\.\d\d\/h each$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}2 environments: AWS \$\d+\.\d\d\/h \+ GCP \$\d+\.\d\d\/h = \$\d+\.\d\d\/h$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}for 8 h \(workshop\.durationHours\): AWS \$\d+\.\d\d \+ GCP \$\d+\.\d\d = \$\d+\.\d\d$/));
    expect(text(lines)).toContain(`not priced: ${LOGS}: the control plane's api, audit, authenticator logs are priced per GB ingested (and stored), and how much they log is not estimated`);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });

  test('GIVEN every instance type hoplab knows the ENI limits of WHEN priced THEN us-east-1 has a price for it', () => {
    const { KNOWN_INSTANCE_TYPES } = jest.requireActual('../../../lib/model/eni-limits') as { KNOWN_INSTANCE_TYPES: string[] };
    expect(KNOWN_INSTANCE_TYPES.filter((t) => awsPrices('us-east-1').instanceHour?.[t] === undefined)).toEqual([]);
  });

  test('GIVEN a region priced in part WHEN estimated THEN what it has is priced at its own price, and the rest is named and counted as nothing, never priced as another region', () => {
    const estimate = estimateCost(validConfig({ aws: { region: 'eu-west-1', availabilityZones: ['eu-west-1a', 'eu-west-1b'] } }, 'test'));
    const lines = region(estimate, 'aws', 'eu-west-1').lines;
    // eu-west-1's own EC2 price (SkyPilot's catalog of the AWS offer files), not us-east-1's.
    expect(lines.find((l) => l.item === 'EC2 t3.medium node')?.unitPerHour).toBe(0.0456);
    expect(awsPrices('us-east-1').instanceHour!['t3.medium']).toBe(0.0416);
    expect(lines.filter((l) => l.unitPerHour !== undefined).map((l) => l.item)).toEqual([
      'EKS control plane',
      'EC2 t3.medium node',
      'public IPv4 address (NAT)',
      'public IPv4 address (load balancers)',
    ]);
    expect(estimate.unpriced.filter((u) => u.startsWith('aws'))).toEqual(UNPRICED_BUT_EC2.map((item) => `aws eu-west-1: ${item}`));
    expect(estimate.unpricedRegions).toEqual(['aws eu-west-1']);
  });

  test('GIVEN an offered region no source prices WHEN estimated THEN only what is priced the same everywhere has a price there', () => {
    const estimate = estimateCost(validConfig({ aws: { region: 'sa-east-1', availabilityZones: ['sa-east-1a', 'sa-east-1b'] } }, 'test'));
    expect(
      region(estimate, 'aws', 'sa-east-1')
        .lines.filter((l) => l.unitPerHour !== undefined)
        .map((l) => l.item),
    ).toEqual(['EKS control plane', 'public IPv4 address (NAT)', 'public IPv4 address (load balancers)']);
    expect(estimate.unpriced.filter((u) => u.startsWith('aws'))).toEqual(['EC2 t3.medium node', ...UNPRICED_BUT_EC2].map((item) => `aws sa-east-1: ${item}`));
  });

  test('GIVEN environments placed over two regions WHEN estimated THEN each is priced with its own region’s prices, and what the second has no price for is named', () => {
    const config = validConfig(
      { attendees: Array.from({ length: 6 }, (_, i) => `a${i + 1}`), aws: { regions: ['us-east-1', 'eu-central-1'] }, gcp: { projects: ['p-one-1', 'p-two-2'], regions: ['us-central1', 'us-east4'] } },
      'test',
    );
    const estimate = estimateCost(config);
    expect(estimate.regions.map((r) => [r.cloud, r.region, r.environments])).toEqual([
      ['aws', 'us-east-1', 4],
      ['aws', 'eu-central-1', 2],
      ['gcp', 'us-central1', 6],
    ]);
    const [east1, central1] = [region(estimate, 'aws', 'us-east-1'), region(estimate, 'aws', 'eu-central-1')];
    const nodeHour = (r: RegionCost) => r.lines.find((l) => l.item === 'EC2 t3.medium node')?.unitPerHour;
    expect([nodeHour(east1), nodeHour(central1)]).toEqual([0.0416, 0.048]);
    // eu-central-1: its EC2 price; NAT gateway, load balancers and gp3 named, not borrowed from us-east-1.
    expect(estimate.unpriced.filter((u) => u.startsWith('aws eu-central-1'))).toEqual(UNPRICED_BUT_EC2.map((item) => `aws eu-central-1: ${item}`));
    expect(estimate.unpricedRegions).toEqual(['aws eu-central-1']);
    const priced = (r: RegionCost) => r.lines.reduce((sum, l) => sum + l.quantity * (l.unitPerHour ?? 0), 0);
    expect([east1.perEnvironmentHour, central1.perEnvironmentHour]).toEqual([near(priced(east1)), near(priced(central1))]);
    expect(estimate.hour.aws).toBeCloseTo(4 * east1.perEnvironmentHour + 2 * central1.perEnvironmentHour, 6);
    expect(formatCostEstimate(estimate)).toContainEqual(`  AWS eu-central-1, 2 environments: $${central1.perEnvironmentHour.toFixed(2)}/h each`);
  });

  test('GIVEN GCP environments in us-east4 WHEN estimated THEN the machine type is priced at us-east4’s price, not us-central1’s, and Cloud NAT and global rules at their one price', () => {
    const estimate = estimateCost(validConfig({ gcp: { region: 'us-east4', zones: ['us-east4-a'] } }, 'test'));
    const lines = region(estimate, 'gcp', 'us-east4').lines;
    const node = lines.find((l) => l.item === 'Compute Engine e2-standard-2 node')!;
    expect(node.unitPerHour).toBe(gcpPrices('us-east4').machineHour!['e2-standard-2']);
    expect(node.unitPerHour).not.toBe(gcpPrices('us-central1').machineHour!['e2-standard-2']);
    expect(lines.find((l) => l.item === 'Cloud NAT (per VM)')?.unitPerHour).toBe(0.0014);
    expect(lines.find((l) => l.item === 'global forwarding rule (L7)')?.unitPerHour).toBe(0.025);
    // Regional forwarding rules are priced in us-central1 only: named here.
    expect(estimate.unpriced.filter((u) => u.startsWith('gcp'))).toEqual(['gcp us-east4: regional forwarding rule (L4)']);
  });

  test('GIVEN every offered AWS region WHEN the price table is read THEN EC2 has a price in each but sa-east-1 (no source), and NAT gateways, load balancers and gp3 in us-east-1 only', () => {
    const offered = Object.keys(AWS_REGION_ZONES);
    expect(Object.keys(PRICE_TABLE.aws.regions).filter((r) => !offered.includes(r))).toEqual([]);
    expect(offered.filter((r) => awsPrices(r).instanceHour?.['t3.medium'] === undefined)).toEqual(['sa-east-1']);
    const perRegion = (key: 'natGatewayHour' | 'albHour' | 'nlbHour' | 'gp3GbMonth') => offered.filter((r) => awsPrices(r)[key] !== undefined);
    expect([perRegion('natGatewayHour'), perRegion('albHour'), perRegion('nlbHour'), perRegion('gp3GbMonth')]).toEqual([['us-east-1'], ['us-east-1'], ['us-east-1'], ['us-east-1']]);
  });

  test('GIVEN every GCP region in the price table WHEN read THEN it is an offered region', () => {
    const offered = Object.keys(GCP_REGION_ZONES);
    expect(Object.keys(PRICE_TABLE.gcp.regions).filter((r) => !offered.includes(r))).toEqual([]);
  });

  // Prices are transcribed from the sources by hand: within a family, a size twice as big costs twice as much (to AWS's rounding),
  // so a digit slipped in one cell shows here.
  test.each([
    ['t3.small', 't3.medium'],
    ['t3.medium', 't3.large'],
    ['t3.large', 't3.xlarge'],
    ['t3a.medium', 't3a.large'],
    ['m5.large', 'm5.xlarge'],
    ['m6i.large', 'm6i.xlarge'],
  ])('GIVEN every AWS region WHEN %s and %s are priced there THEN the second costs twice the first', (small, big) => {
    const off = Object.entries(PRICE_TABLE.aws.regions)
      .filter(([, p]) => p.instanceHour?.[small] !== undefined || p.instanceHour?.[big] !== undefined)
      // Both or neither: a type offered in a region comes in both sizes; NaN (one missing) is reported too.
      .filter(([, p]) => !(Math.abs(p.instanceHour![big] / p.instanceHour![small] - 2) <= 0.005))
      .map(([r, p]) => `${r}: ${p.instanceHour![small]} / ${p.instanceHour![big]}`);
    expect(off).toEqual([]);
  });

  test.each([
    ['aws-cluster,aws-lb', ['aws-cluster', 'aws-lb'], 'aws'],
    ['gcp-lb', ['gcp-lb'], 'gcp'],
  ] as const)('GIVEN --stacks %s WHEN estimated THEN only those stacks are priced, and the other cloud costs nothing', (_text, kinds, cloud) => {
    const all = estimateCost(validConfig({}, 'test'));
    const some = estimateCost(validConfig({}, 'test'), { kinds });
    expect(some.stacks).toEqual(kinds);
    expect(some.regions.flatMap((r) => r.lines)).toEqual(all.regions.flatMap((r) => r.lines).filter((l) => (kinds as readonly string[]).includes(l.stack)));
    const other = cloud === 'aws' ? 'gcp' : 'aws';
    expect([some.hour[other], some.workshop[other]]).toEqual([0, 0]);
    expect(some.hour.total).toBeCloseTo(some.hour[cloud], 6);
  });

  test('GIVEN --stacks aws-cluster,aws-lb WHEN formatted THEN no GCP price, line or total is printed', () => {
    const lines = formatCostEstimate(estimateCost(validConfig({}, 'test'), { kinds: ['aws-cluster', 'aws-lb'] }));
    expect(text(lines)).toMatch(new RegExp(`^Estimated cost \\(list prices of each region, read ${PRICES_READ}; no data transfer or LB capacity units; only the stacks aws-cluster, aws-lb\\):`));
    expect(lines.filter((l) => /gcp|GCP/.test(l))).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}1 environment: AWS \$\d+\.\d\d\/h$/));
    expect(lines).toContainEqual(expect.stringMatching(/^ {2}for 8 h \(workshop\.durationHours\): AWS \$\d+\.\d\d$/));
  });

  test('GIVEN --env naming 2 of 5 environments WHEN estimated THEN the totals are for 2', () => {
    const config = validConfig({ attendees: ['a', 'b', 'c', 'd', 'e'] }, 'test');
    const all = estimateCost(config);
    const two = estimateCost(config, { envs: ['a', 'c'] });
    expect([all.environments, two.environments]).toEqual([5, 2]);
    expect(two.hour.total).toBeCloseTo((all.hour.total / 5) * 2, 6);
    expect(formatCostEstimate(two)).toContainEqual(expect.stringMatching(/^ {2}2 environments: /));
  });
});
