import * as z from 'zod';
import { ANY_IPV4, parseCidr } from '../model/cidr';
import { AWS_DATAPATHS, CILIUM_LB_ALGORITHMS, GCP_DATAPATHS } from '../model/datapaths';
import { KNOWN_INSTANCE_TYPES } from '../model/eni-limits';
import { derivedZones, offeredRegions } from '../model/zones';
import { DEFAULT_EXPOSURES, EXPOSURE_MODES } from '../model/modes';
import { EKS_VERSIONS, LB_CONTROLLER_CHART_VERSIONS } from '../model/versions';
import { didYouMean } from './suggest';
import { EXPIRY_EXAMPLE } from './expiry';
import { AWS_IDENTITY_EXAMPLE, GCP_IDENTITY_EXAMPLE, isRefusal, parseGcpMember, parseIamPrincipal } from '../model/identities';

/** GKE release channels. */
export const GKE_RELEASE_CHANNELS = ['RAPID', 'REGULAR', 'STABLE', 'EXTENDED'] as const;

/** How the `<env>-gcp-lb` stack's kubernetes provider gets a short-lived credential for the GKE API. */
export const GKE_KUBERNETES_CREDENTIALS = ['gke-gcloud-auth-plugin', 'access-token'] as const;

/** The longest environment name: `<env>-gcp-cluster` must stay within GKE's 40-character cluster name limit with room for IAM role names. */
export const ENV_NAME_MAX = 20;

const cidrString = (example: string) =>
  z.string({ error: `must be an IPv4 CIDR block string, e.g. "${example}"` }).superRefine((value, ctx) => {
    const parsed = parseCidr(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: `${parsed.reason}` });
    }
  });

const count = (what: string, min: number, max: number) =>
  z
    .number({ error: `must be a whole number of ${what} from ${min} to ${max}` })
    .int({ error: `must be a whole number of ${what} from ${min} to ${max}` })
    .min(min, { error: `must be at least ${min} ${what} (allowed: ${min} to ${max})` })
    .max(max, { error: `must be at most ${max} ${what} (allowed: ${min} to ${max})` });

/** ` (did you mean "x"?)` for a likely typo of one of `values`, else nothing. */
const suggestion = (input: unknown, values: readonly string[]) => {
  const guess = didYouMean(input, values);
  return guess ? ` (${guess})` : '';
};

/** What a number where a version string belongs gets: YAML reads an unquoted 1.30 as the number 1.3. */
const NUMBER_NOT_VERSION = 'is a number, but versions and names are strings: quote it (YAML reads 1.30 as 1.3)';

const oneOf = <const T extends readonly [string, ...string[]]>(values: T, fix: string) =>
  z.enum(values, {
    error: (issue) =>
      typeof issue.input === 'number'
        ? `${NUMBER_NOT_VERSION}; allowed: ${values.map((v) => `"${v}"`).join(', ')}`
        : `is not supported${suggestion(issue.input, values)}; allowed: ${values.join(', ')}. ${fix}`,
  });

export const envName = z
  .string({ error: 'must be a string: a lowercase DNS label such as "lab"' })
  .regex(/^[a-z]([a-z0-9-]*[a-z0-9])?$/, {
    error: 'is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (e.g. "lab" or "team-a")',
  })
  .max(ENV_NAME_MAX, {
    error: `is longer than ${ENV_NAME_MAX} characters; cloud resource names are derived from it (GKE cluster names stop at 40): shorten it`,
  });

/** A cloud identity string checked by `parse` (from lib/model/identities.ts): its refusal is the message. */
const identity = (what: string, example: string, parse: (text: string) => object) =>
  z.string({ error: `must be ${what} string such as "${example}"` }).superRefine((value, ctx) => {
    const parsed = parse(value);
    if (isRefusal(parsed)) ctx.addIssue({ code: 'custom', message: parsed.reason });
  });

const awsRegion = z
  .string({ error: 'must be an AWS region name such as "us-east-1"' })
  .regex(/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d$/, { error: 'is not an AWS region name; use one such as "us-east-1" or "eu-west-1"' });

const availabilityZone = z.string({ error: 'must be an availability zone name such as "us-east-1a"' }).regex(/^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d[a-z]$/, {
  error: 'is not an availability zone name; use one such as "us-east-1a"',
});

