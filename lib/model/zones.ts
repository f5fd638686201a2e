/**
 * The zone names of every region hoplab offers, per cloud: what `aws.regions`
 * and `gcp.regions` may list, what `aws.availabilityZones` and `gcp.zones` are
 * checked against (a name that exists in no account, such as `europe-west1-a`
 * or `eu-west-1d`, is refused with the real ones named), and where derived zones
 * come from (AWS: the first two of a region; GCP: the first one).
 *
 * The table is offline knowledge with a date. The live answer is the cloud's:
 * - AWS maps zone names to zone IDs per account in its oldest regions (an
 *   account's `us-east-1a` may be another's `us-east-1c`), removes constrained
 *   zones from the list newer accounts see, and EKS creates clusters in some
 *   zones only (`UnsupportedAvailabilityZoneException` names the account's valid
 *   ones). So a name in this table may still be missing from, or unusable in, a
 *   given account; `DescribeAvailabilityZones` with the account's credentials is
 *   the authority, and preflight with credentials is where it is asked.
 * - Google's zone names are the same in every project; `zones.list` is the authority.
 */

/** When the table was read from its sources. */
export const ZONE_TABLE_AS_OF = '2026-12-02';

/**
 * AWS: the Availability Zones of each commercial Region enabled by default (Regions launched before
 * March 20, 2019; opt-in Regions are not offered: add one here, with its zone names, to use it).
 * Sources: "AWS Availability Zones", AWS Regions and Availability Zones guide
 * (docs.aws.amazon.com/global-infrastructure/latest/regions/aws-availability-zones.html, read
 * 2026-12-02): the AZ IDs of each Region (us-east-1 six, us-west-2, ap-northeast-2 and eu-west-2 four,
 * the others three; "newer accounts can access two Availability Zones in US West (N. California)");
 * zone names as `describe-availability-zones` prints them, in that page's example for us-east-2
 * (`us-east-2a`..`c`) and in published outputs for the Regions whose letters skip one
 * (ca-central-1: a, b, d for cac1-az1, az2, az4; ap-northeast-1: a, c, d).
 */
export const AWS_REGION_ZONES: Readonly<Record<string, RegionZones>> = {
  'us-east-1': zones('us-east-1', 'abcdef'),
  'us-east-2': zones('us-east-2', 'abc'),
  // Three AZ IDs; an account created since the third was constrained sees two of them (its us-west-1a and us-west-1b).
  'us-west-1': zones('us-west-1', 'ab', 'c'),
  'us-west-2': zones('us-west-2', 'abcd'),
  'ca-central-1': zones('ca-central-1', 'abd'),
  'sa-east-1': zones('sa-east-1', 'abc'),
  'eu-west-1': zones('eu-west-1', 'abc'),
  'eu-west-2': zones('eu-west-2', 'abcd'),
  'eu-west-3': zones('eu-west-3', 'abc'),
  'eu-central-1': zones('eu-central-1', 'abc'),
  'eu-north-1': zones('eu-north-1', 'abc'),
  'ap-northeast-1': zones('ap-northeast-1', 'acd', 'b'),
  'ap-northeast-2': zones('ap-northeast-2', 'abcd'),
  'ap-northeast-3': zones('ap-northeast-3', 'abc'),
  'ap-south-1': zones('ap-south-1', 'abc'),
  'ap-southeast-1': zones('ap-southeast-1', 'abc'),
  'ap-southeast-2': zones('ap-southeast-2', 'abc'),
};

/**
 * Google Cloud: the zones of each region, from "Regions and zones", Compute Engine documentation
 * (cloud.google.com/compute/docs/regions-zones, read 2026-12-02). Zone letters are not always a, b, c:
 * us-east1 and europe-west1 have b, c, d; us-central1 has a, b, c, f.
 */
