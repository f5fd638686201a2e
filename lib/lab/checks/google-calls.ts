/**
 * Every Google API call hoplab's own code makes (the leftover check, the
 * firewall and orphaned backend service cleanups before a GKE network goes,
 * the CRD wait, the Cloud Armor policy's detach, preflight), as one table of
 * the kit's calls (lib/kit/google/google-calls.ts): the permissions preflight
 * tests with `projects.testIamPermissions` are derived from it ({@link commandPermissions}).
 *
 * Permission names: the "IAM Permissions" section of each method in the
 * Compute Engine, GKE, IAM, Resource Manager and Service Usage REST references
 * (cloud.google.com/compute/docs/reference/rest/v1, cloud.google.com/kubernetes-engine/docs/reference/rest,
 * cloud.google.com/iam/docs/reference/rest, cloud.google.com/resource-manager/reference/rest,
 * cloud.google.com/service-usage/docs/reference/rest, cloud.google.com/docs/quotas/reference/rest/v1;
 * cited 2026-11, Cloud Quotas 2026-12-02; Resource Manager's projects.getAncestry (v1), folders.getIamPolicy and
 * organizations.getIamPolicy (v3), and IAM's roles.get and organizations.roles.get, read 2026-12-07). An aggregated list
 * returns the regional and global resources of a kind: it names both list
 * permissions, so a role that can list only one of them is caught.
 */
import { GoogleCall, googleCall, permissionsOf } from '../../kit/google/google-calls';

const computeList = (kind: string, permission: string) => googleCall(`compute.${kind}.list`, 'compute', 'GET', `projects/{project}/global/${kind}`, [permission]);
const computeAggregated = (kind: string, permissions: readonly string[]) => googleCall(`compute.${kind}.aggregatedList`, 'compute', 'GET', `projects/{project}/aggregated/${kind}`, permissions);

/** Why the reads of an attendee's inherited roles and of the roles' permissions are optional. */
const ATTENDEE_ROLES_ONLY = 'preflight reads them only when attendees have Google identities, and says what it could not read';

/** Why the Cloud Quotas calls are optional. */
const REQUESTS_ONLY = 'only preflight --request-quotas files quota requests, and preflight reads the status of those it filed, saying so when it cannot';

/**
 * getIamPolicy's body: policy version 3, the only one that returns a conditional binding as it is. Asked for
 * version 1, IAM returns such a binding without its condition and with `_withcond_<hash>` appended to its
 * role (https://cloud.google.com/iam/docs/troubleshooting-withcond; GetPolicyOptions:
 * "Requests for policies with any conditional role bindings must specify version 3"; read 2026-12-07).
 */
export const IAM_POLICY_V3 = { body: { options: { requestedPolicyVersion: 3 } } };

