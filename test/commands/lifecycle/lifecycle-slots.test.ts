/**
 * deploy, teardown and the leftover check per slot, read from the local state
 * files: Terraform is a stand-in on the PATH that records where it ran, the
 * clouds are stand-ins per account, region and project. Teardown destroys each
 * environment where its state says (its synthesized providers name that region
 * and role) and looks for its leftovers there; deploy refuses a config that would
 * move one before Terraform runs; without credentials, the leftover check says one
 * line per cloud and slot, and never "NOT clean" for what it could not look at.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deploy } from '../../../lib/commands/lifecycle/deploy';
import { teardown } from '../../../lib/commands/lifecycle/teardown';
import { AccountCheckOptions } from '../../../lib/lab/checks/credentials';
import { AwsLeftoverQuery } from '../../../lib/lab/leftovers/aws-leftovers';
import { GcpLeftoverQuery } from '../../../lib/lab/leftovers/gcp-leftovers';
import { LeftoverFinders } from '../../../lib/lab/leftovers/slot-leftovers';
import { commandDir } from '../../support/command-dir';
import { fakeTerraformOnPath } from '../../support/fake-terraform';
import { attendeeNames, EIGHT_AWS_REGIONS, EIGHT_GCP_PROJECTS } from '../../support/placed-lab';
import { placedAwsState, writeState } from '../../support/tf-state';

const ROLE = 'arn:aws:iam::111122223333:role/OrganizationAccountAccessRole';
/** Where ann was deployed: account 111122223333's us-east-2. */
const EAST2 = { slot: '111122223333/us-east-2', account: '111122223333', region: 'us-east-2', zones: ['us-east-2a', 'us-east-2b'], role_arn: ROLE };

