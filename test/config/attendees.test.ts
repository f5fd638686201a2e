import { labEnvironments, narrowedConfig } from '../../lib/config/environments';
import { validConfig } from '../../lib/config/load';
import { formatProblem } from '../../lib/config/problems';
import { validateConfig } from '../../lib/config/validate';

const ANN = { name: 'ann', aws: 'arn:aws:iam::123456789012:role/ann', gcp: 'user:ann@example.com' };
const BOB = { name: 'bob', aws: 'arn:aws:iam::123456789012:user/bob', gcp: 'serviceAccount:bob@acme-lab.iam.gserviceaccount.com' };

/** One row per rule of an attendee's identities: GIVEN one mistake, THEN exactly these messages, naming the field (`attendees[1].aws`), the value and the fix. */
const CASES: [string, unknown, string[]][] = [
  [
    'an AWS identity that is not an ARN',
    { attendees: ['ann', { name: 'bob', aws: 'bob' }] },
    ['attendees[1].aws: "bob" is not an IAM role or user ARN; use one such as "arn:aws:iam::123456789012:role/ann" (a path is fine: "arn:aws:iam::123456789012:role/workshop/ann")'],
  ],
  [
    'an IAM group ARN',
    { attendees: [{ name: 'bob', aws: 'arn:aws:iam::123456789012:group/devs' }] },
    [
      'attendees[0].aws: "arn:aws:iam::123456789012:group/devs" is not an IAM role or user ARN; use one such as "arn:aws:iam::123456789012:role/ann" (a path is fine: "arn:aws:iam::123456789012:role/workshop/ann")',
    ],
  ],
  [
    'an account root ARN',
    { attendees: [{ name: 'bob', aws: 'arn:aws:iam::123456789012:root' }] },
    [
      'attendees[0].aws: "arn:aws:iam::123456789012:root" is not an IAM role or user ARN; use one such as "arn:aws:iam::123456789012:role/ann" (a path is fine: "arn:aws:iam::123456789012:role/workshop/ann")',
    ],
  ],
  [
    'an STS assumed-role (session) ARN',
    { attendees: ['ann', { name: 'bob', aws: 'arn:aws:sts::123456789012:assumed-role/WSParticipantRole/Participant' }] },
    [
      'attendees[1].aws: "arn:aws:sts::123456789012:assumed-role/WSParticipantRole/Participant" is an STS assumed-role (session) ARN, which EKS access entries refuse; use the role\'s own ARN, "arn:aws:iam::123456789012:role/WSParticipantRole" (with the role\'s path if it has one, as SSO roles do: `aws iam get-role --role-name WSParticipantRole --query Role.Arn` prints it)',
    ],
  ],
  [
    'a service-linked role',
    { attendees: [{ name: 'bob', aws: 'arn:aws:iam::123456789012:role/aws-service-role/eks.amazonaws.com/AWSServiceRoleForAmazonEKS' }] },
    [
      'attendees[0].aws: "arn:aws:iam::123456789012:role/aws-service-role/eks.amazonaws.com/AWSServiceRoleForAmazonEKS" is a service-linked role, which EKS access entries refuse; use a role or user the attendee signs in as',
    ],
  ],
  [
    'an AWS identity that is not a string',
    { attendees: [{ name: 'bob', aws: 5 }] },
    ['attendees[0]: {"name":"bob","aws":5} has "aws": 5, which must be an IAM role or user ARN string such as "arn:aws:iam::123456789012:role/ann"'],
  ],
  [
    'a bare email',
    { attendees: [{ name: 'bob', gcp: 'bob@example.com' }] },
    ['attendees[0].gcp: "bob@example.com" has no member type; write "user:bob@example.com" for a Google account or "serviceAccount:bob@example.com" for a service account'],
  ],
  [
    'a Google group',
    { attendees: [{ name: 'bob', gcp: 'group:devs@example.com' }] },
    [
      'attendees[0].gcp: "group:devs@example.com" is a Google group; GKE\'s RBAC sees groups only with Google Groups for RBAC (the cluster set up with a gke-security-groups@<domain> group), which hoplab does not configure: give each attendee their own "user:" or "serviceAccount:" member',
    ],
  ],
  [
    'everyone',
    { attendees: [{ name: 'bob', gcp: 'allAuthenticatedUsers' }] },
    [
      'attendees[0].gcp: "allAuthenticatedUsers" is not one person\'s identity; use "user:<email>" (a Google account) or "serviceAccount:<name>@<project>.iam.gserviceaccount.com", e.g. "user:ann@example.com"',
    ],
  ],
  [
    'a domain',
    { attendees: [{ name: 'bob', gcp: 'domain:example.com' }] },
    [
      'attendees[0].gcp: "domain:example.com" is not one person\'s identity; use "user:<email>" (a Google account) or "serviceAccount:<name>@<project>.iam.gserviceaccount.com", e.g. "user:ann@example.com"',
    ],
  ],
  [
    'capital letters',
    { attendees: [{ name: 'bob', gcp: 'user:Bob@Example.com' }] },
    ['attendees[0].gcp: "user:Bob@Example.com" has capital letters; GKE\'s RBAC compares user names exactly and Google signs accounts in with the address in lowercase: write "user:bob@example.com"'],
  ],
  ['a member without an address', { attendees: [{ name: 'bob', gcp: 'user:bob' }] }, ['attendees[0].gcp: "user:bob" is not an email address after "user:"; e.g. "user:ann@example.com"']],
  [
    'a service account that is not one',
    { attendees: [{ name: 'bob', gcp: 'serviceAccount:bob@example.com' }] },
    ['attendees[0].gcp: "serviceAccount:bob@example.com" is not a service account address (they end in .gserviceaccount.com); for a Google account write "user:" instead'],
  ],
  [
    'an AWS identity given to two attendees',
    { attendees: [ANN, { name: 'bob', aws: ANN.aws }] },
    [
      'attendees[1].aws: "arn:aws:iam::123456789012:role/ann" is also attendees[0].aws (ann); an identity belongs to one attendee only, or it would reach both environments: give each attendee their own',
    ],
  ],
  [
    'a Google identity given to two attendees',
    { attendees: [ANN, 'cy', { name: 'bob', gcp: ANN.gcp }] },
    ['attendees[2].gcp: "user:ann@example.com" is also attendees[0].gcp (ann); an identity belongs to one attendee only, or it would reach both environments: give each attendee their own'],
  ],
  [
    'one role spelled in two cases (IAM names are case-insensitive)',
    { attendees: [ANN, { name: 'bob', aws: 'arn:aws:iam::123456789012:role/ANN' }] },
    [
      'attendees[1].aws: "arn:aws:iam::123456789012:role/ANN" is also attendees[0].aws (ann); an identity belongs to one attendee only, or it would reach both environments: give each attendee their own',
    ],
  ],
  [
    "an attendee identity that is a host's cluster admin",
    { aws: { clusterAdminArns: ['arn:aws:iam::123456789012:role/ci'] }, attendees: ['ann', { name: 'bob', aws: 'arn:aws:iam::123456789012:role/ci' }] },
    [
      'attendees[1].aws: "arn:aws:iam::123456789012:role/ci" is in aws.clusterAdminArns, so it is cluster admin of every environment already, and EKS allows one access entry per identity: give the attendee an identity of their own, or remove it from aws.clusterAdminArns',
    ],
  ],
  [
    'an object without a name',
    { attendees: [{ aws: ANN.aws }] },
    ['attendees[0]: {"aws":"arn:aws:iam::123456789012:role/ann"} needs a "name": a DNS label such as "ann" (its environment is named after it)'],
  ],
  [
    'neither a name nor an object',
    { attendees: [5] },
    ['attendees[0]: 5 must be an attendee name such as "ann", or an object such as { "name": "ann", "aws": "arn:aws:iam::123456789012:role/ann", "gcp": "user:ann@example.com" }'],
  ],
  [
    'a misspelt field',
    { attendees: [{ name: 'bob', awz: ANN.aws }] },
    ['attendees[0].awz: "arn:aws:iam::123456789012:role/ann" is in an unknown field "awz": did you mean "aws"? (allowed fields here: name, aws, gcp, placement)'],
  ],
  [
    'a name listed three times',
    { attendees: ['ann', 'bob', 'ann', { name: 'ann' }] },
    [
      'attendees[2]: "ann" is listed more than once (first as attendees[0]); each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "ann-2")',
      'attendees[3]: "ann" is listed more than once (first as attendees[0]); each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "ann-2")',
    ],
  ],
  [
    'a duplicated AWS identity in an entry whose gcp is wrong too',
    { attendees: [ANN, { name: 'bob', aws: ANN.aws, gcp: 'bob@example.com' }] },
    [
      'attendees[1].gcp: "bob@example.com" has no member type; write "user:bob@example.com" for a Google account or "serviceAccount:bob@example.com" for a service account',
      'attendees[1].aws: "arn:aws:iam::123456789012:role/ann" is also attendees[0].aws (ann); an identity belongs to one attendee only, or it would reach both environments: give each attendee their own',
    ],
  ],
  [
    'a duplicated name in an entry whose aws is wrong too',
    { attendees: ['ann', { name: 'ann', aws: 'ann' }] },
    [
      'attendees[1].aws: "ann" is not an IAM role or user ARN; use one such as "arn:aws:iam::123456789012:role/ann" (a path is fine: "arn:aws:iam::123456789012:role/workshop/ann")',
      'attendees[1]: "ann" is listed more than once (first as attendees[0]); each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "ann-2")',
    ],
  ],
  [
    'a duplicated identity whose first holder has a bad name',
    {
      attendees: [
        { name: 'Ann', gcp: ANN.gcp },
        { name: 'bob', gcp: ANN.gcp },
      ],
    },
    [
      'attendees[0].name: "Ann" is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (e.g. "lab" or "team-a")',
      'attendees[1].gcp: "user:ann@example.com" is also attendees[0].gcp; an identity belongs to one attendee only, or it would reach both environments: give each attendee their own',
    ],
  ],
  [
    'an object attendee named like a plain one',
    { attendees: ['ann', { name: 'ann', gcp: 'user:ann@example.com' }] },
    ['attendees[1]: "ann" is listed more than once (first as attendees[0]); each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "ann-2")'],
  ],
];