/** A Google Cloud project ID: 6 to 30 lowercase letters, digits or hyphens. */
const gcpProjectId = z.string({ error: 'must be a Google Cloud project ID such as "my-lab-project"' }).regex(/^[a-z][a-z0-9-]{4,28}[a-z0-9]$/, {
  error: 'is not a Google Cloud project ID: 6 to 30 lowercase letters, digits or hyphens, starting with a letter and not ending with a hyphen',
});

const gcpRegion = z
  .string({ error: 'must be a Google Cloud region name such as "us-central1"' })
  .regex(/^[a-z]+-[a-z]+\d+$/, { error: 'is not a Google Cloud region name; use one such as "us-central1" or "europe-west1"' });

/** A 12-digit AWS account ID, as a string (YAML would read the digits as a number and drop leading zeroes). */
const awsAccountId = z
  .string({ error: 'must be a 12-digit AWS account ID in quotes, such as "111122223333" (unquoted, YAML reads it as a number)' })
  .regex(/^\d{12}$/, { error: 'is not an AWS account ID: 12 digits, such as "111122223333"' });

/**
 * The role hoplab assumes in each account of `aws.accounts` when none is named: the one AWS Organizations
 * creates in every member account it creates ("If you don't specify this parameter, the role name defaults to
 * OrganizationAccountAccessRole": Organizations API reference, CreateAccount, RoleName).
 */
export const DEFAULT_ACCOUNT_ROLE_NAME = 'OrganizationAccountAccessRole';

const ATTENDEE_EXAMPLE = `{ "name": "ann", "aws": "${AWS_IDENTITY_EXAMPLE}", "gcp": "${GCP_IDENTITY_EXAMPLE}" }`;

/** An attendee as an object: the name and the identities that get access to their environment only. */
export const attendeeObject = z.strictObject({
  name: envName.describe("The attendee's environment name (`<name>-aws-cluster` ...)."),
  aws: identity('an IAM role or user ARN', AWS_IDENTITY_EXAMPLE, parseIamPrincipal)
    .optional()
    .describe(
      "IAM role or user ARN (a path is fine; not an STS assumed-role ARN) that gets an EKS access entry in this attendee's cluster only: AmazonEKSViewPolicy for the cluster, AmazonEKSEditPolicy in namespace `hoplab`, and node get/list/cordon/drain.",
    ),
  gcp: identity('an IAM member', GCP_IDENTITY_EXAMPLE, parseGcpMember)
    .optional()
    .describe(
      "`user:<email>` or `serviceAccount:<email>` that gets roles/container.clusterViewer on the project (credentials only) and Kubernetes RBAC in this attendee's GKE cluster only: view, edit in namespace `hoplab`, node get/list/cordon/drain.",
    ),
  placement: z
    .strictObject(
      {
        aws: z
          .strictObject(
            {
              account: awsAccountId.optional().describe('One of `aws.accounts` (its `id`).'),
              region: awsRegion.optional().describe('One of `aws.regions` (or `aws.region` without that list).'),
            },
            { error: 'must be an object such as { "account": "111122223333", "region": "us-east-2" }' },
          )
          .optional()
          .describe("Where this attendee's AWS environment goes: an account, a region, or both; the rest is placed as for any attendee."),
        gcp: z
          .strictObject(
            {
              project: gcpProjectId.optional().describe('One of `gcp.projects` (or `gcp.project` without that list).'),
              region: gcpRegion.optional().describe('One of `gcp.regions` (or `gcp.region` without that list).'),
            },
            { error: 'must be an object such as { "project": "my-lab-2", "region": "us-east1" }' },
          )
          .optional()
          .describe("Where this attendee's GCP environment goes: a project, a region, or both."),
      },
      { error: 'must be an object such as { "aws": { "region": "us-east-2" }, "gcp": { "project": "my-lab-2" } }' },
    )
    .optional()
    .describe("Pins this attendee's environment to a slot: placed there before the others (docs/configuration.md, Placement)."),
});