describe('deploy, teardown and leftovers in each environment’s slot', () => {
  const { dir, lines, errors } = commandDir('hoplab-slots-');
  let terraform: { restore: () => void; calls: () => string[] };

  beforeEach(() => {
    // A Terraform that records each call's folder and command, and succeeds.
    const log = join(dir(), 'terraform-calls.log');
    const fake = fakeTerraformOnPath('hoplab-slots-tf-', `#!/bin/sh\necho "$(basename "$PWD") $1" >> ${JSON.stringify(log)}\necho "$1 ok"\nexit 0\n`);
    terraform = { restore: fake.restore, calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
  });
  afterEach(() => terraform.restore());

  const config = (value: unknown) => writeFileSync(join(dir(), 'hoplab.config.json'), JSON.stringify(value));

  /** Leftover finders that record where each environment was looked for, and find `found` of it. */
  const recorder = (found: Record<string, string[]> = {}) => {
    const asked: string[] = [];
    const finders: Partial<LeftoverFinders> = {
      aws: async (q: AwsLeftoverQuery) => {
        asked.push(`aws ${q.env} ${q.region} ${q.roleArn ?? 'host'} ${q.scope}`);
        return (found[q.env] ?? []).map((id) => ({ cloud: 'aws' as const, kind: 'ec2:vpc', id, matchedBy: `tag hoplab-env=${q.env}` }));
      },
      gcp: async (q: GcpLeftoverQuery) => {
        asked.push(`gcp ${q.env} ${q.project}`);
        return [];
      },
      gcpCredentials: () => ({ accessToken: 'token', source: 'GOOGLE_OAUTH_ACCESS_TOKEN' }),
    };
    return { asked, finders };
  };

  /** The config ann was deployed with, then with us-east-2 removed from the regions. */
  const DEPLOYED_WITH = { attendees: ['ann', 'bob'], allowWorldOpenEndpoints: true, aws: { accounts: [{ id: '111122223333' }], regions: ['us-east-2'] }, gcp: { project: 'acme-lab-1' } };
  const MOVED = { ...DEPLOYED_WITH, aws: { accounts: [{ id: '111122223333' }], regions: ['us-west-2'] } };

  test('GIVEN ann deployed in us-east-2 and the config moved to us-west-2 WHEN torn down THEN each stack is destroyed where its state says, as its account role, and its leftovers are looked for there', async () => {
    writeState(join(dir(), 'terraform.ann-aws-cluster.tfstate'), placedAwsState(EAST2));
    config(MOVED);
    const { asked, finders } = recorder();
    const accounts: AccountCheckOptions[] = [];
    const code = await teardown(['--stacks', 'aws-cluster,aws-lb', '--yes'], {
      credentials: async () => [],
      accounts: async (options) => {
        accounts.push(options);
        return [];
      },
      leftoverFinders: finders,
    });
    expect(errors()).toEqual([]);
    expect(code).toBe(0);
    expect(lines().at(-1)).toBe('hoplab teardown: every stack destroyed and nothing left');
    // The synthesized stacks Terraform destroyed: ann's where its state says, bob's (never deployed) where the config places him.
    const stack = (name: string) => JSON.parse(readFileSync(join(dir(), 'cdktf.out', 'stacks', name, 'cdk.tf.json'), 'utf8'));
    expect(stack('ann-aws-cluster').provider.aws[0]).toMatchObject({ region: 'us-east-2', assume_role: [{ role_arn: ROLE }] });
    expect(stack('ann-aws-lb').provider.kubernetes[0].exec[0].args).toEqual(expect.arrayContaining(['--region', 'us-east-2', '--role-arn', ROLE]));
    expect(stack('bob-aws-cluster').provider.aws[0]).toMatchObject({ region: 'us-west-2', assume_role: [{ role_arn: ROLE }] });
    expect(
      terraform
        .calls()
        .filter((c) => c.endsWith('destroy'))
        .sort(),
    ).toEqual(['ann-aws-cluster destroy', 'ann-aws-lb destroy', 'bob-aws-cluster destroy', 'bob-aws-lb destroy']);
    expect(accounts.map((a) => a.accounts)).toEqual([[{ roleArn: ROLE, accountId: '111122223333', envs: ['ann', 'bob'] }]]);
    expect(asked.sort()).toEqual([`aws ann us-east-2 ${ROLE} environment`, `aws bob us-west-2 ${ROLE} environment`]);
  });

  test('GIVEN ann deployed in us-east-2 and the config moved to us-west-2 WHEN deployed THEN it is refused before preflight and before Terraform, naming where she is', async () => {
    writeState(join(dir(), 'terraform.ann-aws-cluster.tfstate'), placedAwsState(EAST2));
    config(MOVED);
    await expect(deploy(['--stacks', 'aws-cluster,aws-lb', '--yes'])).rejects.toThrow(
      "ann's AWS environment is deployed in 111122223333/us-east-2 (its state, terraform.ann-aws-cluster.tfstate), but aws.regions no longer lists us-east-2: " +
        'the config would put it in 111122223333/us-west-2, and moving it would recreate it there and leave the old one billing; ' +
        'to keep it, add us-east-2 back to aws.regions, or tear it down first (npx hoplab teardown --env ann destroys it where its state says)',
    );
    expect(terraform.calls()).toEqual([]);
    expect(existsSync(join(dir(), 'cdktf.out'))).toBe(false);
  });

  test('GIVEN a role the credentials cannot assume WHEN torn down THEN nothing is destroyed, and the line names the role and the environments', async () => {
    writeState(join(dir(), 'terraform.ann-aws-cluster.tfstate'), placedAwsState(EAST2));
    config(DEPLOYED_WITH);
    const code = await teardown(['--stacks', 'aws-cluster,aws-lb', '--yes'], {
      credentials: async () => [],
      accounts: async (options) => options.accounts.map((a) => `aws: cannot assume ${a.roleArn}, where ${a.envs.join(', ')} are deployed`),
    });
    expect(code).toBe(1);
    expect(errors()).toEqual([`hoplab teardown: aws: cannot assume ${ROLE}, where ann, bob are deployed`, 'hoplab teardown: nothing destroyed; run it again with credentials']);
    expect(terraform.calls()).toEqual([]);
  });

  test('GIVEN 30 attendees in 8 regions and 8 projects and no credentials WHEN only the leftovers are checked THEN one line per cloud and slot and a summary, never "NOT clean"', async () => {
    config({ attendees: attendeeNames(30), aws: { regions: EIGHT_AWS_REGIONS }, gcp: { projects: EIGHT_GCP_PROJECTS } });
    const noCredentials = Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' });
    const code = await teardown(['--leftovers-only'], {
      leftoverFinders: { aws: () => Promise.reject(noCredentials), gcp: () => Promise.reject(new Error('not asked')), gcpCredentials: () => undefined },
    });
    expect(code).toBe(1);
    expect(errors()).toEqual([]);
    const hint = ' (the same credentials Terraform uses: AWS_PROFILE, `aws sso login`, or AWS_ACCESS_KEY_ID)';
    expect(lines()).toHaveLength(8 + 8 + 1);
    expect(lines()[0]).toBe(`leftover check could not run: aws host/us-east-1 (a01, a02, a03, a04): Could not load credentials from any providers${hint}`);
    expect(lines()[7]).toBe(`leftover check could not run: aws host/ap-southeast-2 (a29, a30): Could not load credentials from any providers${hint}`);
    expect(lines()[8]).toBe(
      'leftover check could not run: gcp hoplab-ws-1/us-central1 (a01, a02, a03, a04): no credentials: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN',
    );
    expect(lines()[16]).toBe('leftovers: 16 slots of 16 not looked at (above); look again once the check can run: npx hoplab teardown --leftovers-only');
    expect(lines().every((l) => !l.includes('NOT clean'))).toBe(true);
  });

  test('GIVEN some slots found clean and one that could not be looked at WHEN only the leftovers are checked THEN the summary says so', async () => {
    config({ attendees: attendeeNames(6), aws: { regions: ['us-east-1', 'us-east-2'] }, gcp: { project: 'acme-lab-1' } });
    const { asked, finders } = recorder();
    const code = await teardown(['--leftovers-only', '--stacks', 'aws-cluster,aws-lb'], {
      leftoverFinders: { ...finders, aws: (q) => (q.region === 'us-east-2' ? Promise.reject(new Error('Throttling: Rate exceeded')) : finders.aws!(q)) },
    });
    expect(code).toBe(1);
    expect(asked).toEqual(['aws a01 us-east-1 host environment', 'aws a02 us-east-1 host environment', 'aws a03 us-east-1 host environment', 'aws a04 us-east-1 host environment']);
    expect(lines()).toEqual([
      'leftover check could not run: aws host/us-east-2 (a05, a06): Throttling: Rate exceeded',
      'leftovers: 1 slot of 2 not looked at (above); nothing found in the 1 other; look again once the check can run: npx hoplab teardown --leftovers-only',
    ]);
  });

  test('GIVEN leftovers in one slot WHEN only the leftovers are checked THEN they are listed with the slot they are in', async () => {
    writeState(join(dir(), 'terraform.ann-aws-cluster.tfstate'), placedAwsState(EAST2));
    config(MOVED);
    const { asked, finders } = recorder({ ann: ['vpc-1'] });
    expect(await teardown(['--leftovers-only', '--stacks', 'aws-cluster,aws-lb'], { leftoverFinders: finders })).toBe(1);
    expect(asked.sort()).toEqual([`aws ann us-east-2 ${ROLE} environment`, `aws bob us-west-2 ${ROLE} environment`]);
    expect(lines().slice(0, 2)).toEqual(['leftovers: 1 resource of ann, bob still exist (in aws 111122223333/us-east-2):', '  aws ec2:vpc vpc-1 (tag hoplab-env=ann)']);
  });
});
