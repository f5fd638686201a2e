import * as z from 'zod';
import { awsSubnetLayout, DEFAULT_LAYOUT_MAX_VPC_PREFIX, MIN_PUBLIC_SUBNET_PREFIX } from './aws-subnets';
import { Cidr, cidr, contains, overlaps } from '../model/cidr';
import { checkAwsDatapath, checkGcpDatapath, datapathNotes, RENAMED_FIELDS } from './datapath';
import { ENI_LIMITS, vpcCniAddressesPerNode } from '../model/eni-limits';
import { gkeMaxNodesForPodRange, gkePerNodeRangePrefix } from '../model/gke-limits';
import { ConfigProblem, pathToString, valueAt } from './problems';
import { didYouMean } from './suggest';
import { attendeeObject, AwsConfig, awsConfig, effectiveAwsRegion, effectiveGcpRegion, envName, GcpConfig, gcpConfig, LabConfig, labConfig } from './schema';
import { AttendeeParts, checkAttendees } from './attendees';
import { checkPins, checkPlacementLists, checkZones, pinLists } from './placement-rules';
import { derivedZones } from '../model/zones';
import { withExpiryExample } from './expiry';

/** The outcome of validating a raw lab config. */
export type ValidationResult =
  | { readonly ok: true; readonly config: LabConfig; /** Things to know about accepted choices (deprecations, recreation), one a line. */ readonly notes: readonly string[] }
  | { readonly ok: false; readonly problems: readonly ConfigProblem[] };

export interface ValidateOptions {
  /** The date the hints' example expiry is made from. @default the host's clock */
  readonly now?: Date;
}

/** Addresses AWS reserves in every subnet (network, router, DNS, future, broadcast). */
const AWS_RESERVED_PER_SUBNET = 5n;
/** Addresses Google Cloud reserves in every subnet's primary range. */
const GCP_RESERVED_PER_SUBNET = 4n;

/**
 * Validates a raw config (parsed JSON or YAML) and applies defaults. Returns
 * every problem found, each naming the field, the value and what is allowed:
 * the schema's, and the cross-field rules' on every field that is valid on its
 * own, so one mistake never hides another (a bad zone is reported next to a bad
 * node count, and a subnet overlap next to a zone in the wrong region).
 */
export function validateConfig(raw: unknown, options: ValidateOptions = {}): ValidationResult {
  const input = raw ?? {};
  const parsed = labConfig.safeParse(input);
  const top = validFields(labConfig, input);
  const aws = top && validFields(awsConfig, (input as Record<string, unknown>).aws);
  const gcp = top && validFields(gcpConfig, (input as Record<string, unknown>).gcp);
  const exposures = top && need(top, 'exposures');
  const app = top && need(top, 'app');
  const datapath = aws && need(aws, 'datapath', 'kubernetesVersion', 'cilium');
  const gcpDatapath = gcp && need(gcp, 'datapath', 'observability');
  const attendees = (raw as { attendees?: unknown } | null | undefined)?.attendees;
  const problems = [
    ...(parsed.success ? [] : parsed.error.issues.flatMap((issue) => fromZodIssue(raw, issue))),
    ...(exposures ? checkExposures(exposures) : []),
    ...(Array.isArray(attendees)
      ? checkAttendees(
          attendees.map((entry: unknown) => attendeeParts(entry)),
          aws && !aws.invalid.has('clusterAdminArns') ? aws.valid.clusterAdminArns ?? [] : [],
        )
      : []),
    ...(app?.app ? checkSourceCidrs(app.app.allowedSourceCidrs) : []),
    ...(aws ? checkAws(aws) : []),
    ...(datapath ? checkAwsDatapath(datapath) : []),
    ...(gcp ? checkGcp(gcp) : []),
    ...(gcpDatapath ? checkGcpDatapath(gcpDatapath) : []),
  ];
  // Pins are checked against the lists once both clouds' lists are valid.
  if (parsed.success && problems.length === 0 && Array.isArray(attendees)) problems.push(...checkPins(parsed.data.attendees ?? [], pinLists(parsed.data)));
  // Example expiries in the hints are the host's own tomorrow, not a fixed date.
  const now = options.now ?? new Date();
  if (!parsed.success || problems.length > 0) return { ok: false, problems: problems.map((p) => ({ ...p, reason: withExpiryExample(p.reason, now) })) };
  return { ok: true, config: parsed.data, notes: datapathNotes(parsed.data) };
}

