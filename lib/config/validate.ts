import * as z from 'zod';
import { awsSubnetLayout, DEFAULT_LAYOUT_MAX_VPC_PREFIX, MIN_PUBLIC_SUBNET_PREFIX } from './aws-subnets';
import { admitsAnyAddress, Cidr, cidr, contains, overlaps } from '../model/cidr';
import { EXPOSURE_BUILT_BY, SOURCE_FILTER } from '../model/exposure-facts';
import { checkAwsDatapath, datapathNotes, RENAMED_FIELDS } from './datapath';
import { ENI_LIMITS, vpcCniAddressesPerNode } from '../model/eni-limits';
import { gkeMaxNodesForPodRange, gkePerNodeRangePrefix } from '../model/gke-limits';
import { ConfigProblem, pathToString, valueAt } from './problems';
import { attendee, AwsConfig, awsConfig, GcpConfig, gcpConfig, LabConfig, labConfig } from './schema';
import { checkAttendees } from './attendees';

/** The outcome of validating a raw lab config. */
export type ValidationResult =
  | { readonly ok: true; readonly config: LabConfig; /** Things to know about accepted choices (deprecations, recreation), one a line. */ readonly notes: readonly string[] }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

/** Addresses AWS reserves in every subnet (network, router, DNS, future, broadcast). */
const AWS_RESERVED_PER_SUBNET = 5n;
/** Addresses Google Cloud reserves in every subnet's primary range. */
const GCP_RESERVED_PER_SUBNET = 4n;

/**
 * Validates a raw config (parsed JSON or YAML) and applies defaults. Returns
 * every problem found, each naming the field, the value and what is allowed.
 */
export function validateConfig(raw: unknown): ValidationResult {
  const parsed = labConfig.safeParse(raw ?? {});
  if (!parsed.success) {
    // Still check the cross-field rules of every section that parsed on its own,
    // so one run reports all the problems it can.
    const sections = (raw ?? {}) as Record<string, unknown>;
    const aws = awsConfig.safeParse(sections.aws);
    const gcp = gcpConfig.safeParse(sections.gcp);
    return {
      ok: false,
      problems: [
        ...parsed.error.issues.flatMap((issue) => fromZodIssue(raw, issue)),
        ...(aws.success ? [...checkAws(aws.data), ...checkAwsDatapath(aws.data)] : []),
        ...(gcp.success ? checkGcp(gcp.data) : []),
        ...(Array.isArray(sections.attendees)
          ? checkAttendees(
              sections.attendees.map((entry: unknown) => attendee.safeParse(entry).data),
              aws.success ? aws.data.clusterAdminArns : [],
            )
          : []),
      ],
    };
  }
  const problems = [
    ...checkExposures(parsed.data),
    ...checkAttendees(parsed.data.attendees ?? [], parsed.data.aws.clusterAdminArns),
    ...checkSourceCidrs(parsed.data.app.allowedSourceCidrs),
    ...checkAws(parsed.data.aws),
    ...checkAwsDatapath(parsed.data.aws),
    ...checkGcp(parsed.data.gcp),
  ];
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config: parsed.data, notes: [...datapathNotes(parsed.data), ...sourceCidrNotes(parsed.data)] };
}

function checkSourceCidrs(blocks: readonly string[]): ConfigProblem[] {
  return [...new Set(duplicates(blocks))].map((block) => ({
    path: 'app.allowedSourceCidrs',
    value: blocks,
    reason: `lists "${block}" more than once; list each CIDR block once`,
  }));
}

