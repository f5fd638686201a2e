/**
 * The emulator hoplab starts (startMoto) serves one request at a time: moto's
 * models are not thread-safe, and on threads a create can fail with a 500 after
 * storing what it created, so that the SDK's retry answers "already exists"
 * (see MOTO_ONE_AT_A_TIME). What shows it from outside: werkzeug's server speaks
 * HTTP/1.1 with keep-alive only when it runs requests on threads; one at a
 * time it answers HTTP/1.0 and closes each connection. Concurrent clients are
 * queued, not refused.
 */
import { request } from 'node:http';
import { CreateSubnetCommand, CreateVpcCommand, DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { Emulator, startMoto } from '../../lib/commands/local/moto';

/** One GET; resolves with the HTTP version and Connection header of the answer. */
const answer = (url: string) =>
  new Promise<{ version: string; connection: string | undefined; status: number | undefined }>((resolve, reject) => {
    request(url, (res) => {
      res.resume();
      res.on('end', () => resolve({ version: res.httpVersion, connection: res.headers.connection, status: res.statusCode }));
    })
      .on('error', reject)
      .end();
  });

describe('the emulator hoplab starts', () => {
  let moto: Emulator;
  beforeAll(async () => {
    moto = await startMoto();
  });
  afterAll(async () => {
    await moto?.stop();
  });

  test('GIVEN moto started by startMoto WHEN asked THEN it answers as a one-at-a-time server: HTTP/1.0, connection closed', async () => {
    expect(await answer(`${moto.endpoint}/moto-api/`)).toEqual({ version: '1.0', connection: 'close', status: 200 });
  });

  test('GIVEN 40 clients at once WHEN each creates a subnet THEN every create succeeds once, queued rather than refused', async () => {
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });
    const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.40.0.0/16' }))).Vpc!.VpcId!;
    const cidrs = Array.from({ length: 40 }, (_, i) => `10.40.${i}.0/24`);
    await Promise.all(cidrs.map((CidrBlock) => ec2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock }))));
    const subnets = (await ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc] }] }))).Subnets ?? [];
    expect(subnets.map((s) => s.CidrBlock).sort()).toEqual([...cidrs].sort());
    ec2.destroy();
  });
});