/**
 * What is valid of one `attendees` entry, each field on its own: a duplicated name or identity is
 * found whatever else is wrong with the entry. Undefined for an entry that is neither a name nor an object.
 */
function attendeeParts(entry: unknown): AttendeeParts | undefined {
  if (typeof entry === 'string') return envName.safeParse(entry).success ? { name: entry } : {};
  const fields = validFields(attendeeObject, entry);
  if (!fields || entry === undefined) return undefined;
  const { name, aws, gcp } = fields.valid;
  return { ...(name !== undefined ? { name } : {}), ...(aws !== undefined ? { aws } : {}), ...(gcp !== undefined ? { gcp } : {}) };
}

/** The fields of one config object, each parsed on its own (see {@link validFields}). */
interface Fields<T> {
  /** The valid fields, defaults applied. */
  readonly valid: Partial<T>;
  /** The fields that are present but not valid (their problems come from the schema). */
  readonly invalid: ReadonlySet<string>;
}

/**
 * Each field of an object schema parsed on its own, with its default, so a rule that reads some
 * fields runs whatever is wrong with the others. Undefined when `raw` is not an object at all
 * (`undefined` counts as an empty one: the schema's defaults apply).
 */
function validFields<T extends z.ZodType>(schema: T, raw: unknown): Fields<z.output<T>> | undefined {
  const object = unwrap(schema);
  if (!(object instanceof z.ZodObject)) return undefined;
  if (raw !== undefined && (raw === null || typeof raw !== 'object' || Array.isArray(raw))) return undefined;
  const valid: Record<string, unknown> = {};
  const invalid = new Set<string>();
  for (const [key, field] of Object.entries(object.shape as Record<string, z.ZodType>)) {
    const result = field.safeParse((raw as Record<string, unknown> | undefined)?.[key]);
    if (!result.success) invalid.add(key);
    else if (result.data !== undefined) valid[key] = result.data;
  }
  return { valid: valid as Partial<z.output<T>>, invalid };
}

/**
 * The fields a rule reads, when every one of them is valid (an optional one may be absent);
 * undefined when one is not, so the rule does not run on a value the schema already refused.
 */
function need<T, K extends keyof T & string>(fields: Fields<T>, ...keys: K[]): Pick<T, K> | undefined {
  return keys.some((key) => fields.invalid.has(key)) ? undefined : (fields.valid as Pick<T, K>);
}

function checkSourceCidrs(blocks: readonly string[]): ConfigProblem[] {
  return [...new Set(duplicates(blocks))].map((block) => ({
    path: 'app.allowedSourceCidrs',
    value: blocks,
    reason: `lists "${block}" more than once; list each CIDR block once`,
  }));
}

function fromZodIssue(raw: unknown, issue: z.core.$ZodIssue): ConfigProblem[] {
  if (issue.code === 'unrecognized_keys') {
    const allowed = allowedKeysAt(raw, issue.path);
    return issue.keys.map((key) => {
      const path = pathToString([...issue.path, key]);
      const value = valueAt(raw, [...issue.path, key]);
      const renamed = RENAMED_FIELDS[path];
      const guess = didYouMean(key, allowed);
      return {
        path,
        value,
        reason: renamed
          ? renamed(value)
          : guess
          ? `is in an unknown field "${key}": ${guess} (allowed fields here: ${allowed.join(', ')})`
          : `is in an unknown field "${key}"; allowed fields here: ${allowed.join(', ')}. Check its spelling or remove it`,
      };
    });
  }
  if (issue.path.length === 0) {
    return [{ path: '(config)', value: raw, reason: 'must be an object of lab settings (see schema/hoplab.config.schema.json)' }];
  }
  // zod's own words ("Invalid input: expected object, received array") for a section that is not an object.
  if (issue.code === 'invalid_type' && issue.expected === 'object' && issue.message.startsWith('Invalid input')) {
    const allowed = allowedKeysAt(raw, issue.path);
    if (allowed.length > 0) return [{ path: pathToString(issue.path), value: valueAt(raw, issue.path), reason: `must be an object of settings; allowed fields: ${allowed.join(', ')}` }];
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
  for (;;) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodOptional) current = current.unwrap() as z.ZodType;
    // A section whose defaults depend on its other fields (aws, gcp) is its object piped into a transform.
    else if (current instanceof z.ZodPipe) current = current.in as z.ZodType;
    else return current;
  }
}

