/**
 * The reaper's search on GCP, one project at a time, all its regions at once
 * (aggregated lists): what carries hoplab's `hoplab-expires` label, whichever
 * workshop, environment or host made it: GKE clusters (`resourceLabels`),
 * Compute Engine instances, forwarding rules and reserved addresses (their
 * `labels`). Networks take no labels, and the load balancers GKE's controllers
 * make carry none of hoplab's: a cluster's own are deleted with what made them
 * (the delete steps say how). GKE's node VMs (label `goog-gke-node`) are
 * counted with their cluster (its node count and machine type), not again.
 * Read through the Google REST reader, with the calls of GOOGLE_CALLS (each
 * names its permission; preflight tests them). It only reads.
 */
import { GOOGLE_CALLS as CALLS } from '../checks/google-calls';
import { GoogleItem } from '../../kit/google/google-api-reader';
import { TAG_KEYS } from '../../model/tags';
import { GcpApiAccess, googleReader, unique } from './gcp-inventory';
import { TaggedResource } from './tagged-resource';

/** The label GKE puts on its node VMs. */
const GKE_NODE_LABEL = 'goog-gke-node';

export interface GcpTagQuery extends GcpApiAccess {
  readonly project: string;
}

/** The last part of a resource URL: `.../zones/us-central1-b` is `us-central1-b`. */
const last = (url: unknown) => (typeof url === 'string' ? url.split('/').pop() ?? '' : '');
/** The region of a zone (`us-central1-b`) or of a region itself. */
export const regionOf = (location: string) => location.replace(/-[a-z]$/, '');

const labelsOf = (item: GoogleItem, field = 'labels'): Record<string, string> => {
  const labels = item[field];
  return labels !== null && typeof labels === 'object' ? Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, String(v)])) : {};
};

/** Every labelled resource of the project (see the module's comment). */
export async function findGcpTagged(query: GcpTagQuery): Promise<TaggedResource[]> {
  const api = googleReader(query);
  const p = { project: query.project };
  const [clusterList, instances, rules, addresses] = await Promise.all([
    api.call(CALLS.clustersList, p),
    api.aggregated(CALLS.instancesAggregated, p),
    Promise.all([api.list(CALLS.globalForwardingRulesList, p), api.aggregated(CALLS.forwardingRulesAggregated, p)]).then((lists) => unique(...lists)),
    Promise.all([api.list(CALLS.globalAddressesList, p), api.aggregated(CALLS.addressesAggregated, p)]).then((lists) => unique(...lists)),
  ]);
  const missingZones = (clusterList.missingZones as string[] | undefined) ?? [];
  if (missingZones.length > 0) throw new Error(`GKE could not list clusters in ${missingZones.join(', ')} of project ${query.project}; run the search again`);
  const at = (region: string) => ({ cloud: 'gcp' as const, slot: `${query.project}/${region}`, region });
  const found: TaggedResource[] = [];
  for (const cluster of (clusterList.clusters as GoogleItem[] | undefined) ?? []) {
    const tags = labelsOf(cluster, 'resourceLabels');
    if (!(TAG_KEYS.expires in tags)) continue;
    const location = String(cluster.location ?? cluster.zone ?? '');
    const node = (cluster.nodeConfig ?? {}) as { machineType?: string; diskType?: string; diskSizeGb?: number };
    found.push({
      ...at(regionOf(location)),
      kind: 'gke:cluster',
      id: cluster.name,
      tags,
      location,
      nodes: typeof cluster.currentNodeCount === 'number' ? cluster.currentNodeCount : 0,
      ...(node.machineType ? { machineType: node.machineType } : {}),
      ...(node.diskType ? { diskType: node.diskType } : {}),
      ...(typeof node.diskSizeGb === 'number' ? { diskSizeGb: node.diskSizeGb } : {}),
    });
  }
  for (const instance of instances) {
    const tags = labelsOf(instance);
    if (!(TAG_KEYS.expires in tags) || GKE_NODE_LABEL in tags) continue;
    const zone = last(instance.zone);
    found.push({ ...at(regionOf(zone)), kind: 'compute:instance', id: instance.name, tags, zone, machineType: last(instance.machineType) });
  }
  for (const [kind, items] of [
    ['compute:forwarding-rule', rules],
    ['compute:address', addresses],
  ] as const) {
    for (const item of items) {
      const tags = labelsOf(item);
      if (TAG_KEYS.expires in tags) found.push({ ...at(last(item.region) || 'global'), kind, id: item.name, tags });
    }
  }
  return found;
}
