/**
 * The config rules of placement: the lists environments may be placed in
 * (`aws.regions`, `aws.accounts`, `gcp.regions`, `gcp.projects`), the zones
 * against the zone table (lib/model/zones.ts), and attendees' pins. Each takes
 * the fields it reads, already valid on their own, and returns every problem.
 * Whether the environments fit the slots is decided where the quotas are
 * counted (lib/lab/placement), after these rules pass.
 */
import { derivedZones, knownZones, offeredRegions, ZONE_TABLE_AS_OF } from '../model/zones';
import { ConfigProblem } from './problems';
import { Attendee, DEFAULT_AWS_REGION, DEFAULT_GCP_PROJECT, DEFAULT_GCP_REGION, LabConfig } from './schema';

const CLOUD_NAME = { aws: 'AWS', gcp: 'Google Cloud' } as const;
const ZONE_FIELD = { aws: 'aws.availabilityZones', gcp: 'gcp.zones' } as const;

/** The fields of one cloud's section the placement rules read, as written (`region` and the zones only when given). */
export interface PlacementFields {
  /** `aws.region` / `gcp.region` as written. */
  readonly region?: string;
  readonly regions?: readonly string[];
  /** `aws.availabilityZones` / `gcp.zones` as written. */
  readonly zones?: readonly string[];
  /** `aws.accounts` (their ids) or `gcp.projects`. */
  readonly places?: readonly string[];
  /** `gcp.project` as written (GCP only). */
  readonly place?: string;
}

function duplicates<T>(values: readonly T[]): T[] {
  return [...new Set(values.filter((value, index) => values.indexOf(value) !== index))];
}

/** `a, b and c`, for lists in messages. */
function list(values: readonly string[]): string {
  return values.length <= 1 ? values.join('') : `${values.slice(0, -1).join(', ')} and ${values[values.length - 1]}`;
}

/**
 * The lists and the zones of one cloud: regions listed once and offered by the zone table, an
 * explicit region inside the list, accounts or projects listed once, explicit zones only with one
 * region, and zones the table can derive when none are given.
 */
export function checkPlacementLists(cloud: 'aws' | 'gcp', fields: PlacementFields): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const offered = offeredRegions(cloud);
  const regions = fields.regions;
  if (regions) {
    for (const region of duplicates(regions)) {
      problems.push({ path: `${cloud}.regions`, value: regions, reason: `lists "${region}" more than once; list each region once` });
    }
    regions.forEach((region, i) => {
      if (!offered.includes(region)) {
        problems.push({
          path: `${cloud}.regions[${i}]`,
          value: region,
          reason:
            `is not a region of hoplab's zone table (${CLOUD_NAME[cloud]}, as of ${ZONE_TABLE_AS_OF}), which holds ${list(offered)}; ` +
            'pick one of them, or add the region with its zone names to lib/model/zones.ts',
        });
      }
    });
    if (fields.region !== undefined && !regions.includes(fields.region)) {
      problems.push({
        path: `${cloud}.region`,
        value: fields.region,
        reason: `is not in ${cloud}.regions (${regions.join(', ')}); add it to ${cloud}.regions, or drop ${cloud}.region (environments are placed in ${cloud}.regions)`,
      });
    }
    if (fields.zones !== undefined && regions.length > 1) {
      problems.push({
        path: ZONE_FIELD[cloud],
        value: fields.zones,
        reason: `cannot be given with ${regions.length} regions in ${cloud}.regions: zones are derived per region then (${
          cloud === 'aws' ? 'the first two' : 'the first'
        } of each, from hoplab's zone table); drop ${ZONE_FIELD[cloud]}, or list one region`,
      });
    }
  }
  const places = fields.places;
  const placesField = cloud === 'aws' ? 'aws.accounts' : 'gcp.projects';
  if (places) {
    for (const place of duplicates(places)) {
      const at = places.lastIndexOf(place);
      problems.push(
        cloud === 'aws'
          ? { path: `aws.accounts[${at}].id`, value: place, reason: `is also aws.accounts[${places.indexOf(place)}].id; list each account once` }
          : { path: placesField, value: places, reason: `lists "${place}" more than once; list each project once` },
      );
    }
    if (cloud === 'gcp' && fields.place !== undefined && !places.includes(fields.place)) {
      problems.push({
        path: 'gcp.project',
        value: fields.place,
        reason: `is not in gcp.projects (${places.join(', ')}); add it to gcp.projects, or drop gcp.project (environments are placed in gcp.projects)`,
      });
    }
  }
  // Without zones, the region's come from the table: a region it does not hold needs them written out (a listed region is checked above).
  const region = fields.region ?? (cloud === 'aws' ? DEFAULT_AWS_REGION : DEFAULT_GCP_REGION);
  if (fields.zones === undefined && regions === undefined && derivedZones(cloud, region) === undefined) {
    problems.push({
      path: ZONE_FIELD[cloud],
      value: undefined,
      reason:
        `is needed for ${cloud}.region "${region}": hoplab's zone table (as of ${ZONE_TABLE_AS_OF}) does not hold that region, so it cannot derive its zones; ` +
        (cloud === 'aws'
          ? `list two of them (aws ec2 describe-availability-zones --region ${region}), or pick a region of the table`
          : `list one or more (gcloud compute zones list --filter=region:${region}), or pick a region of the table`),
    });
  }
  return problems;
}

