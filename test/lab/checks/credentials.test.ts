/** The credentials check before Terraform runs: one line per cloud without them, and only for the clouds asked. */
import { missingCredentials } from '../../../lib/lab/checks/credentials';

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
