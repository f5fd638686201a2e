/**
 * The GCP preflight against Google API responses served on loopback, in the
 * documented formats: OAuth2 tokeninfo, Service Usage services.list,
 * projects.testIamPermissions, Compute Engine regions.get and projects.get,
 * GKE clusters.list, networks.get and IAM serviceAccounts.get.
 */
import { SynthStack } from '../../../lib/kit/terraform/terraform-json';
import { gcpFindings, GcpPreflightInput } from '../../../lib/commands/preflight/gcp-checks';
import { GcpQuotaNeeds } from '../../../lib/lab/estimate/quotas';
import { GCP_QUOTAS } from '../../../lib/model/quotas';
import { PREFLIGHT_PROJECT as PROJECT, PREFLIGHT_TOKEN as TOKEN, preflightApiBases, servePreflightApi } from '../../support/google-api';

const serve = servePreflightApi;

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

/** A lab's needs: regional CPUS and IN_USE_ADDRESSES, the Gateway's project-wide managed forwarding rules and backend services, and one not needed. */
const NEEDS: GcpQuotaNeeds = {
  quotas: [
    { metric: 'CPUS', scope: 'region', need: 6, counted: '3 node VMs' },
    { metric: 'IN_USE_ADDRESSES', scope: 'region', need: 2, counted: '1 Cloud NAT, 1 passthrough NLB' },
    { metric: 'GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', scope: 'project', need: 1, counted: '1 Gateway' },
    { metric: 'GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', scope: 'project', need: 2, counted: '1 Gateway' },
    { metric: 'FORWARDING_RULES', scope: 'project', need: 0, counted: '0 GKE Ingress' },
    { metric: 'NETWORKS', scope: 'project', need: 1, counted: 'one VPC network per environment' },
    { metric: 'REGIONAL_EXTERNAL_MANAGED_BACKEND_SERVICES', scope: 'region', need: 0, counted: 'none' },
  ],
  notes: [],
};

const PERMISSIONS = Array.from({ length: 130 }, (_, i) => `compute.thing${i}.get`).concat(['iam.serviceAccounts.actAs', 'compute.firewalls.create']);
const APIS = ['compute.googleapis.com', 'container.googleapis.com', 'iam.googleapis.com', 'cloudresourcemanager.googleapis.com'];

function input(base: string, overrides: Partial<GcpPreflightInput> = {}): GcpPreflightInput {
  return {
    project: PROJECT,
    regions: [{ region: 'us-central1', zones: ['us-central1-a'] }],
    accessToken: TOKEN,
    apis: preflightApiBases(base),
    clusterStacks: [{ env: 'lab', stack: STACK }],
    permissions: PERMISSIONS,
    requiredApis: APIS,
    needs: NEEDS,
    // No fixture API here hangs: the timeout only has to be far above how late a loopback answer comes on a busy machine.
    timeoutMs: 30_000,
    ...overrides,
  };
}

