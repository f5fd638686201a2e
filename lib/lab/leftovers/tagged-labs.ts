/**
 * The labs among resources found by their tags, and what each is to the
 * reaper: a pure function of what the search found, the time, where this
 * host's states said each environment was, and what this run tore down.
 *
 * A lab is what one environment of one workshop has in one place (AWS: a slot;
 * GCP: a project, its region the cluster's), read from the tags `hoplab-env`
 * and `hoplab-workshop`; a controller's load balancer that carries only the
 * cluster tag `elbv2.k8s.aws/cluster` goes with the cluster of that name. Its
 * expiry is its `hoplab-expires` (the latest, where its resources differ).
 */
import { Cloud } from '../../model/contract';
import { expiryOfTag, TAG_KEYS } from '../../model/tags';
import { standingCost, StandingCost } from '../estimate/standing-cost';
import { LB_CONTROLLER_CLUSTER_TAG } from './aws-leftovers';
import { TaggedResource } from './tagged-resource';

export interface TaggedLab {
  readonly cloud: Cloud;
  /** AWS: the slot it was found in; GCP: `<project>/<region>` of its cluster (else of its first regional resource). */
  readonly slot: string;
  readonly region: string;
  /** Its `hoplab-env`; empty when none of its resources carries one. */
  readonly env: string;
  /** Its `hoplab-workshop`. */
  readonly workshop?: string;
  /** Its `hoplab-expires` as tagged (the latest, where its resources differ). */
  readonly expiresTag?: string;
  readonly expires: Date | 'unset' | undefined;
  readonly resources: readonly TaggedResource[];
}

/**
 * What a lab is to the reaper:
 * - `not expired`, `no expiry` (`hoplab-expires` unset or unreadable): listed, not a leftover;
 * - expired, and this run tore its environment down where its state said: `left after teardown` or `teardown failed`;
 * - expired, its state is here and this run did not tear it down: `state here`;
 * - expired, and no state here says it is there (another host's lab, or its state is lost): `no state here`.
 */
export type LabStatus = 'not expired' | 'no expiry' | 'left after teardown' | 'teardown failed' | 'state here' | 'no state here';

export interface JudgedLab extends TaggedLab {
  readonly status: LabStatus;
  /** Whether it is expired and still standing (a reason for exit 1). */
  readonly expired: boolean;
  readonly cost: StandingCost;
}

export interface JudgeContext {
  readonly now: Date;
  /** Where this host's state said an environment was, before this run tore anything down (a slot id), or undefined. */
  readonly stateSlot: (cloud: Cloud, env: string) => string | undefined;
  /** What this run's teardown did to each environment it tore down. */
  readonly tornDown: ReadonlyMap<string, 'destroyed' | 'failed'>;
}

/** The labs of `resources` (see the module's comment), in the order they were found. */
export function labsOf(resources: readonly TaggedResource[]): TaggedLab[] {
  const place = (r: TaggedResource) => (r.cloud === 'aws' ? r.slot : r.slot.split('/')[0]);
  // A load balancer with only the controller's cluster tag goes with the EKS cluster of that name in its slot.
  const clusters = new Map(resources.filter((r) => r.kind === 'eks:cluster').map((r) => [`${r.slot} ${r.id}`, r]));
  const ownTags = (r: TaggedResource) =>
    r.tags[TAG_KEYS.env] === undefined && r.tags[LB_CONTROLLER_CLUSTER_TAG] !== undefined ? clusters.get(`${r.slot} ${r.tags[LB_CONTROLLER_CLUSTER_TAG]}`)?.tags ?? r.tags : r.tags;
  const envOf = (r: TaggedResource) => ownTags(r)[TAG_KEYS.env] ?? '';
  const groups = new Map<string, TaggedResource[]>();
  for (const r of resources) {
    const key = [r.cloud, place(r), envOf(r), ownTags(r)[TAG_KEYS.workshop] ?? ''].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0];
    const anchor = first.cloud === 'aws' ? first : group.find((r) => r.kind === 'gke:cluster') ?? group.find((r) => r.region !== 'global') ?? first;
    const dated = group
      .map((r) => ({ tag: r.tags[TAG_KEYS.expires], at: expiryOfTag(r.tags[TAG_KEYS.expires]) }))
      .filter((d): d is { tag: string; at: Date } => d.at instanceof Date)
      .sort((a, b) => b.at.getTime() - a.at.getTime());
    const unset = group.some((r) => expiryOfTag(r.tags[TAG_KEYS.expires]) === 'unset');
    const workshop = ownTags(first)[TAG_KEYS.workshop];
    return {
      cloud: first.cloud,
      slot: anchor.slot,
      region: anchor.region,
      env: envOf(first),
      ...(workshop !== undefined ? { workshop } : {}),
      ...(dated.length > 0 ? { expiresTag: dated[0].tag } : unset ? { expiresTag: 'unset' } : {}),
      expires: dated.length > 0 ? dated[0].at : unset ? 'unset' : undefined,
      resources: group,
    };
  });
}

/** Each lab with what it is to the reaper (see {@link LabStatus}) and what it costs per hour. */
export function judgeLabs(labs: readonly TaggedLab[], context: JudgeContext): JudgedLab[] {
  return labs.map((lab) => {
    const status = statusOf(lab, context);
    const expired = status !== 'not expired' && status !== 'no expiry';
    return { ...lab, status, expired, cost: standingCost(lab.resources) };
  });
}

function statusOf(lab: TaggedLab, context: JudgeContext): LabStatus {
  if (lab.expires === undefined || lab.expires === 'unset') return 'no expiry';
  if (lab.expires.getTime() > context.now.getTime()) return 'not expired';
  const here = lab.env !== '' && context.stateSlot(lab.cloud, lab.env) === lab.slot;
  if (!here) return 'no state here';
  const torn = context.tornDown.get(lab.env);
  if (torn === 'destroyed') return 'left after teardown';
  if (torn === 'failed') return 'teardown failed';
  return 'state here';
}