/** An attendee: a name, or an object with the name and the identities that get access to their environment only. */
export const attendee = z.union([envName, attendeeObject], {
  // Neither shape fits; for an object, say which field is wrong (a field of the wrong type fails the whole object).
  error: (issue) => {
    const input = issue.input;
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      return `must be an attendee name such as "ann", or an object such as ${ATTENDEE_EXAMPLE}`;
    }
    if (typeof (input as { name?: unknown }).name !== 'string') {
      return 'needs a "name": a DNS label such as "ann" (its environment is named after it)';
    }
    const first = attendeeObject.safeParse(input).error?.issues[0];
    if (typeof first?.path[0] !== 'string') return `is not an attendee; use an object such as ${ATTENDEE_EXAMPLE}`;
    // An unknown field inside a nested object (placement.aws.acount) is named with its path too.
    // A field inside a nested object (placement.aws.region) is named with its path.
    let value: unknown = input;
    for (const key of first.path) value = value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    return `has "${first.path.join('.')}": ${JSON.stringify(value)}, which ${first.message}`;
  },
});

const endpointCidr = cidrString('203.0.113.0/24');

/** An AWS account environments may be placed in, and the role hoplab assumes there. */
const awsAccount = z.strictObject({
  id: awsAccountId.describe('The 12-digit account ID, in quotes.'),
  roleName: z
    .string({ error: `must be an IAM role name such as "${DEFAULT_ACCOUNT_ROLE_NAME}"` })
    .regex(/^[\w+=,.@-]{1,64}$/, { error: 'is not an IAM role name: 1 to 64 letters, digits and +=,.@_- (a name, not an ARN)' })
    .default(DEFAULT_ACCOUNT_ROLE_NAME)
    .describe(
      `The role the host's credentials assume in this account (\`arn:aws:iam::<id>:role/<roleName>\`). Default: ${DEFAULT_ACCOUNT_ROLE_NAME}, the role AWS Organizations creates in the member accounts it creates.`,
    ),
});

/** The default AWS region: the first of `aws.regions`, else us-east-1. */
export const DEFAULT_AWS_REGION = 'us-east-1';
/** The default Google Cloud region: the first of `gcp.regions`, else us-central1. */
export const DEFAULT_GCP_REGION = 'us-central1';

/** `aws.region` as the config means it: given, else the first of `aws.regions`, else us-east-1. */
export function effectiveAwsRegion(aws: { readonly region?: string; readonly regions?: readonly string[] }): string {
  return aws.region ?? aws.regions?.[0] ?? DEFAULT_AWS_REGION;
}