/** What validation says about a narrowed `app.allowedSourceCidrs`: the GKE exposures that cannot honour it. */
function sourceCidrNotes(config: LabConfig): string[] {
  if (admitsAnyAddress(config.app.allowedSourceCidrs)) return [];
  const open = config.exposures.filter((mode) => {
    const kind = EXPOSURE_BUILT_BY.gcp[mode];
    return kind !== undefined && SOURCE_FILTER[kind] === undefined;
  });
  if (open.length === 0) return [];
  return [
    `app.allowedSourceCidrs: on GKE the ${open.join(', ')} exposure${open.length > 1 ? 's stay' : ' stays'} open to any address: ` +
      'an external Application Load Balancer filters clients only with a Cloud Armor security policy, which hoplab does not create (the EKS load balancers and GKE L4 Services honour the list)',
  ];
}

function fromZodIssue(raw: unknown, issue: z.core.$ZodIssue): ConfigProblem[] {
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeysAt(raw, issue.path);
    return issue.keys.map((key) => {
      const path = pathToString([...issue.path, key]);
      const value = valueAt(raw, [...issue.path, key]);
      const renamed = RENAMED_FIELDS[path];
      return {
        path,
        value,
        reason: renamed ? renamed(value) : `is in an unknown field "${key}"; allowed fields here: ${allowed.join(', ')}. Check its spelling or remove it`,
      };
    });
  }
  if (issue.path.length === 0) {
    return [{ path: '(config)', value: raw, reason: 'must be an object of lab settings (see schema/hoplab.config.schema.json)' }];
  }
  return [{ path: pathToString(issue.path), value: valueAt(raw, issue.path), reason: issue.message }];
}

function allowedKeysAt(raw: unknown, path: readonly PropertyKey[]): string[] {
  let schema: z.ZodType = labConfig;
  const walked: PropertyKey[] = [];
  const resolve = (current: z.ZodType): z.ZodType => {
    const plain = unwrap(current);
    // A union of objects (the backend): the option whose literal `type` the config chose; a union of a name and an object (an attendee): the object.
    if (plain instanceof z.ZodDiscriminatedUnion || plain instanceof z.ZodUnion) {
      const chosen = (valueAt(raw, walked) as { type?: unknown } | undefined)?.type;
      const options = (plain.options as z.ZodType[]).map(unwrap);
      const objects = options.filter((option): option is z.ZodObject => option instanceof z.ZodObject);
      return objects.find((option) => (option.shape.type as z.ZodLiteral | undefined)?.value === chosen) ?? objects[0] ?? options[0];
    }
    return plain;
  };
  for (const key of path) {
    schema = resolve(schema);
    if (schema instanceof z.ZodObject) {
      schema = schema.shape[key as string];
    } else if (schema instanceof z.ZodArray && typeof key === 'number') {
      schema = schema.element as z.ZodType;
    }
    walked.push(key);
  }
  schema = resolve(schema);
  return schema instanceof z.ZodObject ? Object.keys(schema.shape).filter((k) => k !== '$schema') : [];
}

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodOptional) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

function duplicates<T>(values: readonly T[]): T[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function checkExposures(config: LabConfig): ConfigProblem[] {
  return duplicates(config.exposures).map((mode) => ({
    path: 'exposures',
    value: config.exposures,
    reason: `lists "${mode}" more than once; list each exposure mode once`,
  }));
}

interface NamedCidr {
  readonly path: string;
  readonly block: Cidr;
}

function checkOverlaps(blocks: readonly NamedCidr[]): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  blocks.forEach((a, i) => {
    for (const b of blocks.slice(i + 1)) {
      if (overlaps(a.block, b.block)) {
        problems.push({ path: b.path, value: b.block.text, reason: `overlaps ${a.path} (${a.block.text}); give each range its own addresses` });
      }
    }
  });
  return problems;
}

