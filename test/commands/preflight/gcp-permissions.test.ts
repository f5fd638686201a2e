/**
 * The GCP permissions preflight tests with `projects.testIamPermissions` are
 * derived, not kept by hand, and these tests derive them again independently:
 * - from the calls hoplab's own commands make: the leftover check, teardown's
 *   firewall cleanup, deploy's Gateway API wait and preflight itself run
 *   against loopback APIs, every request they send is recorded, mapped to the
 *   permission Google's REST reference names for that method (the table
 *   below, research notes gcp.md section 5), and the list preflight tests must
 *   hold each one;
 * - from the synthesized resource types: each GCP type's entry must hold what
 *   Terraform needs to create, read and delete it, derived from the type's name.
 * Removing a needed permission from either list fails a test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'cdktf';
import { labConfig } from '../../../lib/config/schema';
import { readSynthDir } from '../../../lib/lab/files/synth-dir';
import { SynthStack } from '../../../lib/kit/terraform/terraform-json';
import { addLab } from '../../../lib/stacks/hoplab-app';
import { COMMAND_NEEDS, RESOURCE_NEEDS, requiredPermissions, terraformTypes } from '../../../lib/commands/preflight/required-permissions';
import { gcpFindings } from '../../../lib/commands/preflight/gcp-checks';
import { findGcpLeftovers } from '../../../lib/lab/leftovers/gcp-leftovers';
import { findGcpTagged } from '../../../lib/lab/leftovers/gcp-tagged';
import { removeGkeControllerFirewalls } from '../../../lib/commands/lifecycle/gke-firewall-cleanup';
import { waitForGatewayCrds } from '../../../lib/commands/lifecycle/gke-gateway-crds';
import { detachPolicy, policyUsers, removeOrphanedBackendServices } from '../../../lib/commands/lifecycle/gke-backend-services';
import { GOOGLE_CALLS, optionalPermissions } from '../../../lib/lab/checks/google-calls';
import { FIXTURE_PROJECT, FIXTURE_TOKEN, PREFLIGHT_PROJECT, PREFLIGHT_TOKEN, preflightApiBases, Recorded, serveGoogleFixtures, servePreflightApi } from '../../support/google-api';
import { crdObject, serveCrds } from '../../support/kubernetes-api';

function synthStacks(input: unknown): SynthStack[] {
  const dir = mkdtempSync(join(tmpdir(), 'hoplab-gcp-perm-'));
  try {
    const app = new App({ outdir: dir, stackTraces: false });
    addLab(app, labConfig.parse(input));
    app.synth();
    return readSynthDir(dir).clouds.flatMap((c) => [c.cluster, c.lb].filter((s): s is SynthStack => s !== undefined));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Each REST method hoplab may call, as Google's references name its IAM
 * permissions: `[method, path under /<api>/v1 (or the cluster's root), permissions]`.
 * An aggregated list returns the kind's global and regional resources: both list permissions.
 */