export const awsConfig = z
  .strictObject({
    region: awsRegion.optional().describe(`AWS region of the lab. Default: the first of \`aws.regions\`, else "${DEFAULT_AWS_REGION}".`),
    regions: z
      .array(awsRegion, { error: 'must be a list of AWS region names' })
      .min(1, { error: 'must list at least one region (e.g. ["us-east-1", "us-east-2"]), or be left out for aws.region alone' })
      .max(offeredRegions('aws').length, { error: `must list at most ${offeredRegions('aws').length} regions (the regions hoplab's zone table holds)` })
      .optional()
      .describe(
        "Regions environments may be placed in, in order: each account x region is a slot that takes as many environments as the default quotas allow (docs/configuration.md, Placement). Each must be a region of hoplab's zone table (lib/model/zones.ts).",
      ),
    accounts: z
      .array(awsAccount, { error: 'must be a list of accounts such as [{ "id": "111122223333" }]' })
      .min(1, { error: 'must list at least one account, or be left out to use the account of your credentials' })
      .max(50, { error: 'must list at most 50 accounts' })
      .optional()
      .describe(
        "AWS accounts environments may be placed in, in order; each environment's AWS provider assumes `arn:aws:iam::<id>:role/<roleName>` with the host's credentials (the state backend stays where `backend` says). Unset: the account of the host's credentials.",
      ),
    availabilityZones: z
      .array(availabilityZone, { error: 'must be a list of availability zone names' })
      .min(2, { error: 'must list at least two availability zones: EKS needs subnets in two AZs (e.g. ["us-east-1a", "us-east-1b"])' })
      .max(6, { error: 'must list at most six availability zones' })
      .optional()
      .describe(
        "Availability zones for subnets and nodes: at least two, all in `region` (EKS requires two), each a zone of hoplab's zone table. Default: the region's first two (us-east-1a, us-east-1b in us-east-1); with several `aws.regions`, derived per region and not settable. AWS maps zone names per account and EKS takes some zones only: preflight with credentials checks the account's own.",
      ),
    vpcCidr: cidrString('10.0.0.0/16').default('10.0.0.0/16').describe('VPC CIDR block, /16 to /24.'),
    publicSubnetCidrs: z.array(cidrString('10.0.224.0/23')).optional().describe('Public subnet per AZ (load balancers, NAT). Default: /(vpc+7) blocks from the top eighth of the VPC.'),
    privateSubnetCidrs: z.array(cidrString('10.0.0.0/19')).optional().describe("Private subnet per AZ (nodes and, through the VPC CNI, Pods). Default: the VPC's first /(vpc+3) blocks."),
    natGateways: oneOf(['single', 'one-per-az'], 'A lab normally uses "single".').default('single').describe('NAT gateways for the private subnets: one shared (cheap) or one per AZ (resilient).'),
    kubernetesVersion: oneOf(EKS_VERSIONS, 'Pick a version EKS supports today.').default('1.34').describe('EKS Kubernetes version.'),
    nodeInstanceType: z
      .string({ error: 'must be an EC2 instance type name such as "t3.medium"' })
      .refine((value) => KNOWN_INSTANCE_TYPES.includes(value), {
        error: `is not an instance type hoplab knows the ENI limits of; allowed: ${KNOWN_INSTANCE_TYPES.join(', ')}. Add its limits to lib/model/eni-limits.ts to use another`,
      })
      .default('t3.medium')
      .describe('EC2 instance type of the managed node group (its ENI limits set max Pods per node).'),
    nodeCount: count('nodes', 1, 50).default(3).describe('Nodes in the managed node group.'),
    endpointPublicAccessCidrs: z
      .array(endpointCidr, { error: 'must be a list of CIDR blocks' })
      .min(1, { error: 'must list at least one CIDR block (use ["0.0.0.0/0"] to allow any address)' })
      .default(['0.0.0.0/0'])
      .describe("CIDR blocks allowed to reach the public EKS API endpoint. Restrict to the workshop's addresses where you can."),
    clusterAdminArns: z
      // Checked as an attendee's identity is (an EKS access entry each): an STS session ARN gets the role's own ARN as the fix.
      .array(identity('an IAM role or user ARN', 'arn:aws:iam::123456789012:role/workshop-ci', parseIamPrincipal), { error: 'must be a list of IAM role or user ARNs' })
      .max(20, { error: 'must list at most 20 ARNs' })
      .default([])
      .describe(
        'IAM role or user ARNs (a path is fine; not an STS assumed-role ARN), besides the identity that creates the cluster, made cluster admins through EKS access entries: other hosts or CI runners that deploy or tear down the -lb stack.',
      ),
    loadBalancerController: z
      .strictObject({
        chartVersion: oneOf(LB_CONTROLLER_CHART_VERSIONS, 'hoplab ships the IAM policy of these releases only.').default('3.5.0'),
      })
      .prefault({})
      .describe('AWS Load Balancer Controller settings.'),
    datapath: oneOf(AWS_DATAPATHS, 'See docs/datapaths.md.')
      .default('iptables')
      .describe(
        'Who handles Service traffic on the nodes: kube-proxy in iptables (default), nftables (EKS 1.33 or later) or ipvs mode (deprecated upstream since Kubernetes 1.35), or Cilium in ENI mode replacing kube-proxy (eBPF). Switching to or from cilium recreates the cluster.',
      ),
    cilium: z
      .strictObject({
        loadBalancerAlgorithm: oneOf(CILIUM_LB_ALGORITHMS, 'Use "maglev" for consistent hashing.')
          .default('random')
          .describe("How Cilium picks a Service's backend: random, or Maglev consistent hashing."),
        hubble: z
          .boolean({ error: 'must be true or false' })
          .optional()
          .describe(
            'Default false. Hubble relay and UI (the chart pins their images), so attendees can watch flows inside the cluster: `cilium hubble port-forward` then `hubble observe --namespace hoplab`, or the UI through `kubectl -n kube-system port-forward svc/hubble-ui 12000:80`. See docs/datapaths.md.',
          ),
      })
      .optional()
      .describe('Cilium settings; only with aws.datapath "cilium".'),
  })
  // Defaults that depend on other fields: the region from aws.regions, the zones from the region (validate.ts reports a region the zone table cannot derive zones for).
  .transform((aws) => {
    const region = effectiveAwsRegion(aws);
    return { ...aws, region, availabilityZones: aws.availabilityZones ?? derivedZones('aws', region) ?? [] };
  })
  .prefault({});

