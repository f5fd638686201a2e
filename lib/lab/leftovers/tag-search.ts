/**
 * The reaper's search: hoplab's tags and labels looked for in every place a
 * config names and every place its states say something is deployed, not only
 * where this host has state: each AWS slot (account x region, as the
 * account's role) and each GCP project (all its regions in one pass). Places
 * are looked at side by side; one that could not be looked at (no
 * credentials, a role it cannot assume, an API that would not answer) is said
 * as that, once, and never as something found.
 */
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { AwsSlot } from '../../model/slots';
import { gcpCredentials } from '../../kit/google/google-credentials';
import { DeployedSlots } from '../files/deployed-slots';
import { awsSlots, gcpSlots } from '../placement/slots';
import { AwsTagQuery, findAwsTagged } from './aws-tagged';
import { findGcpTagged, GcpTagQuery } from './gcp-tagged';
import { CloudFinders } from './leftover';
import { TaggedResource } from './tagged-resource';

/** How the clouds are asked for tagged resources (tests: stand-ins, or loopback APIs). */
export type TagFinders = CloudFinders<AwsTagQuery, GcpTagQuery, TaggedResource>;

const FINDERS: TagFinders = { aws: findAwsTagged, gcp: findGcpTagged, gcpCredentials };

/** Where to look. */
export interface SearchPlaces {
  readonly aws: readonly AwsSlot[];
  readonly gcpProjects: readonly string[];
}

/** One place looked at: an AWS slot's id, or a GCP project; with why it could not be looked at, if it could not. */
export interface SearchedPlace {
  readonly cloud: Cloud;
  /** `host/us-east-1`, `210987654321/eu-west-1`; a GCP project's id. */
  readonly place: string;
  readonly error?: string;
}

export interface TagSearchResult {
  readonly resources: readonly TaggedResource[];
  readonly places: readonly SearchedPlace[];
}

export interface TagSearchOptions {
  /** A local AWS emulator's endpoint. @default - AWS */
  readonly awsEndpoint?: string;
  /** The Google APIs' bases (tests: loopback). @default - Google's */
  readonly gcpApis?: { readonly compute?: string; readonly container?: string };
  /** @default the clouds' own */
  readonly finders?: Partial<TagFinders>;
}

/**
 * The places of `clouds` to search: every slot the config offers (aws.accounts x aws.regions; the projects of
 * gcp.projects) and every slot a state says an environment is in (a region or account the config no longer names).
 */
export function searchPlaces(config: LabConfig, state: DeployedSlots, clouds: readonly Cloud[]): SearchPlaces {
  const aws = new Map<string, AwsSlot>();
  if (clouds.includes('aws')) for (const slot of [...awsSlots(config), ...[...state.aws.values()].map((d) => d.slot)]) if (!aws.has(slot.id)) aws.set(slot.id, slot);
  const projects = clouds.includes('gcp') ? [...new Set([...gcpSlots(config).map((s) => s.project), ...[...state.gcp.values()].map((d) => d.slot.project)])] : [];
  return { aws: [...aws.values()], gcpProjects: projects };
}

/** Looks in every place side by side (see the module's comment). */
export async function searchTags(places: SearchPlaces, options: TagSearchOptions = {}): Promise<TagSearchResult> {
  const finders = { ...FINDERS, ...options.finders };
  const gcp = places.gcpProjects.length > 0 ? finders.gcpCredentials() : undefined;
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0];
  const looks: Promise<{ place: SearchedPlace; found: TaggedResource[] }>[] = [
    ...places.aws.map((slot) =>
      finders.aws({ slot, endpoint: options.awsEndpoint }).then(
        (found) => ({ place: { cloud: 'aws' as const, place: slot.id }, found }),
        (error: unknown) => ({ place: { cloud: 'aws' as const, place: slot.id, error: message(error) }, found: [] }),
      ),
    ),
    ...places.gcpProjects.map(async (project) => {
      if (!gcp) {
        return { place: { cloud: 'gcp' as const, place: project, error: 'no credentials: run gcloud auth application-default login (as for Terraform), or set GOOGLE_OAUTH_ACCESS_TOKEN' }, found: [] };
      }
      try {
        const found = await finders.gcp({
          project,
          accessToken: gcp.accessToken,
          quotaProject: gcp.quotaProject,
          computeApi: options.gcpApis?.compute,
          containerApi: options.gcpApis?.container,
        });
        return { place: { cloud: 'gcp' as const, place: project }, found };
      } catch (error) {
        return { place: { cloud: 'gcp' as const, place: project, error: message(error) }, found: [] };
      }
    }),
  ];
  const results = await Promise.all(looks);
  return { resources: results.flatMap((r) => r.found), places: results.map((r) => r.place) };
}
