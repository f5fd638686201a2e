/**
 * The identity and quota project of hoplab's own Google API calls: the token
 * as Terraform's google provider finds it, and `x-goog-user-project` sent when
 * Application Default Credentials name a quota project, as Google's client
 * libraries and gcloud do (a fake `gcloud` on PATH stands in for the real one).
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gcpCredentials, gcpCredentialsAsync } from '../../../lib/kit/google/google-credentials';
import { findGcpLeftovers } from '../../../lib/lab/leftovers/gcp-leftovers';
import { FIXTURE_PROJECT, FIXTURE_TOKEN, serveGoogleFixtures } from '../../support/google-api';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hoplab-adc-'));
  // A gcloud that prints FAKE_ADC_TOKEN for application-default (fails without it) and FAKE_LOGIN_TOKEN for the user login.
  writeFileSync(
    join(dir, 'gcloud'),
    [
      '#!/bin/sh',
      'if [ "$1 $2" = "auth application-default" ]; then [ -n "$FAKE_ADC_TOKEN" ] && echo "$FAKE_ADC_TOKEN" && exit 0; exit 1; fi',
      'if [ "$1 $2" = "auth print-access-token" ]; then [ -n "$FAKE_LOGIN_TOKEN" ] && echo "$FAKE_LOGIN_TOKEN" && exit 0; exit 1; fi',
      'exit 2',
      '',
    ].join('\n'),
  );
  chmodSync(join(dir, 'gcloud'), 0o755);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** An environment with only the fake gcloud on PATH and gcloud's config in the scratch folder. */
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ PATH: `${dir}:/usr/bin:/bin`, HOME: dir, CLOUDSDK_CONFIG: dir, ...extra });
/** Writes the ADC file gcloud auth application-default login writes, with a quota project or none. */
const adc = (quotaProject?: string, file = join(dir, 'application_default_credentials.json')) => {
  writeFileSync(
    file,
    JSON.stringify({
      account: '',
      client_id: '764086051850-6qr4p6gpi6hn506pt8ejuq83di341hur.apps.googleusercontent.com',
      refresh_token: 'x',
      type: 'authorized_user',
      ...(quotaProject ? { quota_project_id: quotaProject } : {}),
    }),
  );
  return file;
};

describe('gcpCredentials', () => {
  test('GIVEN ADC with a quota_project_id WHEN credentials are read THEN the token comes from gcloud application-default and the quota project from the file', () => {
    const file = adc('billing-proj');
    expect(gcpCredentials(env({ FAKE_ADC_TOKEN: 'ya29.adc' }))).toEqual({
      accessToken: 'ya29.adc',
      source: 'application-default',
      quotaProject: 'billing-proj',
      quotaProjectFrom: `quota_project_id in ${file}`,
    });
  });

  test('GIVEN GOOGLE_CLOUD_QUOTA_PROJECT and an ADC file naming another WHEN read THEN the environment variable wins (as in the client libraries)', () => {
    adc('from-file');
    expect(gcpCredentials(env({ FAKE_ADC_TOKEN: 'ya29.adc', GOOGLE_CLOUD_QUOTA_PROJECT: 'from-env' }))).toMatchObject({ quotaProject: 'from-env', quotaProjectFrom: 'GOOGLE_CLOUD_QUOTA_PROJECT' });
  });

  test('GIVEN GOOGLE_APPLICATION_CREDENTIALS naming a file with a quota project WHEN read THEN that file counts, not the gcloud one', () => {
    adc('gcloud-one');
    const key = adc('key-file-one', join(dir, 'sa-key.json'));
    expect(gcpCredentials(env({ FAKE_ADC_TOKEN: 'ya29.adc', GOOGLE_APPLICATION_CREDENTIALS: key }))).toMatchObject({ quotaProject: 'key-file-one' });
  });

  test.each([
    ['ADC without quota_project_id', { FAKE_ADC_TOKEN: 'ya29.adc' }, undefined, 'application-default'],
    ['the token from GOOGLE_OAUTH_ACCESS_TOKEN (not from the ADC file)', { GOOGLE_OAUTH_ACCESS_TOKEN: 'ya29.env' }, 'billing-proj', 'GOOGLE_OAUTH_ACCESS_TOKEN'],
    ['only the gcloud user login (the ADC file is not its credential)', { FAKE_LOGIN_TOKEN: 'ya29.login' }, 'billing-proj', 'gcloud-login'],
  ] as const)('GIVEN %s WHEN read THEN there is no quota project', (_name, extra, fileProject, source) => {
    adc(fileProject);
    const credentials = gcpCredentials(env(extra));
    expect(credentials?.source).toBe(source);
    expect(credentials?.quotaProject).toBeUndefined();
  });

  test('GIVEN no token anywhere WHEN read THEN undefined', () => {
    expect(gcpCredentials(env())).toBeUndefined();
  });

  test.each([
    ['ADC with a quota project', { FAKE_ADC_TOKEN: 'ya29.adc' }],
    ['only the gcloud user login', { FAKE_LOGIN_TOKEN: 'ya29.login' }],
    ['GOOGLE_OAUTH_ACCESS_TOKEN', { GOOGLE_OAUTH_ACCESS_TOKEN: 'ya29.env' }],
    ['no token anywhere', {}],
  ] as const)('GIVEN %s WHEN read without blocking (gcpCredentialsAsync) THEN the same as gcpCredentials', async (_name, extra) => {
    adc('billing-proj');
    const expected = gcpCredentials(env(extra));
    expect(await gcpCredentialsAsync(env(extra))).toEqual(expected);
    expect(expected === undefined).toBe(Object.keys(extra).length === 0);
  });
});

describe('x-goog-user-project on the leftover check', () => {
  const check = async (extra: NodeJS.ProcessEnv) => {
    const api = await serveGoogleFixtures('clean');
    try {
      const credentials = gcpCredentials(env({ FAKE_ADC_TOKEN: FIXTURE_TOKEN, ...extra }))!;
      await findGcpLeftovers({
        env: 'lab',
        project: FIXTURE_PROJECT,
        networkName: 'lab-gke',
        clusterName: 'lab-gke',
        accessToken: credentials.accessToken,
        quotaProject: credentials.quotaProject,
        computeApi: api.compute,
        containerApi: api.container,
        iamApi: api.iam,
        resourceManagerApi: api.resourceManager,
      });
      return api.requests;
    } finally {
      await api.close();
    }
  };

  test('GIVEN ADC naming a quota project WHEN the check runs THEN every request to Compute Engine, GKE, IAM and Resource Manager carries it', async () => {
    adc('billing-proj');
    const requests = await check({});
    // 12 global lists, 14 aggregated ones, clusters, service accounts, getIamPolicy.
    expect(requests.length).toBe(29);
    expect(requests.filter((r) => r.userProject !== 'billing-proj')).toEqual([]);
  });

  test('GIVEN ADC without one WHEN the check runs THEN no request carries the header', async () => {
    adc();
    const requests = await check({});
    expect(requests.filter((r) => r.userProject !== undefined)).toEqual([]);
  });
});
