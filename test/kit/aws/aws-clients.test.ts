/**
 * The one AWS SDK client set-up (lib/kit/aws/aws-clients.ts): real AWS with the
 * default credential chain, or an emulator with dummy credentials; a role assumed
 * with STS AssumeRole (against a loopback STS); and the SDK's Node 22 notice
 * dropped, every other warning kept.
 */
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { STSClient } from '@aws-sdk/client-sts';
import { awsClientConfig, EMULATOR_CREDENTIALS, ROLE_SESSION_NAME } from '../../../lib/kit/aws/aws-clients';

describe('awsClientConfig', () => {
  test('GIVEN a region THEN the SDK finds credentials itself, with two attempts a call', () => {
    expect(awsClientConfig({ region: 'eu-west-1' })).toEqual({ region: 'eu-west-1', maxAttempts: 2 });
    expect(awsClientConfig({ region: 'eu-west-1', maxAttempts: 1 })).toEqual({ region: 'eu-west-1', maxAttempts: 1 });
  });

  test('GIVEN an emulator endpoint THEN the clients talk to it with dummy credentials', async () => {
    const config = awsClientConfig({ region: 'us-east-1', endpoint: 'http://127.0.0.1:5000' });
    expect(config).toEqual({ region: 'us-east-1', maxAttempts: 2, endpoint: 'http://127.0.0.1:5000', credentials: EMULATOR_CREDENTIALS });
    // What a client makes of it.
    const sts = new STSClient(config);
    expect(await sts.config.credentials()).toMatchObject(EMULATOR_CREDENTIALS);
    expect(await sts.config.endpoint?.()).toMatchObject({ hostname: '127.0.0.1', port: 5000, protocol: 'http:' });
    sts.destroy();
  });

  test("GIVEN the SDK's notice that it will need Node 22 WHEN emitted THEN it is dropped, and other warnings are not", () => {
    const saved = process.emitWarning;
    const emitted = jest.fn();
    process.emitWarning = emitted as unknown as typeof process.emitWarning;
    try {
      // Loaded afresh, it wraps what process.emitWarning is now.
      jest.isolateModules(() => jest.requireActual('../../../lib/kit/aws/aws-clients'));
      process.emitWarning('NodeVersionSupportWarning: The AWS SDK for JavaScript (v3) versions published after the first week of January 2027 will need Node.js 22');
      process.emitWarning(new Error('The AWS SDK for JavaScript (v3) will need Node.js 22'));
      process.emitWarning('something else', 'Warning');
      expect(emitted.mock.calls).toEqual([['something else', 'Warning']]);
    } finally {
      process.emitWarning = saved;
    }
  });
});

describe('awsClientConfig with a role to assume', () => {
  /** A loopback STS and EC2: AssumeRole answers the credentials of `expires` (ISO), anything else an empty DescribeVpcs; every request recorded. */
  async function loopbackAws(expires: () => string, fail = false) {
    const requests: { action: string; role?: string; session?: string; credential: string; token?: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        const action = form.get('Action') ?? '';
        const credential = /Credential=([^/]+)\//.exec(String(req.headers.authorization))?.[1] ?? '';
        const token = req.headers['x-amz-security-token'] as string | undefined;
        requests.push({ action, ...(form.get('RoleArn') ? { role: form.get('RoleArn')!, session: form.get('RoleSessionName')! } : {}), credential, ...(token ? { token } : {}) });
        res.setHeader('content-type', 'text/xml');
        if (action === 'AssumeRole' && fail) {
          res.statusCode = 403;
          res.end('<ErrorResponse><Error><Type>Sender</Type><Code>AccessDenied</Code><Message>not authorized to perform sts:AssumeRole</Message></Error><RequestId>1</RequestId></ErrorResponse>');
        } else if (action === 'AssumeRole') {
          const n = requests.filter((r) => r.action === 'AssumeRole').length;
          res.end(
            `<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><AssumeRoleResult><Credentials><AccessKeyId>ASIAROLE${n}</AccessKeyId>` +
              `<SecretAccessKey>secret${n}</SecretAccessKey><SessionToken>token${n}</SessionToken><Expiration>${expires()}</Expiration></Credentials>` +
              '<AssumedRoleUser><AssumedRoleId>AROA:hoplab</AssumedRoleId><Arn>arn:aws:sts::111122223333:assumed-role/Lab/hoplab</Arn></AssumedRoleUser></AssumeRoleResult>' +
              '<ResponseMetadata><RequestId>1</RequestId></ResponseMetadata></AssumeRoleResponse>',
          );
        } else {
          res.end('<DescribeVpcsResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>1</requestId><vpcSet/></DescribeVpcsResponse>');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { endpoint, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  // Assumed credentials are kept per endpoint and role for the whole process: a role of each test's own, so none finds another's (a port may come round again).
  const role = (name: string) => `arn:aws:iam::111122223333:role/${name}`;

  test('GIVEN a role WHEN clients in two regions call THEN the role is assumed once, as the emulator credentials, and both sign as the role', async () => {
    const aws = await loopbackAws(() => '2099-01-01T00:00:00Z');
    const ROLE = role('TwoRegions');
    try {
      for (const region of ['us-east-2', 'eu-west-1']) {
        const ec2 = new EC2Client(awsClientConfig({ region, endpoint: aws.endpoint, roleArn: ROLE }));
        await ec2.send(new DescribeVpcsCommand({}));
        ec2.destroy();
      }
      expect(aws.requests).toEqual([
        { action: 'AssumeRole', role: ROLE, session: ROLE_SESSION_NAME, credential: EMULATOR_CREDENTIALS.accessKeyId },
        { action: 'DescribeVpcs', credential: 'ASIAROLE1', token: 'token1' },
        { action: 'DescribeVpcs', credential: 'ASIAROLE1', token: 'token1' },
      ]);
    } finally {
      await aws.close();
    }
  });

  test('GIVEN credentials that expire within five minutes WHEN asked again THEN the role is assumed again', async () => {
    const aws = await loopbackAws(() => new Date(Date.now() + 60_000).toISOString());
    try {
      const provider = awsClientConfig({ region: 'us-east-1', endpoint: aws.endpoint, roleArn: role('Expiring') }).credentials as () => Promise<{ accessKeyId: string }>;
      expect((await provider()).accessKeyId).toBe('ASIAROLE1');
      expect((await provider()).accessKeyId).toBe('ASIAROLE2');
    } finally {
      await aws.close();
    }
  });

  test("GIVEN a role the credentials may not assume WHEN a client calls THEN STS's error is the client's, and the next call asks again", async () => {
    const aws = await loopbackAws(() => '2099-01-01T00:00:00Z', true);
    try {
      const ec2 = new EC2Client(awsClientConfig({ region: 'us-east-1', endpoint: aws.endpoint, roleArn: role('Denied'), maxAttempts: 1 }));
      await expect(ec2.send(new DescribeVpcsCommand({}))).rejects.toMatchObject({ name: 'AccessDenied', message: 'not authorized to perform sts:AssumeRole' });
      await expect(ec2.send(new DescribeVpcsCommand({}))).rejects.toMatchObject({ name: 'AccessDenied' });
      ec2.destroy();
      expect(aws.requests.map((r) => r.action)).toEqual(['AssumeRole', 'AssumeRole']);
    } finally {
      await aws.close();
    }
  });
});