function checkAws(aws: AwsConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  aws.availabilityZones.forEach((az, i) => {
    if (!az.startsWith(aws.region) || az.length !== aws.region.length + 1) {
      problems.push({
        path: `aws.availabilityZones[${i}]`,
        value: az,
        reason: `is not in region "${aws.region}"; use zones such as "${aws.region}a" and "${aws.region}b", or change aws.region`,
      });
    }
  });
  for (const arn of new Set(duplicates(aws.clusterAdminArns))) {
    problems.push({ path: 'aws.clusterAdminArns', value: aws.clusterAdminArns, reason: `lists "${arn}" more than once; list each ARN once` });
  }
  for (const az of new Set(duplicates(aws.availabilityZones))) {
    problems.push({ path: 'aws.availabilityZones', value: aws.availabilityZones, reason: `lists "${az}" more than once; list each zone once` });
  }
  const vpc = cidr(aws.vpcCidr);
  if (vpc.prefix < 16 || vpc.prefix > 24) {
    problems.push({
      path: 'aws.vpcCidr',
      value: aws.vpcCidr,
      reason: `has prefix /${vpc.prefix}; AWS allows VPCs from /16 to /24 (hoplab's default layout needs /16 to /${DEFAULT_LAYOUT_MAX_VPC_PREFIX})`,
    });
    return problems;
  }
  const explicit = aws.publicSubnetCidrs !== undefined && aws.privateSubnetCidrs !== undefined;
  if (!explicit && vpc.prefix > DEFAULT_LAYOUT_MAX_VPC_PREFIX) {
    problems.push({
      path: 'aws.vpcCidr',
      value: aws.vpcCidr,
      reason: `is too small for the default subnet layout (at most /${DEFAULT_LAYOUT_MAX_VPC_PREFIX}); use a larger VPC or set both aws.publicSubnetCidrs and aws.privateSubnetCidrs`,
    });
    return problems;
  }
  for (const key of ['publicSubnetCidrs', 'privateSubnetCidrs'] as const) {
    const list = aws[key];
    if (list !== undefined && list.length !== aws.availabilityZones.length) {
      problems.push({
        path: `aws.${key}`,
        value: list,
        reason: `has ${list.length} block${list.length === 1 ? '' : 's'} for ${aws.availabilityZones.length} availability zone${
          aws.availabilityZones.length === 1 ? '' : 's'
        }; give one block per zone in aws.availabilityZones, in the same order`,
      });
    }
  }
  if (problems.length > 0) {
    return problems;
  }
  const layout = awsSubnetLayout(aws);
  const subnets: NamedCidr[] = [
    ...layout.public.map((text, i) => ({ path: `aws.publicSubnetCidrs[${i}]`, block: cidr(text) })),
    ...layout.private.map((text, i) => ({ path: `aws.privateSubnetCidrs[${i}]`, block: cidr(text) })),
  ];
  for (const s of subnets) {
    if (!contains(vpc, s.block)) {
      problems.push({ path: s.path, value: s.block.text, reason: `is not inside aws.vpcCidr (${vpc.text}); pick a block inside the VPC` });
    } else if (s.block.prefix < 16 || s.block.prefix > 28) {
      problems.push({ path: s.path, value: s.block.text, reason: `has prefix /${s.block.prefix}; AWS allows subnets from /16 to /28` });
    } else if (s.path.startsWith('aws.publicSubnetCidrs') && s.block.prefix > MIN_PUBLIC_SUBNET_PREFIX) {
      problems.push({
        path: s.path,
        value: s.block.text,
        reason:
          `has prefix /${s.block.prefix}; public subnets must be /${MIN_PUBLIC_SUBNET_PREFIX} or larger ` +
          '(an ALB needs at least 8 free addresses in each subnet, and the AWS Load Balancer Controller skips subnets with fewer); use a /27 or larger block',
      });
    }
  }
  problems.push(...checkOverlaps(subnets));
  if (problems.length > 0) {
    return problems;
  }
  const limits = ENI_LIMITS[aws.nodeInstanceType];
  const nodesPerSubnet = Math.ceil(aws.nodeCount / aws.availabilityZones.length);
  const needed = BigInt(nodesPerSubnet * vpcCniAddressesPerNode(limits));
  layout.private.forEach((text, i) => {
    const usable = cidr(text).size - AWS_RESERVED_PER_SUBNET;
    if (usable < needed) {
      problems.push({
        path: `aws.privateSubnetCidrs[${i}]`,
        value: text,
        reason:
          `has ${usable} usable addresses but ${nodesPerSubnet} ${aws.nodeInstanceType} nodes can claim ${needed} ` +
          `(the VPC CNI gives each node up to ${limits.maxEnis} ENIs x ${limits.ipv4PerEni} IPv4 addresses); use a larger block or fewer nodes`,
      });
    }
  });
  return problems;
}