/**
 * The zones given in `aws.availabilityZones` / `gcp.zones` for `region`: each in the region, and a zone
 * of it in the zone table (for a region the table holds).
 */
export function checkZones(cloud: 'aws' | 'gcp', region: string, zones: readonly string[]): ConfigProblem[] {
  const elsewhere = zones.flatMap((zone, i) => (zoneRegion(cloud, zone) !== region ? [{ path: `${ZONE_FIELD[cloud]}[${i}]`, value: zone, reason: notInRegion(cloud, region) }] : []));
  return [...elsewhere, ...checkZonesExist(cloud, region, zones)];
}

/**
 * A zone listed in `aws.availabilityZones` / `gcp.zones` that the zone table does not hold for the
 * region: it exists in no account or project (`europe-west1-a`, `eu-west-1d`). Only for a region the
 * table holds; a zone of another region is reported by the region rule instead.
 */
function checkZonesExist(cloud: 'aws' | 'gcp', region: string, zones: readonly string[]): ConfigProblem[] {
  const known = knownZones(cloud, region);
  if (!known) return [];
  return zones.flatMap((zone, i) =>
    zoneRegion(cloud, zone) === region && !known.includes(zone)
      ? [
          {
            path: `${ZONE_FIELD[cloud]}[${i}]`,
            value: zone,
            reason:
              `is not a zone of ${region}, whose zones are ${list([...known])} (hoplab's zone table, as of ${ZONE_TABLE_AS_OF}); use one of them` +
              (cloud === 'aws' ? ` (your account's names: aws ec2 describe-availability-zones --region ${region})` : ''),
          },
        ]
      : [],
  );
}

/** The region a zone name is in (`us-east-1a` -> `us-east-1`, `us-central1-a` -> `us-central1`). */
export function zoneRegion(cloud: 'aws' | 'gcp', zone: string): string {
  return cloud === 'aws' ? zone.slice(0, -1) : zone.replace(/-[a-z]$/, '');
}

/** Why a zone of another region is refused: the region's real zones (from the table), or names such as they have. */
export function notInRegion(cloud: 'aws' | 'gcp', region: string): string {
  const known = knownZones(cloud, region);
  const field = `${cloud}.region`;
  if (known) return `is not in region "${region}", whose zones are ${list([...known])}: use those, or change ${field}`;
  return cloud === 'aws'
    ? `is not in region "${region}"; use zones such as "${region}a" and "${region}b", or change ${field}`
    : `is not in region "${region}"; use zones such as "${region}-a", or change ${field}`;
}