describe('GCP preflight on loopback', () => {
  test('GIVEN a project with everything in place WHEN checked THEN every check passes, testIamPermissions asked in calls of at most 100', async () => {
    const api = await serve({ enabled: [...APIS, 'serviceusage.googleapis.com'], granted: (p) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 4 } });
    try {
      const findings = (await gcpFindings(input(api.base))).findings;
      expect(findings.map((f) => [f.check, f.verdict, f.detail])).toEqual([
        ['gcp identity', 'pass', `host@example.com, project ${PROJECT}`],
        ['gcp apis', 'pass', `all 4 APIs enabled: ${APIS.join(', ')}`],
        ['gcp permissions', 'pass', `all 132 permissions the stacks need are held on ${PROJECT}`],
        ['gcp zones', 'pass', 'us-central1-a is a zone of us-central1 (regions.get)'],
        ['gcp quota CPUS', 'pass', `CPUS in us-central1 of project ${PROJECT}: 4 in use + 6 for this lab (3 node VMs) = 10 of 24`],
        ['gcp quota IN_USE_ADDRESSES', 'pass', `IN_USE_ADDRESSES in us-central1 of project ${PROJECT}: 1 in use + 2 for this lab (1 Cloud NAT, 1 passthrough NLB) = 3 of 8`],
        ['gcp quota GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES', 'pass', `GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES in project ${PROJECT}: 0 in use + 1 for this lab (1 Gateway) = 1 of 15`],
        ['gcp quota GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES', 'pass', `GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES in project ${PROJECT}: 2 in use + 2 for this lab (1 Gateway) = 4 of 50`],
        ['gcp quota NETWORKS', 'pass', `NETWORKS in project ${PROJECT}: 1 in use + 1 for this lab (one VPC network per environment) = 2 of 5`],
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
      const findings = (await gcpFindings(input(api.base))).findings;
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
      expect(byCheck['gcp quota CPUS']).toMatchObject({ verdict: 'fail', detail: `CPUS in us-central1 of project ${PROJECT}: 4 in use + 6 for this lab (3 node VMs) = 10 of 8` });
      expect(byCheck['gcp names lab']).toMatchObject({
        verdict: 'fail',
        detail: "already exist and are not this workshop's (labels hoplab-env=lab, hoplab-workshop=k8s-101): GKE cluster lab-gke (us-central1-a), network lab-gke",
      });
    } finally {
      await api.close();
    }
  });

  test('GIVEN the one environment deployed already (its state) WHEN deploy runs again THEN its CPUs, among those in use, are not counted again', async () => {
    const api = await serve({ enabled: APIS, granted: (p) => p, clusters: [], existing: [], cpus: { limit: 8, usage: 6 } });
    try {
      const deployed = [{ metric: 'CPUS', scope: 'region' as const, need: 6, counted: '3 node VMs', environments: 1 }];
      const { findings, shortfalls } = await gcpFindings(input(api.base, { deployed }));
      expect(findings.find((f) => f.check === 'gcp quota CPUS')).toEqual({
        check: 'gcp quota CPUS',
        verdict: 'pass',
        detail: `CPUS in us-central1 of project ${PROJECT}: 6 in use (the environment deployed here among them, their state says) + 0 for the rest of this lab = 6 of 8`,
      });
      expect(shortfalls).toEqual([]);
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
      const names = (await gcpFindings(input(api.base))).findings.find((f) => f.check === 'gcp names lab');
      expect(names).toEqual({
        check: 'gcp names lab',
        verdict: 'pass',
        detail: `exist and are this workshop's own (a re-deploy updates them): GKE cluster lab-gke (us-central1-a), network lab-gke, service account lab-gke-nodes@${PROJECT}.iam.gserviceaccount.com`,
      });
    } finally {
      await api.close();
    }
  });

  test('GIVEN no credentials or a refused token WHEN checked THEN identity fails with the fix, nothing else is asked, and what was not checked is listed', async () => {
    const notChecked = (why: string) =>
      ['gcp apis', 'gcp permissions', 'gcp zones', 'gcp quotas', 'gcp names'].map((check) => ({ check, verdict: 'skip', detail: expect.stringMatching(`^not checked \\(${why}\\): `) }));
    const none = (await gcpFindings(input('http://127.0.0.1:9', { accessToken: undefined }))).findings;
    expect(none).toEqual([
      {
        check: 'gcp identity',
        verdict: 'fail',
        detail: 'no Google credentials: Application Default Credentials are not set up',
        fix: 'run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN',
      },
      ...notChecked('no Google credentials'),
    ]);
    expect(none.find((f) => f.check === 'gcp zones')?.detail).toBe("not checked (no Google credentials): whether the zones of us-central1 are the project's own (regions.get)");
    expect(none.find((f) => f.check === 'gcp quotas')?.detail).toBe(
      "not checked (no Google credentials): the project's own quotas and what is in use " +
        '(CPUS 6, IN_USE_ADDRESSES 2, GLOBAL_EXTERNAL_MANAGED_FORWARDING_RULES 1, GLOBAL_EXTERNAL_MANAGED_BACKEND_SERVICES 2, NETWORKS 1); ' +
        "only Google Cloud's documented defaults were compared",
    );
    const api = await serve({ enabled: APIS, granted: (p) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 0 } });
    try {
      const findings = (await gcpFindings(input(api.base, { apis: { tokenInfo: `${api.base}/nowhere` } }))).findings;
      expect(findings.slice(1)).toEqual(notChecked('the Google token was refused'));
      expect(findings[0]).toMatchObject({ check: 'gcp identity', verdict: 'fail' });
      expect(findings[0].detail).toMatch(/^the Google token was refused: GET .*access_token=<token> answered 404/);
      expect(findings[0].detail).not.toContain(TOKEN);
      expect(api.requests.map((r) => r.path)).toEqual(['/nowhere']);
    } finally {
      await api.close();
    }
  });

  test('GIVEN a needed metric the project does not report WHEN checked THEN it is a warning that says it was not checked', async () => {
    const api = await serve({ enabled: APIS, granted: (p) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 0 } });
    try {
      const needs: GcpQuotaNeeds = { quotas: [{ metric: 'GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES', scope: 'project', need: 3, counted: '2 GKE Ingress, 1 Ingress default backend' }], notes: [] };
      const findings = (await gcpFindings(input(api.base, { needs }))).findings;
      expect(findings.filter((f) => f.check.startsWith('gcp quota'))).toEqual([
        {
          check: 'gcp quota GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES',
          verdict: 'warn',
          detail: `GLOBAL_EXTERNAL_PROXY_LB_BACKEND_SERVICES is not among the quotas of project ${PROJECT}; 3 needed (2 GKE Ingress, 1 Ingress default backend), not checked`,
        },
      ]);
    } finally {
      await api.close();
    }
  });
});

