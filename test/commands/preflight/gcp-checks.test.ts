/**
 * The GCP preflight against Google API responses served on loopback, in the
 * documented formats: OAuth2 tokeninfo, Service Usage services.list,
 * projects.testIamPermissions, Compute Engine regions.get and projects.get,
 * GKE clusters.list, networks.get and IAM serviceAccounts.get.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SynthStack } from '../../../lib/plumbing/terraform/terraform-json';
import { gcpFindings, GcpPreflightInput } from '../../../lib/commands/preflight/gcp-checks';

const TOKEN = 'ya29.preflight-loopback';
const PROJECT = 'my-lab-project';

/** The parts of a synthesized `lab-gcp-cluster` the checks read. */
const STACK: SynthStack = {
  name: 'lab-gcp-cluster',
  file: 'cdk.tf.json',
  json: {
    provider: { google: [{ default_labels: { 'hoplab-env': 'lab', 'hoplab-workshop': 'k8s-101' }, project: PROJECT }] },
    resource: {
      google_container_cluster: { gke: { name: 'lab-gke' } },
      google_compute_network: { net: { name: 'lab-gke' } },
      google_service_account: { sa: { account_id: 'lab-gke-nodes' } },
    },
  },
};

interface Scenario {
  enabled: string[];
  granted: (asked: string[]) => string[];
  clusters: unknown[];
  existing: string[];
  cpus: { limit: number; usage: number };
}

async function serve(s: Scenario): Promise<{ base: string; posts: string[][]; close: () => Promise<void> }> {
  const posts: string[][] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const notFound = () => send(404, { error: { code: 404, status: 'NOT_FOUND', message: `${url.pathname} not found` } });
    if (url.pathname === '/tokeninfo') return send(200, { azp: '32555940559.apps.googleusercontent.com', email: 'host@example.com', expires_in: '3599' });
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Request had invalid authentication credentials.' } });
    if (url.pathname === `/serviceusage/v1/projects/${PROJECT}/services`) {
      // Two pages, as services.list pages.
      const names = s.enabled.map((n) => ({ name: `projects/123/services/${n}`, config: { name: n }, state: 'ENABLED' }));
      if (url.searchParams.get('pageToken') === 'p2') return send(200, { services: names.slice(1) });
      return send(200, { services: names.slice(0, 1), nextPageToken: 'p2' });
    }
    if (req.method === 'POST' && url.pathname === `/crm/v1/projects/${PROJECT}:testIamPermissions`) {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const asked = (JSON.parse(body) as { permissions: string[] }).permissions;
        posts.push(asked);
        send(200, s.granted(asked).length ? { permissions: s.granted(asked) } : {});
      });
      return;
    }
    if (url.pathname === `/compute/v1/projects/${PROJECT}/regions/us-central1`) {
      return send(200, {
        name: 'us-central1',
        quotas: [
          { metric: 'CPUS', ...s.cpus },
          { metric: 'IN_USE_ADDRESSES', limit: 8, usage: 1 },
        ],
      });
    }
    if (url.pathname === `/compute/v1/projects/${PROJECT}`) {
      return send(200, {
        name: PROJECT,
        quotas: [
          { metric: 'NETWORKS', limit: 15, usage: 1 },
          { metric: 'BACKEND_SERVICES', limit: 9, usage: 2 },
          { metric: 'FORWARDING_RULES', limit: 15, usage: 0 },
        ],
      });
    }
    if (url.pathname === `/container/v1/projects/${PROJECT}/locations/-/clusters`) return send(200, { clusters: s.clusters });
    const resource = url.pathname.split('/').pop() ?? '';
    if (url.pathname.startsWith(`/compute/v1/projects/${PROJECT}/global/networks/`) || url.pathname.startsWith(`/iam/v1/projects/${PROJECT}/serviceAccounts/`)) {
      return s.existing.includes(decodeURIComponent(resource)) ? send(200, { name: resource }) : notFound();
    }
    return notFound();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, posts, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const PERMISSIONS = Array.from({ length: 130 }, (_, i) => `compute.thing${i}.get`).concat(['iam.serviceAccounts.actAs', 'compute.firewalls.create']);
const APIS = ['compute.googleapis.com', 'container.googleapis.com', 'iam.googleapis.com', 'cloudresourcemanager.googleapis.com'];

function input(base: string, overrides: Partial<GcpPreflightInput> = {}): GcpPreflightInput {
  return {
    project: PROJECT,
    region: 'us-central1',
    accessToken: TOKEN,
    apis: {
      compute: `${base}/compute/v1`,
      container: `${base}/container/v1`,
      serviceUsage: `${base}/serviceusage/v1`,
      resourceManager: `${base}/crm/v1`,
      iam: `${base}/iam/v1`,
      tokenInfo: `${base}/tokeninfo`,
    },
    clusterStacks: [{ env: 'lab', stack: STACK }],
    permissions: PERMISSIONS,
    requiredApis: APIS,
    needs: { networks: 1, cpus: 6, regionalInUseAddresses: 2, backendServices: 4, forwardingRules: 3, notes: [] },
    // No fixture API here hangs: the timeout only has to be far above how late a loopback answer comes on a busy machine.
    timeoutMs: 30_000,
    ...overrides,
  };
}

