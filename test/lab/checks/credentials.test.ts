/** The credentials check before Terraform runs: one line per cloud without them, and only for the clouds asked. */
import { missingCredentials, unreachableAccounts } from '../../../lib/lab/checks/credentials';

describe('missingCredentials', () => {
  const noAws = async (): Promise<string> => {
    const error = new Error('Could not load credentials from any providers');
    error.name = 'CredentialsProviderError';
    throw error;
  };

  test('GIVEN both clouds without credentials WHEN checked THEN one line each, with the fix', async () => {
    expect(await missingCredentials({ clouds: ['aws', 'gcp'], awsRegion: 'us-east-1', awsIdentity: noAws, gcpIdentity: () => false })).toEqual([
      'aws: no usable credentials (CredentialsProviderError: Could not load credentials from any providers); give Terraform and hoplab the same AWS credentials: AWS_PROFILE, `aws sso login`, or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY',
      'gcp: no credentials (no GOOGLE_OAUTH_ACCESS_TOKEN, and gcloud gives no token); run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN',
    ]);
  });

  test('GIVEN credentials for both WHEN checked THEN nothing is missing', async () => {
    expect(await missingCredentials({ clouds: ['aws', 'gcp'], awsRegion: 'us-east-1', awsIdentity: async () => 'arn:aws:iam::123456789012:user/host', gcpIdentity: () => true })).toEqual([]);
  });

  test('GIVEN only GCP stacks WHEN checked THEN AWS is not asked', async () => {
    let asked = false;
    const aws = async () => {
      asked = true;
      return '';
    };
    expect(await missingCredentials({ clouds: ['gcp'], awsRegion: 'us-east-1', awsIdentity: aws, gcpIdentity: () => true })).toEqual([]);
    expect(asked).toBe(false);
  });
});

describe('unreachableAccounts', () => {
  const ROLE = 'arn:aws:iam::111122223333:role/OrganizationAccountAccessRole';
  /** The accounts the credentials are: the host's 123456789012; the role's its own; a role named Denied cannot be assumed. */
  const identity = async (roleArn: string | undefined) => {
    if (roleArn?.endsWith('/Denied'))
      throw Object.assign(new Error(`User: arn:aws:iam::123456789012:user/host is not authorized to perform: sts:AssumeRole on resource: ${roleArn}`), { name: 'AccessDenied' });
    return roleArn ? roleArn.split(':')[4] : '123456789012';
  };

  test('GIVEN each account reachable as its state says WHEN checked THEN nothing is said', async () => {
    const accounts = [{ roleArn: ROLE, accountId: '111122223333', envs: ['ann', 'bob'] }, { accountId: '123456789012', envs: ['cy'] }, { envs: ['dan'] }];
    expect(await unreachableAccounts({ accounts, region: 'us-east-1', identity })).toEqual([]);
  });

  test("GIVEN a role the host's credentials cannot assume, and host credentials of another account than the state's WHEN checked THEN one line each, naming the environments", async () => {
    const accounts = [
      { roleArn: 'arn:aws:iam::444455556666:role/Denied', accountId: '444455556666', envs: ['a01', 'a02', 'a03', 'a04', 'a05'] },
      { accountId: '999999999999', envs: ['cy'] },
    ];
    expect(await unreachableAccounts({ accounts, region: 'us-east-1', identity })).toEqual([
      'aws: cannot assume arn:aws:iam::444455556666:role/Denied, where a01, a02, a03 and 2 more are deployed (AccessDenied: User: arn:aws:iam::123456789012:user/host is not authorized to perform: sts:AssumeRole on resource: arn:aws:iam::444455556666:role/Denied); ' +
        "the host's credentials need sts:AssumeRole on it, and the role must trust them",
      "aws: the host's credentials are account 123456789012, but the state of cy says it is in account 999999999999; " +
        "use that account's credentials (AWS_PROFILE): a destroy in another account finds nothing and drops the resources from the state while they keep billing",
    ]);
  });
});
