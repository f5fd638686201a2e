/**
 * The slots a config offers, per cloud, in the order environments fill them:
 * AWS each account of `aws.accounts` (or the host's own) x each region of
 * `aws.regions` (or `aws.region`), account-major; GCP each project of
 * `gcp.projects` (or `gcp.project`) x each region of `gcp.regions` (or
 * `gcp.region`), project-major. A slot's zones are the configured ones in the
 * configured region, else the zone table's for its region.
 */
import { LabConfig } from '../../config/schema';
import { AwsSlot, awsSlot, GcpSlot, gcpSlot } from '../../model/slots';
import { derivedZones } from '../../model/zones';

/** The zones of an environment in `region`: the config's own in its region (given, or derived there), else the zone table's. */
function zonesIn(cloud: 'aws' | 'gcp', region: string, configured: { readonly region: string; readonly zones: readonly string[] }): readonly string[] {
  if (region === configured.region) return configured.zones;
  const zones = derivedZones(cloud, region);
  // Validation refuses a listed region the zone table does not hold, so this is a caller's mistake.
  if (!zones) throw new Error(`no zones for ${cloud} region ${region}: validate the config first (loadConfig)`);
  return zones;
}

/** The AWS slots of a validated config, account-major. */
export function awsSlots(config: Pick<LabConfig, 'aws'>): AwsSlot[] {
  const aws = config.aws;
  const regions = aws.regions ?? [aws.region];
  const configured = { region: aws.region, zones: aws.availabilityZones };
  const accounts: readonly ({ readonly id: string; readonly roleName: string } | undefined)[] = aws.accounts ?? [undefined];
  return accounts.flatMap((account) => regions.map((region) => awsSlot(region, zonesIn('aws', region, configured), account)));
}

/** The GCP slots of a validated config, project-major. */
export function gcpSlots(config: Pick<LabConfig, 'gcp'>): GcpSlot[] {
  const gcp = config.gcp;
  const regions = gcp.regions ?? [gcp.region];
  const configured = { region: gcp.region, zones: gcp.zones };
  return (gcp.projects ?? [gcp.project]).flatMap((project) => regions.map((region) => gcpSlot(project, region, zonesIn('gcp', region, configured))));
}
