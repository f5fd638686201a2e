/**
 * Every attendee's kubeconfig, used by the real /usr/bin/kubectl (v1.32) against
 * loopback Kubernetes APIs over TLS that stand in for each environment's EKS and GKE
 * clusters (test/support/kubernetes-api.ts, trusted through the CA the outputs carry):
 * - dee (no identity): tokens of her ServiceAccount, minted by handout with the host's
 *   access (TokenRequest), the lifetime the cluster answered, file mode 0600;
 * - ann (an IAM role and a Google account): `aws eks get-token` (the AWS CLI on this
 *   machine, which signs locally) and gke-gcloud-auth-plugin (with gcloud's access-token
 *   file), no secret in the file;
 * - a CA the server's certificate does not chain to: refused by the host and by kubectl;
 * - a cluster that does not answer: the others are written, and the command says so.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { validConfig } from '../../../lib/config/load';
import { handout, HandoutIo } from '../../../lib/commands/handout/handout';
import { explainLab } from '../../../lib/lab/anatomy/explain-lab';
import { ExplainModel } from '../../../lib/lab/anatomy/model';
import { EKS_TOKEN_PREFIX } from '../../../lib/kit/aws/eks-token';
import { HOST_TOKEN, KubernetesApi, LOOPBACK_CA, OTHER_CA, serveKubernetesApi } from '../../support/kubernetes-api';
import { Json } from '../../support/synth';

const ANN = { name: 'ann', aws: 'arn:aws:iam::123456789012:role/workshop/ann', gcp: 'user:ann@example.com' };
const CONFIG = validConfig({ attendees: [ANN, 'dee', 'fay', 'gus'], gcp: { project: 'acme-lab' } }, 'test');
const ANN_GOOGLE_TOKEN = 'ya29.ann-signed-in';
const NOW = new Date('2026-12-07T08:00:00Z');

let explained: ExplainModel | undefined;
const explain = () => (explained ??= explainLab(validConfig({ name: 'lab', gcp: { project: 'acme-lab' } }, 'test')));

const pods: Json = { kind: 'PodList', apiVersion: 'v1', metadata: {}, items: [{ metadata: { name: 'echo-7d9f-abcde', namespace: 'hoplab' } }] };
const objects = {
  '/api/v1/namespaces/hoplab/serviceaccounts/hoplab-attendee': { kind: 'ServiceAccount', metadata: { name: 'hoplab-attendee', namespace: 'hoplab' } },
  '/api/v1/namespaces/hoplab/pods': pods,
};

/** Who a request is: the host, ann's Google account, or the AWS access key an EKS token was signed with. */
function authenticate(authorization: string | undefined): string | undefined {
  const token = authorization?.replace(/^Bearer /, '') ?? '';
  if (token === HOST_TOKEN) return 'host';
  if (token === ANN_GOOGLE_TOKEN) return 'ann@example.com';
  if (token.startsWith(EKS_TOKEN_PREFIX)) {
    const url = new URL(Buffer.from(token.slice(EKS_TOKEN_PREFIX.length), 'base64url').toString('utf8'));
    return url.searchParams.get('Action') === 'GetCallerIdentity' ? `aws:${url.searchParams.get('X-Amz-Credential')?.split('/')[0]}` : undefined;
  }
  return undefined;
}

let eks: KubernetesApi;
let gke: KubernetesApi;
let dir: string;
let refused: string;
const hostAsked: string[] = [];
const tokens: HandoutIo['tokens'] = { token: async (target) => (hostAsked.push(`${target.env} ${target.cloud}`), HOST_TOKEN) };

