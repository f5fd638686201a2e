/**
 * What each Terraform resource type the stacks synthesize needs the deployer
 * to be allowed: AWS IAM actions (create, read, update, delete and tag, as the
 * hashicorp/aws provider calls them) and GCP IAM permissions plus the APIs
 * that serve them. The lists preflight checks are derived from the
 * synthesized stacks through this table, so a new resource type without an
 * entry is reported (and a test fails) instead of being silently unchecked.
 */
import { commandPermissions } from '../../lab/checks/google-calls';
import { SynthStack } from '../../kit/terraform/terraform-json';
import { isRecord } from '../../kit/terraform/terraform-json';

/** What one Terraform resource (or data source) type needs. */
export interface ResourceNeeds {
  /** AWS IAM actions of the deployer. */
  readonly aws?: readonly string[];
  /** GCP IAM permissions of the deployer on the project. */
  readonly gcp?: readonly string[];
  /** Google APIs that must be enabled (`<name>.googleapis.com`). */
  readonly gcpApis?: readonly string[];
  /** Why it needs nothing of the cloud's IAM, when that is the case. */
  readonly none?: string;
}

const EC2_TAG = ['ec2:CreateTags', 'ec2:DeleteTags'];
const EKS_TAG = ['eks:TagResource', 'eks:UntagResource', 'eks:ListTagsForResource'];
const COMPUTE = ['compute.googleapis.com'];
const CONTAINER = ['container.googleapis.com'];
/** Creating a subnet, router or firewall rule in a network needs this on the network. */
const NETWORK_POLICY = 'compute.networks.updatePolicy';
/** The google provider reads a node pool's managed instance group (`instance_group_urls`). */
const IGM_GET = 'compute.instanceGroupManagers.get';
/** Long-running Compute Engine operations are polled. */
const COMPUTE_OPS = ['compute.regionOperations.get', 'compute.globalOperations.get'];
/** Kubernetes objects on GKE: Kubernetes API calls are authorized by IAM (`container.*` permissions) before RBAC. */
const GKE_K8S = (kind: string) => [`container.${kind}.create`, `container.${kind}.get`, `container.${kind}.update`, `container.${kind}.delete`, 'container.clusters.get'];

/**
 * What `handout` needs on GKE to mint an attendee's token: it asks the cluster for a token of the attendee's
 * ServiceAccount (TokenRequest, `lib/lab/cluster/attendee-token.ts`) as the host, and GKE authorizes that with
 * IAM before RBAC. The permission's name is GKE's `container.serviceAccounts.createToken`: Kubernetes Engine Admin
 * holds all of `container.*` ("Google Kubernetes Engine roles and permissions",
 * https://cloud.google.com/iam/docs/roles-permissions/container), and the roles' definitions as `roles.get`
 * returns them list it in roles/container.admin, roles/container.developer and roles/owner but not in
 * roles/editor (github.com/darkbitio/gcp-iam-role-permissions, commit 8ab2a6f, 2026-08-22; both read 2026-12-07).
 */
export const GKE_TOKEN_REQUEST = 'container.serviceAccounts.createToken';

/** Permissions a missing one of which is said with what needs it and a predefined role that holds it (the deployer may well lack one: roles/editor does). */
export const GCP_PERMISSION_HOLDERS: Readonly<Record<string, { readonly neededBy: string; readonly role: string }>> = {
  [GKE_TOKEN_REQUEST]: { neededBy: 'with which handout mints the tokens of attendees without a Google identity', role: 'roles/container.admin (not in roles/editor)' },
};

/**
 * Needs per Terraform type, keyed `resource.<type>` or `data.<type>`. Kubernetes
 * and Helm resources need nothing of AWS IAM: the deployer is the EKS cluster's
 * creator and gets cluster-admin through its access entry
 * (an explicit `aws_eks_access_entry` for the deployer). On GKE they do: IAM authorizes
 * Kubernetes API calls (`container.deployments.create` ...) as well as RBAC.
 */
