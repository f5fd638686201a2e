import { formatProblem } from '../../lib/config/problems';
import { validateConfig } from '../../lib/config/validate';

/**
 * One row per validation rule: GIVEN a config with one mistake, WHEN it is
 * validated, THEN exactly these messages come back (field, value, what is
 * allowed and how to fix it), in this order.
 */
const CASES: [string, unknown, string[]][] = [
  ['name', { name: 'Lab_1' }, ['name: "Lab_1" is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (e.g. "lab" or "team-a")']],
  [
    'name long',
    { name: 'a-very-long-environment-name' },
    ['name: "a-very-long-environment-name" is longer than 20 characters; cloud resource names are derived from it (GKE cluster names stop at 40): shorten it'],
  ],
  [
    'unknown top',
    { nmae: 'x' },
    ['nmae: "x" is in an unknown field "nmae": did you mean "name"? (allowed fields here: name, exposures, aws, gcp, app, workshop, attendees, placement, allowWorldOpenEndpoints, backend, deploy)'],
  ],
  [
    'unknown aws',
    { aws: { vpcCIDR: '10.0.0.0/16' } },
    [
      'aws.vpcCIDR: "10.0.0.0/16" is in an unknown field "vpcCIDR": did you mean "vpcCidr"? (allowed fields here: region, regions, accounts, availabilityZones, vpcCidr, publicSubnetCidrs, privateSubnetCidrs, natGateways, kubernetesVersion, nodeInstanceType, nodeCount, endpointPublicAccessCidrs, clusterAdminArns, loadBalancerController, datapath, cilium)',
    ],
  ],
  ['not object', 'hello', ['(config): "hello" must be an object of lab settings (see schema/hoplab.config.schema.json)']],
  [
    'exposures bad',
    { exposures: ['native', 'ingress'] },
    ['exposures[1]: "ingress" is not supported; allowed: native, gateway, nodeport, nodeport-l4, nodeport-local, native-l4. See docs/exposures.md.'],
  ],
  ['exposures empty', { exposures: [] }, ['exposures: [] must list at least one exposure mode (native, gateway, nodeport, nodeport-l4, nodeport-local, native-l4)']],
  ['exposures dup', { exposures: ['native', 'native'] }, ['exposures: ["native","native"] lists "native" more than once; list each exposure mode once']],
  ['region', { aws: { region: 'useast1' } }, ['aws.region: "useast1" is not an AWS region name; use one such as "us-east-1" or "eu-west-1"']],
  [
    'azs one',
    { aws: { availabilityZones: ['us-east-1a'] } },
    ['aws.availabilityZones: ["us-east-1a"] must list at least two availability zones: EKS needs subnets in two AZs (e.g. ["us-east-1a", "us-east-1b"])'],
  ],
  [
    'az region',
    { aws: { availabilityZones: ['us-east-1a', 'us-west-2b'] } },
    ['aws.availabilityZones[1]: "us-west-2b" is not in region "us-east-1", whose zones are us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e and us-east-1f: use those, or change aws.region'],
  ],
  ['az dup', { aws: { availabilityZones: ['us-east-1a', 'us-east-1a'] } }, ['aws.availabilityZones: ["us-east-1a","us-east-1a"] lists "us-east-1a" more than once; list each zone once']],
  ['az shape', { aws: { availabilityZones: ['us-east-1a', 'east'] } }, ['aws.availabilityZones[1]: "east" is not an availability zone name; use one such as "us-east-1a"']],
  ['vpc syntax', { aws: { vpcCidr: '10.0.0.0/33' } }, ['aws.vpcCidr: "10.0.0.0/33" is not an IPv4 CIDR block (each octet 0-255 without leading zeroes, prefix 0-32)']],
  ['vpc octet', { aws: { vpcCidr: '10.0.300.0/16' } }, ['aws.vpcCidr: "10.0.300.0/16" is not an IPv4 CIDR block (each octet 0-255 without leading zeroes, prefix 0-32)']],
  ['vpc host bits', { aws: { vpcCidr: '10.0.0.5/16' } }, ['aws.vpcCidr: "10.0.0.5/16" has host bits set; the network address of that block is "10.0.0.0/16"']],
  ['vpc too big', { aws: { vpcCidr: '10.0.0.0/8' } }, ['aws.vpcCidr: "10.0.0.0/8" has prefix /8; AWS allows VPCs from /16 to /24 (hoplab\'s default layout needs /16 to /20)']],
  [
    'vpc too small default',
    { aws: { vpcCidr: '10.0.0.0/22' } },
    ['aws.vpcCidr: "10.0.0.0/22" is too small for the default subnet layout (at most /20); use a larger VPC or set both aws.publicSubnetCidrs and aws.privateSubnetCidrs'],
  ],
  [
    'vpc /21 default gives /28 public subnets',
    { aws: { vpcCidr: '10.0.0.0/21' } },
    ['aws.vpcCidr: "10.0.0.0/21" is too small for the default subnet layout (at most /20); use a larger VPC or set both aws.publicSubnetCidrs and aws.privateSubnetCidrs'],
  ],
  [
    'public subnet /28',
    { aws: { publicSubnetCidrs: ['10.0.224.0/28', '10.0.226.0/23'] } },
    [
      'aws.publicSubnetCidrs[0]: "10.0.224.0/28" has prefix /28; public subnets must be /27 or larger (an ALB needs at least 8 free addresses in each subnet, and the AWS Load Balancer Controller skips subnets with fewer); use a /27 or larger block',
    ],
  ],
  [
    'subnet count',
    { aws: { publicSubnetCidrs: ['10.0.224.0/23'] } },
    ['aws.publicSubnetCidrs: ["10.0.224.0/23"] has 1 block for 2 availability zones; give one block per zone in aws.availabilityZones, in the same order'],
  ],
  [
    'subnet outside',
    { aws: { privateSubnetCidrs: ['10.0.0.0/19', '10.1.0.0/19'] } },
    ['aws.privateSubnetCidrs[1]: "10.1.0.0/19" is not inside aws.vpcCidr (10.0.0.0/16); pick a block inside the VPC'],
  ],
  [
    'subnet overlap',
    { aws: { privateSubnetCidrs: ['10.0.0.0/19', '10.0.16.0/20'] } },
    ['aws.privateSubnetCidrs[1]: "10.0.16.0/20" overlaps aws.privateSubnetCidrs[0] (10.0.0.0/19); give each range its own addresses'],
  ],
  [
    'subnet public overlap',
    { aws: { publicSubnetCidrs: ['10.0.0.0/24', '10.0.226.0/23'] } },
    ['aws.privateSubnetCidrs[0]: "10.0.0.0/19" overlaps aws.publicSubnetCidrs[0] (10.0.0.0/24); give each range its own addresses'],
  ],
  ['subnet prefix', { aws: { publicSubnetCidrs: ['10.0.224.0/29', '10.0.226.0/23'] } }, ['aws.publicSubnetCidrs[0]: "10.0.224.0/29" has prefix /29; AWS allows subnets from /16 to /28']],
  [
    'subnet capacity',
    { aws: { privateSubnetCidrs: ['10.0.0.0/27', '10.0.64.0/27'], nodeCount: 6 } },
    [
      'aws.privateSubnetCidrs[0]: "10.0.0.0/27" has 27 usable addresses but 3 t3.medium nodes can claim 54 (the VPC CNI gives each node up to 3 ENIs x 6 IPv4 addresses); use a larger block or fewer nodes',
      'aws.privateSubnetCidrs[1]: "10.0.64.0/27" has 27 usable addresses but 3 t3.medium nodes can claim 54 (the VPC CNI gives each node up to 3 ENIs x 6 IPv4 addresses); use a larger block or fewer nodes',
    ],
  ],
  ['k8s version', { aws: { kubernetesVersion: '1.20' } }, ['aws.kubernetesVersion: "1.20" is not supported; allowed: 1.31, 1.32, 1.33, 1.34, 1.35. Pick a version EKS supports today.']],
  [
    'instance type',
    { aws: { nodeInstanceType: 'x9.huge' } },
    [
      'aws.nodeInstanceType: "x9.huge" is not an instance type hoplab knows the ENI limits of; allowed: c5.large, c6i.large, m5.large, m5.xlarge, m6i.large, m6i.xlarge, m7i.large, r5.large, t3.large, t3.medium, t3.small, t3.xlarge, t3a.large, t3a.medium. Add its limits to lib/model/eni-limits.ts to use another',
    ],
  ],
  ['node count', { aws: { nodeCount: 0 } }, ['aws.nodeCount: 0 must be at least 1 nodes (allowed: 1 to 50)']],
  ['node count frac', { aws: { nodeCount: 2.5 } }, ['aws.nodeCount: 2.5 must be a whole number of nodes from 1 to 50']],
  ['node count string', { aws: { nodeCount: '3' } }, ['aws.nodeCount: "3" must be a whole number of nodes from 1 to 50']],
  ['node count max', { aws: { nodeCount: 51 } }, ['aws.nodeCount: 51 must be at most 50 nodes (allowed: 1 to 50)']],
  ['endpoint cidrs empty', { aws: { endpointPublicAccessCidrs: [] } }, ['aws.endpointPublicAccessCidrs: [] must list at least one CIDR block (use ["0.0.0.0/0"] to allow any address)']],
  [
    'endpoint cidr bad',
    { aws: { endpointPublicAccessCidrs: ['203.0.113.7'] } },
    ['aws.endpointPublicAccessCidrs[0]: "203.0.113.7" is not an IPv4 CIDR block (expected a.b.c.d/n, e.g. "10.0.0.0/16")'],
  ],
  ['nat', { aws: { natGateways: 'none' } }, ['aws.natGateways: "none" is not supported; allowed: single, one-per-az. A lab normally uses "single".']],
  [
    'chart',
    { aws: { loadBalancerController: { chartVersion: '1.7.1' } } },
    ['aws.loadBalancerController.chartVersion: "1.7.1" is not supported; allowed: 3.5.0. hoplab ships the IAM policy of these releases only.'],
  ],
  [
    'gcp project',
    { gcp: { project: 'My_Project' } },
    ['gcp.project: "My_Project" is not a Google Cloud project ID: 6 to 30 lowercase letters, digits or hyphens, starting with a letter and not ending with a hyphen'],
  ],
  ['gcp region', { gcp: { region: 'us central' } }, ['gcp.region: "us central" is not a Google Cloud region name; use one such as "us-central1" or "europe-west1"']],
  ['gcp zone shape', { gcp: { zones: ['uscentral1a'] } }, ['gcp.zones[0]: "uscentral1a" is not a Google Cloud zone name; use one such as "us-central1-a"']],
  [
    'gcp zone region',
    { gcp: { zones: ['us-east1-b'] } },
    ['gcp.zones[0]: "us-east1-b" is not in region "us-central1", whose zones are us-central1-a, us-central1-b, us-central1-c and us-central1-f: use those, or change gcp.region'],
  ],
  ['gcp zone dup', { gcp: { zones: ['us-central1-a', 'us-central1-a'] } }, ['gcp.zones: ["us-central1-a","us-central1-a"] lists "us-central1-a" more than once; list each zone once']],
  ['gcp zones empty', { gcp: { zones: [] } }, ['gcp.zones: [] must list at least one zone (e.g. ["us-central1-a"])']],
  ['gcp overlap', { gcp: { podCidr: '10.10.0.0/16' } }, ['gcp.podCidr: "10.10.0.0/16" overlaps gcp.nodeSubnetCidr (10.10.0.0/20); give each range its own addresses']],
  [
    'gcp pod capacity',
    { gcp: { podCidr: '10.20.0.0/23' } },
    [
      'gcp.podCidr: "10.20.0.0/23" holds 2 nodes at 110 max Pods per node (a /24 alias range each) but 3 nodes are configured (gcp.nodeCount 3 x 1 zone); use a larger range, fewer nodes or a lower gcp.maxPodsPerNode',
    ],
  ],
  ['gcp node subnet small', { gcp: { nodeSubnetCidr: '10.10.0.0/30' } }, ['gcp.nodeSubnetCidr: "10.10.0.0/30" has prefix /30; Google Cloud subnets must be /29 or larger']],
  ['gcp node subnet capacity', { gcp: { nodeSubnetCidr: '10.10.0.0/29', nodeCount: 5 } }, ['gcp.nodeSubnetCidr: "10.10.0.0/29" has 4 usable addresses for 5 nodes; use a larger block or fewer nodes']],
  ['gcp service small', { gcp: { serviceCidr: '10.30.0.0/28' } }, ['gcp.serviceCidr: "10.30.0.0/28" has prefix /28; GKE needs a Service range of /27 or larger']],
  ['gcp max pods', { gcp: { maxPodsPerNode: 300 } }, ['gcp.maxPodsPerNode: 300 must be at most 256 Pods (allowed: 8 to 256)']],
  ['gcp channel', { gcp: { releaseChannel: 'FAST' } }, ['gcp.releaseChannel: "FAST" is not supported; allowed: RAPID, REGULAR, STABLE, EXTENDED. REGULAR suits a lab.']],
  ['gcp version', { gcp: { kubernetesVersion: 'latest' } }, ['gcp.kubernetesVersion: "latest" is not a GKE version; use a prefix such as "1.33" or a full version such as "1.33.5-gke.1000"']],
  ['gcp machine', { gcp: { machineType: 'E2 Standard' } }, ['gcp.machineType: "E2 Standard" is not a Compute Engine machine type; use one such as "e2-standard-2"']],
  ['gcp dpv2 renamed true', { gcp: { dataplaneV2: true } }, ['gcp.dataplaneV2: true was replaced by gcp.datapath; write gcp.datapath: "dataplane-v2" instead (allowed: legacy, dataplane-v2)']],
  ['gcp dpv2 renamed false', { gcp: { dataplaneV2: false } }, ['gcp.dataplaneV2: false was replaced by gcp.datapath; write gcp.datapath: "legacy" instead (allowed: legacy, dataplane-v2)']],
  [
    'gcp dpv2 renamed other',
    { gcp: { dataplaneV2: 'yes' } },
    ['gcp.dataplaneV2: "yes" was replaced by gcp.datapath; write gcp.datapath: "legacy" or "dataplane-v2" instead (allowed: legacy, dataplane-v2)'],
  ],
  ['gcp datapath', { gcp: { datapath: 'advanced' } }, ['gcp.datapath: "advanced" is not supported; allowed: legacy, dataplane-v2. See docs/datapaths.md.']],
  ['aws datapath', { aws: { datapath: 'ebpf' } }, ['aws.datapath: "ebpf" is not supported; allowed: iptables, nftables, ipvs, cilium. See docs/datapaths.md.']],
  [
    'aws nftables old',
    { aws: { datapath: 'nftables', kubernetesVersion: '1.32' } },
    [
      'aws.datapath: "nftables" needs EKS 1.33 or later (the kube-proxy add-on offers mode "nftables" from Kubernetes 1.33), but aws.kubernetesVersion is "1.32"; set aws.kubernetesVersion to "1.33" or later, or use "iptables" or "ipvs"',
    ],
  ],
  [
    'aws cilium without cilium',
    { aws: { datapath: 'ipvs', cilium: { loadBalancerAlgorithm: 'maglev' } } },
    ['aws.cilium: {"loadBalancerAlgorithm":"maglev"} only applies with aws.datapath "cilium", but aws.datapath is "ipvs"; set aws.datapath: "cilium" or remove aws.cilium'],
  ],
  [
    'aws cilium algorithm',
    { aws: { datapath: 'cilium', cilium: { loadBalancerAlgorithm: 'round-robin' } } },
    ['aws.cilium.loadBalancerAlgorithm: "round-robin" is not supported; allowed: random, maglev. Use "maglev" for consistent hashing.'],
  ],
  [
    'aws cilium unknown',
    { aws: { datapath: 'cilium', cilium: { dsr: true } } },
    ['aws.cilium.dsr: true is in an unknown field "dsr"; allowed fields here: loadBalancerAlgorithm, hubble. Check its spelling or remove it'],
  ],
  [
    'aws hubble without cilium',
    { aws: { cilium: { hubble: true } } },
    ['aws.cilium: {"loadBalancerAlgorithm":"random","hubble":true} only applies with aws.datapath "cilium", but aws.datapath is "iptables"; set aws.datapath: "cilium" or remove aws.cilium'],
  ],
  ['aws hubble type', { aws: { datapath: 'cilium', cilium: { hubble: 'yes' } } }, ['aws.cilium.hubble: "yes" must be true or false']],
  [
    'gcp observability without dataplane-v2',
    { gcp: { observability: true } },
    [
      'gcp.observability: true only applies with gcp.datapath "dataplane-v2" (managed Hubble is part of GKE Dataplane V2), but gcp.datapath is "legacy"; set gcp.datapath: "dataplane-v2" or remove gcp.observability',
    ],
  ],
  ['gcp observability type', { gcp: { datapath: 'dataplane-v2', observability: 1 } }, ['gcp.observability: 1 must be true or false']],
  ['allow world open', { allowWorldOpenEndpoints: 'yes' }, ['allowWorldOpenEndpoints: "yes" must be true or false']],
  ['replicas', { app: { replicas: 0 } }, ['app.replicas: 0 must be at least 1 replicas (allowed: 1 to 50)']],
  ['image', { app: { image: 'nginx' } }, ['app.image: "nginx" is not a pinned image reference: name it with a tag or digest, e.g. "registry.k8s.io/echoserver:1.10"']],
  [
    'attendee name',
    { attendees: ['ann', 'Bob_1'] },
    ['attendees[1]: "Bob_1" is not a DNS label: use lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (e.g. "lab" or "team-a")'],
  ],
  [
    'attendee too long',
    { attendees: ['a-very-long-attendee-name-x'] },
    ['attendees[0]: "a-very-long-attendee-name-x" is longer than 20 characters; cloud resource names are derived from it (GKE cluster names stop at 40): shorten it'],
  ],
  ['attendees empty', { attendees: [] }, ['attendees: [] must list at least one attendee, or be left out for a single environment named by `name`']],
  [
    'attendee duplicate',
    { attendees: ['ann', 'bob', 'ann'] },
    ['attendees[2]: "ann" is listed more than once (first as attendees[0]); each attendee needs a unique name because stacks and cloud resources are named after it (e.g. "ann-2")'],
  ],
  [
    'attendees too many',
    { attendees: Array.from({ length: 101 }, (_, i) => `a${i}`) },
    [
      'attendees: ["a0","a1","a2","a3","a4","a5","a6","a7","a8","a9","a10","a11","a12","a13","a14","a15","a16","a17","a18","a19","a20","a21","a22","a23","a24","a25","a26","a27","a28","a29","a30","a31","a32","a33","a34","a35","a36","a37","a38","a39","a40","a41","a42","a43","a44","a45","a46","a47","a48","a49","a50","a51","a52","a53","a54","a55","a56","a57","a58","a59","a60","a61","a62","a63","a64","a65","a66","a67","a68","a69","a70","a71","a72","a73","a74","a75","a76","a77","a78","a79","a80","a81","a82","a83","a84","a85","a86","a87","a88","a89","a90","a91","a92","a93","a94","a95","a96","a97","a98","a99","a100"] must list at most 100 attendees',
    ],
  ],
  [
    'workshop owner',
    { workshop: { owner: 'Jane@example.com' } },
    ['workshop.owner: "Jane@example.com" is not usable as a cloud label value: use 1 to 63 lowercase letters, digits, "_" or "-", starting and ending with a letter or digit (e.g. "jane-doe")'],
  ],
  [
    'workshop name',
    { workshop: { name: '-x' } },
    ['workshop.name: "-x" is not usable as a cloud label value: use 1 to 63 lowercase letters, digits, "_" or "-", starting and ending with a letter or digit (e.g. "k8s-networking-101")'],
  ],
  // The example is the day after the validation's date (NOW, below), 18:00 UTC.
  ['workshop expiry shape', { workshop: { expiresAt: 'tomorrow' } }, ['workshop.expiresAt: "tomorrow" is not a real ISO 8601 UTC time; write it as "2026-12-08T18:00:00Z"']],
  ['workshop expiry date', { workshop: { expiresAt: '2026-02-30T10:00:00Z' } }, ['workshop.expiresAt: "2026-02-30T10:00:00Z" is not a real ISO 8601 UTC time; write it as "2026-12-08T18:00:00Z"']],
  ['workshop expiry type', { workshop: { expiresAt: 20261208 } }, ['workshop.expiresAt: 20261208 must be an ISO 8601 UTC time such as "2026-12-08T18:00:00Z"']],
  ['workshop duration', { workshop: { durationHours: 0 } }, ['workshop.durationHours: 0 must be at least 1 hour (allowed: 1 to 720)']],
  ['backend type', { backend: { type: 'ftp' } }, ['backend.type: "ftp" is not a backend type; allowed: local, s3, gcs (e.g. { "type": "s3", "bucket": "my-state", "region": "us-east-1" })']],
  [
    'backend s3 missing',
    { backend: { type: 's3' } },
    ['backend.bucket: (missing) is required: name an existing S3 bucket for the state files', 'backend.region: (missing) is required: the AWS region of the bucket, e.g. "us-east-1"'],
  ],
  [
    'backend s3 bucket',
    { backend: { type: 's3', bucket: 'Bad_Bucket', region: 'us-east-1' } },
    ['backend.bucket: "Bad_Bucket" is not an S3 bucket name: 3 to 63 lowercase letters, digits, dots and hyphens'],
  ],
  [
    'backend gcs prefix',
    { backend: { type: 'gcs', bucket: 'ws-state', prefix: '/abs' } },
    ['backend.prefix: "/abs" is not a path prefix: use letters, digits, ".", "_", "-" and "/" between parts (e.g. "workshops/2026-12")'],
  ],
  ['backend extra', { backend: { type: 'local', path: 'x' } }, ['backend.path: "x" is in an unknown field "path"; allowed fields here: type. Check its spelling or remove it']],
  ['deploy parallelism', { deploy: { parallelism: 64 } }, ['deploy.parallelism: 64 must be at most 32 (allowed: 1 to 32)']],
  [
    'cluster admin arn',
    { aws: { clusterAdminArns: ['arn:aws:iam::1234:role/x'] } },
    [
      'aws.clusterAdminArns[0]: "arn:aws:iam::1234:role/x" is not an IAM role or user ARN; use one such as "arn:aws:iam::123456789012:role/ann" (a path is fine: "arn:aws:iam::123456789012:role/workshop/ann")',
    ],
  ],
  [
    'cluster admin as an STS session ARN',
    { aws: { clusterAdminArns: ['arn:aws:sts::123456789012:assumed-role/WorkshopCI/GitHubActions'] } },
    [
      'aws.clusterAdminArns[0]: "arn:aws:sts::123456789012:assumed-role/WorkshopCI/GitHubActions" is an STS assumed-role (session) ARN, which EKS access entries refuse; use the role\'s own ARN, "arn:aws:iam::123456789012:role/WorkshopCI" (with the role\'s path if it has one, as SSO roles do: `aws iam get-role --role-name WorkshopCI --query Role.Arn` prints it)',
    ],
  ],
  ['cluster admin not a string', { aws: { clusterAdminArns: [7] } }, ['aws.clusterAdminArns[0]: 7 must be an IAM role or user ARN string such as "arn:aws:iam::123456789012:role/workshop-ci"']],
  [
    'cluster admin duplicate',
    { aws: { clusterAdminArns: ['arn:aws:iam::123456789012:role/ci', 'arn:aws:iam::123456789012:role/ci'] } },
    ['aws.clusterAdminArns: ["arn:aws:iam::123456789012:role/ci","arn:aws:iam::123456789012:role/ci"] lists "arn:aws:iam::123456789012:role/ci" more than once; list each ARN once'],
  ],
  [
    'kubernetes version as a YAML number',
    { aws: { kubernetesVersion: 1.3 } },
    ['aws.kubernetesVersion: 1.3 is a number, but versions and names are strings: quote it (YAML reads 1.30 as 1.3); allowed: "1.31", "1.32", "1.33", "1.34", "1.35"'],
  ],
  [
    'GKE version as a YAML number',
    { gcp: { kubernetesVersion: 1.3 } },
    ['gcp.kubernetesVersion: 1.3 is a number, but versions and names are strings: quote it (YAML reads 1.30 as 1.3); use a prefix such as "1.33"'],
  ],
  ['GKE version of another type', { gcp: { kubernetesVersion: true } }, ['gcp.kubernetesVersion: true must be a GKE version prefix such as "1.33"']],
  ['source cidrs empty', { app: { allowedSourceCidrs: [] } }, ['app.allowedSourceCidrs: [] must list at least one CIDR block (use ["0.0.0.0/0"] to allow any address)']],
  ['source cidrs not a list', { app: { allowedSourceCidrs: '203.0.113.0/24' } }, ['app.allowedSourceCidrs: "203.0.113.0/24" must be a list of CIDR blocks']],
  ['source cidr not a block', { app: { allowedSourceCidrs: ['203.0.113.7'] } }, ['app.allowedSourceCidrs[0]: "203.0.113.7" is not an IPv4 CIDR block (expected a.b.c.d/n, e.g. "10.0.0.0/16")']],
  [
    'source cidr with host bits',
    { app: { allowedSourceCidrs: ['198.51.100.0/24', '203.0.113.7/24'] } },
    ['app.allowedSourceCidrs[1]: "203.0.113.7/24" has host bits set; the network address of that block is "203.0.113.0/24"'],
  ],
  [
    'source cidr duplicate',
    { app: { allowedSourceCidrs: ['203.0.113.0/24', '203.0.113.0/24'] } },
    ['app.allowedSourceCidrs: ["203.0.113.0/24","203.0.113.0/24"] lists "203.0.113.0/24" more than once; list each CIDR block once'],
  ],
  ['backend not an object', { backend: 's3' }, ['backend: "s3" must be an object whose "type" is one of: local, s3, gcs (e.g. { "type": "s3", "bucket": "my-state", "region": "us-east-1" })']],
  // A likely typo gets a "did you mean" (above: "nmae", "vpcCIDR"); an unrelated word ("ingress", "ftp") does not.
  [
    'unknown key unrelated',
    { aws: { owner: 'me' } },
    [
      'aws.owner: "me" is in an unknown field "owner"; allowed fields here: region, regions, accounts, availabilityZones, vpcCidr, publicSubnetCidrs, privateSubnetCidrs, natGateways, kubernetesVersion, nodeInstanceType, nodeCount, endpointPublicAccessCidrs, clusterAdminArns, loadBalancerController, datapath, cilium. Check its spelling or remove it',
    ],
  ],
  [
    'enum typo',
    { exposures: ['native', 'nodeprot'] },
    ['exposures[1]: "nodeprot" is not supported (did you mean "nodeport"?); allowed: native, gateway, nodeport, nodeport-l4, nodeport-local, native-l4. See docs/exposures.md.'],
  ],
  ['enum typo datapath', { aws: { datapath: 'iptable' } }, ['aws.datapath: "iptable" is not supported (did you mean "iptables"?); allowed: iptables, nftables, ipvs, cilium. See docs/datapaths.md.']],
  [
    'unknown key typo',
    { aws: { datapth: 'ipvs' } },
    [
      'aws.datapth: "ipvs" is in an unknown field "datapth": did you mean "datapath"? (allowed fields here: region, regions, accounts, availabilityZones, vpcCidr, publicSubnetCidrs, privateSubnetCidrs, natGateways, kubernetesVersion, nodeInstanceType, nodeCount, endpointPublicAccessCidrs, clusterAdminArns, loadBalancerController, datapath, cilium)',
    ],
  ],
  [
    'unknown top-level key typo',
    { attendee: ['ann'] },
    [
      'attendee: ["ann"] is in an unknown field "attendee": did you mean "attendees"? (allowed fields here: name, exposures, aws, gcp, app, workshop, attendees, placement, allowWorldOpenEndpoints, backend, deploy)',
    ],
  ],
  [
    'backend type typo',
    { backend: { type: 's4', bucket: 'state', region: 'us-east-1' } },
    ['backend.type: "s4" is not a backend type (did you mean "s3"?); allowed: local, s3, gcs (e.g. { "type": "s3", "bucket": "my-state", "region": "us-east-1" })'],
  ],
  [
    'section not an object',
    { gcp: ['us-central1'] },
    [
      'gcp: ["us-central1"] must be an object of settings; allowed fields: project, projects, region, regions, zones, nodeSubnetCidr, podCidr, serviceCidr, releaseChannel, kubernetesVersion, machineType, nodeCount, maxPodsPerNode, datapath, observability, masterAuthorizedCidrs, kubernetesCredentials',
    ],
  ],
];