/** A placeholder project ID, so a lab synthesizes without config; deploy refuses it. */
export const DEFAULT_GCP_PROJECT = 'hoplab-demo';

/** `gcp.project` as the config means it: given, else the first of `gcp.projects`, else the placeholder. */
export function effectiveGcpProject(gcp: { readonly project?: string; readonly projects?: readonly string[] }): string {
  return gcp.project ?? gcp.projects?.[0] ?? DEFAULT_GCP_PROJECT;
}

/** `gcp.region` as the config means it: given, else the first of `gcp.regions`, else us-central1. */
export function effectiveGcpRegion(gcp: { readonly region?: string; readonly regions?: readonly string[] }): string {
  return gcp.region ?? gcp.regions?.[0] ?? DEFAULT_GCP_REGION;
}

export const gcpConfig = z
  .strictObject({
    project: gcpProjectId.optional().describe(`Google Cloud project ID. Default: the first of \`gcp.projects\`, else the placeholder "${DEFAULT_GCP_PROJECT}" (synth only; deploy refuses it).`),
    projects: z
      .array(gcpProjectId, { error: 'must be a list of Google Cloud project IDs' })
      .min(1, { error: 'must list at least one project, or be left out for gcp.project alone' })
      .max(100, { error: 'must list at most 100 projects' })
      .optional()
      .describe(
        'Projects environments may be placed in, in order. Each project x region is a slot; the quotas that bind (networks) are per project, so a project takes as many environments as they allow, over all its regions.',
      ),
    region: gcpRegion.optional().describe(`Google Cloud region. Default: the first of \`gcp.regions\`, else "${DEFAULT_GCP_REGION}".`),
    regions: z
      .array(gcpRegion, { error: 'must be a list of Google Cloud region names' })
      .min(1, { error: 'must list at least one region (e.g. ["us-central1", "us-east1"]), or be left out for gcp.region alone' })
      .max(offeredRegions('gcp').length, { error: `must list at most ${offeredRegions('gcp').length} regions (the regions hoplab's zone table holds)` })
      .optional()
      .describe("Regions environments may be placed in, in order; each must be a region of hoplab's zone table (lib/model/zones.ts)."),
    zones: z
      .array(z.string({ error: 'must be a zone name such as "us-central1-a"' }).regex(/^[a-z]+-[a-z]+\d+-[a-z]$/, { error: 'is not a Google Cloud zone name; use one such as "us-central1-a"' }), {
        error: 'must be a list of zone names',
      })
      .min(1, { error: 'must list at least one zone (e.g. ["us-central1-a"])' })
      .max(4, { error: 'must list at most four zones' })
      .optional()
      .describe(
        "Zones for the node pool, all in `region`, each a zone of hoplab's zone table. A single zone makes a zonal (cheaper) cluster. Default: the region's first zone (us-central1-a in us-central1); with several `gcp.regions`, derived per region and not settable.",
      ),
    nodeSubnetCidr: cidrString('10.10.0.0/20').default('10.10.0.0/20').describe('Primary range of the node subnet.'),
    podCidr: cidrString('10.20.0.0/16').default('10.20.0.0/16').describe('Secondary range for Pod alias IPs.'),
    serviceCidr: cidrString('10.30.0.0/20').default('10.30.0.0/20').describe('Secondary range for Service cluster IPs.'),
    releaseChannel: oneOf(GKE_RELEASE_CHANNELS, 'REGULAR suits a lab.').default('REGULAR').describe('GKE release channel.'),
    kubernetesVersion: z
      .string({ error: (issue) => (typeof issue.input === 'number' ? `${NUMBER_NOT_VERSION}; use a prefix such as "1.33"` : 'must be a GKE version prefix such as "1.33"') })
      .regex(/^1\.\d{2}(\.\d+(-gke\.\d+)?)?$/, { error: 'is not a GKE version; use a prefix such as "1.33" or a full version such as "1.33.5-gke.1000"' })
      .optional()
      .describe('Minimum GKE master version (a prefix such as "1.33"), or the channel\'s default when unset.'),
    machineType: z
      .string({ error: 'must be a Compute Engine machine type such as "e2-standard-2"' })
      .regex(/^[a-z][a-z0-9]*-[a-z0-9-]+$/, { error: 'is not a Compute Engine machine type; use one such as "e2-standard-2"' })
      .default('e2-standard-2')
      .describe('Machine type of the node pool.'),
    nodeCount: count('nodes per zone', 1, 50).default(3).describe('Nodes per zone in the node pool.'),
    maxPodsPerNode: count('Pods', 8, 256).default(110).describe('Max Pods per node; sets the per-node alias range (110 -> /24). GKE allows 8 to 256.'),
    datapath: oneOf(GCP_DATAPATHS, 'See docs/datapaths.md.')
      .default('legacy')
      .describe('GKE datapath: legacy (kube-proxy, iptables) or dataplane-v2 (eBPF, Cilium, no kube-proxy). Fixed at creation: changing it recreates the cluster.'),
    observability: z
      .boolean({ error: 'must be true or false' })
      .default(false)
      .describe(
        'Dataplane V2 observability (managed Hubble): flow metrics and Hubble Relay in namespace gke-managed-dpv2-observability (`monitoring_config.advanced_datapath_observability_config`). Only with gcp.datapath "dataplane-v2". See docs/datapaths.md.',
      ),
    masterAuthorizedCidrs: z
      .array(endpointCidr, { error: 'must be a list of CIDR blocks' })
      .min(1, { error: 'must list at least one CIDR block (use ["0.0.0.0/0"] to allow any address)' })
      .default(['0.0.0.0/0'])
      .describe('CIDR blocks allowed to reach the GKE control plane (master authorized networks).'),
    kubernetesCredentials: oneOf(GKE_KUBERNETES_CREDENTIALS, 'Use "gke-gcloud-auth-plugin" unless the machine running Terraform has no gcloud.')
      .default('gke-gcloud-auth-plugin')
      .describe(
        'How the -lb stack authenticates to the cluster: the gke-gcloud-auth-plugin exec plugin with Application Default Credentials (no token in state), or an OAuth access token from `data google_client_config` (stored in the -lb state, valid for up to an hour).',
      ),
  })
  // Defaults that depend on other fields, as for aws: the project and region from the lists, the zone from the region.
  .transform((gcp) => {
    const region = effectiveGcpRegion(gcp);
    return { ...gcp, project: effectiveGcpProject(gcp), region, zones: gcp.zones ?? derivedZones('gcp', region) ?? [] };
  })
  .prefault({});