describe('the ADC quota project (x-goog-user-project) on preflight calls', () => {
  const scenario = { enabled: [...APIS, 'serviceusage.googleapis.com'], granted: (p: string[]) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 4 } };

  test('GIVEN a quota project WHEN checked THEN every Google API call but tokeninfo sends it, and the identity line names it and where it came from', async () => {
    const api = await serve(scenario);
    try {
      const findings = (await gcpFindings(input(api.base, { quotaProject: 'billing-proj', quotaProjectFrom: 'GOOGLE_CLOUD_QUOTA_PROJECT' }))).findings;
      expect(findings[0]).toEqual({ check: 'gcp identity', verdict: 'pass', detail: `host@example.com, project ${PROJECT}, quota project billing-proj (GOOGLE_CLOUD_QUOTA_PROJECT)` });
      const toGoogle = api.requests.filter((r) => r.path !== '/tokeninfo');
      expect(toGoogle.length).toBeGreaterThan(5);
      expect(toGoogle.filter((r) => r.userProject !== 'billing-proj').map((r) => r.path)).toEqual([]);
      expect(api.requests.filter((r) => r.path === '/tokeninfo').map((r) => r.userProject)).toEqual([undefined]);
    } finally {
      await api.close();
    }
  });

  test('GIVEN no quota project WHEN checked THEN no call sends the header', async () => {
    const api = await serve(scenario);
    try {
      await gcpFindings(input(api.base));
      expect(api.requests.length).toBeGreaterThan(5);
      expect(api.requests.filter((r) => r.userProject !== undefined)).toEqual([]);
    } finally {
      await api.close();
    }
  });

  test('GIVEN no quota project and Service Usage refusing local ADC for want of one WHEN checked THEN the fix is to set the quota project', async () => {
    const refusal =
      'Your application is authenticating by using local Application Default Credentials. The serviceusage.googleapis.com API requires a quota project, which is not set by default. To learn how to set your quota project, see https://cloud.google.com/docs/authentication/adc-troubleshooting/user-creds .';
    const api = await serve({ ...scenario, servicesError: { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED', message: refusal } } } });
    try {
      const apis = (await gcpFindings(input(api.base))).findings.find((f) => f.check === 'gcp apis');
      expect(apis).toEqual({
        check: 'gcp apis',
        verdict: 'fail',
        detail: `could not list the enabled APIs: GET ${api.base}/serviceusage/v1/projects/${PROJECT}/services?filter=state%3AENABLED&pageSize=200 answered 403 (PERMISSION_DENIED): ${refusal}`,
        fix: `gcloud auth application-default set-quota-project ${PROJECT} (or set GOOGLE_CLOUD_QUOTA_PROJECT=${PROJECT}), then run preflight again`,
      });
    } finally {
      await api.close();
    }
  });
});

describe('GCP preflight: what attendees hold on the project', () => {
  const ANN = 'user:ann@example.com';
  const BOB = 'user:bob@acme.example';
  const SA = `serviceAccount:cy@${PROJECT}.iam.gserviceaccount.com`;
  const BOTH = [
    { env: 'ann', member: ANN },
    { env: 'bob', member: BOB },
  ];
  const base = { enabled: [...APIS, 'serviceusage.googleapis.com'], granted: (p: string[]) => p, clusters: [], cpus: { limit: 24, usage: 4 } };
  /** The project's ancestry: a folder under an organization. */
  const FOLDER_AND_ORGANIZATION = [
    { type: 'folder', id: '1234567' },
    { type: 'organization', id: '998877' },
  ] as const;
  const attendeeFindings = async (scenario: Partial<Parameters<typeof serve>[0]>, attendees: GcpPreflightInput['attendees']) => {
    const api = await serve({ ...base, existing: [], ...scenario });
    try {
      const findings = (await gcpFindings(input(api.base, { attendees }))).findings;
      return { findings: findings.filter((f) => f.check.startsWith('gcp attendee')), requests: api.requests };
    } finally {
      await api.close();
    }
  };

  test('GIVEN attendees who hold clusterViewer only WHEN checked THEN each passes, saying what was read; whether their Google accounts exist is said not to be checked, and why', async () => {
    const { findings, requests } = await attendeeFindings(
      {
        bindings: [
          { role: 'roles/container.clusterViewer', members: [ANN, BOB] },
          { role: 'roles/compute.viewer', members: [ANN] },
        ],
      },
      BOTH,
    );
    expect(findings).toEqual([
      {
        check: 'gcp attendee ann',
        verdict: 'pass',
        detail: `${ANN} holds nothing on ${PROJECT} that reaches inside clusters beyond roles/container.clusterViewer (the IAM policy of ${PROJECT}, which has no folder or organization above it)`,
      },
      {
        check: 'gcp attendee bob',
        verdict: 'pass',
        detail: `${BOB} holds nothing on ${PROJECT} that reaches inside clusters beyond roles/container.clusterViewer (the IAM policy of ${PROJECT}, which has no folder or organization above it)`,
      },
      {
        check: 'gcp attendee accounts',
        verdict: 'skip',
        detail:
          "whether 2 attendee accounts exist is not checked: no Google API says whether an arbitrary Google account (or another project's service account) exists. " +
          "The apply that grants the role fails for one that does not, and so does one outside the customer IDs of a domain-restricted-sharing organization policy (constraints/iam.allowedPolicyMemberDomains), if the project's organization has one",
      },
    ]);
    expect(requests.filter((r) => r.path.endsWith(':getIamPolicy')).map((r) => r.method)).toEqual(['POST']);
  });

  // IAM refuses a condition on a basic role (roles/owner, editor, viewer), so the conditional binding holds a predefined role.
  const HOURS = { title: 'workshop hours', expression: 'request.time < timestamp("2026-12-01T18:00:00Z")' };

  test('GIVEN roles that reach inside clusters, directly, through the domain, and through everyone under a condition WHEN checked THEN each attendee’s warning names each with the command that removes it: --all for the conditional binding, --condition=None beside it', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [
          { role: 'roles/container.clusterViewer', members: [ANN, BOB] },
          { role: 'roles/editor', members: [ANN] },
          { role: 'roles/container.viewer', members: ['domain:acme.example'] },
          { role: 'roles/container.developer', members: ['allAuthenticatedUsers'], condition: HOURS },
        ],
      },
      BOTH,
    );
    expect(findings.slice(0, 2)).toEqual([
      {
        check: 'gcp attendee ann',
        verdict: 'warn',
        detail:
          `${ANN} holds roles/editor, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions; ` +
          'roles/container.developer, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions through allAuthenticatedUsers (when workshop hours) ' +
          `on ${PROJECT}: beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project ` +
          "(GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
        fix:
          `gcloud projects remove-iam-policy-binding ${PROJECT} --member=${ANN} --role=roles/editor --condition=None && ` +
          `gcloud projects remove-iam-policy-binding ${PROJECT} --member=allAuthenticatedUsers --role=roles/container.developer --all (or give each attendee a project of their own)`,
      },
      {
        check: 'gcp attendee bob',
        verdict: 'warn',
        detail:
          `${BOB} holds roles/container.viewer, with container.deployments.get, container.pods.get, container.pods.list through domain:acme.example; ` +
          'roles/container.developer, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions through allAuthenticatedUsers (when workshop hours) ' +
          `on ${PROJECT}: beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project ` +
          "(GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
        fix:
          `gcloud projects remove-iam-policy-binding ${PROJECT} --member=domain:acme.example --role=roles/container.viewer --condition=None && ` +
          `gcloud projects remove-iam-policy-binding ${PROJECT} --member=allAuthenticatedUsers --role=roles/container.developer --all (or give each attendee a project of their own)`,
      },
    ]);
  });

  test('GIVEN an attendee holding a role both without a condition and under one, and another role without WHEN checked THEN one --all removes both bindings of that role, and the other needs --condition=None (the policy holds a condition)', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [
          { role: 'roles/container.clusterViewer', members: [ANN] },
          { role: 'roles/container.developer', members: [ANN] },
          { role: 'roles/container.developer', members: [ANN], condition: HOURS },
          { role: 'roles/composer.worker', members: [ANN] },
        ],
      },
      [{ env: 'ann', member: ANN }],
    );
    expect(findings[0].fix).toBe(
      `gcloud projects remove-iam-policy-binding ${PROJECT} --member=${ANN} --role=roles/container.developer --all && ` +
        `gcloud projects remove-iam-policy-binding ${PROJECT} --member=${ANN} --role=roles/composer.worker --condition=None (or give each attendee a project of their own)`,
    );
  });

  test('GIVEN a conditional binding on the project’s folder and an unconditional one on its organization, whose policy holds a condition too WHEN checked THEN each is read with its condition (policy version 3) and removed where it is granted: --all on the folder, --condition=None on the organization', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [{ role: 'roles/container.clusterViewer', members: [ANN] }],
        ancestors: FOLDER_AND_ORGANIZATION,
        ancestorBindings: {
          'folders/1234567': [{ role: 'roles/container.developer', members: [ANN], condition: HOURS }],
          'organizations/998877': [
            { role: 'roles/container.viewer', members: [ANN] },
            { role: 'roles/compute.viewer', members: ['domain:example.com'], condition: HOURS },
          ],
        },
      },
      [{ env: 'ann', member: ANN }],
    );
    expect(findings[0]).toEqual({
      check: 'gcp attendee ann',
      verdict: 'warn',
      detail:
        `${ANN} holds roles/container.developer, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions (when workshop hours) (inherited from folder 1234567); ` +
        `roles/container.viewer, with container.deployments.get, container.pods.get, container.pods.list (inherited from organization 998877) on ${PROJECT}: ` +
        "beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project (GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
      fix:
        `gcloud resource-manager folders remove-iam-policy-binding 1234567 --member=${ANN} --role=roles/container.developer --all && ` +
        `gcloud organizations remove-iam-policy-binding 998877 --member=${ANN} --role=roles/container.viewer --condition=None (or give each attendee a project of their own)`,
    });
  });

  test('GIVEN a role granted to a group WHEN checked THEN it warns that the attendee may be in it, that membership cannot be checked, and what follows if they are', async () => {
    const { findings } = await attendeeFindings({ bindings: [{ role: 'roles/container.developer', members: ['group:students@example.com'] }] }, [{ env: 'ann', member: ANN }]);
    expect(findings[0]).toEqual({
      check: 'gcp attendee ann',
      verdict: 'warn',
      detail:
        `roles/container.developer, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions through group:students@example.com: ${ANN} may be a member, which cannot be checked here (group membership needs the Cloud Identity Groups API and the group's members); ` +
        "if so, they reach inside every GKE cluster of the project, other attendees' included",
      fix: 'make sure no attendee is in these groups, or remove those bindings from the project',
    });
  });

  test('GIVEN custom roles WHEN checked THEN one with Kubernetes API permissions is named with them, one with only cluster-level ones passes, and one that cannot be read is said so', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [
          { role: `projects/${PROJECT}/roles/podReader`, members: [ANN] },
          { role: `projects/${PROJECT}/roles/clusterLister`, members: [ANN, BOB] },
          { role: 'organizations/123456789/roles/orgWide', members: [BOB] },
        ],
        customRoles: { podReader: ['container.pods.get', 'container.pods.list', 'container.clusters.get'], clusterLister: ['container.clusters.list', 'container.operations.get'] },
      },
      BOTH,
    );
    expect(findings.slice(0, 2).map((f) => [f.check, f.verdict, f.detail])).toEqual([
      [
        'gcp attendee ann',
        'warn',
        `${ANN} holds projects/${PROJECT}/roles/podReader, with container.pods.get, container.pods.list on ${PROJECT}: beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project (GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included`,
      ],
      ['gcp attendee bob', 'warn', `could not read the role organizations/123456789/roles/orgWide (granted to ${BOB}), which ${BOB} may hold: whether it reaches inside clusters is not known`],
    ]);
  });

  test('GIVEN a service-account attendee of this project WHEN it does not exist THEN it fails before spending; when it does, only the others are said not to be checked', async () => {
    const missing = await attendeeFindings({}, [{ env: 'cy', member: SA }]);
    expect(missing.findings.find((f) => f.check === 'gcp attendee accounts')).toEqual({
      check: 'gcp attendee accounts',
      verdict: 'fail',
      detail: `no such service account in ${PROJECT}: cy: ${SA}; granting it a role fails the cluster stack's apply`,
      fix: 'create the service account first, or correct the attendee\'s "gcp" member',
    });
    const present = await attendeeFindings({ existing: [SA.slice('serviceAccount:'.length)] }, [{ env: 'cy', member: SA }]);
    expect(present.findings.filter((f) => f.check === 'gcp attendee accounts')).toEqual([]);
  });

  test('GIVEN roles/editor granted to an attendee on the project’s folder and a group’s role on its organization WHEN checked THEN each is flagged with where it is inherited from, and the other attendee passes naming every policy read', async () => {
    const { findings, requests } = await attendeeFindings(
      {
        bindings: [{ role: 'roles/container.clusterViewer', members: [ANN, BOB] }],
        ancestors: FOLDER_AND_ORGANIZATION,
        ancestorBindings: {
          'folders/1234567': [{ role: 'roles/editor', members: [ANN] }],
          'organizations/998877': [
            { role: 'roles/compute.viewer', members: ['domain:acme.example'] },
            { role: 'roles/container.developer', members: ['group:platform@example.com'] },
          ],
        },
      },
      BOTH,
    );
    expect(findings.slice(0, 3)).toEqual([
      {
        check: 'gcp attendee ann',
        verdict: 'warn',
        detail:
          `${ANN} holds roles/editor, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions (inherited from folder 1234567) on ${PROJECT}: ` +
          "beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project (GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
        fix: `gcloud resource-manager folders remove-iam-policy-binding 1234567 --member=${ANN} --role=roles/editor (or give each attendee a project of their own)`,
      },
      {
        check: 'gcp attendee ann',
        verdict: 'warn',
        detail:
          'roles/container.developer, with container.pods.exec, container.secrets.get, container.pods.create and 2 more Kubernetes API permissions through group:platform@example.com (inherited from organization 998877): ' +
          `${ANN} may be a member, which cannot be checked here (group membership needs the Cloud Identity Groups API and the group's members); if so, they reach inside every GKE cluster of the project, other attendees' included`,
        fix: 'make sure no attendee is in these groups, or remove those bindings from where they are granted',
      },
      expect.objectContaining({ check: 'gcp attendee bob', verdict: 'warn' }),
    ]);
    // bob is not in the folder's binding; the organization's group binding reaches him as it may reach anyone.
    expect(findings[2].detail).toMatch(/^roles\/container\.developer, .* through group:platform@example.com \(inherited from organization 998877\): user:bob@acme\.example may be a member/);
    // The ancestry first, then each ancestor's policy from Resource Manager v3, asking for conditions (version 3).
    expect(requests.filter((r) => r.method === 'POST' && /:(getAncestry|getIamPolicy)$/.test(r.path)).map((r) => r.path)).toEqual([
      `/crm/v1/projects/${PROJECT}:getIamPolicy`,
      `/crm/v1/projects/${PROJECT}:getAncestry`,
      '/crm/v3/folders/1234567:getIamPolicy',
      '/crm/v3/organizations/998877:getIamPolicy',
    ]);
  });

  test('GIVEN an attendee under a folder and an organization that grant them nothing WHEN checked THEN the pass names every policy it read', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [{ role: 'roles/container.clusterViewer', members: [ANN] }],
        ancestors: FOLDER_AND_ORGANIZATION,
        ancestorBindings: { 'folders/1234567': [], 'organizations/998877': [{ role: 'roles/compute.viewer', members: ['domain:example.com'] }] },
      },
      [{ env: 'ann', member: ANN }],
    );
    expect(findings[0]).toEqual({
      check: 'gcp attendee ann',
      verdict: 'pass',
      detail: `${ANN} holds nothing on ${PROJECT} that reaches inside clusters beyond roles/container.clusterViewer (the IAM policies of ${PROJECT}, folder 1234567, organization 998877)`,
    });
  });

  test('GIVEN a folder whose IAM policy the deployer cannot read WHEN checked THEN one warning names the folder, the permission and that inherited roles were not checked; the organization is still read', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [{ role: 'roles/container.clusterViewer', members: [ANN] }],
        ancestors: FOLDER_AND_ORGANIZATION,
        // No entry for the folder: it answers 403 PERMISSION_DENIED.
        ancestorBindings: { 'organizations/998877': [] },
      },
      [{ env: 'ann', member: ANN }],
    );
    expect(findings.slice(0, 2)).toEqual([
      {
        check: 'gcp attendees',
        verdict: 'warn',
        detail: expect.stringMatching(
          /^could not read the IAM policy of folder 1234567 \(needs resourcemanager\.folders\.getIamPolicy\), so roles attendees inherit from there were not checked: POST \S+\/crm\/v3\/folders\/1234567:getIamPolicy answered 403 \(PERMISSION_DENIED\): The caller does not have permission$/,
        ),
        fix: 'grant the deployer resourcemanager.folders.getIamPolicy there (roles/iam.securityReviewer granted on the organization holds both getIamPolicy permissions), or look yourself: gcloud resource-manager folders get-iam-policy 1234567',
      },
      {
        check: 'gcp attendee ann',
        verdict: 'pass',
        detail: `${ANN} holds nothing on ${PROJECT} that reaches inside clusters beyond roles/container.clusterViewer (the IAM policies of ${PROJECT}, organization 998877; not folder 1234567, which could not be read)`,
      },
    ]);
  });

  test('GIVEN the project’s ancestry cannot be read WHEN checked THEN it warns that inherited roles were not checked, and the project’s own policy is still judged', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [{ role: 'roles/container.clusterViewer', members: [ANN] }],
        ancestryError: { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'The caller does not have permission' } } },
      },
      [{ env: 'ann', member: ANN }],
    );
    expect(findings.slice(0, 2).map((f) => [f.check, f.verdict, f.detail])).toEqual([
      [
        'gcp attendees',
        'warn',
        expect.stringMatching(new RegExp(`^could not read where ${PROJECT} sits \\(projects\\.getAncestry\\), so roles attendees inherit from its folders and organization were not checked: `)),
      ],
      [
        'gcp attendee ann',
        'pass',
        `${ANN} holds nothing on ${PROJECT} that reaches inside clusters beyond roles/container.clusterViewer (the IAM policy of ${PROJECT}; its folders' and organization's could not be read)`,
      ],
    ]);
  });

  test('GIVEN predefined roles outside roles/container.* WHEN checked THEN each is judged by its permissions (roles.get): Composer Worker, with container.pods.exec, reaches inside; Compute Viewer does not; one that cannot be read is said so', async () => {
    const { findings, requests } = await attendeeFindings(
      {
        bindings: [
          { role: 'roles/container.clusterViewer', members: [ANN, SA] },
          { role: 'roles/compute.viewer', members: [ANN, SA] },
          { role: 'roles/composer.worker', members: [SA] },
          { role: 'roles/brandnew.role', members: [ANN] },
        ],
        existing: [SA.slice('serviceAccount:'.length)],
      },
      [
        { env: 'ann', member: ANN },
        { env: 'cy', member: SA },
      ],
    );
    expect(findings.slice(0, 2).map((f) => [f.check, f.verdict, f.detail])).toEqual([
      ['gcp attendee ann', 'warn', `could not read the role roles/brandnew.role (granted to ${ANN}), which ${ANN} may hold: whether it reaches inside clusters is not known`],
      [
        'gcp attendee cy',
        'warn',
        `${SA} holds roles/composer.worker, with container.pods.exec, container.secrets.get, container.pods.get and 1 more Kubernetes API permissions on ${PROJECT}: ` +
          "beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project (GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
      ],
    ]);
    // Each role is read once, however many attendees hold it; clusterViewer, the attendee role, not at all.
    expect(requests.filter((r) => r.path.startsWith('/iam/v1/roles/')).map((r) => r.path)).toEqual(['/iam/v1/roles/compute.viewer', '/iam/v1/roles/brandnew.role', '/iam/v1/roles/composer.worker']);
  });

  test('GIVEN a basic role whose definition cannot be read WHEN checked THEN it is judged by its name; an organization’s custom role granted on the organization is read there', async () => {
    const { findings } = await attendeeFindings(
      {
        bindings: [{ role: 'roles/viewer', members: [ANN] }],
        predefinedRoles: {},
        ancestors: [{ type: 'organization', id: '998877' }],
        ancestorBindings: { 'organizations/998877': [{ role: 'organizations/998877/roles/podShell', members: [ANN] }] },
        organizationRoles: { 'organizations/998877/roles/podShell': ['container.pods.exec', 'container.pods.get'] },
      },
      [{ env: 'ann', member: ANN }],
    );
    expect(findings[0]).toEqual({
      check: 'gcp attendee ann',
      verdict: 'warn',
      detail:
        `${ANN} holds roles/viewer; organizations/998877/roles/podShell, with container.pods.exec, container.pods.get (inherited from organization 998877) on ${PROJECT}: ` +
        "beyond roles/container.clusterViewer, that reaches inside every GKE cluster of the project (GKE authorizes Kubernetes API requests with IAM before RBAC), other attendees' included",
      fix:
        `gcloud projects remove-iam-policy-binding ${PROJECT} --member=${ANN} --role=roles/viewer && ` +
        `gcloud organizations remove-iam-policy-binding 998877 --member=${ANN} --role=organizations/998877/roles/podShell (or give each attendee a project of their own)`,
    });
  });

  test('GIVEN the IAM policy cannot be read WHEN checked THEN it warns once that no attendee was checked, with the permission to grant', async () => {
    const { findings } = await attendeeFindings({ iamPolicyError: { status: 403, body: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'The caller does not have permission' } } } }, [
      { env: 'ann', member: ANN },
    ]);
    expect(findings.map((f) => [f.check, f.verdict])).toEqual([['gcp attendees', 'warn']]);
    expect(findings[0].detail).toMatch(new RegExp(`^could not read the IAM policy of ${PROJECT}, so no attendee's roles were checked: `));
  });
});