/** An attendee's pin as the schema leaves it (the object form's `placement`). */
type Pin = NonNullable<Exclude<Attendee, string>['placement']>;

/** One list a pin must be in: the values, and the field they come from (the list, or the single field without it). */
interface PinList {
  readonly values: readonly string[];
  /** `aws.regions`, or `aws.region` when the list is not set. */
  readonly field: string;
  /** The list's field when it is not set (`aws.regions`), to say where more would go. */
  readonly list?: string;
}

/** What attendees may be pinned to: each cloud's lists, as the slots are made of them. */
export interface PinLists {
  /** `aws.accounts` ids; undefined: the host's account only. */
  readonly awsAccounts?: readonly string[];
  readonly awsRegions: PinList;
  readonly gcpProjects: PinList;
  readonly gcpRegions: PinList;
}

/** The lists of a valid config, for {@link checkPins}. */
export function pinLists(config: Pick<LabConfig, 'aws' | 'gcp'>): PinLists {
  const of = (values: readonly string[] | undefined, single: string, list: string, one: string): PinList => (values ? { values, field: list } : { values: [single], field: one, list });
  return {
    awsAccounts: config.aws.accounts?.map((a) => a.id),
    awsRegions: of(config.aws.regions, config.aws.region, 'aws.regions', 'aws.region'),
    gcpProjects: of(config.gcp.projects, config.gcp.project ?? DEFAULT_GCP_PROJECT, 'gcp.projects', 'gcp.project'),
    gcpRegions: of(config.gcp.regions, config.gcp.region, 'gcp.regions', 'gcp.region'),
  };
}

/** Each attendee's pins are in the lists: an account of `aws.accounts`, a region of `aws.regions` (or `aws.region`), and so on. */
export function checkPins(entries: readonly (Attendee | undefined)[], lists: PinLists): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const check = (path: string, value: string | undefined, allowed: PinList) => {
    if (value === undefined || allowed.values.includes(value)) return;
    problems.push({
      path,
      value,
      reason: allowed.list
        ? `is not ${allowed.field} (${allowed.values[0]}), the only one while ${allowed.list} is not set; pin ${allowed.values[0]}, or list the ones to use in ${allowed.list}`
        : `is not in ${allowed.field} (${allowed.values.join(', ')}); pin one of those, or add it to ${allowed.field}`,
    });
  };
  entries.forEach((entry, i) => {
    const pin: Pin | undefined = typeof entry === 'object' ? entry.placement : undefined;
    if (!pin) return;
    const at = `attendees[${i}].placement`;
    const account = pin.aws?.account;
    if (account !== undefined && lists.awsAccounts === undefined) {
      problems.push({
        path: `${at}.aws.account`,
        value: account,
        reason: 'names an account, but aws.accounts is not set (environments go to the account of your credentials); add the account to aws.accounts, or drop the pin',
      });
    } else if (lists.awsAccounts) check(`${at}.aws.account`, account, { values: lists.awsAccounts, field: 'aws.accounts' });
    check(`${at}.aws.region`, pin.aws?.region, lists.awsRegions);
    check(`${at}.gcp.project`, pin.gcp?.project, lists.gcpProjects);
    check(`${at}.gcp.region`, pin.gcp?.region, lists.gcpRegions);
  });
  return problems;
}

/**
 * Whether the config asks for placement: any of the lists, `placement`, or an attendee's pin. Without
 * any, every environment goes to `aws.region` and `gcp.project` as before, and the synthesized stacks
 * are what they were (no `placement` output).
 */
export function placementConfigured(config: Pick<LabConfig, 'aws' | 'gcp' | 'placement' | 'attendees'>): boolean {
  return (
    config.aws.regions !== undefined ||
    config.aws.accounts !== undefined ||
    config.gcp.regions !== undefined ||
    config.gcp.projects !== undefined ||
    config.placement !== undefined ||
    (config.attendees ?? []).some((a) => typeof a === 'object' && a.placement !== undefined)
  );
}