/** The date the CASES are validated on. */
const NOW = new Date('2026-12-07T10:00:00Z');

describe('validateConfig', () => {
  test('GIVEN no config WHEN validated THEN the defaults are valid', () => {
    const result = validateConfig(undefined);
    expect(result.ok).toBe(true);
  });

  test.each(CASES)('GIVEN %s WHEN validated THEN the exact messages name field, value and fix', (_name, raw, expected) => {
    const result = validateConfig(raw, { now: NOW });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual(expected);
  });

  test('GIVEN a bad attendee name next to a duplicate WHEN validated THEN both are reported in one run', () => {
    const result = validateConfig({ attendees: ['ann', 'bob', 'bob', 'Ann'] });
    expect(result.ok ? [] : result.problems.map((p) => `${p.path}=${String(p.value)}`)).toEqual(['attendees[3]=Ann', 'attendees[2]=bob']);
  });

  test('GIVEN a zone in the wrong region among ten mistakes the schema finds WHEN validated THEN all eleven are reported in one run, the zone too', () => {
    const result = validateConfig({
      name: 'Bad_Name',
      exposures: ['nodeprot'],
      aws: { availabilityZones: ['us-east-1a', 'eu-west-1b'], nodeCount: 0, natGateways: 'many', kubernetesVersion: 1.3, datapth: 'ipvs' },
      gcp: { machineType: 'E2', maxPodsPerNode: 4 },
      workshop: { durationHours: 0 },
      app: { replicas: 99 },
    });
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toEqual([
      'name',
      'exposures[0]',
      'aws.natGateways',
      'aws.kubernetesVersion',
      'aws.nodeCount',
      'aws.datapth',
      'gcp.machineType',
      'gcp.maxPodsPerNode',
      'app.replicas',
      'workshop.durationHours',
      'aws.availabilityZones[1]',
    ]);
  });

  test('GIVEN a zone in the wrong region WHEN the subnets also overlap, a GKE zone is elsewhere and the Pod range is too small THEN each is reported: the zone hides nothing', () => {
    const result = validateConfig({
      aws: { availabilityZones: ['us-east-1a', 'eu-west-1b'], publicSubnetCidrs: ['10.0.224.0/23', '10.0.224.0/24'] },
      gcp: { region: 'europe-west1', zones: ['us-central1-a'], podCidr: '10.20.0.0/24' },
    });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      'aws.availabilityZones[1]: "eu-west-1b" is not in region "us-east-1", whose zones are us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e and us-east-1f: use those, or change aws.region',
      'aws.publicSubnetCidrs[1]: "10.0.224.0/24" overlaps aws.publicSubnetCidrs[0] (10.0.224.0/23); give each range its own addresses',
      'gcp.zones[0]: "us-central1-a" is not in region "europe-west1", whose zones are europe-west1-b, europe-west1-c and europe-west1-d: use those, or change gcp.region',
      'gcp.podCidr: "10.20.0.0/24" holds 1 node at 110 max Pods per node (a /24 alias range each) but 3 nodes are configured (gcp.nodeCount 3 x 1 zone); use a larger range, fewer nodes or a lower gcp.maxPodsPerNode',
    ]);
  });

  test('GIVEN a section the schema refuses in part WHEN validated THEN the cross-field rules still run on its valid fields, and not on the refused ones', () => {
    // Both nodeCounts are refused: the zone, datapath and Service-range rules still run; the rules that read nodeCount
    // (the nodes' address room on AWS, the Pod range on GKE, here far too small) do not.
    const result = validateConfig({
      aws: { nodeCount: 0, availabilityZones: ['us-east-1a', 'us-east-2b'], datapath: 'ipvs', cilium: {} },
      gcp: { nodeCount: 0, podCidr: '10.20.0.0/28', serviceCidr: '10.30.0.0/28' },
    });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      'aws.nodeCount: 0 must be at least 1 nodes (allowed: 1 to 50)',
      'gcp.nodeCount: 0 must be at least 1 nodes per zone (allowed: 1 to 50)',
      'aws.availabilityZones[1]: "us-east-2b" is not in region "us-east-1", whose zones are us-east-1a, us-east-1b, us-east-1c, us-east-1d, us-east-1e and us-east-1f: use those, or change aws.region',
      'aws.cilium: {"loadBalancerAlgorithm":"random"} only applies with aws.datapath "cilium", but aws.datapath is "ipvs"; set aws.datapath: "cilium" or remove aws.cilium',
      'gcp.serviceCidr: "10.30.0.0/28" has prefix /28; GKE needs a Service range of /27 or larger',
    ]);
  });

  test('GIVEN several mistakes in different sections WHEN validated THEN every one is reported in one run', () => {
    const result = validateConfig({ name: 'Bad_Name', aws: { nodeCount: 0 }, gcp: { podCidr: '10.20.0.0/24' } });
    expect(result.ok ? [] : result.problems.map((p) => p.path)).toEqual(['name', 'aws.nodeCount', 'gcp.podCidr']);
  });

  test.each([
    ['name', { name: 'Bad_Name' }, 'name: "Bad_Name" is not a DNS label'],
    ['gcp', { gcp: { nodeCount: 0 } }, 'gcp.nodeCount: 0 must be at least 1'],
    ['app', { app: { allowedSourceCidrs: ['203.0.113.7'] } }, 'app.allowedSourceCidrs[0]: "203.0.113.7" is not an IPv4 CIDR block'],
    ['exposures', { exposures: ['nodeport-lb'] }, 'exposures[0]: "nodeport-lb" is not supported'],
    ['backend', { backend: { type: 's3', region: 'us-east-1' } }, 'backend.bucket: (missing) is required'],
  ])('GIVEN the %s section failing the schema WHEN validated THEN the aws datapath rules are still reported in the same run', (_section, broken, first) => {
    const result = validateConfig({ ...broken, aws: { datapath: 'nftables', kubernetesVersion: '1.32', cilium: { loadBalancerAlgorithm: 'maglev' } } });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([
      expect.stringContaining(first),
      'aws.datapath: "nftables" needs EKS 1.33 or later (the kube-proxy add-on offers mode "nftables" from Kubernetes 1.33), but aws.kubernetesVersion is "1.32"; set aws.kubernetesVersion to "1.33" or later, or use "iptables" or "ipvs"',
      'aws.cilium: {"loadBalancerAlgorithm":"maglev"} only applies with aws.datapath "cilium", but aws.datapath is "nftables"; set aws.datapath: "cilium" or remove aws.cilium',
    ]);
  });

  test.each([
    ['a Docker Hub image with a tag', { app: { image: 'nginx:1.27' } }],
    ['an image pinned by digest', { app: { image: `ghcr.io/acme/echo@sha256:${'a'.repeat(64)}` } }],
    ['explicit subnets inside the VPC', { aws: { publicSubnetCidrs: ['10.0.240.0/24', '10.0.241.0/24'], privateSubnetCidrs: ['10.0.0.0/18', '10.0.64.0/18'] } }],
    [
      'a /24 VPC with explicit subnets',
      { aws: { vpcCidr: '10.0.0.0/24', publicSubnetCidrs: ['10.0.0.0/27', '10.0.0.32/27'], privateSubnetCidrs: ['10.0.0.128/26', '10.0.0.192/26'], nodeCount: 2, nodeInstanceType: 't3.small' } },
    ],
    ['a /20 VPC with the default layout (/27 public subnets)', { aws: { vpcCidr: '10.0.0.0/20', nodeCount: 2, nodeInstanceType: 't3.small' } }],
    ['three zones and 8 max Pods', { gcp: { zones: ['us-central1-a', 'us-central1-b', 'us-central1-c'], maxPodsPerNode: 8, podCidr: '10.20.0.0/24', nodeCount: 5 } }],
  ])('GIVEN %s WHEN validated THEN it is accepted', (_name, raw) => {
    const result = validateConfig(raw);
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([]);
  });

  test('GIVEN no datapath WHEN validated THEN EKS runs kube-proxy in iptables mode, GKE the legacy datapath, and there is nothing to note', () => {
    const result = validateConfig({});
    expect(result.ok && [result.config.aws.datapath, result.config.aws.cilium, result.config.gcp.datapath, result.notes]).toEqual(['iptables', undefined, 'legacy', []]);
  });

  test.each([
    [
      'nftables on 1.33',
      { aws: { datapath: 'nftables', kubernetesVersion: '1.33' } },
      ['aws.datapath: kube-proxy mode "nftables" works with the EKS kube-proxy add-on (1.33 and later) but is not in EKS\'s documentation: unverified'],
    ],
    [
      'nftables on the default version',
      { aws: { datapath: 'nftables' } },
      ['aws.datapath: kube-proxy mode "nftables" works with the EKS kube-proxy add-on (1.33 and later) but is not in EKS\'s documentation: unverified'],
    ],
    [
      'ipvs',
      { aws: { datapath: 'ipvs' } },
      [
        'aws.datapath: "ipvs" is deprecated upstream since Kubernetes 1.35 (kube-proxy may drop it in a later release); hoplab still offers it for comparison. "nftables" is its successor for large Service counts',
      ],
    ],
    [
      'cilium with Maglev',
      { aws: { datapath: 'cilium', cilium: { loadBalancerAlgorithm: 'maglev' } } },
      [
        'aws.datapath: "cilium" creates the EKS cluster without the vpc-cni and kube-proxy add-ons; switching to or from "cilium" later recreates the cluster and everything in it: tear the environment down first',
        "aws.datapath: native-l4 under Cilium rests on masquerading being off for traffic inside the VPC in ENI mode (the VPC CIDR is Cilium's native-routing range): unverified on a running cluster",
      ],
    ],
    [
      'cilium without the native-l4 exposure',
      { exposures: ['native', 'nodeport-l4'], aws: { datapath: 'cilium' } },
      [
        'aws.datapath: "cilium" creates the EKS cluster without the vpc-cni and kube-proxy add-ons; switching to or from "cilium" later recreates the cluster and everything in it: tear the environment down first',
      ],
    ],
    ['allowed sources open (the default) with every exposure', { app: { allowedSourceCidrs: ['0.0.0.0/0'] } }, []],
    ['allowed sources narrowed, only L4 exposures', { exposures: ['nodeport-l4', 'nodeport-local', 'native-l4'], app: { allowedSourceCidrs: ['203.0.113.0/24'] } }, []],
    // Cloud Armor filters the GKE Ingress and Gateway: a narrowed list leaves nothing open to note.
    ['allowed sources narrowed with every exposure', { app: { allowedSourceCidrs: ['203.0.113.0/24'] } }, []],
    ['allowed sources narrowed with the gateway exposure only', { exposures: ['gateway'], app: { allowedSourceCidrs: ['203.0.113.0/24', '198.51.100.0/24'] } }, []],
    [
      'Dataplane V2',
      { gcp: { datapath: 'dataplane-v2' } },
      ['gcp.datapath: "dataplane-v2" is fixed when the GKE cluster is created; changing gcp.datapath later recreates the cluster and everything in it'],
    ],
  ])('GIVEN %s WHEN validated THEN it is accepted with exactly these notes', (_name, raw, notes) => {
    const result = validateConfig(raw);
    expect(result.ok ? result.notes : result.problems.map(formatProblem)).toEqual(notes);
  });

  test('GIVEN cilium without a cilium section WHEN validated THEN the algorithm is left to the construct default (random)', () => {
    const result = validateConfig({ aws: { datapath: 'cilium' } });
    expect(result.ok && result.config.aws.cilium).toBeUndefined();
  });

  test('GIVEN a partial section WHEN validated THEN the rest of the section keeps its defaults', () => {
    const result = validateConfig({ aws: { region: 'eu-west-1', availabilityZones: ['eu-west-1a', 'eu-west-1b', 'eu-west-1c'] } });
    expect(result.ok && result.config.aws).toMatchObject({ region: 'eu-west-1', vpcCidr: '10.0.0.0/16', nodeCount: 3, nodeInstanceType: 't3.medium' });
  });
});

describe('the example expiry in the hints', () => {
  test.each([
    ['2026-12-07T10:00:00Z', '"2026-12-08T18:00:00Z"'],
    ['2026-12-31T23:59:00Z', '"2027-01-01T18:00:00Z"'],
    ['2031-02-28T00:00:00Z', '"2031-03-01T18:00:00Z"'],
  ])('GIVEN the host date %s WHEN an expiry is malformed THEN the hint gives the next day at 18:00 UTC, %s, not a fixed date', (now, example) => {
    const result = validateConfig({ workshop: { expiresAt: '1 Dec' } }, { now: new Date(now) });
    expect(result.ok ? [] : result.problems.map(formatProblem)).toEqual([`workshop.expiresAt: "1 Dec" is not a real ISO 8601 UTC time; write it as ${example}`]);
  });
});
