/**
 * The host's access to an environment's clusters: where each is, read from the outputs
 * (placement included), and a client that authenticates as the host, against a
 * loopback Kubernetes API over TLS trusted through the CA the outputs carry.
 */
import { validConfig } from '../../../lib/config/load';
import { EKS_TOKEN_PREFIX } from '../../../lib/kit/aws/eks-token';
import { clusterTarget, ClusterTarget, hostClusterClient, hostTokens, isUnreachable } from '../../../lib/lab/cluster/cluster-access';
import { parseOutputs } from '../../../lib/lab/files/outputs';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, serveKubernetesApi } from '../../support/kubernetes-api';

const CA = Buffer.from(LOOPBACK_CA).toString('base64');
const CONFIG = validConfig(
  { attendees: ['ann', 'bob'], aws: { accounts: [{ id: '111122223333' }, { id: '444455556666', roleName: 'LabAdmin' }] }, gcp: { projects: ['lab-ws-1', 'lab-ws-2'] }, placement: { perSlot: 1 } },
  'test',
);

let api: KubernetesApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const outputs = (server = 'https://0123456789ABCDEF.gr7.eu-west-1.eks.amazonaws.com') =>
  parseOutputs(
    {
      'bob-aws-cluster': {
        cluster_name: 'bob-eks',
        region: 'eu-west-1',
        cluster_endpoint: server,
        cluster_ca_certificate: CA,
        placement: { cloud: 'aws', slot: '444455556666/eu-west-1', account: '444455556666', region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b'] },
      },
      'bob-gcp-cluster': {
        cluster_name: 'bob-gke',
        region: 'europe-west1',
        cluster_endpoint: '34.1.2.3',
        cluster_ca_certificate: CA,
        cluster_location: 'europe-west1-b',
        placement: { cloud: 'gcp', slot: 'lab-ws-2/europe-west1', project: 'lab-ws-2', region: 'europe-west1', zones: ['europe-west1-b'] },
      },
      'ann-aws-cluster': { cluster_name: 'ann-eks', region: 'us-east-1', cluster_endpoint: 'https://ann.example' },
    },
    'test',
  ).environments;

describe('clusterTarget', () => {
  test('GIVEN bob placed in an account of aws.accounts and a project of gcp.projects WHEN read THEN each cluster is where its placement output says, with the role the host assumes there', () => {
    const [, bob] = outputs();
    expect(clusterTarget(bob, 'aws', CONFIG)).toEqual({
      env: 'bob',
      cloud: 'aws',
      clusterName: 'bob-eks',
      server: 'https://0123456789ABCDEF.gr7.eu-west-1.eks.amazonaws.com',
      caCertificateData: CA,
      region: 'eu-west-1',
      location: 'eu-west-1',
      owner: '444455556666',
      roleArn: 'arn:aws:iam::444455556666:role/LabAdmin',
    });
    expect(clusterTarget(bob, 'gcp', CONFIG)).toEqual({
      env: 'bob',
      cloud: 'gcp',
      clusterName: 'bob-gke',
      server: 'https://34.1.2.3',
      caCertificateData: CA,
      region: 'europe-west1',
      location: 'europe-west1-b',
      owner: 'lab-ws-2',
    });
  });

  test('GIVEN bob deployed through a role its placement output records WHEN aws.accounts now names another role there, or no longer lists the account THEN the host reaches it through the recorded role (its access entry is the admin)', async () => {
    const deployedWith = 'arn:aws:iam::444455556666:role/HoplabDeployer';
    const [, bob] = parseOutputs(
      {
        'bob-aws-cluster': {
          cluster_name: 'bob-eks',
          region: 'eu-west-1',
          cluster_endpoint: 'https://bob.example',
          cluster_ca_certificate: CA,
          placement: { cloud: 'aws', slot: '444455556666/eu-west-1', account: '444455556666', region: 'eu-west-1', zones: ['eu-west-1a', 'eu-west-1b'], role_arn: deployedWith },
        },
        'ann-aws-cluster': { cluster_name: 'ann-eks' },
      },
      'test',
    ).environments;
    const removed = validConfig({ attendees: ['ann', 'bob'], aws: { accounts: [{ id: '111122223333' }] } }, 'test');
    for (const config of [CONFIG, removed]) expect(clusterTarget(bob, 'aws', config)).toMatchObject({ owner: '444455556666', roleArn: deployedWith });
    const roles: string[] = [];
    const tokens = hostTokens({ awsCredentials: async (region, roleArn) => (roles.push(`${region} ${roleArn}`), { accessKeyId: 'ASIAROLE', secretAccessKey: 's', sessionToken: 't' }) });
    await tokens.token(clusterTarget(bob, 'aws', removed) as ClusterTarget);
    expect(roles).toEqual([`eu-west-1 ${deployedWith}`]);
  });

  test('GIVEN outputs of an account written before the placement output named the role WHEN read THEN the role aws.accounts names, else the default one', () => {
    const placed = (account: string) =>
      parseOutputs(
        {
          'bob-aws-cluster': {
            cluster_name: 'bob-eks',
            cluster_endpoint: 'https://bob.example',
            cluster_ca_certificate: CA,
            placement: { cloud: 'aws', slot: `${account}/us-east-1`, account, region: 'us-east-1' },
          },
        },
        'test',
      ).environments[0];
    expect(clusterTarget(placed('444455556666'), 'aws', CONFIG)).toMatchObject({ roleArn: 'arn:aws:iam::444455556666:role/LabAdmin' });
    expect(clusterTarget(placed('777788889999'), 'aws', CONFIG)).toMatchObject({ roleArn: 'arn:aws:iam::777788889999:role/OrganizationAccountAccessRole' });
  });

  test('GIVEN a cluster stack deployed before the CA output, and none at all WHEN read THEN why it cannot be reached, and how to add the output', () => {
    const [ann] = outputs();
    expect(clusterTarget(ann, 'aws', CONFIG)).toEqual({
      why: 'ann-aws-cluster has no cluster_ca_certificate output (deployed before hoplab exported it: npx hoplab deploy --env ann --stacks aws-cluster adds it)',
    });
    expect(clusterTarget(ann, 'gcp', CONFIG)).toEqual({ why: 'no outputs of ann-gcp-cluster (not deployed, or not in the outputs read)' });
  });
});

describe('hostClusterClient', () => {
  test('GIVEN a GKE cluster WHEN read as the host THEN the host’s Google token is sent, asked once for every request', async () => {
    api = await serveKubernetesApi({ objects: { '/api/v1/nodes': { kind: 'NodeList', items: [] } } });
    const target = { ...(clusterTarget(outputs()[1], 'gcp', CONFIG) as ClusterTarget), server: api.base };
    let asked = 0;
    const tokens = hostTokens({ googleToken: () => (asked++, HOST_TOKEN) });
    const client = hostClusterClient(target, tokens);
    await client.get('/api/v1/nodes');
    await client.get('/api/v1/nodes');
    expect([asked, api.requests.map((r) => r.user)]).toEqual([1, ['host', 'host']]);
  });

  test('GIVEN an EKS cluster in an account of aws.accounts WHEN read as the host THEN a k8s-aws-v1 token signed for its region with the assumed role’s credentials, made again only when it runs out', async () => {
    const seen: string[] = [];
    api = await serveKubernetesApi({
      objects: { '/api/v1/nodes': { kind: 'NodeList', items: [] } },
      authenticate: (authorization) => {
        const token = authorization?.replace(/^Bearer /, '') ?? '';
        if (!token.startsWith(EKS_TOKEN_PREFIX)) return undefined;
        seen.push(token);
        return new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString()).searchParams.get('X-Amz-Credential') ?? undefined;
      },
    });
    const target = { ...(clusterTarget(outputs()[1], 'aws', CONFIG) as ClusterTarget), server: api.base };
    const roles: string[] = [];
    let clock = Date.parse('2026-12-07T08:00:00Z');
    const tokens = hostTokens({
      now: () => clock,
      awsCredentials: async (region, roleArn) => (roles.push(`${region} ${roleArn}`), { accessKeyId: 'ASIAROLE', secretAccessKey: 's', sessionToken: 't' }),
    });
    const client = hostClusterClient(target, tokens);
    await client.get('/api/v1/nodes');
    clock += 5 * 60_000;
    await client.get('/api/v1/nodes');
    clock += 10 * 60_000; // past the 14 minutes a token is used for
    await client.get('/api/v1/nodes');
    expect(roles).toEqual(['eu-west-1 arn:aws:iam::444455556666:role/LabAdmin']);
    expect(api.requests.map((r) => r.user)).toEqual(['ASIAROLE/20261207/eu-west-1/sts/aws4_request', 'ASIAROLE/20261207/eu-west-1/sts/aws4_request', 'ASIAROLE/20261207/eu-west-1/sts/aws4_request']);
    expect([seen[0] === seen[1], seen[1] === seen[2]]).toEqual([true, false]);
  });

  test('GIVEN reaskAfterMs (the live page) WHEN time passes THEN the Google token, the AWS credentials and a failure to get them are asked again, and an EKS token made from the new credentials', async () => {
    api = await serveKubernetesApi({ objects: { '/api/v1/nodes': { kind: 'NodeList', items: [] } }, authenticate: (authorization) => authorization });
    const gke = { ...(clusterTarget(outputs()[1], 'gcp', CONFIG) as ClusterTarget), server: api.base };
    const eks = { ...(clusterTarget(outputs()[1], 'aws', CONFIG) as ClusterTarget), server: api.base };
    let clock = Date.parse('2026-12-07T08:00:00Z');
    const google = [undefined, 'ya29.first', 'ya29.second'];
    let asked = 0;
    let keys = 0;
    const tokens = hostTokens({
      now: () => clock,
      reaskAfterMs: 120_000,
      googleToken: async () => google[asked++],
      awsCredentials: async () => ({ accessKeyId: `ASIA${++keys}`, secretAccessKey: 's', sessionToken: 't' }),
    });
    const users = async (target: ClusterTarget) => {
      await hostClusterClient(target, tokens).get('/api/v1/nodes');
      return api!.requests.at(-1)!.user!;
    };
    await expect(users(gke)).rejects.toThrow('no Google credentials');
    clock += 60_000;
    await expect(users(gke)).rejects.toThrow('no Google credentials'); // the failure is kept for 2 minutes
    clock += 60_000;
    expect(await users(gke)).toBe('Bearer ya29.first');
    clock += 119_000;
    expect(await users(gke)).toBe('Bearer ya29.first');
    clock += 1_000;
    expect(await users(gke)).toBe('Bearer ya29.second');
    const first = await users(eks);
    clock += 60_000;
    expect(await users(eks)).toBe(first);
    clock += 60_000; // credentials asked again (well before the EKS token's 14 minutes): a new token from them
    const second = await users(eks);
    expect(second).not.toBe(first);
    expect([asked, keys]).toEqual([3, 2]);
    expect(Buffer.from(second.slice(`Bearer ${EKS_TOKEN_PREFIX}`.length), 'base64url').toString()).toContain('X-Amz-Credential=ASIA2');
  });

  test('GIVEN reaskAfterMs and a gcloud or an AssumeRole that takes its time WHEN a token is asked in the last quarter of the time THEN the one in use serves at once while the new one is asked, and the new one once it came', async () => {
    const gke = clusterTarget(outputs()[1], 'gcp', CONFIG) as ClusterTarget;
    const eks = clusterTarget(outputs()[1], 'aws', CONFIG) as ClusterTarget;
    let clock = Date.parse('2026-12-07T08:00:00Z');
    /** The asks under way, answered when the test says. */
    const google: ((token: string) => void)[] = [];
    const keys: ((credentials: { accessKeyId: string; secretAccessKey: string; sessionToken: string }) => void)[] = [];
    const tokens = hostTokens({
      now: () => clock,
      reaskAfterMs: 120_000,
      googleToken: () => new Promise<string>((resolve) => google.push(resolve)),
      awsCredentials: () => new Promise((resolve) => keys.push(resolve)),
    });
    /** The token, or `waiting` when it waits for an ask the test has not answered (it would wait for ever: the timer only names it). */
    const now = (target: ClusterTarget) => Promise.race([tokens.token(target), new Promise<string>((resolve) => setTimeout(() => resolve('waiting'), 50))]);
    const settle = () => new Promise((resolve) => setImmediate(resolve));

    const first = tokens.token(gke);
    await settle();
    google.shift()!('ya29.first');
    expect(await first).toBe('ya29.first');
    clock += 89_000;
    expect([await now(gke), google.length]).toEqual(['ya29.first', 0]);
    clock += 1_000; // 90 s: asked again, the first serving meanwhile, even past the 2 minutes
    expect([await now(gke), google.length]).toEqual(['ya29.first', 1]);
    clock += 40_000;
    expect([await now(gke), google.length]).toEqual(['ya29.first', 1]);
    google.shift()!('ya29.second');
    await settle();
    expect(await tokens.token(gke)).toBe('ya29.second');

    const eksFirst = tokens.token(eks);
    await settle();
    keys.shift()!({ accessKeyId: 'ASIA1', secretAccessKey: 's', sessionToken: 't' });
    const madeFirst = await eksFirst;
    clock += 95_000;
    expect([await now(eks), keys.length]).toEqual([madeFirst, 1]);
    keys.shift()!({ accessKeyId: 'ASIA2', secretAccessKey: 's', sessionToken: 't' });
    await settle();
    const madeSecond = await tokens.token(eks);
    expect(Buffer.from(madeSecond.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString()).toContain('X-Amz-Credential=ASIA2');
  });

  test('GIVEN no Google credentials WHEN a GKE cluster is read THEN the error says how to sign in', async () => {
    api = await serveKubernetesApi();
    const target = { ...(clusterTarget(outputs()[1], 'gcp', CONFIG) as ClusterTarget), server: api.base };
    await expect(hostClusterClient(target, hostTokens({ googleToken: () => undefined })).get('/api/v1/nodes')).rejects.toThrow(
      'no token to send (no Google credentials: run gcloud auth application-default login (the identity that deployed))',
    );
    expect(isUnreachable(target)).toBe(false);
  });
});