function duplicates<T>(values: readonly T[]): T[] {
  return values.filter((value, index) => values.indexOf(value) !== index);
}

function checkExposures(config: Pick<LabConfig, 'exposures'>): ConfigProblem[] {
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

/** The AWS section's cross-field rules, each on the fields it reads when those are valid. */
function checkAws(fields: Fields<AwsConfig>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const lists = need(fields, 'region', 'regions', 'accounts', 'availabilityZones');
  if (lists) problems.push(...checkPlacementLists('aws', { region: lists.region, regions: lists.regions, zones: lists.availabilityZones, places: lists.accounts?.map((a) => a.id) }));
  // The region and zones as the config means them: the zones given, or the region's from the zone table.
  const region = need(fields, 'region', 'regions') ? effectiveAwsRegion(fields.valid) : undefined;
  const given = need(fields, 'availabilityZones')?.availabilityZones;
  if (region !== undefined && given) problems.push(...checkZones('aws', region, given));
  const admins = need(fields, 'clusterAdminArns')?.clusterAdminArns ?? [];
  for (const arn of new Set(duplicates(admins))) {
    problems.push({ path: 'aws.clusterAdminArns', value: admins, reason: `lists "${arn}" more than once; list each ARN once` });
  }
  for (const az of new Set(duplicates(given ?? []))) {
    problems.push({ path: 'aws.availabilityZones', value: given, reason: `lists "${az}" more than once; list each zone once` });
  }
  const zones = region === undefined ? undefined : given ?? derivedZones('aws', region);
  const network = need(fields, 'vpcCidr', 'publicSubnetCidrs', 'privateSubnetCidrs');
  if (network && zones) problems.push(...checkAwsNetwork({ ...network, availabilityZones: zones }, need(fields, 'nodeInstanceType', 'nodeCount')));
  return problems;
}

/**
 * The VPC, its subnets and the nodes' addresses in them. Each step needs the one before it to
 * hold (a subnet is checked against a valid VPC), so a step's problems end this check; the
 * other AWS rules still run.
 */
function checkAwsNetwork(
  aws: Pick<AwsConfig, 'vpcCidr' | 'availabilityZones' | 'publicSubnetCidrs' | 'privateSubnetCidrs'>,
  nodes: Pick<AwsConfig, 'nodeInstanceType' | 'nodeCount'> | undefined,
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
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
  if (problems.length > 0 || !nodes) {
    return problems;
  }
  const limits = ENI_LIMITS[nodes.nodeInstanceType];
  const nodesPerSubnet = Math.ceil(nodes.nodeCount / aws.availabilityZones.length);
  const needed = BigInt(nodesPerSubnet * vpcCniAddressesPerNode(limits));
  layout.private.forEach((text, i) => {
    const usable = cidr(text).size - AWS_RESERVED_PER_SUBNET;
    if (usable < needed) {
      problems.push({
        path: `aws.privateSubnetCidrs[${i}]`,
        value: text,
        reason:
          `has ${usable} usable addresses but ${nodesPerSubnet} ${nodes.nodeInstanceType} nodes can claim ${needed} ` +
          `(the VPC CNI gives each node up to ${limits.maxEnis} ENIs x ${limits.ipv4PerEni} IPv4 addresses); use a larger block or fewer nodes`,
      });
    }
  });
  return problems;
}

/** The GKE section's cross-field rules, each on the fields it reads when those are valid. */
function checkGcp(fields: Fields<GcpConfig>): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const lists = need(fields, 'project', 'projects', 'region', 'regions', 'zones');
  if (lists) problems.push(...checkPlacementLists('gcp', { region: lists.region, regions: lists.regions, zones: lists.zones, places: lists.projects, place: lists.project }));
  const region = need(fields, 'region', 'regions') ? effectiveGcpRegion(fields.valid) : undefined;
  const given = need(fields, 'zones')?.zones;
  if (region !== undefined && given) problems.push(...checkZones('gcp', region, given));
  for (const zone of new Set(duplicates(given ?? []))) {
    problems.push({ path: 'gcp.zones', value: given, reason: `lists "${zone}" more than once; list each zone once` });
  }
  const zones = region === undefined ? undefined : given ?? derivedZones('gcp', region);
  const gcp = fields.valid;
  const ranges: NamedCidr[] = (['nodeSubnetCidr', 'podCidr', 'serviceCidr'] as const).flatMap((key) => (gcp[key] !== undefined ? [{ path: `gcp.${key}`, block: cidr(gcp[key]) }] : []));
  problems.push(...checkOverlaps(ranges));
  const nodeCount = zones && need(fields, 'nodeCount') ? { nodeCount: fields.valid.nodeCount!, zones } : undefined;
  const totalNodes = nodeCount ? nodeCount.nodeCount * nodeCount.zones.length : undefined;
  if (gcp.nodeSubnetCidr !== undefined) {
    const nodes = cidr(gcp.nodeSubnetCidr);
    if (nodes.prefix > 29) {
      problems.push({ path: 'gcp.nodeSubnetCidr', value: gcp.nodeSubnetCidr, reason: `has prefix /${nodes.prefix}; Google Cloud subnets must be /29 or larger` });
    } else if (totalNodes !== undefined && nodes.size - GCP_RESERVED_PER_SUBNET < BigInt(totalNodes)) {
      problems.push({
        path: 'gcp.nodeSubnetCidr',
        value: gcp.nodeSubnetCidr,
        reason: `has ${nodes.size - GCP_RESERVED_PER_SUBNET} usable addresses for ${totalNodes} nodes; use a larger block or fewer nodes`,
      });
    }
  }
  const pods = need(fields, 'podCidr', 'maxPodsPerNode');
  if (pods && nodeCount && totalNodes !== undefined) {
    const podPrefix = cidr(pods.podCidr).prefix;
    const maxNodes = gkeMaxNodesForPodRange(podPrefix, pods.maxPodsPerNode);
    const perNodePrefix = gkePerNodeRangePrefix(pods.maxPodsPerNode);
    if (maxNodes === 0) {
      const needed = perNodePrefix - Math.ceil(Math.log2(totalNodes));
      problems.push({
        path: 'gcp.podCidr',
        value: pods.podCidr,
        reason:
          `is smaller than the /${perNodePrefix} alias range GKE gives each node at ${pods.maxPodsPerNode} max Pods per node; ` +
          `${totalNodes} node(s) need at least a /${needed}: use a larger range or a lower gcp.maxPodsPerNode`,
      });
    } else if (maxNodes < totalNodes) {
      problems.push({
        path: 'gcp.podCidr',
        value: pods.podCidr,
        reason:
          `holds ${maxNodes} node${maxNodes === 1 ? '' : 's'} at ${pods.maxPodsPerNode} max Pods per node (a /${perNodePrefix} alias range each) but ` +
          `${totalNodes} node${totalNodes === 1 ? ' is' : 's are'} configured (gcp.nodeCount ${nodeCount.nodeCount} x ${nodeCount.zones.length} zone${
            nodeCount.zones.length === 1 ? '' : 's'
          }); use a larger range, fewer nodes or a lower gcp.maxPodsPerNode`,
      });
    }
  }
  if (gcp.serviceCidr !== undefined && cidr(gcp.serviceCidr).prefix > 27) {
    problems.push({ path: 'gcp.serviceCidr', value: gcp.serviceCidr, reason: `has prefix /${cidr(gcp.serviceCidr).prefix}; GKE needs a Service range of /27 or larger` });
  }
  return problems;
}