export const RESOURCE_NEEDS: Readonly<Record<string, { readonly aws?: ResourceNeeds; readonly gcp?: ResourceNeeds; readonly any?: ResourceNeeds }>> = {
  // AWS: network
  'resource.aws_vpc': {
    any: {
      aws: [
        'ec2:CreateVpc',
        'ec2:DescribeVpcs',
        'ec2:DescribeVpcAttribute',
        'ec2:ModifyVpcAttribute',
        'ec2:DeleteVpc',
        'ec2:DescribeNetworkAcls',
        'ec2:DescribeRouteTables',
        'ec2:DescribeSecurityGroups',
        ...EC2_TAG,
      ],
    },
  },
  'resource.aws_subnet': { any: { aws: ['ec2:CreateSubnet', 'ec2:DescribeSubnets', 'ec2:ModifySubnetAttribute', 'ec2:DeleteSubnet', ...EC2_TAG] } },
  'resource.aws_internet_gateway': {
    any: { aws: ['ec2:CreateInternetGateway', 'ec2:AttachInternetGateway', 'ec2:DescribeInternetGateways', 'ec2:DetachInternetGateway', 'ec2:DeleteInternetGateway', ...EC2_TAG] },
  },
  'resource.aws_eip': { any: { aws: ['ec2:AllocateAddress', 'ec2:DescribeAddresses', 'ec2:DescribeAddressesAttribute', 'ec2:ReleaseAddress', 'ec2:DisassociateAddress', ...EC2_TAG] } },
  'resource.aws_nat_gateway': { any: { aws: ['ec2:CreateNatGateway', 'ec2:DescribeNatGateways', 'ec2:DeleteNatGateway', ...EC2_TAG] } },
  'resource.aws_route_table': { any: { aws: ['ec2:CreateRouteTable', 'ec2:DescribeRouteTables', 'ec2:DeleteRouteTable', ...EC2_TAG] } },
  'resource.aws_route': { any: { aws: ['ec2:CreateRoute', 'ec2:ReplaceRoute', 'ec2:DeleteRoute', 'ec2:DescribeRouteTables'] } },
  'resource.aws_route_table_association': { any: { aws: ['ec2:AssociateRouteTable', 'ec2:DisassociateRouteTable', 'ec2:DescribeRouteTables'] } },
  'resource.aws_security_group': {
    any: {
      aws: [
        'ec2:CreateSecurityGroup',
        'ec2:DescribeSecurityGroups',
        'ec2:AuthorizeSecurityGroupIngress',
        'ec2:AuthorizeSecurityGroupEgress',
        'ec2:RevokeSecurityGroupEgress',
        'ec2:DeleteSecurityGroup',
        ...EC2_TAG,
      ],
    },
  },
  'resource.aws_launch_template': {
    any: {
      aws: [
        'ec2:CreateLaunchTemplate',
        'ec2:CreateLaunchTemplateVersion',
        'ec2:ModifyLaunchTemplate',
        'ec2:DescribeLaunchTemplates',
        'ec2:DescribeLaunchTemplateVersions',
        'ec2:DeleteLaunchTemplate',
        ...EC2_TAG,
      ],
    },
  },
  // AWS: EKS (EKS creates its service-linked roles on first use, as the caller)
  'resource.aws_eks_cluster': {
    any: {
      aws: [
        'eks:CreateCluster',
        'eks:DescribeCluster',
        'eks:UpdateClusterConfig',
        'eks:UpdateClusterVersion',
        'eks:DeleteCluster',
        'iam:PassRole',
        'iam:CreateServiceLinkedRole',
        'ec2:DescribeSubnets',
        ...EKS_TAG,
      ],
    },
  },
  'resource.aws_eks_node_group': {
    any: {
      aws: [
        'eks:CreateNodegroup',
        'eks:DescribeNodegroup',
        'eks:UpdateNodegroupConfig',
        'eks:UpdateNodegroupVersion',
        'eks:DeleteNodegroup',
        'iam:PassRole',
        'iam:CreateServiceLinkedRole',
        'ec2:DescribeLaunchTemplateVersions',
        'ec2:RunInstances',
        ...EKS_TAG,
      ],
    },
  },
  'resource.aws_eks_addon': { any: { aws: ['eks:CreateAddon', 'eks:DescribeAddon', 'eks:DescribeAddonVersions', 'eks:UpdateAddon', 'eks:DeleteAddon', 'iam:PassRole', ...EKS_TAG] } },
  'resource.aws_eks_access_entry': { any: { aws: ['eks:CreateAccessEntry', 'eks:DescribeAccessEntry', 'eks:UpdateAccessEntry', 'eks:DeleteAccessEntry', ...EKS_TAG] } },
  'resource.aws_eks_access_policy_association': { any: { aws: ['eks:AssociateAccessPolicy', 'eks:ListAssociatedAccessPolicies', 'eks:DisassociateAccessPolicy'] } },
  // AWS: IAM
  'resource.aws_iam_openid_connect_provider': {
    any: {
      aws: [
        'iam:CreateOpenIDConnectProvider',
        'iam:GetOpenIDConnectProvider',
        'iam:UpdateOpenIDConnectProviderThumbprint',
        'iam:DeleteOpenIDConnectProvider',
        'iam:TagOpenIDConnectProvider',
        'iam:UntagOpenIDConnectProvider',
      ],
    },
  },
  'resource.aws_iam_policy': {
    any: {
      aws: [
        'iam:CreatePolicy',
        'iam:GetPolicy',
        'iam:GetPolicyVersion',
        'iam:ListPolicyVersions',
        'iam:CreatePolicyVersion',
        'iam:DeletePolicyVersion',
        'iam:DeletePolicy',
        'iam:TagPolicy',
        'iam:UntagPolicy',
      ],
    },
  },
  'resource.aws_iam_role': {
    any: {
      aws: [
        'iam:CreateRole',
        'iam:GetRole',
        'iam:UpdateRole',
        'iam:UpdateAssumeRolePolicy',
        'iam:ListRolePolicies',
        'iam:ListAttachedRolePolicies',
        'iam:ListInstanceProfilesForRole',
        'iam:DeleteRole',
        'iam:TagRole',
        'iam:UntagRole',
      ],
    },
  },
  'resource.aws_iam_role_policy_attachment': { any: { aws: ['iam:AttachRolePolicy', 'iam:DetachRolePolicy', 'iam:ListAttachedRolePolicies'] } },
  'data.aws_iam_policy_document': { any: { none: 'rendered by Terraform locally' } },
  'data.aws_caller_identity': { any: { none: 'sts:GetCallerIdentity needs no permission' } },
  // Maps an assumed-role session to its IAM role (for the deployer's access entry).
  'data.aws_iam_session_context': { any: { aws: ['iam:GetRole'] } },
  // AWS: CloudWatch Logs (the control plane's log group)
  'resource.aws_cloudwatch_log_group': {
    any: {
      aws: [
        'logs:CreateLogGroup',
        'logs:DescribeLogGroups',
        'logs:PutRetentionPolicy',
        'logs:DeleteRetentionPolicy',
        'logs:ListTagsForResource',
        'logs:TagResource',
        'logs:UntagResource',
        'logs:DeleteLogGroup',
      ],
    },
  },
  // GCP
  'resource.google_compute_network': {
    any: { gcp: ['compute.networks.create', 'compute.networks.get', 'compute.networks.delete', ...COMPUTE_OPS], gcpApis: COMPUTE },
  },
  'resource.google_compute_subnetwork': {
    any: { gcp: ['compute.subnetworks.create', 'compute.subnetworks.get', 'compute.subnetworks.update', 'compute.subnetworks.delete', NETWORK_POLICY, ...COMPUTE_OPS], gcpApis: COMPUTE },
  },
  'resource.google_compute_router': {
    any: { gcp: ['compute.routers.create', 'compute.routers.get', 'compute.routers.update', 'compute.routers.delete', NETWORK_POLICY, ...COMPUTE_OPS], gcpApis: COMPUTE },
  },
  'resource.google_compute_router_nat': { any: { gcp: ['compute.routers.get', 'compute.routers.update', ...COMPUTE_OPS], gcpApis: COMPUTE } },
  'resource.google_compute_firewall': {
    any: { gcp: ['compute.firewalls.create', 'compute.firewalls.get', 'compute.firewalls.update', 'compute.firewalls.delete', NETWORK_POLICY, ...COMPUTE_OPS], gcpApis: COMPUTE },
  },
  // The Cloud Armor policy of a narrowed app.allowedSourceCidrs: rules are added, patched and removed with
  // compute.securityPolicies.update. Attaching it to a backend service is GKE's controllers' doing (its service agent), not the deployer's.
  'resource.google_compute_security_policy': {
    any: {
      gcp: ['compute.securityPolicies.create', 'compute.securityPolicies.get', 'compute.securityPolicies.update', 'compute.securityPolicies.delete', ...COMPUTE_OPS],
      gcpApis: COMPUTE,
    },
  },
  'resource.google_container_cluster': {
    any: {
      gcp: [
        'container.clusters.create',
        'container.clusters.get',
        'container.clusters.update',
        'container.clusters.delete',
        'container.operations.get',
        'iam.serviceAccounts.actAs',
        // The provider reads each node pool's instance group manager (the default pool's too) for its instance group URLs.
        IGM_GET,
      ],
      gcpApis: [...CONTAINER, ...COMPUTE],
    },
  },
  'resource.google_container_node_pool': {
    any: { gcp: ['container.clusters.get', 'container.clusters.update', 'container.operations.get', 'iam.serviceAccounts.actAs', IGM_GET], gcpApis: [...CONTAINER, ...COMPUTE] },
  },
  'resource.google_service_account': {
    any: { gcp: ['iam.serviceAccounts.create', 'iam.serviceAccounts.get', 'iam.serviceAccounts.update', 'iam.serviceAccounts.delete'], gcpApis: ['iam.googleapis.com'] },
  },
  'resource.google_project_iam_member': {
    any: { gcp: ['resourcemanager.projects.getIamPolicy', 'resourcemanager.projects.setIamPolicy'], gcpApis: ['cloudresourcemanager.googleapis.com'] },
  },
  'data.google_client_config': { any: { none: 'reads the provider’s own token' } },
  // Kubernetes and Helm: nothing of AWS IAM (cluster creator is admin); IAM on GKE.
  'resource.kubernetes_namespace_v1': { aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' }, gcp: { gcp: GKE_K8S('namespaces'), gcpApis: CONTAINER } },
  'resource.kubernetes_deployment_v1': { aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' }, gcp: { gcp: GKE_K8S('deployments'), gcpApis: CONTAINER } },
  // The datapath inspector.
  'resource.kubernetes_daemon_set_v1': { aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' }, gcp: { gcp: GKE_K8S('daemonSets'), gcpApis: CONTAINER } },
  'resource.kubernetes_service_v1': { aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' }, gcp: { gcp: GKE_K8S('services'), gcpApis: CONTAINER } },
  'resource.kubernetes_ingress_v1': { aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' }, gcp: { gcp: GKE_K8S('ingresses'), gcpApis: CONTAINER } },
  // An attendee's RBAC (with attendee identities only): creating a ClusterRole and binding the built-in view/edit,
  // whose permissions the deployer holds through IAM rather than RBAC, needs escalate and bind on GKE.
  'resource.kubernetes_cluster_role_v1': {
    aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' },
    gcp: { gcp: [...GKE_K8S('clusterRoles'), 'container.clusterRoles.escalate'], gcpApis: CONTAINER },
  },
  'resource.kubernetes_cluster_role_binding_v1': {
    aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' },
    gcp: { gcp: [...GKE_K8S('clusterRoleBindings'), 'container.clusterRoles.bind'], gcpApis: CONTAINER },
  },
  // A plain attendee's ServiceAccount (attendees without a cloud identity), bound as an identity's RBAC is. On GKE
  // the host also mints its token with handout: made only where handout will, so asked only then.
  'resource.kubernetes_service_account_v1': {
    aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' },
    gcp: { gcp: [...GKE_K8S('serviceAccounts'), GKE_TOKEN_REQUEST], gcpApis: CONTAINER },
  },
  'resource.kubernetes_role_binding_v1': {
    aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' },
    gcp: { gcp: [...GKE_K8S('roleBindings'), 'container.clusterRoles.bind'], gcpApis: CONTAINER },
  },
  // Custom resources (Gateway API objects, GKE's BackendConfig and GCPBackendPolicy): what every kind needs; what each
  // kind is authorized by comes from MANIFEST_KIND_NEEDS.
  'resource.kubernetes_manifest': {
    aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' },
    gcp: {
      gcp: [
        // The provider finds a custom resource's schema by listing the cluster's CRDs at plan time.
        'container.customResourceDefinitions.get',
        'container.customResourceDefinitions.list',
        'container.clusters.get',
      ],
      gcpApis: CONTAINER,
    },
  },
  'data.kubernetes_resource': {
    aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' },
    gcp: { gcp: ['container.thirdPartyObjects.get', 'container.clusters.get'], gcpApis: CONTAINER },
  },
  'resource.helm_release': { aws: { none: 'Kubernetes API as the cluster creator (EKS access entry)' } },
  'data.terraform_remote_state': { any: { none: 'reads the cluster stack’s state through its backend' } },
};

/** The five verbs of a GKE object kind's own permissions (`container.<kind>.create` ...). */
const GKE_KIND_VERBS = (kind: string) => ['create', 'get', 'list', 'update', 'delete'].map((verb) => `container.${kind}.${verb}`);

/**
 * What a `kubernetes_manifest` on GKE needs by the kind it makes. GKE authorizes
 * a custom resource with `container.thirdPartyObjects.*`, but its own
 * BackendConfig with `container.backendConfigs.*` (both in the IAM permissions
 * reference, https://cloud.google.com/iam/docs/permissions-reference, read
 * 2026-12-07). A kind not listed is a third-party object.
 */
export const MANIFEST_KIND_NEEDS: Readonly<Record<string, readonly string[]>> = {
  BackendConfig: GKE_KIND_VERBS('backendConfigs'),
};
const THIRD_PARTY_OBJECTS = GKE_KIND_VERBS('thirdPartyObjects');

/** The kinds of a stack's `kubernetes_manifest` resources. */
function manifestKinds(stack: SynthStack): string[] {
  const manifests = isRecord(stack.json.resource) ? stack.json.resource.kubernetes_manifest : undefined;
  if (!isRecord(manifests)) return [];
  return Object.values(manifests).flatMap((r) => (isRecord(r) && isRecord(r.manifest) && typeof r.manifest.kind === 'string' ? [r.manifest.kind] : []));
}

/**
 * What the commands themselves call beside Terraform: preflight's own checks,
 * the AWS CLI's EKS token, teardown's leftover check and its removal of the
 * controller's backend security group; on GCP also teardown's firewall and
 * orphaned backend service cleanups, deploy's CRD wait and its detach of a
 * Cloud Armor policy the config no longer asks for.
 */
export const COMMAND_NEEDS = {
  aws: [
    'sts:GetCallerIdentity',
    'eks:DescribeCluster',
    'iam:GetRole',
    // Preflight: a same-account attendee's user ARN exists (their roles with iam:GetRole).
    'iam:GetUser',
    'iam:ListRoles',
    'iam:ListPolicies',
    'iam:ListOpenIDConnectProviders',
    'iam:ListOpenIDConnectProviderTags',
    'ec2:DescribeNetworkInterfaces',
    // Preflight: each slot's Availability Zones, and the vCPUs of its running instances (quota L-1216C47A).
    'ec2:DescribeAvailabilityZones',
    'ec2:DescribeInstances',
    'elasticloadbalancing:DescribeLoadBalancers',
    'elasticloadbalancing:DescribeTargetGroups',
    'elasticloadbalancing:DescribeTags',
    'servicequotas:GetServiceQuota',
    // Teardown: the AWS Load Balancer Controller's shared backend security group it left (aws-backend-group-cleanup.ts).
    'ec2:DescribeSecurityGroups',
    'ec2:DescribeSecurityGroupRules',
    'ec2:RevokeSecurityGroupIngress',
    'ec2:DeleteSecurityGroup',
    // reap's search by hoplab's tags (lib/lab/leftovers/aws-tagged.ts): every cluster of a slot and its node groups; VPCs,
    // NAT gateways and Elastic IPs by tag (instances, load balancers and their tags are above).
    'eks:ListClusters',
    'eks:ListNodegroups',
    'ec2:DescribeVpcs',
    'ec2:DescribeNatGateways',
    'ec2:DescribeAddresses',
  ],
  // Every Google API call of the leftover check, the GKE cleanups, the CRD wait and preflight itself names its
  // permission in lib/kit/google/google-calls.ts; this is all of them. And using a project as the quota project (the
  // x-goog-user-project header hoplab and Google's client libraries send from ADC's quota_project_id) needs
  // serviceusage.services.use on it (gcloud auth application-default set-quota-project reference, read 2026-12-07);
  // roles/serviceusage.serviceUsageConsumer holds it.
  gcp: [...commandPermissions(), 'serviceusage.services.use'],
  gcpApis: ['serviceusage.googleapis.com', 'cloudresourcemanager.googleapis.com'],
} as const;

/** The deployer's permissions the given stacks need, sorted and without duplicates. */
export interface RequiredPermissions {
  readonly aws: readonly string[];
  readonly gcp: readonly string[];
  readonly gcpApis: readonly string[];
  /** `resource.<type>` / `data.<type>` found in the stacks with no entry in {@link RESOURCE_NEEDS}. */
  readonly unmapped: readonly string[];
}

/** Every `resource.<type>` and `data.<type>` of a synthesized stack. */
export function terraformTypes(stack: SynthStack): string[] {
  const types: string[] = [];
  for (const kind of ['resource', 'data'] as const) {
    const byType = stack.json[kind];
    if (isRecord(byType)) types.push(...Object.keys(byType).map((t) => `${kind}.${t}`));
  }
  return types;
}

const cloudOf = (stackName: string): 'aws' | 'gcp' | undefined => (/-aws-(cluster|lb)$/.test(stackName) ? 'aws' : /-gcp-(cluster|lb)$/.test(stackName) ? 'gcp' : undefined);

/**
 * The permissions the stacks need, from the resource types they synthesize,
 * plus what hoplab's commands call ({@link COMMAND_NEEDS}) for each cloud present.
 */
export function requiredPermissions(stacks: readonly SynthStack[]): RequiredPermissions {
  const aws = new Set<string>();
  const gcp = new Set<string>();
  const apis = new Set<string>();
  const unmapped = new Set<string>();
  for (const stack of stacks) {
    const cloud = cloudOf(stack.name);
    if (cloud === 'aws') COMMAND_NEEDS.aws.forEach((a) => aws.add(a));
    if (cloud === 'gcp') {
      COMMAND_NEEDS.gcp.forEach((p) => gcp.add(p));
      COMMAND_NEEDS.gcpApis.forEach((a) => apis.add(a));
    }
    for (const type of terraformTypes(stack)) {
      const entry = RESOURCE_NEEDS[type];
      const needs = entry && ((cloud && entry[cloud]) ?? entry.any);
      if (!needs) {
        unmapped.add(type);
        continue;
      }
      needs.aws?.forEach((a) => aws.add(a));
      needs.gcp?.forEach((p) => gcp.add(p));
      needs.gcpApis?.forEach((a) => apis.add(a));
    }
    if (cloud === 'gcp') for (const kind of manifestKinds(stack)) (MANIFEST_KIND_NEEDS[kind] ?? THIRD_PARTY_OBJECTS).forEach((p) => gcp.add(p));
  }
  const sorted = (set: Set<string>) => [...set].sort();
  return { aws: sorted(aws), gcp: sorted(gcp), gcpApis: sorted(apis), unmapped: sorted(unmapped) };
}