describe('GCP preflight: every quota of the table at, under and over the project’s limit', () => {
  const base = { enabled: APIS, granted: (p: string[]) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 0 } };

  test.each(GCP_QUOTAS.map((q) => [q.id, q.scope] as const))(
    'GIVEN %s (%s): 3 in use and 2 needed WHEN the limit is 5, 6 and 4 THEN exactly at the limit and under it pass, over it fails with the request for 5',
    async (metric, scope) => {
      const verdicts: string[] = [];
      for (const limit of [5, 6, 4]) {
        const quota = [{ metric, limit, usage: 3 }];
        const api = await serve({ ...base, quotas: { regions: { 'us-central1': scope === 'project' ? [] : quota }, project: scope === 'project' ? quota : [] } });
        try {
          const needs: GcpQuotaNeeds = { quotas: [{ metric, scope: scope === 'project' ? 'project' : 'region', need: 2, counted: 'counted', region: 'us-central1' }], notes: [] };
          const result = await gcpFindings(input(api.base, { needs }));
          const finding = result.findings.find((f) => f.check === `gcp quota ${metric}`);
          verdicts.push(finding?.verdict ?? 'missing');
          const where = scope === 'project' ? `project ${PROJECT}` : `us-central1 of project ${PROJECT}`;
          expect(finding?.detail).toBe(`${metric} in ${where}: 3 in use + 2 for this lab (counted) = 5 of ${limit}`);
          expect(result.shortfalls).toEqual(limit === 4 ? [{ project: PROJECT, ...(scope === 'project' ? {} : { region: 'us-central1' }), metric, used: 3, need: 2, limit: 4 }] : []);
        } finally {
          await api.close();
        }
      }
      expect(verdicts).toEqual(['pass', 'pass', 'fail']);
    },
  );

  test('GIVEN a quota short WHEN checked THEN the fix is the Cloud Quotas request, and preflight says filing needs the API, which the project has not enabled', async () => {
    const api = await serve({ ...base, cpus: { limit: 8, usage: 4 } });
    try {
      const { findings } = await gcpFindings(input(api.base));
      expect(findings.find((f) => f.check === 'gcp quota CPUS')?.fix).toBe(
        `request 10 (npx hoplab preflight --request-quotas files it): gcloud beta quotas preferences create --service=compute.googleapis.com --project=${PROJECT} --quota-id=CPUS-per-project-region --preferred-value=10 --dimensions=region=us-central1 --preference-id=hoplab-cpus-per-project-region-us-central1 --email=YOUR_EMAIL; or free some, or deploy fewer environments (--env)`,
      );
      expect(findings.find((f) => f.check === 'gcp quota requests')).toEqual({
        check: 'gcp quota requests',
        verdict: 'warn',
        detail: `1 quota request to file, and preflight --request-quotas files them through the Cloud Quotas API, which needs cloudquotas.googleapis.com enabled in ${PROJECT} and cloudquotas.quotas.get and cloudquotas.quotas.update (roles/cloudquotas.admin): the API is not enabled`,
        fix: `gcloud services enable cloudquotas.googleapis.com --project ${PROJECT}, or file the requests printed below by hand`,
      });
    } finally {
      await api.close();
    }
  });
});

