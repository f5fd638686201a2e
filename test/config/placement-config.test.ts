/**
 * The placement fields of the config: the lists environments may be placed in
 * (aws.regions, aws.accounts, gcp.regions, gcp.projects), zones against the
 * zone table (a zone that exists in no account is refused with the real ones
 * named), zones derived per region when not given, and attendees' pins. One
 * row per rule: GIVEN a config with one mistake, THEN exactly these messages.
 */
import { formatProblem } from '../../lib/config/problems';
import { validateConfig } from '../../lib/config/validate';
import { placementConfigured } from '../../lib/config/placement-rules';
import { labConfig } from '../../lib/config/schema';
import { AWS_REGION_ZONES, GCP_REGION_ZONES } from '../../lib/model/zones';

const messages = (raw: unknown) => {
  const result = validateConfig(raw);
  return result.ok ? [] : result.problems.map(formatProblem);
};

const AWS_TABLE =
  'us-east-1, us-east-2, us-west-1, us-west-2, ca-central-1, sa-east-1, eu-west-1, eu-west-2, eu-west-3, eu-central-1, eu-north-1, ap-northeast-1, ap-northeast-2, ap-northeast-3, ap-south-1, ap-southeast-1 and ap-southeast-2';

const CASES: [string, unknown, string[]][] = [
  ['aws region twice', { aws: { regions: ['us-east-1', 'us-east-2', 'us-east-1'] } }, ['aws.regions: ["us-east-1","us-east-2","us-east-1"] lists "us-east-1" more than once; list each region once']],
  [
    'aws region outside the zone table (opt-in)',
    { aws: { regions: ['us-east-1', 'af-south-1'] } },
    [
      `aws.regions[1]: "af-south-1" is not a region of hoplab's zone table (AWS, as of 2026-12-02), which holds ${AWS_TABLE}; pick one of them, or add the region with its zone names to lib/model/zones.ts`,
    ],
  ],
  [
    'aws.region outside aws.regions',
    { aws: { region: 'us-west-2', regions: ['us-east-1', 'us-east-2'] } },
    ['aws.region: "us-west-2" is not in aws.regions (us-east-1, us-east-2); add it to aws.regions, or drop aws.region (environments are placed in aws.regions)'],
  ],
  [
    'account twice',
    { aws: { accounts: [{ id: '111122223333' }, { id: '444455556666' }, { id: '111122223333' }] } },
    ['aws.accounts[2].id: "111122223333" is also aws.accounts[0].id; list each account once'],
  ],
  [
    'account id unquoted',
    { aws: { accounts: [{ id: 111122223333 }] } },
    ['aws.accounts[0].id: 111122223333 must be a 12-digit AWS account ID in quotes, such as "111122223333" (unquoted, YAML reads it as a number)'],
  ],
  ['account id short', { aws: { accounts: [{ id: '1111' }] } }, ['aws.accounts[0].id: "1111" is not an AWS account ID: 12 digits, such as "111122223333"']],
  [
    'role as an ARN',
    { aws: { accounts: [{ id: '111122223333', roleName: 'arn:aws:iam::111122223333:role/x' }] } },
    ['aws.accounts[0].roleName: "arn:aws:iam::111122223333:role/x" is not an IAM role name: 1 to 64 letters, digits and +=,.@_- (a name, not an ARN)'],
  ],
  [
    'account field misspelt',
    { aws: { accounts: [{ id: '111122223333', role: 'x' }] } },
    ['aws.accounts[0].role: "x" is in an unknown field "role"; allowed fields here: id, roleName. Check its spelling or remove it'],
  ],
  [
    'aws zones with several regions',
    { aws: { regions: ['us-east-1', 'us-east-2'], availabilityZones: ['us-east-1a', 'us-east-1b'] } },
    [
      'aws.availabilityZones: ["us-east-1a","us-east-1b"] cannot be given with 2 regions in aws.regions: zones are derived per region then (the first two of each, from hoplab\'s zone table); drop aws.availabilityZones, or list one region',
    ],
  ],
  [
    'aws zone that exists in no account',
    { aws: { region: 'eu-west-1', availabilityZones: ['eu-west-1a', 'eu-west-1d'] } },
    [
      'aws.availabilityZones[1]: "eu-west-1d" is not a zone of eu-west-1, whose zones are eu-west-1a, eu-west-1b and eu-west-1c (hoplab\'s zone table, as of 2026-12-02); use one of them (your account\'s names: aws ec2 describe-availability-zones --region eu-west-1)',
    ],
  ],
  [
    'aws zone of another region',
    { aws: { region: 'eu-west-1', availabilityZones: ['eu-west-1a', 'us-east-1b'] } },
    ['aws.availabilityZones[1]: "us-east-1b" is not in region "eu-west-1", whose zones are eu-west-1a, eu-west-1b and eu-west-1c: use those, or change aws.region'],
  ],
  [
    'aws region the table cannot derive zones for',
    { aws: { region: 'af-south-1' } },
    [
      'aws.availabilityZones: (missing) is needed for aws.region "af-south-1": hoplab\'s zone table (as of 2026-12-02) does not hold that region, so it cannot derive its zones; list two of them (aws ec2 describe-availability-zones --region af-south-1), or pick a region of the table',
    ],
  ],
  ['gcp region twice', { gcp: { regions: ['us-central1', 'us-central1'] } }, ['gcp.regions: ["us-central1","us-central1"] lists "us-central1" more than once; list each region once']],
  [
    'gcp.region outside gcp.regions',
    { gcp: { region: 'us-east1', regions: ['us-central1'] } },
    ['gcp.region: "us-east1" is not in gcp.regions (us-central1); add it to gcp.regions, or drop gcp.region (environments are placed in gcp.regions)'],
  ],
  ['project twice', { gcp: { projects: ['lab-one-1', 'lab-one-1'] } }, ['gcp.projects: ["lab-one-1","lab-one-1"] lists "lab-one-1" more than once; list each project once']],
  [
    'gcp.project outside gcp.projects',
    { gcp: { project: 'lab-other', projects: ['lab-one-1', 'lab-two-2'] } },
    ['gcp.project: "lab-other" is not in gcp.projects (lab-one-1, lab-two-2); add it to gcp.projects, or drop gcp.project (environments are placed in gcp.projects)'],
  ],
  [
    'gcp zones with several regions',
    { gcp: { regions: ['us-central1', 'us-east1'], zones: ['us-central1-a'] } },
    [
      'gcp.zones: ["us-central1-a"] cannot be given with 2 regions in gcp.regions: zones are derived per region then (the first of each, from hoplab\'s zone table); drop gcp.zones, or list one region',
    ],
  ],
  [
    'gcp zone that exists in no project',
    { gcp: { region: 'europe-west1', zones: ['europe-west1-a'] } },
    ['gcp.zones[0]: "europe-west1-a" is not a zone of europe-west1, whose zones are europe-west1-b, europe-west1-c and europe-west1-d (hoplab\'s zone table, as of 2026-12-02); use one of them'],
  ],
  [
    'gcp region the table cannot derive zones for',
    { gcp: { region: 'me-west1' } },
    [
      'gcp.zones: (missing) is needed for gcp.region "me-west1": hoplab\'s zone table (as of 2026-12-02) does not hold that region, so it cannot derive its zones; list one or more (gcloud compute zones list --filter=region:me-west1), or pick a region of the table',
    ],
  ],
  [
    'pin to an account outside aws.accounts',
    { attendees: [{ name: 'ann', placement: { aws: { account: '999988887777' } } }], aws: { accounts: [{ id: '111122223333' }] } },
    ['attendees[0].placement.aws.account: "999988887777" is not in aws.accounts (111122223333); pin one of those, or add it to aws.accounts'],
  ],
  [
    'pin to an account without aws.accounts',
    { attendees: [{ name: 'ann', placement: { aws: { account: '999988887777' } } }] },
    [
      'attendees[0].placement.aws.account: "999988887777" names an account, but aws.accounts is not set (environments go to the account of your credentials); add the account to aws.accounts, or drop the pin',
    ],
  ],
  [
    'pin to a region outside aws.regions',
    { attendees: [{ name: 'ann', placement: { aws: { region: 'eu-west-1' } } }], aws: { regions: ['us-east-1', 'us-east-2'] } },
    ['attendees[0].placement.aws.region: "eu-west-1" is not in aws.regions (us-east-1, us-east-2); pin one of those, or add it to aws.regions'],
  ],
  [
    'pin to a region without aws.regions',
    { attendees: [{ name: 'ann', placement: { aws: { region: 'eu-west-1' } } }] },
    ['attendees[0].placement.aws.region: "eu-west-1" is not aws.region (us-east-1), the only one while aws.regions is not set; pin us-east-1, or list the ones to use in aws.regions'],
  ],
  [
    'pins outside the GCP lists',
    { attendees: ['bob', { name: 'ann', placement: { gcp: { project: 'other-proj', region: 'us-east1' } } }], gcp: { projects: ['lab-one-1'], regions: ['us-central1'] } },
    [
      'attendees[1].placement.gcp.project: "other-proj" is not in gcp.projects (lab-one-1); pin one of those, or add it to gcp.projects',
      'attendees[1].placement.gcp.region: "us-east1" is not in gcp.regions (us-central1); pin one of those, or add it to gcp.regions',
    ],
  ],
  [
    'pin field misspelt',
    { attendees: [{ name: 'ann', placement: { aws: { acount: '111122223333' } } }] },
    ['attendees[0].placement.aws.acount: "111122223333" is in an unknown field "acount": did you mean "account"? (allowed fields here: account, region)'],
  ],
  [
    'pin not an object',
    { attendees: [{ name: 'ann', placement: 'us-east-1' }] },
    ['attendees[0]: {"name":"ann","placement":"us-east-1"} has "placement": "us-east-1", which must be an object such as { "aws": { "region": "us-east-2" }, "gcp": { "project": "my-lab-2" } }'],
  ],
  [
    'pin region not a region name',
    { attendees: [{ name: 'ann', placement: { aws: { region: 5 } } }] },
    ['attendees[0]: {"name":"ann","placement":{"aws":{"region":5}}} has "placement.aws.region": 5, which must be an AWS region name such as "us-east-1"'],
  ],
  ['perSlot zero', { placement: { perSlot: 0 } }, ['placement.perSlot: 0 must be at least 1 environments (allowed: 1 to 100)']],
  [
    'perSlot not a number',
    { placement: { perSlot: { aws: 'four' } } },
    ['placement.perSlot: {"aws":"four"} must be a whole number of environments from 1 to 100, or an object such as { "aws": 4, "gcp": 8 }'],
  ],
  ['perSlot cloud misspelt', { placement: { perSlot: { azure: 3 } } }, ['placement.perSlot.azure: 3 is in an unknown field "azure"; allowed fields here: aws, gcp. Check its spelling or remove it']],
];