describe('attendees with cloud identities', () => {
  test.each(CASES)('GIVEN %s WHEN validated THEN the exact messages name the field, the value and the fix', (_name, raw, expected) => {
    const result = validateConfig(raw);
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual(expected);
  });

  test.each([
    ['plain names', { attendees: ['ann', 'bob'] }],
    ['objects', { attendees: [ANN, BOB] }],
    ['names and objects mixed', { attendees: ['cy', ANN, { name: 'dee' }, { name: 'eve', gcp: 'user:eve@example.com' }] }],
    ['a role with a path (SSO)', { attendees: [{ name: 'bob', aws: 'arn:aws:iam::123456789012:role/aws-reserved/sso.amazonaws.com/eu-west-1/AWSReservedSSO_Lab_0123456789abcdef' }] }],
    ['a GovCloud role', { attendees: [{ name: 'bob', aws: 'arn:aws-us-gov:iam::123456789012:role/bob' }] }],
  ])('GIVEN %s WHEN validated THEN it is accepted', (_name, raw) => {
    const result = validateConfig(raw);
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([]);
  });

  test('GIVEN five mistakes elsewhere and a duplicated identity WHEN validated THEN the duplicate is reported in the same run', () => {
    const result = validateConfig({
      name: 'Bad',
      exposures: ['native', 'native'],
      aws: { nodeCount: 0, kubernetesVersion: 1.3 },
      gcp: { kubernetesVersion: 1.3 },
      attendees: [ANN, { name: 'bob', aws: ANN.aws, gcp: 'group:devs@example.com' }],
    });
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toEqual([
      'name',
      'aws.kubernetesVersion',
      'aws.nodeCount',
      'gcp.kubernetesVersion',
      'attendees[1].gcp',
      'exposures',
      'attendees[1].aws',
    ]);
  });

  test('GIVEN mistakes in several attendees next to a bad name elsewhere WHEN validated THEN every one is reported in one run, at its own index', () => {
    const result = validateConfig({ name: 'Bad', attendees: [{ name: 'bob', aws: 'x' }, 7, { name: 'cy', aws: ANN.aws }, { name: 'dee', aws: ANN.aws }] });
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toEqual(['name', 'attendees[0].aws', 'attendees[1]', 'attendees[3].aws']);
  });

  test('GIVEN names and objects WHEN the environments are listed THEN each is named after its attendee and carries only its own identities', () => {
    const envs = labEnvironments(validConfig({ attendees: ['cy', ANN, BOB] }, 'test'));
    expect(envs.map((e) => [e.name, e.attendee])).toEqual([
      ['cy', { name: 'cy' }],
      ['ann', ANN],
      ['bob', BOB],
    ]);
  });

  test('GIVEN no attendees WHEN the environments are listed THEN the one environment has no attendee', () => {
    expect(labEnvironments(validConfig({ name: 'solo' }, 'test')).map((e) => [e.name, e.attendee])).toEqual([['solo', undefined]]);
  });

  test('GIVEN object attendees WHEN the config is narrowed to some environments THEN the kept attendees keep their identities', () => {
    const config = validConfig({ attendees: ['cy', ANN, BOB] }, 'test');
    expect(narrowedConfig(config, ['bob', 'cy']).attendees).toEqual(['cy', BOB]);
    expect(narrowedConfig(config).attendees).toEqual(['cy', ANN, BOB]);
  });
});