describe('GCP preflight: a project over several regions, and their zones', () => {
  const base = { enabled: APIS, granted: (p: string[]) => p, clusters: [], existing: [], cpus: { limit: 24, usage: 0 } };
  const cpus = (limit: number, usage: number) => [{ metric: 'CPUS', limit, usage }];

  test('GIVEN two regions of one project WHEN checked THEN each region’s quotas are read with regions.get and checked against its own environments, and each check names its place', async () => {
    const api = await serve({ ...base, quotas: { regions: { 'us-central1': cpus(8, 2), 'us-east1': cpus(8, 4) }, project: [{ metric: 'ROUTERS', limit: 10, usage: 1 }] } });
    try {
      const needs: GcpQuotaNeeds = {
        quotas: [
          { metric: 'CPUS', scope: 'region', need: 6, counted: '3 node VMs', region: 'us-central1' },
          { metric: 'CPUS', scope: 'region', need: 6, counted: '3 node VMs', region: 'us-east1' },
          { metric: 'ROUTERS', scope: 'project', need: 2, counted: 'one per environment' },
        ],
        notes: [],
      };
      const regions = [
        { region: 'us-central1', zones: ['us-central1-a'] },
        { region: 'us-east1', zones: ['us-east1-b'] },
      ];
      const result = await gcpFindings(input(api.base, { needs, regions, named: true }));
      expect(result.findings.filter((f) => /^gcp (quota|zones)/.test(f.check)).map((f) => [f.check, f.verdict, f.detail])).toEqual([
        [`gcp zones (us-central1 of project ${PROJECT})`, 'pass', 'us-central1-a is a zone of us-central1 (regions.get)'],
        [`gcp zones (us-east1 of project ${PROJECT})`, 'pass', 'us-east1-b is a zone of us-east1 (regions.get)'],
        [`gcp quota CPUS (us-central1 of project ${PROJECT})`, 'pass', `CPUS in us-central1 of project ${PROJECT}: 2 in use + 6 for this lab (3 node VMs) = 8 of 8`],
        [`gcp quota CPUS (us-east1 of project ${PROJECT})`, 'fail', `CPUS in us-east1 of project ${PROJECT}: 4 in use + 6 for this lab (3 node VMs) = 10 of 8`],
        [`gcp quota ROUTERS (project ${PROJECT})`, 'pass', `ROUTERS in project ${PROJECT}: 1 in use + 2 for this lab (one per environment) = 3 of 10`],
        [`gcp quota requests (project ${PROJECT})`, 'warn', expect.stringContaining('1 quota request to file')],
      ]);
      expect(result.findings[0].check).toBe(`gcp identity (project ${PROJECT})`);
      expect(api.requests.filter((r) => r.path.includes('/regions/')).map((r) => r.path.split('/').pop())).toEqual(['us-central1', 'us-east1']);
    } finally {
      await api.close();
    }
  });

  test('GIVEN a zone the region does not have WHEN checked THEN it fails naming the zones regions.get lists', async () => {
    const api = await serve(base);
    try {
      const { findings } = await gcpFindings(input(api.base, { regions: [{ region: 'us-central1', zones: ['us-central1-d'] }] }));
      expect(findings.find((f) => f.check === 'gcp zones')).toEqual({
        check: 'gcp zones',
        verdict: 'fail',
        detail: 'us-central1-d is not a zone of us-central1; it has us-central1-a, us-central1-b, us-central1-c, us-central1-f',
        fix: 'use zones of that list: gcp.zones for gcp.region; in the other regions of gcp.regions hoplab derives them from its zone table (lib/model/zones.ts)',
      });
    } finally {
      await api.close();
    }
  });
});