beforeAll(async () => {
  // EKS caps tokens below what is asked (as --service-account-max-token-expiration does); GKE gives what is asked.
  eks = await serveKubernetesApi({ objects, authenticate, maxTokenSeconds: 86_400, now: () => NOW });
  gke = await serveKubernetesApi({ objects, authenticate, now: () => NOW });
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refused = `https://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  dir = mkdtempSync(join(tmpdir(), 'hoplab-kubeconfig-'));
});
afterAll(async () => {
  await eks.close();
  await gke.close();
  rmSync(dir, { recursive: true, force: true });
});

const ca = (pem: string) => Buffer.from(pem).toString('base64');
/** The outputs of one environment's two cluster stacks, pointing at the loopback APIs. */
const clusters = (env: string, options: { awsServer?: string; ca?: string } = {}) => ({
  [`${env}-aws-cluster`]: { cloud: 'aws', cluster_name: `${env}-eks`, region: 'us-east-1', cluster_endpoint: options.awsServer ?? eks.base, cluster_ca_certificate: options.ca ?? ca(LOOPBACK_CA) },
  [`${env}-gcp-cluster`]: {
    cloud: 'gcp',
    cluster_name: `${env}-gke`,
    region: 'us-central1',
    cluster_endpoint: gke.base.replace(/^https:\/\//, ''),
    cluster_location: 'us-central1-a',
    cluster_ca_certificate: options.ca ?? ca(LOOPBACK_CA),
  },
});

async function run(out: string, outputs: Record<string, unknown>, ...argv: string[]) {
  const file = join(dir, `${out}-outputs.json`);
  writeFileSync(file, JSON.stringify(outputs));
  let stdout = '';
  let stderr = '';
  const io: HandoutIo = { out: (t) => (stdout += t), err: (t) => (stderr += t), config: () => CONFIG, explain, tokens, clusterTimeoutMs: 5000 };
  const code = await handout(['--outputs', file, '--out', join(dir, out), ...argv], io);
  return { code, stdout, stderr, out: join(dir, out) };
}

/** kubectl as an attendee runs it, with only the environment given (HOME of its own: no kubeconfig or cloud login of this machine's). */
function kubectl(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(join(tmpdir(), 'hoplab-kubectl-home-'));
  return new Promise((resolve) => {
    execFile(
      '/usr/bin/kubectl',
      [...args, '--request-timeout=30s'],
      { env: { PATH: process.env.PATH ?? '', HOME: home, AWS_CONFIG_FILE: '/dev/null', AWS_SHARED_CREDENTIALS_FILE: '/dev/null', CLOUDSDK_CONFIG: join(home, 'gcloud'), ...env } },
      (error, stdout, stderr) => {
        rmSync(home, { recursive: true, force: true });
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}

describe('kubeconfigs', () => {
  let first: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    first = await run('day', { ...clusters('ann'), ...clusters('dee') }, '--token-hours', '48');
  });

  test('GIVEN dee without an identity WHEN handed out THEN her kubeconfig (mode 0600) holds a token per cluster, minted with the host’s access, with the expiry each cluster answered and EKS’s shortening said', () => {
    expect(first.code).toBe(0);
    const file = join(first.out, 'dee.kubeconfig');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const config = parse(readFileSync(file, 'utf8'));
    expect(config.contexts).toEqual([
      { name: 'dee-eks', context: { cluster: 'dee-eks', user: 'dee-eks-hoplab-attendee', namespace: 'hoplab' } },
      { name: 'dee-gke', context: { cluster: 'dee-gke', user: 'dee-gke-hoplab-attendee', namespace: 'hoplab' } },
    ]);
    expect(config.clusters.map((c: Json) => c.cluster)).toEqual([
      { server: eks.base, 'certificate-authority-data': ca(LOOPBACK_CA) },
      { server: gke.base, 'certificate-authority-data': ca(LOOPBACK_CA) },
    ]);
    const minted = [...eks.issued, ...gke.issued];
    expect(config.users.map((u: Json) => u.user.token)).toEqual(minted.map((t) => t.token));
    // 48 h asked of both; the EKS stand-in caps at 24 h, as a real API server with a maximum does.
    expect(minted.map((t) => [t.serviceAccount, t.namespace, t.expirationSeconds, t.expirationTimestamp])).toEqual([
      ['hoplab-attendee', 'hoplab', 86_400, '2026-12-08T08:00:00Z'],
      ['hoplab-attendee', 'hoplab', 172_800, '2026-12-09T08:00:00Z'],
    ]);
    expect(first.stdout).toContain('| dee.kubeconfig | dee-eks | token until 2026-12-08T08:00:00Z |');
    expect(first.stdout).toContain('| dee.kubeconfig | dee-gke | token until 2026-12-09T08:00:00Z |');
    expect(first.stdout).toContain('hoplab handout: dee-eks: the cluster says: requested expiration of 172800\n  seconds shortened to 86400 seconds\n');
    expect(first.stdout).toContain('hoplab handout: before they run out: npx hoplab handout --refresh-kubeconfigs\n');
    for (const line of first.stdout.replaceAll(first.out, 'handouts').split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(hostAsked.sort()).toEqual(['dee aws', 'dee gcp']);
    expect([...eks.requests, ...gke.requests].filter((r) => r.method === 'POST').map((r) => [r.user, r.path, r.body?.spec?.expirationSeconds])).toEqual([
      ['host', '/api/v1/namespaces/hoplab/serviceaccounts/hoplab-attendee/token', 172_800],
      ['host', '/api/v1/namespaces/hoplab/serviceaccounts/hoplab-attendee/token', 172_800],
    ]);
  });

  test('GIVEN dee’s kubeconfig WHEN the real kubectl uses each context THEN it trusts the cluster through its CA and is dee’s ServiceAccount there', async () => {
    eks.requests.length = gke.requests.length = 0;
    for (const [context, api] of [
      ['dee-eks', eks],
      ['dee-gke', gke],
    ] as const) {
      const result = await kubectl(['--kubeconfig', join(first.out, 'dee.kubeconfig'), '--context', context, 'get', 'pods', '-o', 'name']);
      expect([context, result.code, result.stdout]).toEqual([context, 0, 'pod/echo-7d9f-abcde\n']);
      expect(api.requests.find((r) => r.path === '/api/v1/namespaces/hoplab/pods')?.user).toBe('system:serviceaccount:hoplab:hoplab-attendee');
    }
  });

  test('GIVEN ann with identities WHEN handed out THEN her kubeconfig holds no secret: aws eks get-token (and a context that assumes the role), gke-gcloud-auth-plugin; nothing minted for her', () => {
    const text = readFileSync(join(first.out, 'ann.kubeconfig'), 'utf8');
    expect(text).toContain('# It holds no secret: kubectl asks your own cloud credentials for a token each time.');
    const config = parse(text);
    expect(config.users.map((u: Json) => [u.name, u.user.exec.command, u.user.exec.args ?? null, u.user.token ?? null])).toEqual([
      ['ann-eks-aws', 'aws', ['--region', 'us-east-1', 'eks', 'get-token', '--cluster-name', 'ann-eks', '--output', 'json'], null],
      ['ann-eks-assume-role', 'aws', ['--region', 'us-east-1', 'eks', 'get-token', '--cluster-name', 'ann-eks', '--output', 'json', '--role-arn', ANN.aws], null],
      ['ann-gke-gcloud', 'gke-gcloud-auth-plugin', null, null],
    ]);
    expect(config.users[2].user.exec.provideClusterInfo).toBe(true);
    expect(config['current-context']).toBe('ann-eks');
    expect(eks.issued.concat(gke.issued).length).toBe(2);
  });

  test('GIVEN ann’s kubeconfig WHEN the real kubectl uses it THEN EKS gets the token the AWS CLI signed with her credentials, and GKE her Google token from the plugin', async () => {
    eks.requests.length = gke.requests.length = 0;
    const file = join(first.out, 'ann.kubeconfig');
    const aws = await kubectl(['--kubeconfig', file, '--context', 'ann-eks', 'get', 'pods', '-o', 'name'], { AWS_ACCESS_KEY_ID: 'AKIAANNEXAMPLE', AWS_SECRET_ACCESS_KEY: 'ann-secret' });
    expect([aws.code, aws.stdout, aws.stderr]).toEqual([0, 'pod/echo-7d9f-abcde\n', '']);
    expect(eks.requests.find((r) => r.path === '/api/v1/namespaces/hoplab/pods')?.user).toBe('aws:AKIAANNEXAMPLE');
    const tokenFile = join(dir, 'ann-google-token');
    writeFileSync(tokenFile, ANN_GOOGLE_TOKEN);
    const google = await kubectl(['--kubeconfig', file, '--context', 'ann-gke', 'get', 'pods', '-o', 'name'], { CLOUDSDK_AUTH_ACCESS_TOKEN_FILE: tokenFile });
    expect([google.code, google.stdout]).toEqual([0, 'pod/echo-7d9f-abcde\n']);
    expect(gke.requests.find((r) => r.path === '/api/v1/namespaces/hoplab/pods')?.user).toBe('ann@example.com');
  });

  test('GIVEN the handouts, the access cards and the index WHEN read THEN no token is in any page; the index lists who got a kubeconfig and links none', () => {
    const pages = ['ann.md', 'ann.html', 'ann.card.html', 'dee.md', 'dee.html', 'dee.card.html', 'index.html'].map((f) => readFileSync(join(first.out, f), 'utf8')).join('\n');
    for (const t of [...eks.issued, ...gke.issued]) expect(pages).not.toContain(t.token);
    const index = readFileSync(join(first.out, 'index.html'), 'utf8');
    expect(index).not.toMatch(/href="[^"]*kubeconfig/);
    expect(index).toMatch(/<td>dee<\/td>.*<td>yes \(a token: hand it over in person\)<\/td>/);
    expect(index).toMatch(/<td>ann<\/td>.*<td>yes \(their own identity\)<\/td>/);
    const dee = readFileSync(join(first.out, 'dee.md'), 'utf8');
    expect(dee).toContain('valid until 2026-12-08T08:00:00Z. It is a secret');
    expect(dee).toContain('`npx hoplab handout --refresh-kubeconfigs --env dee`');
    // The card's kubectl line is the kubeconfig's, the token stays in the file.
    expect(readFileSync(join(first.out, 'dee.card.html'), 'utf8').replace(/<[^>]+>/g, '')).toContain('kubectl --kubeconfig dee.kubeconfig --context dee-eks get pods');
  });

  test('GIVEN --refresh-kubeconfigs WHEN run THEN only the kubeconfigs are written again, with new tokens, still 0600; the handouts stay', async () => {
    const before = readFileSync(join(first.out, 'dee.md'), 'utf8');
    const old = readFileSync(join(first.out, 'dee.kubeconfig'), 'utf8');
    writeFileSync(join(first.out, 'dee.md'), 'kept');
    const again = await run('day', { ...clusters('ann'), ...clusters('dee') }, '--refresh-kubeconfigs', '--env', 'dee');
    expect([again.code, again.stderr]).toEqual([0, '']);
    expect(readFileSync(join(first.out, 'dee.md'), 'utf8')).toBe('kept');
    const renewed = readFileSync(join(first.out, 'dee.kubeconfig'), 'utf8');
    expect(renewed).not.toBe(old);
    expect(renewed).toContain(eks.issued[eks.issued.length - 1].token);
    expect(statSync(join(first.out, 'dee.kubeconfig')).mode & 0o777).toBe(0o600);
    writeFileSync(join(first.out, 'dee.md'), before);
  });

  test('GIVEN --no-kubeconfigs (a pipeline) WHEN handed out THEN no kubeconfig is written and no token minted; the handout still says how kubectl will work', async () => {
    const asked = hostAsked.length;
    const issued = eks.issued.length + gke.issued.length;
    const result = await run('pipeline', { ...clusters('ann'), ...clusters('dee') }, '--no-kubeconfigs');
    expect(result.code).toBe(0);
    expect(result.stderr).not.toMatch(/^hoplab handout: (ann|dee): /m);
    expect(readdirSync(result.out).filter((f) => f.endsWith('.kubeconfig'))).toEqual([]);
    expect([hostAsked.length - asked, eks.issued.length + gke.issued.length - issued]).toEqual([0, 0]);
    expect(result.stdout).not.toContain('kubeconfigs in');
    expect(readFileSync(join(result.out, 'dee.md'), 'utf8')).toContain('valid until the time the host tells you');
    await expect(run('pipeline', clusters('dee'), '--no-kubeconfigs', '--refresh-kubeconfigs')).rejects.toThrow('--no-kubeconfigs and --refresh-kubeconfigs contradict each other; give one of them');
  });

  test('GIVEN outputs whose CA did not sign the server’s certificate WHEN handed out THEN the host refuses to mint there, and kubectl refuses an identity kubeconfig: nothing reaches the server', async () => {
    eks.requests.length = gke.requests.length = 0;
    const result = await run('other-ca', { ...clusters('ann', { ca: ca(OTHER_CA) }), ...clusters('dee', { ca: ca(OTHER_CA) }) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hoplab handout: dee: no EKS context in dee\.kubeconfig: no token for hoplab-attendee in dee-eks: POST \S+ failed: .*(certificate|self.signed)/m);
    expect(result.stderr).toContain('hoplab handout: dee: once its cluster answers, run npx hoplab handout --refresh-kubeconfigs --env dee\n');
    const aws = await kubectl(['--kubeconfig', join(result.out, 'ann.kubeconfig'), '--context', 'ann-eks', 'get', 'pods'], {
      AWS_ACCESS_KEY_ID: 'AKIAANNEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'ann-secret',
    });
    expect(aws.code).not.toBe(0);
    expect(aws.stderr).toMatch(/x509: certificate signed by unknown authority/);
    expect([...eks.requests, ...gke.requests]).toEqual([]);
  });

  test('GIVEN fay’s EKS cluster that does not answer WHEN handed out THEN her kubeconfig has her GKE context only, gus’s is whole, and the command exits 1 saying what to run', async () => {
    const result = await run('down', { ...clusters('fay', { awsServer: refused }), ...clusters('gus') });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hoplab handout: fay: no EKS context in fay\.kubeconfig: no token for hoplab-attendee in fay-eks: POST https:\/\/127\.0\.0\.1:\d+\/\S+ failed: .*ECONNREFUSED/m);
    expect(parse(readFileSync(join(result.out, 'fay.kubeconfig'), 'utf8')).contexts.map((c: Json) => c.name)).toEqual(['fay-gke']);
    expect(parse(readFileSync(join(result.out, 'gus.kubeconfig'), 'utf8')).contexts.map((c: Json) => c.name)).toEqual(['gus-eks', 'gus-gke']);
    expect(readFileSync(join(result.out, 'fay.md'), 'utf8')).toContain('The host could not write this cluster into your kubeconfig (no token for hoplab-attendee in fay-eks');
  });
});