export const appConfig = z
  .strictObject({
    replicas: count('replicas', 1, 50).default(2).describe('Replicas of the demo app. Fewer than nodes, so a node without a Pod exists and the extra hop shows.'),
    image: z
      .string({ error: 'must be a container image reference' })
      .regex(/^([a-z0-9.-]+(:\d+)?\/)?[a-z0-9._-]+(\/[a-z0-9._-]+)*(:[A-Za-z0-9._-]+|@sha256:[a-f0-9]{64})$/, {
        error: 'is not a pinned image reference: name it with a tag or digest, e.g. "registry.k8s.io/echoserver:1.10"',
      })
      .default('registry.k8s.io/echoserver:1.10')
      .describe('Container image of the demo echo server: answers with Pod name, node name and client address.'),
    allowedSourceCidrs: z
      .array(cidrString('203.0.113.0/24'), { error: 'must be a list of CIDR blocks' })
      .min(1, { error: `must list at least one CIDR block (use ["${ANY_IPV4}"] to allow any address)` })
      .default([ANY_IPV4])
      .describe(
        "Client addresses every load balancer admits (default: any, as a workshop's attendees come from anywhere). EKS: the ALBs' and NLBs' security groups; GKE: the L4 Services' firewall rule, and for the Ingress and Gateway (external Application Load Balancers) a Cloud Armor security policy that answers other clients 403.",
      ),
  })
  .prefault({});

