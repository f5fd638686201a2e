/**
 * The GCP leftover check: what a Google Cloud project still holds of an
 * environment. Three parts: fetching what the project holds
 * (gcp-inventory.ts), GKE's naming rules (gke-names.ts, gke-firewall-rules.ts),
 * and the classification, a pure function of the two (gcp-classify.ts).
 */
import { classifyGcpLeftovers, GcpEnvironment } from './gcp-classify';
import { fetchGcpInventory, GcpApiAccess } from './gcp-inventory';
import { Leftover } from './leftover';

export { COMPUTE_API, CONTAINER_API, gcpAccessToken, gcpCredentials } from '../../kit/google/google-api-reader';

/** One environment to check, and how to reach the APIs. */
export interface GcpLeftoverQuery extends GcpEnvironment, GcpApiAccess {}

/**
 * Lists what is left of an environment in a Google Cloud project.
 *
 * The names GKE's controllers give load-balancer pieces carry no environment,
 * so the check anchors on the environment's network and walks the references:
 * - in the network: subnetworks, routers (with their NATs), firewall rules,
 *   NEGs, instance groups, VM instances (`network` / `networkInterfaces[].network`);
 * - backend services (global and regional) whose `backends[].group` is one of
 *   those NEGs or instance groups; URL maps whose default service, path
 *   matchers, path rules or route rules use those backend services; target
 *   HTTP(S) proxies whose `urlMap` is one of those; forwarding rules whose
 *   `target` is one of those proxies or target pools, or whose
 *   `backendService` is one of those backend services (backend
 *   service-based passthrough NLBs), or that are in the network (internal);
 *   health checks (global, regional, legacy HTTP) that those backend
 *   services and target pools name in `healthChecks`;
 * - legacy target pools whose `instances` are VMs of the network or that
 *   share their name with a legacy `k8s-fw-<name>` firewall rule of the network;
 * - what is no longer linked (an empty instance group has no network; a
 *   health check outlives its backend service): GKE names that carry one of
 *   the cluster ids found in the names of the network's NEGs and firewall rules,
 *   or the Gateway controller's `gkegw1-<hash>` of a Gateway piece found linked;
 * - reserved addresses used by its forwarding rules, in its network, or labelled
 *   `hoplab-env`, and SSL certificates its HTTPS proxies use;
 * - the GKE cluster, by name; the Cloud Armor policy (`<env>-gke-sources`), by exact name;
 * - the nodes' service account (`<env>-gke-nodes@...`) and its project IAM
 *   binding, by exact email (so `lab` never matches `lab2-gke-nodes`).
 *
 * Leftovers come in an order they can be deleted in. Any API error, timeout,
 * unreachable scope or missing zone is an error naming the request: a check
 * that could not see everything must not report "nothing left".
 */
export async function findGcpLeftovers(query: GcpLeftoverQuery): Promise<Leftover[]> {
  return classifyGcpLeftovers(await fetchGcpInventory(query.project, query), query);
}