export const GCP_REGION_ZONES: Readonly<Record<string, RegionZones>> = {
  'us-central1': zones('us-central1', 'abcf', '', '-'),
  'us-east1': zones('us-east1', 'bcd', '', '-'),
  'us-east4': zones('us-east4', 'abc', '', '-'),
  'us-east5': zones('us-east5', 'abc', '', '-'),
  'us-south1': zones('us-south1', 'abc', '', '-'),
  'us-west1': zones('us-west1', 'abc', '', '-'),
  'us-west2': zones('us-west2', 'abc', '', '-'),
  'us-west3': zones('us-west3', 'abc', '', '-'),
  'us-west4': zones('us-west4', 'abc', '', '-'),
  'northamerica-northeast1': zones('northamerica-northeast1', 'abc', '', '-'),
  'northamerica-northeast2': zones('northamerica-northeast2', 'abc', '', '-'),
  'southamerica-east1': zones('southamerica-east1', 'abc', '', '-'),
  'europe-west1': zones('europe-west1', 'bcd', '', '-'),
  'europe-west2': zones('europe-west2', 'abc', '', '-'),
  'europe-west3': zones('europe-west3', 'abc', '', '-'),
  'europe-west4': zones('europe-west4', 'abc', '', '-'),
  'europe-west6': zones('europe-west6', 'abc', '', '-'),
  'europe-west8': zones('europe-west8', 'abc', '', '-'),
  'europe-west9': zones('europe-west9', 'abc', '', '-'),
  'europe-west10': zones('europe-west10', 'abc', '', '-'),
  'europe-west12': zones('europe-west12', 'abc', '', '-'),
  'europe-north1': zones('europe-north1', 'abc', '', '-'),
  'europe-central2': zones('europe-central2', 'abc', '', '-'),
  'europe-southwest1': zones('europe-southwest1', 'abc', '', '-'),
  'asia-east1': zones('asia-east1', 'abc', '', '-'),
  'asia-east2': zones('asia-east2', 'abc', '', '-'),
  'asia-northeast1': zones('asia-northeast1', 'abc', '', '-'),
  'asia-northeast2': zones('asia-northeast2', 'abc', '', '-'),
  'asia-northeast3': zones('asia-northeast3', 'abc', '', '-'),
  'asia-south1': zones('asia-south1', 'abc', '', '-'),
  'asia-south2': zones('asia-south2', 'abc', '', '-'),
  'asia-southeast1': zones('asia-southeast1', 'abc', '', '-'),
  'asia-southeast2': zones('asia-southeast2', 'abc', '', '-'),
  'australia-southeast1': zones('australia-southeast1', 'abc', '', '-'),
  'australia-southeast2': zones('australia-southeast2', 'abc', '', '-'),
};

/** One region's zones. */
export interface RegionZones {
  /** The zone names every account or project sees, in the order derived zones take them. */
  readonly zones: readonly string[];
  /** Names that exist in older AWS accounts only: accepted when given, never derived. */
  readonly olderAccountsOnly: readonly string[];
}

function zones(region: string, letters: string, olderAccountsOnly = '', separator = ''): RegionZones {
  const name = (letter: string) => `${region}${separator}${letter}`;
  return { zones: [...letters].map(name), olderAccountsOnly: [...olderAccountsOnly].map(name) };
}

/** How many zones an environment takes when they are derived: AWS two (EKS needs subnets in two zones), GCP one (a zonal cluster). */
export const DERIVED_ZONE_COUNT = { aws: 2, gcp: 1 } as const;

/** The zone table of a cloud. */
export function regionZoneTable(cloud: 'aws' | 'gcp'): Readonly<Record<string, RegionZones>> {
  return cloud === 'aws' ? AWS_REGION_ZONES : GCP_REGION_ZONES;
}

/** The regions the table offers for a cloud, in table order. */
export function offeredRegions(cloud: 'aws' | 'gcp'): string[] {
  return Object.keys(regionZoneTable(cloud));
}

/** Every zone name a region may have (older accounts' included), or undefined for a region the table does not hold. */
export function knownZones(cloud: 'aws' | 'gcp', region: string): readonly string[] | undefined {
  const entry = regionZoneTable(cloud)[region];
  return entry ? [...entry.zones, ...entry.olderAccountsOnly] : undefined;
}

/** The zones an environment in `region` takes when none are configured (AWS: the first two; GCP: the first), or undefined for a region the table does not hold. */
export function derivedZones(cloud: 'aws' | 'gcp', region: string): string[] | undefined {
  return regionZoneTable(cloud)[region]?.zones.slice(0, DERIVED_ZONE_COUNT[cloud]);
}