/** A value Google Cloud accepts as a label (and AWS as a tag): lowercase letters, digits, `_` and `-`, at most 63. */
const labelValue = (example: string) =>
  z.string({ error: `must be a string such as "${example}"` }).regex(/^[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?$/, {
    error: `is not usable as a cloud label value: use 1 to 63 lowercase letters, digits, "_" or "-", starting and ending with a letter or digit (e.g. "${example}")`,
  });

export const workshopConfig = z
  .strictObject({
    name: labelValue('k8s-networking-101').default('hoplab').describe('Workshop name: tag/label `hoplab-workshop` on every resource.'),
    owner: labelValue('jane-doe').default('workshop-host').describe('Who answers for the resources: tag/label `hoplab-owner` on every resource.'),
    expiresAt: z
      // The example in these messages is the host's own tomorrow (EXPIRY_EXAMPLE, filled in by validateConfig).
      .string({ error: `must be an ISO 8601 UTC time such as ${EXPIRY_EXAMPLE}` })
      .superRefine((value, ctx) => {
        const shape = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:(\d{2}))?Z$/.exec(value);
        const parsed = new Date(value);
        // Date.parse rolls 2026-02-31 over to March; a real date reads back the same.
        if (!shape || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 16) !== value.slice(0, 16)) {
          ctx.addIssue({ code: 'custom', message: `is not a real ISO 8601 UTC time; write it as ${EXPIRY_EXAMPLE}` });
        }
      })
      .optional()
      .describe('When the environments may be deleted (UTC): tag/label `hoplab-expires`. Unset: "unset".'),
    durationHours: z
      .number({ error: 'must be a number of hours from 1 to 720' })
      .min(1, { error: 'must be at least 1 hour (allowed: 1 to 720)' })
      .max(720, { error: 'must be at most 720 hours (allowed: 1 to 720)' })
      .default(8)
      .describe('Planned length of the workshop, for the cost estimate printed before deploying.'),
  })
  .prefault({});

/** Environments per slot (`placement.perSlot`). */
const perSlotCount = count('environments', 1, 100);

const required = (what: string) => (issue: { input?: unknown }) => issue.input === undefined ? `is required: ${what}` : `must be a string: ${what}`;

const s3Bucket = z
  .string({ error: required('name an existing S3 bucket for the state files') })
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'is not an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens' });
const gcsBucket = z
  .string({ error: required('name an existing Cloud Storage bucket for the state files') })
  .regex(/^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/, { error: 'is not a Cloud Storage bucket name: 3 to 63 lowercase letters, digits, dots, "_" and "-"' });
const statePrefix = z
  .string({ error: 'must be a path prefix such as "hoplab"' })
  .regex(/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/, { error: 'is not a path prefix: use letters, digits, ".", "_", "-" and "/" between parts (e.g. "workshops/2026-12")' });

export const BACKEND_TYPES = ['local', 's3', 'gcs'] as const;

export const backendConfig = z
  .discriminatedUnion(
    'type',
    [
      z.strictObject({ type: z.literal('local') }),
      z.strictObject({
        type: z.literal('s3'),
        bucket: s3Bucket.describe('Existing S3 bucket for the state files.'),
        region: z
          .string({ error: required('the AWS region of the bucket, e.g. "us-east-1"') })
          .pipe(awsRegion)
          .describe('Region of the bucket.'),
        keyPrefix: statePrefix.default('hoplab').describe('State key prefix: each stack is `<keyPrefix>/<stack>.tfstate`.'),
      }),
      z.strictObject({
        type: z.literal('gcs'),
        bucket: gcsBucket.describe('Existing Cloud Storage bucket for the state files.'),
        prefix: statePrefix.default('hoplab').describe('State prefix: each stack is `<prefix>/<stack>/default.tfstate`.'),
      }),
    ],
    {
      error: (issue) =>
        issue.input !== null && typeof issue.input === 'object'
          ? `is not a backend type${suggestion((issue.input as { type?: unknown }).type, BACKEND_TYPES)}; allowed: ${BACKEND_TYPES.join(
              ', ',
            )} (e.g. { "type": "s3", "bucket": "my-state", "region": "us-east-1" })`
          : `must be an object whose "type" is one of: ${BACKEND_TYPES.join(', ')} (e.g. { "type": "s3", "bucket": "my-state", "region": "us-east-1" })`,
    },
  )
  .default({ type: 'local' });