describe('GCP preflight on loopback', () => {
  test('GIVEN a project with everything in place WHEN checked THEN every check passes, testIamPermissions asked in calls of at most 100', async () => {
    const api = await serve({ enabled: [...APIS, 'serviceusage.googleapis.com'], granted: (p) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 4 } });
    try {
      const findings = await gcpFindings(input(api.base));
      expect(findings.map((f) => [f.check, f.verdict, f.detail])).toEqual([
        ['gcp identity', 'pass', `host@example.com, project ${PROJECT}`],
        ['gcp apis', 'pass', `all 4 APIs enabled: ${APIS.join(', ')}`],
        ['gcp permissions', 'pass', `all 132 permissions the stacks need are held on ${PROJECT}`],
        ['gcp quota NETWORKS', 'pass', `NETWORKS in project ${PROJECT}: 1 in use + 1 for this lab = 2 of 15`],
        ['gcp quota CPUS', 'pass', 'CPUS in region us-central1: 4 in use + 6 for this lab = 10 of 24'],
        ['gcp quota IN_USE_ADDRESSES', 'pass', 'IN_USE_ADDRESSES in region us-central1: 1 in use + 2 for this lab = 3 of 8'],
        ['gcp quota BACKEND_SERVICES', 'pass', `BACKEND_SERVICES in project ${PROJECT}: 2 in use + 4 for this lab = 6 of 9`],
        ['gcp quota FORWARDING_RULES', 'pass', `FORWARDING_RULES in project ${PROJECT}: 0 in use + 3 for this lab = 3 of 15`],
        ['gcp names lab', 'pass', 'all 3 names free (cluster, network, service account)'],
      ]);
      expect(api.posts.map((p) => p.length)).toEqual([100, 32]);
    } finally {
      await api.close();
    }
  });

  test('GIVEN missing APIs, missing permissions, a full CPU quota and a name taken WHEN checked THEN each fails with its fix', async () => {
    const api = await serve({
      enabled: ['compute.googleapis.com', 'container.googleapis.com'],
      granted: (p) => p.filter((x) => x !== 'iam.serviceAccounts.actAs' && x !== 'compute.firewalls.create'),
      clusters: [{ name: 'lab-gke', location: 'us-central1-a', resourceLabels: { 'hoplab-env': 'lab', 'hoplab-workshop': 'another-workshop' } }],
      existing: ['lab-gke'],
      cpus: { limit: 8, usage: 4 },
    });
    try {
      const findings = await gcpFindings(input(api.base));
      const byCheck = Object.fromEntries(findings.map((f) => [f.check, f]));
      expect(byCheck['gcp apis']).toEqual({
        check: 'gcp apis',
        verdict: 'fail',
        detail: `not enabled in ${PROJECT}: iam.googleapis.com, cloudresourcemanager.googleapis.com`,
        fix: `gcloud services enable iam.googleapis.com cloudresourcemanager.googleapis.com --project ${PROJECT}`,
      });
      expect(byCheck['gcp permissions'].verdict).toBe('fail');
      expect(byCheck['gcp permissions'].detail).toBe(`the deployer lacks 2 of 132 permissions the stacks need on ${PROJECT}: iam.serviceAccounts.actAs, compute.firewalls.create`);
      expect(byCheck['gcp permissions'].fix).toContain('roles/iam.serviceAccountUser');
      expect(byCheck['gcp quota CPUS']).toMatchObject({ verdict: 'fail', detail: 'CPUS in region us-central1: 4 in use + 6 for this lab = 10 of 8' });
      expect(byCheck['gcp names lab']).toMatchObject({
        verdict: 'fail',
        detail: "already exist and are not this workshop's (labels hoplab-env=lab, hoplab-workshop=k8s-101): GKE cluster lab-gke (us-central1-a), network lab-gke",
      });
    } finally {
      await api.close();
    }
  });

  test("GIVEN the lab's own cluster, network and service account WHEN checked THEN the names pass as this workshop's", async () => {
    const api = await serve({
      enabled: APIS,
      granted: (p) => p,
      clusters: [{ name: 'lab-gke', location: 'us-central1-a', resourceLabels: { 'hoplab-env': 'lab', 'hoplab-workshop': 'k8s-101' } }],
      existing: ['lab-gke', `lab-gke-nodes@${PROJECT}.iam.gserviceaccount.com`],
      cpus: { limit: 24, usage: 4 },
    });
    try {
      const names = (await gcpFindings(input(api.base))).find((f) => f.check === 'gcp names lab');
      expect(names).toEqual({
        check: 'gcp names lab',
        verdict: 'pass',
        detail: `exist and are this workshop's own (a re-deploy updates them): GKE cluster lab-gke (us-central1-a), network lab-gke, service account lab-gke-nodes@${PROJECT}.iam.gserviceaccount.com`,
      });
    } finally {
      await api.close();
    }
  });

  test('GIVEN no credentials or a refused token WHEN checked THEN identity fails with the fix and nothing else is asked', async () => {
    expect(await gcpFindings(input('http://127.0.0.1:9', { accessToken: undefined }))).toEqual([
      {
        check: 'gcp identity',
        verdict: 'fail',
        detail: 'no Google credentials: Application Default Credentials are not set up',
        fix: 'run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN',
      },
    ]);
    const api = await serve({ enabled: APIS, granted: (p) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 0 } });
    try {
      const findings = await gcpFindings(input(api.base, { apis: { tokenInfo: `${api.base}/nowhere` } }));
      expect(findings).toHaveLength(1);
      expect(findings[0]).toMatchObject({ check: 'gcp identity', verdict: 'fail' });
      expect(findings[0].detail).toMatch(/^the Google token was refused: GET .*access_token=<token> answered 404/);
      expect(findings[0].detail).not.toContain(TOKEN);
    } finally {
      await api.close();
    }
  });
});