function checkGcp(gcp: GcpConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  gcp.zones.forEach((zone, i) => {
    if (!zone.startsWith(`${gcp.region}-`)) {
      problems.push({ path: `gcp.zones[${i}]`, value: zone, reason: `is not in region "${gcp.region}"; use zones such as "${gcp.region}-a", or change gcp.region` });
    }
  });
  for (const zone of new Set(duplicates(gcp.zones))) {
    problems.push({ path: 'gcp.zones', value: gcp.zones, reason: `lists "${zone}" more than once; list each zone once` });
  }
  const ranges: NamedCidr[] = [
    { path: 'gcp.nodeSubnetCidr', block: cidr(gcp.nodeSubnetCidr) },
    { path: 'gcp.podCidr', block: cidr(gcp.podCidr) },
    { path: 'gcp.serviceCidr', block: cidr(gcp.serviceCidr) },
  ];
  problems.push(...checkOverlaps(ranges));
  const [nodes, pods, services] = ranges.map((r) => r.block);
  const totalNodes = gcp.nodeCount * gcp.zones.length;
  if (nodes.prefix > 29) {
    problems.push({ path: 'gcp.nodeSubnetCidr', value: gcp.nodeSubnetCidr, reason: `has prefix /${nodes.prefix}; Google Cloud subnets must be /29 or larger` });
  } else if (nodes.size - GCP_RESERVED_PER_SUBNET < BigInt(totalNodes)) {
    problems.push({
      path: 'gcp.nodeSubnetCidr',
      value: gcp.nodeSubnetCidr,
      reason: `has ${nodes.size - GCP_RESERVED_PER_SUBNET} usable addresses for ${totalNodes} nodes; use a larger block or fewer nodes`,
    });
  }
  const maxNodes = gkeMaxNodesForPodRange(pods.prefix, gcp.maxPodsPerNode);
  const perNodePrefix = gkePerNodeRangePrefix(gcp.maxPodsPerNode);
  if (maxNodes === 0) {
    const needed = perNodePrefix - Math.ceil(Math.log2(totalNodes));
    problems.push({
      path: 'gcp.podCidr',
      value: gcp.podCidr,
      reason:
        `is smaller than the /${perNodePrefix} alias range GKE gives each node at ${gcp.maxPodsPerNode} max Pods per node; ` +
        `${totalNodes} node(s) need at least a /${needed}: use a larger range or a lower gcp.maxPodsPerNode`,
    });
  } else if (maxNodes < totalNodes) {
    problems.push({
      path: 'gcp.podCidr',
      value: gcp.podCidr,
      reason:
        `holds ${maxNodes} nodes at ${gcp.maxPodsPerNode} max Pods per node (a /${perNodePrefix} alias range each) but ` +
        `${totalNodes} node${totalNodes === 1 ? ' is' : 's are'} configured (gcp.nodeCount ${gcp.nodeCount} x ${gcp.zones.length} zone${
          gcp.zones.length === 1 ? '' : 's'
        }); use a larger range, fewer nodes or a lower gcp.maxPodsPerNode`,
    });
  }
  if (services.prefix > 27) {
    problems.push({ path: 'gcp.serviceCidr', value: gcp.serviceCidr, reason: `has prefix /${services.prefix}; GKE needs a Service range of /27 or larger` });
  }
  return problems;
}