export const labConfig = z.strictObject({
  /** JSON Schema reference for editors; ignored by hoplab. */
  $schema: z.string().optional().describe('JSON Schema reference for editors; ignored by hoplab.'),
  /** Environment name: prefixes every stack (`<name>-aws-cluster`) and cloud resource. */
  name: envName.default('lab').describe('Environment name: prefixes every stack (`<name>-aws-cluster`) and cloud resource.'),
  /** Exposure modes to create, on both clouds. */
  exposures: z
    .array(oneOf(EXPOSURE_MODES, 'See docs/exposures.md.'), { error: 'must be a list of exposure modes' })
    .min(1, { error: `must list at least one exposure mode (${EXPOSURE_MODES.join(', ')})` })
    .default(() => [...DEFAULT_EXPOSURES])
    .describe('Exposure modes to create, on both clouds where the cloud offers them (GKE has no native-l4).'),
  aws: awsConfig.describe('Amazon EKS environment: VPC, cluster, nodes, AWS Load Balancer Controller.'),
  gcp: gcpConfig.describe('Google GKE environment: VPC-native cluster, node pool, ranges.'),
  app: appConfig.describe('The demo echo app both clouds run.'),
  workshop: workshopConfig.describe('The workshop these environments are for: tags, expiry, cost estimate.'),
  attendees: z
    .array(attendee, { error: 'must be a list of attendees: names, or objects with a name and cloud identities' })
    .min(1, { error: 'must list at least one attendee, or be left out for a single environment named by `name`' })
    .max(100, { error: 'must list at most 100 attendees' })
    .optional()
    .describe(
      'One environment per attendee, named after them (`<attendee>-aws-cluster` ...): a name, or an object with the name and the cloud identities that get access to that environment only (docs/attendees.md). Names and objects mix. Unset: one environment named `name`.',
    ),
  placement: z
    .strictObject({
      perSlot: z
        .union(
          [
            perSlotCount,
            z.strictObject({
              aws: perSlotCount.optional().describe('Environments per AWS slot (account x region). Default: derived from the default quotas.'),
              gcp: perSlotCount.optional().describe('Environments per GCP slot (project x region). Default: derived from the default quotas.'),
            }),
          ],
          {
            error: 'must be a whole number of environments from 1 to 100, or an object such as { "aws": 4, "gcp": 8 }',
          },
        )
        .optional()
        .describe(
          'Environments one slot (an AWS account x region, a GCP project x region) takes, for both clouds or per cloud. Default: derived from the default quotas (docs/real-deploy.md): set it after raising the quotas.',
        ),
    })
    .optional()
    .describe('How environments are placed in the slots of aws.accounts x aws.regions and gcp.projects x gcp.regions (docs/configuration.md, Placement).'),
  allowWorldOpenEndpoints: z
    .boolean({ error: 'must be true or false' })
    .default(false)
    .describe(
      'Let a real deploy open the cluster API endpoints to any address (aws.endpointPublicAccessCidrs or gcp.masterAuthorizedCidrs containing a /0 block, the default). Synth, local and emulator runs never need it.',
    ),
  backend: backendConfig.describe('Where Terraform keeps state: local files (default), S3 with a native lock file, or GCS. One state per stack.'),
  deploy: z
    .strictObject({
      parallelism: z
        .union(
          [
            z.literal('auto'),
            z
              .number()
              .int({ error: 'must be a whole number of stacks from 1 to 32, or "auto"' })
              .min(1, { error: 'must be at least 1 (allowed: 1 to 32)' })
              .max(32, { error: 'must be at most 32 (allowed: 1 to 32)' }),
          ],
          { error: 'must be a whole number of stacks from 1 to 32, or "auto"' },
        )
        .default(4)
        .describe('Stacks `npm run deploy` and `teardown` run at once (1 to 32), or "auto": as many as the free memory holds, from the measured size of the Terraform providers each stack loads.'),
    })
    .prefault({})
    .describe('How `npm run deploy` and `npm run teardown` run.'),
});

/** The lab config as written in a file: every field optional. */
export type LabConfigInput = z.input<typeof labConfig>;
/** The lab config after defaults: every field present. */
export type LabConfig = z.output<typeof labConfig>;
export type AwsConfig = LabConfig['aws'];
export type GcpConfig = LabConfig['gcp'];
export type BackendConfig = LabConfig['backend'];
/** One entry of `attendees`: a name, or an object with the name and cloud identities. */
export type Attendee = z.output<typeof attendee>;