/** The calls, by what they do. */
export const GOOGLE_CALLS = {
  // Compute Engine: global lists (`global/forwardingRules` and `global/addresses` are the globalForwardingRules and globalAddresses collections).
  networksList: computeList('networks', 'compute.networks.list'),
  firewallsList: computeList('firewalls', 'compute.firewalls.list'),
  httpHealthChecksList: computeList('httpHealthChecks', 'compute.httpHealthChecks.list'),
  backendServicesList: computeList('backendServices', 'compute.backendServices.list'),
  urlMapsList: computeList('urlMaps', 'compute.urlMaps.list'),
  targetHttpProxiesList: computeList('targetHttpProxies', 'compute.targetHttpProxies.list'),
  targetHttpsProxiesList: computeList('targetHttpsProxies', 'compute.targetHttpsProxies.list'),
  globalForwardingRulesList: googleCall('compute.globalForwardingRules.list', 'compute', 'GET', 'projects/{project}/global/forwardingRules', ['compute.globalForwardingRules.list']),
  healthChecksList: computeList('healthChecks', 'compute.healthChecks.list'),
  globalAddressesList: googleCall('compute.globalAddresses.list', 'compute', 'GET', 'projects/{project}/global/addresses', ['compute.globalAddresses.list']),
  sslCertificatesList: computeList('sslCertificates', 'compute.sslCertificates.list'),
  securityPoliciesList: computeList('securityPolicies', 'compute.securityPolicies.list'),
  // Compute Engine: aggregated lists (every region and zone, and `global` where the kind has global resources).
  subnetworksAggregated: computeAggregated('subnetworks', ['compute.subnetworks.list']),
  routersAggregated: computeAggregated('routers', ['compute.routers.list']),
  networkEndpointGroupsAggregated: computeAggregated('networkEndpointGroups', ['compute.networkEndpointGroups.list']),
  instanceGroupsAggregated: computeAggregated('instanceGroups', ['compute.instanceGroups.list']),
  instancesAggregated: computeAggregated('instances', ['compute.instances.list']),
  targetPoolsAggregated: computeAggregated('targetPools', ['compute.targetPools.list']),
  backendServicesAggregated: computeAggregated('backendServices', ['compute.backendServices.list', 'compute.regionBackendServices.list']),
  urlMapsAggregated: computeAggregated('urlMaps', ['compute.urlMaps.list', 'compute.regionUrlMaps.list']),
  targetHttpProxiesAggregated: computeAggregated('targetHttpProxies', ['compute.targetHttpProxies.list', 'compute.regionTargetHttpProxies.list']),
  targetHttpsProxiesAggregated: computeAggregated('targetHttpsProxies', ['compute.targetHttpsProxies.list', 'compute.regionTargetHttpsProxies.list']),
  forwardingRulesAggregated: computeAggregated('forwardingRules', ['compute.forwardingRules.list', 'compute.globalForwardingRules.list']),
  healthChecksAggregated: computeAggregated('healthChecks', ['compute.healthChecks.list', 'compute.regionHealthChecks.list']),
  addressesAggregated: computeAggregated('addresses', ['compute.addresses.list', 'compute.globalAddresses.list']),
  sslCertificatesAggregated: computeAggregated('sslCertificates', ['compute.sslCertificates.list', 'compute.regionSslCertificates.list']),
  // Compute Engine: single resources, quotas, and the firewall cleanup.
  networksGet: googleCall('compute.networks.get', 'compute', 'GET', 'projects/{project}/global/networks/{network}', ['compute.networks.get']),
  regionsGet: googleCall('compute.regions.get', 'compute', 'GET', 'projects/{project}/regions/{region}', ['compute.regions.get']),
  projectsGet: googleCall('compute.projects.get', 'compute', 'GET', 'projects/{project}', ['compute.projects.get']),
  // Deleting a firewall rule needs updatePolicy on the rule's network too (as creating one does).
  firewallsDelete: googleCall('compute.firewalls.delete', 'compute', 'DELETE', 'projects/{project}/global/firewalls/{firewall}', ['compute.firewalls.delete', 'compute.networks.updatePolicy']),
  globalOperationsGet: googleCall('compute.globalOperations.get', 'compute', 'GET', 'projects/{project}/global/operations/{operation}', ['compute.globalOperations.get']),
  zoneOperationsGet: googleCall('compute.zoneOperations.get', 'compute', 'GET', 'projects/{project}/zones/{zone}/operations/{operation}', ['compute.zoneOperations.get']),
  // Teardown's removal of a Gateway's orphaned backend services and their NEGs (gke-gateway-api#41).
  backendServicesDelete: googleCall('compute.backendServices.delete', 'compute', 'DELETE', 'projects/{project}/global/backendServices/{backendService}', ['compute.backendServices.delete']),
  networkEndpointGroupsDelete: googleCall('compute.networkEndpointGroups.delete', 'compute', 'DELETE', 'projects/{project}/zones/{zone}/networkEndpointGroups/{neg}', [
    'compute.networkEndpointGroups.delete',
  ]),
  // Deploy's detach of the Cloud Armor policy a narrowed app.allowedSourceCidrs no longer wants (an empty reference detaches).
  backendServicesSetSecurityPolicy: googleCall(
    'compute.backendServices.setSecurityPolicy',
    'compute',
    'POST',
    'projects/{project}/global/backendServices/{backendService}/setSecurityPolicy',
    ['compute.backendServices.setSecurityPolicy', 'compute.securityPolicies.use'],
    undefined,
    'deploy detaches a Cloud Armor policy only from a live lab whose config dropped it, and says what failed',
  ),
  // GKE
  clustersList: googleCall('container.projects.locations.clusters.list', 'container', 'GET', 'projects/{project}/locations/-/clusters', ['container.clusters.list']),
  clustersGet: googleCall('container.projects.locations.clusters.get', 'container', 'GET', 'projects/{project}/locations/{location}/clusters/{cluster}', ['container.clusters.get']),
  // IAM and Resource Manager
  serviceAccountsList: googleCall('iam.projects.serviceAccounts.list', 'iam', 'GET', 'projects/{project}/serviceAccounts', ['iam.serviceAccounts.list']),
  serviceAccountsGet: googleCall('iam.projects.serviceAccounts.get', 'iam', 'GET', 'projects/{project}/serviceAccounts/{email}', ['iam.serviceAccounts.get']),
  getIamPolicy: googleCall('cloudresourcemanager.projects.getIamPolicy', 'resourceManager', 'POST', 'projects/{project}:getIamPolicy', ['resourcemanager.projects.getIamPolicy']),
  // A project's custom role, when preflight finds one granted to an attendee (iam.projects.roles.get).
  projectRolesGet: googleCall(
    'iam.projects.roles.get',
    'iam',
    'GET',
    'projects/{project}/roles/{role}',
    ['iam.roles.get'],
    undefined,
    'preflight reads a custom role only when an attendee may hold one, and says so when it cannot',
  ),
  // An organization's custom role and a predefined role (`roles/{role}`), read for their permissions likewise.
  organizationRolesGet: googleCall('iam.organizations.roles.get', 'iam', 'GET', 'organizations/{organization}/roles/{role}', ['iam.roles.get'], undefined, ATTENDEE_ROLES_ONLY),
  predefinedRolesGet: googleCall('iam.roles.get', 'iam', 'GET', 'roles/{role}', [], 'roles.get names no permission for predefined roles: their definitions are public'),
  // Where the project sits (project, folders, organization, bottom up), and the policies it inherits from there.
  projectAncestry: googleCall(
    'cloudresourcemanager.projects.getAncestry',
    'resourceManager',
    'POST',
    'projects/{project}:getAncestry',
    ['resourcemanager.projects.get'],
    undefined,
    ATTENDEE_ROLES_ONLY,
  ),
  folderGetIamPolicy: googleCall(
    'cloudresourcemanager.folders.getIamPolicy',
    'resourceManagerV3',
    'POST',
    'folders/{folder}:getIamPolicy',
    ['resourcemanager.folders.getIamPolicy'],
    undefined,
    ATTENDEE_ROLES_ONLY,
  ),
  organizationGetIamPolicy: googleCall(
    'cloudresourcemanager.organizations.getIamPolicy',
    'resourceManagerV3',
    'POST',
    'organizations/{organization}:getIamPolicy',
    ['resourcemanager.organizations.getIamPolicy'],
    undefined,
    ATTENDEE_ROLES_ONLY,
  ),
  testIamPermissions: googleCall(
    'cloudresourcemanager.projects.testIamPermissions',
    'resourceManager',
    'POST',
    'projects/{project}:testIamPermissions',
    [],
    'any caller may ask which of the given permissions it holds',
  ),
  // Cloud Quotas: a service's quotas (their IDs and dimensions; quotaInfos.list's permission read 2026-12-07), the
  // quota preferences `preflight --request-quotas` files, and their status on later runs.
  quotaInfosList: googleCall(
    'cloudquotas.projects.locations.services.quotaInfos.list',
    'cloudQuotas',
    'GET',
    'projects/{project}/locations/global/services/{service}/quotaInfos',
    ['cloudquotas.quotas.get'],
    undefined,
    REQUESTS_ONLY,
  ),
  quotaPreferencesList: googleCall(
    'cloudquotas.projects.locations.quotaPreferences.list',
    'cloudQuotas',
    'GET',
    'projects/{project}/locations/global/quotaPreferences',
    ['cloudquotas.quotas.get'],
    undefined,
    REQUESTS_ONLY,
  ),
  quotaPreferencesGet: googleCall(
    'cloudquotas.projects.locations.quotaPreferences.get',
    'cloudQuotas',
    'GET',
    'projects/{project}/locations/global/quotaPreferences/{preference}',
    ['cloudquotas.quotas.get'],
    undefined,
    REQUESTS_ONLY,
  ),
  quotaPreferencesCreate: googleCall(
    'cloudquotas.projects.locations.quotaPreferences.create',
    'cloudQuotas',
    'POST',
    'projects/{project}/locations/global/quotaPreferences',
    ['cloudquotas.quotas.update'],
    undefined,
    REQUESTS_ONLY,
  ),
  quotaPreferencesPatch: googleCall(
    'cloudquotas.projects.locations.quotaPreferences.patch',
    'cloudQuotas',
    'PATCH',
    'projects/{project}/locations/global/quotaPreferences/{preference}',
    ['cloudquotas.quotas.update'],
    undefined,
    REQUESTS_ONLY,
  ),
  // Service Usage
  servicesList: googleCall('serviceusage.services.list', 'serviceUsage', 'GET', 'projects/{project}/services', ['serviceusage.services.list']),
  // OAuth2: who the token belongs to.
  tokenInfo: googleCall('oauth2.tokeninfo', 'tokenInfo', 'GET', '', [], 'reads the token it is given'),
  // The cluster's Kubernetes API: GKE authorizes it with IAM (`container.*`) before RBAC.
  customResourceDefinitionGet: googleCall('kubernetes.customresourcedefinitions.get', 'kubernetes', 'GET', 'apis/apiextensions.k8s.io/v1/customresourcedefinitions/{crd}', [
    'container.customResourceDefinitions.get',
  ]),
} as const satisfies Record<string, GoogleCall>;

/**
 * What hoplab's commands themselves need on the project beside Terraform:
 * every call of {@link GOOGLE_CALLS} but the optional ones. Preflight tests
 * these with `testIamPermissions` whenever a GCP stack is selected.
 */
export function commandPermissions(): string[] {
  return permissionsOf(Object.values(GOOGLE_CALLS).filter((c: GoogleCall) => !c.optional));
}

/** The permissions of the optional calls: a command without them says what it could not read. */
export function optionalPermissions(): string[] {
  return permissionsOf(Object.values(GOOGLE_CALLS).filter((c: GoogleCall) => c.optional));
}