describe('placement config validation', () => {
  test.each(CASES)('GIVEN %s WHEN validated THEN the exact messages name field, value and fix', (_name, raw, expected) => {
    expect(messages(raw)).toEqual(expected);
  });

  test('GIVEN several mistakes across the lists and the pins WHEN validated THEN the lists are all reported in one pass (pins wait for valid lists)', () => {
    expect(
      messages({
        aws: { regions: ['us-east-1', 'us-east-1'], availabilityZones: ['us-east-1a', 'us-east-1b'] },
        gcp: { projects: ['lab-one-1', 'lab-one-1'], region: 'me-west1', zones: ['me-west1-a'] },
      }),
    ).toEqual([
      'aws.regions: ["us-east-1","us-east-1"] lists "us-east-1" more than once; list each region once',
      'aws.availabilityZones: ["us-east-1a","us-east-1b"] cannot be given with 2 regions in aws.regions: zones are derived per region then (the first two of each, from hoplab\'s zone table); drop aws.availabilityZones, or list one region',
      'gcp.projects: ["lab-one-1","lab-one-1"] lists "lab-one-1" more than once; list each project once',
    ]);
  });
});

describe('zones derived from the zone table', () => {
  test('GIVEN no zones WHEN the config is read THEN the defaults stay us-east-1a, us-east-1b and us-central1-a', () => {
    const config = labConfig.parse({});
    expect([config.aws.region, config.aws.availabilityZones, config.gcp.project, config.gcp.region, config.gcp.zones]).toEqual([
      'us-east-1',
      ['us-east-1a', 'us-east-1b'],
      'hoplab-demo',
      'us-central1',
      ['us-central1-a'],
    ]);
  });

  test.each([
    ['eu-west-1', ['eu-west-1a', 'eu-west-1b']],
    ['ca-central-1', ['ca-central-1a', 'ca-central-1b']],
    ['ap-northeast-1', ['ap-northeast-1a', 'ap-northeast-1c']],
  ])('GIVEN aws.region %s alone WHEN validated THEN it is accepted with its first two zones %j', (region, zones) => {
    const result = validateConfig({ aws: { region } });
    expect(result.ok && result.config.aws.availabilityZones).toEqual(zones);
  });

  test.each([
    ['europe-west1', ['europe-west1-b']],
    ['us-east1', ['us-east1-b']],
  ])('GIVEN gcp.region %s alone WHEN validated THEN it is accepted with its first zone %j', (region, zones) => {
    const result = validateConfig({ gcp: { region } });
    expect(result.ok && result.config.gcp.zones).toEqual(zones);
  });

  test('GIVEN lists and no single fields WHEN validated THEN aws.region, gcp.project and gcp.region are the first of their lists', () => {
    const result = validateConfig({ aws: { regions: ['us-east-2', 'us-west-2'] }, gcp: { projects: ['lab-one-1', 'lab-two-2'], regions: ['us-east1', 'us-central1'] } });
    expect(result.ok && [result.config.aws.region, result.config.aws.availabilityZones, result.config.gcp.project, result.config.gcp.region, result.config.gcp.zones]).toEqual([
      'us-east-2',
      ['us-east-2a', 'us-east-2b'],
      'lab-one-1',
      'us-east1',
      ['us-east1-b'],
    ]);
  });

  test('GIVEN a region the table does not hold WHEN its zones are written out THEN it is accepted as before (the table checks only the regions it holds)', () => {
    expect(messages({ aws: { region: 'af-south-1', availabilityZones: ['af-south-1a', 'af-south-1b'] } })).toEqual([]);
  });

  test("GIVEN an older account's zone name WHEN given THEN it is accepted, but never derived", () => {
    expect(messages({ aws: { region: 'us-west-1', availabilityZones: ['us-west-1b', 'us-west-1c'] } })).toEqual([]);
    expect(validateConfig({ aws: { region: 'us-west-1' } })).toMatchObject({ ok: true, config: { aws: { availabilityZones: ['us-west-1a', 'us-west-1b'] } } });
  });

  test('GIVEN the zone table WHEN read THEN every region has the zones derivation takes, each named after its region', () => {
    for (const [region, entry] of Object.entries(AWS_REGION_ZONES)) {
      expect(entry.zones.length).toBeGreaterThanOrEqual(2);
      for (const zone of [...entry.zones, ...entry.olderAccountsOnly]) expect(zone).toMatch(new RegExp(`^${region}[a-f]$`));
    }
    for (const [region, entry] of Object.entries(GCP_REGION_ZONES)) {
      expect(entry.zones.length).toBeGreaterThanOrEqual(3);
      for (const zone of entry.zones) expect(zone).toMatch(new RegExp(`^${region}-[a-f]$`));
    }
  });
});

describe('whether placement is configured', () => {
  test.each([
    ['nothing', {}, false],
    ['attendees without pins', { attendees: ['ann', { name: 'bob' }] }, false],
    ['aws.regions', { aws: { regions: ['us-east-1'] } }, true],
    ['aws.accounts', { aws: { accounts: [{ id: '111122223333' }] } }, true],
    ['gcp.regions', { gcp: { regions: ['us-central1'] } }, true],
    ['gcp.projects', { gcp: { projects: ['lab-one-1'] } }, true],
    ['placement', { placement: {} }, true],
    ['a pin', { attendees: [{ name: 'ann', placement: {} }] }, true],
  ])('GIVEN %s WHEN asked THEN %p', (_name, raw, expected) => {
    expect(placementConfigured(labConfig.parse(raw))).toBe(expected);
  });
});