const DOCUMENTED: readonly [string, RegExp, readonly string[]][] = [
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/networks$/, ['compute.networks.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/networks\/[^/]+$/, ['compute.networks.get']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/firewalls$/, ['compute.firewalls.list']],
  ['DELETE', /^\/compute\/v1\/projects\/[^/]+\/global\/firewalls\/[^/]+$/, ['compute.firewalls.delete', 'compute.networks.updatePolicy']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/operations\/[^/]+$/, ['compute.globalOperations.get']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/zones\/[^/]+\/operations\/[^/]+$/, ['compute.zoneOperations.get']],
  ['DELETE', /^\/compute\/v1\/projects\/[^/]+\/global\/backendServices\/[^/]+$/, ['compute.backendServices.delete']],
  ['DELETE', /^\/compute\/v1\/projects\/[^/]+\/zones\/[^/]+\/networkEndpointGroups\/[^/]+$/, ['compute.networkEndpointGroups.delete']],
  // Attaching needs `use` on the policy; the reference names both for the method.
  ['POST', /^\/compute\/v1\/projects\/[^/]+\/global\/backendServices\/[^/]+\/setSecurityPolicy$/, ['compute.backendServices.setSecurityPolicy', 'compute.securityPolicies.use']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/httpHealthChecks$/, ['compute.httpHealthChecks.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/backendServices$/, ['compute.backendServices.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/urlMaps$/, ['compute.urlMaps.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/targetHttpProxies$/, ['compute.targetHttpProxies.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/targetHttpsProxies$/, ['compute.targetHttpsProxies.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/forwardingRules$/, ['compute.globalForwardingRules.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/healthChecks$/, ['compute.healthChecks.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/addresses$/, ['compute.globalAddresses.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/sslCertificates$/, ['compute.sslCertificates.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/global\/securityPolicies$/, ['compute.securityPolicies.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/subnetworks$/, ['compute.subnetworks.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/routers$/, ['compute.routers.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/networkEndpointGroups$/, ['compute.networkEndpointGroups.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/instanceGroups$/, ['compute.instanceGroups.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/instances$/, ['compute.instances.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/targetPools$/, ['compute.targetPools.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/backendServices$/, ['compute.backendServices.list', 'compute.regionBackendServices.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/urlMaps$/, ['compute.urlMaps.list', 'compute.regionUrlMaps.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/targetHttpProxies$/, ['compute.targetHttpProxies.list', 'compute.regionTargetHttpProxies.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/targetHttpsProxies$/, ['compute.targetHttpsProxies.list', 'compute.regionTargetHttpsProxies.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/forwardingRules$/, ['compute.forwardingRules.list', 'compute.globalForwardingRules.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/healthChecks$/, ['compute.healthChecks.list', 'compute.regionHealthChecks.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/addresses$/, ['compute.addresses.list', 'compute.globalAddresses.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/aggregated\/sslCertificates$/, ['compute.sslCertificates.list', 'compute.regionSslCertificates.list']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+\/regions\/[^/]+$/, ['compute.regions.get']],
  ['GET', /^\/compute\/v1\/projects\/[^/]+$/, ['compute.projects.get']],
  ['GET', /^\/container\/v1\/projects\/[^/]+\/locations\/-\/clusters$/, ['container.clusters.list']],
  ['GET', /^\/container\/v1\/projects\/[^/]+\/locations\/[^/-][^/]*\/clusters\/[^/]+$/, ['container.clusters.get']],
  ['GET', /^\/iam\/v1\/projects\/[^/]+\/serviceAccounts$/, ['iam.serviceAccounts.list']],
  ['GET', /^\/iam\/v1\/projects\/[^/]+\/serviceAccounts\/[^/]+$/, ['iam.serviceAccounts.get']],
  ['GET', /^\/iam\/v1\/projects\/[^/]+\/roles\/[^/]+$/, ['iam.roles.get']],
  ['GET', /^\/iam\/v1\/organizations\/[^/]+\/roles\/[^/]+$/, ['iam.roles.get']],
  // roles.get of a predefined role names no permission (its reference lists none for `roles/{ROLE_NAME}`).
  ['GET', /^\/iam\/v1\/roles\/[^/]+$/, []],
  ['POST', /^\/crm\/v1\/projects\/[^/]+:getIamPolicy$/, ['resourcemanager.projects.getIamPolicy']],
  ['POST', /^\/crm\/v1\/projects\/[^/]+:getAncestry$/, ['resourcemanager.projects.get']],
  ['POST', /^\/crm\/v3\/folders\/[^/]+:getIamPolicy$/, ['resourcemanager.folders.getIamPolicy']],
  ['POST', /^\/crm\/v3\/organizations\/[^/]+:getIamPolicy$/, ['resourcemanager.organizations.getIamPolicy']],
  // testIamPermissions needs no permission: any caller may ask which of the given permissions it holds.
  ['POST', /^\/crm\/v1\/projects\/[^/]+:testIamPermissions$/, []],
  ['GET', /^\/serviceusage\/v1\/projects\/[^/]+\/services$/, ['serviceusage.services.list']],
  // Cloud Quotas: a service's quotas (--request-quotas finds a quota's ID by its metric; projects.locations.services.quotaInfos.list,
  // "Requires the following IAM permission on the parent resource: cloudquotas.quotas.get", read 2026-12-07).
  ['GET', /^\/cloudquotas\/v1\/projects\/[^/]+\/locations\/global\/services\/[^/]+\/quotaInfos$/, ['cloudquotas.quotas.get']],
  // Cloud Quotas: quota preferences (preflight --request-quotas, and the status of those it filed).
  ['GET', /^\/cloudquotas\/v1\/projects\/[^/]+\/locations\/global\/quotaPreferences$/, ['cloudquotas.quotas.get']],
  ['GET', /^\/cloudquotas\/v1\/projects\/[^/]+\/locations\/global\/quotaPreferences\/[^/]+$/, ['cloudquotas.quotas.get']],
  ['POST', /^\/cloudquotas\/v1\/projects\/[^/]+\/locations\/global\/quotaPreferences$/, ['cloudquotas.quotas.update']],
  ['PATCH', /^\/cloudquotas\/v1\/projects\/[^/]+\/locations\/global\/quotaPreferences\/[^/]+$/, ['cloudquotas.quotas.update']],
  // tokeninfo reads the token itself.
  ['GET', /^\/tokeninfo$/, []],
  // The cluster's Kubernetes API: GKE authorizes it with IAM before RBAC.
  ['GET', /^\/apis\/apiextensions\.k8s\.io\/v1\/customresourcedefinitions\/[^/]+$/, ['container.customResourceDefinitions.get']],
];

/** The documented permissions of a request, or a failure naming it. */
function permissionsOf(request: Pick<Recorded, 'method' | 'path'>): readonly string[] {
  const row = DOCUMENTED.find(([method, path]) => method === request.method && path.test(request.path));
  if (!row) throw new Error(`${request.method} ${request.path}: no documented permission in this test's table; add the method's IAM permission from Google's reference`);
  return row[2];
}

/** Runs each command's Google calls against loopback and records every request. */
async function recordCalls(): Promise<Record<string, Recorded[]>> {
  const recorded: Record<string, Recorded[]> = {};
  const leftovers = await serveGoogleFixtures('leftovers');
  try {
    const query = {
      project: FIXTURE_PROJECT,
      accessToken: FIXTURE_TOKEN,
      computeApi: leftovers.compute,
      containerApi: leftovers.container,
      iamApi: leftovers.iam,
      resourceManagerApi: leftovers.resourceManager,
    };
    await findGcpLeftovers({ ...query, env: 'lab', networkName: 'lab-gke', clusterName: 'lab-gke' });
    recorded['leftover check'] = leftovers.requests.splice(0);
    await removeGkeControllerFirewalls({ project: FIXTURE_PROJECT, networkName: 'lab-gke', accessToken: FIXTURE_TOKEN, computeApi: leftovers.compute, pollMs: 10, write: () => undefined });
    recorded['firewall cleanup'] = leftovers.requests.splice(0);
    await findGcpTagged(query);
    recorded["reap's tag search"] = leftovers.requests.splice(0);
  } finally {
    await leftovers.close();
  }
  const armored = await serveGoogleFixtures('armored');
  try {
    const backend = { project: FIXTURE_PROJECT, networkName: 'lab-gke', policyName: 'lab-gke-sources', accessToken: FIXTURE_TOKEN, computeApi: armored.compute, pollMs: 10, write: () => undefined };
    await removeOrphanedBackendServices(backend);
    recorded['orphan cleanup'] = armored.requests.splice(0);
    await policyUsers(backend);
    recorded['policy check'] = armored.requests.splice(0);
    await detachPolicy(backend);
    recorded['policy detach'] = armored.requests.splice(0);
  } finally {
    await armored.close();
  }
  const clean = await serveGoogleFixtures('clean');
  const cluster = await serveCrds((name) => crdObject(name, true));
  try {
    await waitForGatewayCrds({
      project: FIXTURE_PROJECT,
      location: 'us-central1-b',
      clusterName: 'bob-gke',
      accessToken: FIXTURE_TOKEN,
      containerApi: clean.container,
      kubernetesApi: cluster.base,
      write: () => undefined,
    });
    recorded['Gateway API wait'] = [...clean.requests, ...cluster.requests];
  } finally {
    await clean.close();
    await cluster.close();
  }
  const preflight = await servePreflightApi({
    enabled: [],
    granted: (p) => p,
    clusters: [],
    existing: [],
    cpus: { limit: 24, usage: 0 },
    // An attendee holding a custom role and a predefined one, and one inherited from the organization's custom role
    // through the folder: preflight reads the policies, the ancestry and the roles.
    bindings: [
      { role: `projects/${PREFLIGHT_PROJECT}/roles/podReader`, members: ['user:ann@example.com'] },
      { role: 'roles/compute.viewer', members: ['user:ann@example.com'] },
    ],
    customRoles: { podReader: ['container.pods.list'] },
    ancestors: [
      { type: 'folder', id: '1234567' },
      { type: 'organization', id: '998877' },
    ],
    ancestorBindings: { 'folders/1234567': [{ role: 'organizations/998877/roles/podShell', members: ['user:ann@example.com'] }], 'organizations/998877': [] },
    organizationRoles: { 'organizations/998877/roles/podShell': ['container.pods.exec'] },
  });
  try {
    const stack = synthStacks({}).find((s) => s.name === 'lab-gcp-cluster')!;
    await gcpFindings({
      project: PREFLIGHT_PROJECT,
      regions: [{ region: 'us-central1', zones: ['us-central1-a'] }],
      accessToken: PREFLIGHT_TOKEN,
      apis: preflightApiBases(preflight.base),
      clusterStacks: [{ env: 'lab', stack }],
      permissions: ['compute.networks.get'],
      requiredApis: [],
      needs: { quotas: [{ metric: 'CPUS', scope: 'region', need: 1, counted: 'x' }], notes: [] },
      attendees: [{ env: 'ann', member: 'user:ann@example.com' }],
      timeoutMs: 30_000,
    });
    recorded['preflight'] = preflight.requests;
  } finally {
    await preflight.close();
  }
  return recorded;
}

let calls: Record<string, Recorded[]>;
let preflightList: readonly string[];
beforeAll(async () => {
  calls = await recordCalls();
  preflightList = requiredPermissions(synthStacks({})).gcp;
});

describe('what hoplab’s own Google calls need, derived from the calls they make', () => {
  test.each(['leftover check', "reap's tag search", 'firewall cleanup', 'orphan cleanup', 'policy check', 'policy detach', 'Gateway API wait', 'preflight'])(
    'GIVEN the %s run against loopback WHEN each request is mapped to its documented permission THEN preflight tests every one of them',
    (command) => {
      const requests = calls[command];
      expect(requests.length).toBeGreaterThan(0);
      const needed = [...new Set(requests.flatMap(permissionsOf))].sort();
      // An optional call's permission is not asked of every deployer: the command goes on without it.
      expect(needed.filter((p) => !preflightList.includes(p) && !optionalPermissions().includes(p))).toEqual([]);
    },
  );

  test('GIVEN the commands WHEN their calls are recorded THEN the documented needs are exactly these (a new call must be added to the table and tested by preflight)', () => {
    const needed = (command: string) => [...new Set(calls[command].flatMap(permissionsOf))].sort();
    expect(needed('firewall cleanup')).toEqual(['compute.firewalls.delete', 'compute.firewalls.list', 'compute.globalOperations.get', 'compute.networks.updatePolicy']);
    expect(needed('Gateway API wait')).toEqual(['container.clusters.get', 'container.customResourceDefinitions.get']);
    expect(needed("reap's tag search")).toEqual([
      'compute.addresses.list',
      'compute.forwardingRules.list',
      'compute.globalAddresses.list',
      'compute.globalForwardingRules.list',
      'compute.instances.list',
      'container.clusters.list',
    ]);
    expect(needed('orphan cleanup')).toEqual([
      'compute.backendServices.delete',
      'compute.backendServices.list',
      'compute.forwardingRules.list',
      'compute.globalForwardingRules.list',
      'compute.globalOperations.get',
      'compute.networkEndpointGroups.delete',
      'compute.networkEndpointGroups.list',
      'compute.regionBackendServices.list',
      'compute.regionUrlMaps.list',
      'compute.urlMaps.list',
      'compute.zoneOperations.get',
    ]);
    expect(needed('policy check')).toEqual(['compute.backendServices.list']);
    expect(needed('policy detach')).toEqual(['compute.backendServices.list', 'compute.backendServices.setSecurityPolicy', 'compute.globalOperations.get', 'compute.securityPolicies.use']);
    expect(needed('preflight')).toEqual([
      'compute.networks.get',
      'compute.projects.get',
      'compute.regions.get',
      'container.clusters.list',
      'iam.roles.get',
      'iam.serviceAccounts.get',
      'resourcemanager.folders.getIamPolicy',
      'resourcemanager.organizations.getIamPolicy',
      'resourcemanager.projects.get',
      'resourcemanager.projects.getIamPolicy',
      'serviceusage.services.list',
    ]);
    // Optional: reading an attendee's roles and inherited policies (preflight says so when it cannot), the Cloud Quotas calls
    // of --request-quotas, and detaching a policy the config dropped from a live lab.
    expect(optionalPermissions()).toEqual([
      'cloudquotas.quotas.get',
      'cloudquotas.quotas.update',
      'compute.backendServices.setSecurityPolicy',
      'compute.securityPolicies.use',
      'iam.roles.get',
      'resourcemanager.folders.getIamPolicy',
      'resourcemanager.organizations.getIamPolicy',
      'resourcemanager.projects.get',
    ]);
    expect(preflightList).not.toContain('iam.roles.get');
    expect(needed('leftover check')).toEqual([
      'compute.addresses.list',
      'compute.backendServices.list',
      'compute.firewalls.list',
      'compute.forwardingRules.list',
      'compute.globalAddresses.list',
      'compute.globalForwardingRules.list',
      'compute.healthChecks.list',
      'compute.httpHealthChecks.list',
      'compute.instanceGroups.list',
      'compute.instances.list',
      'compute.networkEndpointGroups.list',
      'compute.networks.list',
      'compute.regionBackendServices.list',
      'compute.regionHealthChecks.list',
      'compute.regionSslCertificates.list',
      'compute.regionTargetHttpProxies.list',
      'compute.regionTargetHttpsProxies.list',
      'compute.regionUrlMaps.list',
      'compute.routers.list',
      'compute.securityPolicies.list',
      'compute.sslCertificates.list',
      'compute.subnetworks.list',
      'compute.targetHttpProxies.list',
      'compute.targetHttpsProxies.list',
      'compute.targetPools.list',
      'compute.urlMaps.list',
      'container.clusters.list',
      'iam.serviceAccounts.list',
      'resourcemanager.projects.getIamPolicy',
    ]);
  });

  test('GIVEN the call table hoplab’s reader takes calls from WHEN each call is compared with the documented method THEN its permissions are the documented ones', () => {
    const path = (c: (typeof GOOGLE_CALLS)[keyof typeof GOOGLE_CALLS]) => {
      const filled = c.path.replace(/\{(\w+)\}/g, (_, k: string) => (k === 'location' ? 'us-central1-a' : `x-${k}`));
      const api = {
        compute: '/compute/v1',
        container: '/container/v1',
        iam: '/iam/v1',
        resourceManager: '/crm/v1',
        resourceManagerV3: '/crm/v3',
        serviceUsage: '/serviceusage/v1',
        cloudQuotas: '/cloudquotas/v1',
        tokenInfo: '/tokeninfo',
        kubernetes: '',
      }[c.api];
      return filled ? `${api}/${filled}` : api;
    };
    const mismatched = Object.entries(GOOGLE_CALLS)
      .map(([id, c]) => ({ id, table: [...c.permissions].sort(), documented: [...permissionsOf({ method: c.verb, path: path(c) })].sort() }))
      .filter((r) => JSON.stringify(r.table) !== JSON.stringify(r.documented));
    expect(mismatched).toEqual([]);
  });

  test('GIVEN the list preflight tests for a GCP stack WHEN read THEN it holds the permissions review found missing', () => {
    expect(COMMAND_NEEDS.gcp).toEqual(
      expect.arrayContaining([
        'compute.globalForwardingRules.list',
        'compute.forwardingRules.list',
        'compute.globalAddresses.list',
        'compute.addresses.list',
        'compute.instances.list',
        'compute.sslCertificates.list',
        'compute.targetHttpsProxies.list',
        'compute.httpHealthChecks.list',
        'compute.regionBackendServices.list',
        'compute.regionHealthChecks.list',
        'iam.serviceAccounts.list',
        'compute.regions.get',
        'compute.projects.get',
        'compute.firewalls.delete',
        // Teardown's removal of a Gateway's orphaned backend services and their NEGs; the quota project's use.
        'compute.backendServices.delete',
        'compute.networkEndpointGroups.delete',
        'compute.zoneOperations.get',
        'serviceusage.services.use',
      ]),
    );
    expect(preflightList).toEqual(expect.arrayContaining(['compute.instanceGroupManagers.get', 'container.customResourceDefinitions.list', ...COMMAND_NEEDS.gcp]));
  });
});

/**
 * What Terraform needs of each GCP resource type, derived from its name: a
 * managed resource is created, read (refresh) and deleted; what is more is
 * stated with its reason.
 */
function derivedNeeds(type: string): string[] | undefined {
  const crud = (service: string, collection: string, verbs = ['create', 'get', 'delete']) => verbs.map((v) => `${service}.${collection}.${v}`);
  const plural = (singular: string) => singular.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()).replace(/s?$/, (end) => (end ? 'ses' : 's'));
  const compute = /^resource\.google_compute_(\w+)$/.exec(type);
  // Creating a subnet, router or firewall rule in a network needs updatePolicy on it (Compute Engine IAM).
  const inNetwork = ['subnetwork', 'router', 'firewall'];
  if (type === 'resource.google_compute_router_nat') return ['compute.routers.get', 'compute.routers.update'];
  if (compute) return [...crud('compute', plural(compute[1])), ...(inNetwork.includes(compute[1]) ? ['compute.networks.updatePolicy'] : [])];
  // The provider reads each node pool's instance group manager (the default pool's too) for its instance group URLs.
  const igm = 'compute.instanceGroupManagers.get';
  if (type === 'resource.google_container_cluster') return [...crud('container', 'clusters', ['create', 'get', 'update', 'delete']), 'container.operations.get', 'iam.serviceAccounts.actAs', igm];
  // A node pool is created and deleted through its cluster; its nodes run as the node service account.
  if (type === 'resource.google_container_node_pool') return [...crud('container', 'clusters', ['get', 'update']), 'container.operations.get', 'iam.serviceAccounts.actAs', igm];
  if (type === 'resource.google_service_account') return crud('iam', 'serviceAccounts');
  if (type === 'resource.google_project_iam_member') return ['resourcemanager.projects.getIamPolicy', 'resourcemanager.projects.setIamPolicy'];
  // Kubernetes objects on GKE: IAM authorizes every Kubernetes API call before RBAC, and reaching the cluster needs clusters.get.
  const kubernetes = /^resource\.kubernetes_(\w+)_v1$/.exec(type);
  if (kubernetes) return [...crud('container', plural(kubernetes[1]), ['create', 'get', 'update', 'delete']), 'container.clusters.get'];
  // Custom resources: the provider lists the CRDs to find their schema at plan time; what each kind is authorized by is
  // MANIFEST_KIND_NEEDS's (the test below).
  if (type === 'resource.kubernetes_manifest') return ['container.customResourceDefinitions.get', 'container.customResourceDefinitions.list'];
  if (type === 'data.kubernetes_resource') return ['container.thirdPartyObjects.get', 'container.clusters.get'];
  return undefined;
}

describe('what the synthesized GCP resource types need', () => {
  const gcpTypes = () =>
    [
      ...new Set(
        [...synthStacks({}), ...synthStacks({ gcp: { kubernetesCredentials: 'access-token', datapath: 'dataplane-v2' } })].filter((s) => /-gcp-(cluster|lb)$/.test(s.name)).flatMap(terraformTypes),
      ),
    ].sort();

  test('GIVEN every GCP resource type the lab synthesizes WHEN its entry is read THEN it holds what the type’s name says Terraform needs', () => {
    const missing = gcpTypes().flatMap((type) => {
      const entry = RESOURCE_NEEDS[type];
      const needs = entry?.gcp ?? entry?.any;
      if (needs?.none !== undefined) return [];
      const derived = derivedNeeds(type);
      if (!derived) return [`${type}: no derivation in this test; add one`];
      return derived.filter((p) => !(needs?.gcp ?? []).includes(p)).map((p) => `${type}: ${p}`);
    });
    expect(missing).toEqual([]);
  });

  test.each([
    ['the default lab (Gateway API objects only)', {}, false],
    ['a narrowed app.allowedSourceCidrs (BackendConfig and GCPBackendPolicy too)', { app: { allowedSourceCidrs: ['203.0.113.0/24'] } }, true],
  ])('GIVEN %s WHEN the GCP list is derived THEN custom resources need thirdPartyObjects, and BackendConfig container.backendConfigs.* only where it is made', (_name, config, backendConfig) => {
    const gcp = requiredPermissions(synthStacks(config)).gcp;
    const verbs = (kind: string) => ['create', 'get', 'list', 'update', 'delete'].map((v) => `container.${kind}.${v}`);
    expect(gcp).toEqual(expect.arrayContaining(verbs('thirdPartyObjects')));
    if (backendConfig) expect(gcp).toEqual(expect.arrayContaining(verbs('backendConfigs')));
    else expect(gcp.filter((p) => p.startsWith('container.backendConfigs.'))).toEqual([]);
  });

  test('GIVEN the GCP types WHEN listed THEN the derivation covers each of them (a new type needs a rule here)', () => {
    expect(gcpTypes()).toEqual([
      'data.google_client_config',
      'data.kubernetes_resource',
      'data.terraform_remote_state',
      'resource.google_compute_firewall',
      'resource.google_compute_network',
      'resource.google_compute_router',
      'resource.google_compute_router_nat',
      'resource.google_compute_subnetwork',
      'resource.google_container_cluster',
      'resource.google_container_node_pool',
      'resource.google_project_iam_member',
      'resource.google_service_account',
      'resource.kubernetes_daemon_set_v1',
      'resource.kubernetes_deployment_v1',
      'resource.kubernetes_ingress_v1',
      'resource.kubernetes_manifest',
      'resource.kubernetes_namespace_v1',
      'resource.kubernetes_service_v1',
    ]);
  });
});
