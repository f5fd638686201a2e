/**
 * How many environments a slot takes, per cloud: `placement.perSlot` when
 * given, else what the quota table allows. For each quota with a documented
 * default and the same value in every new account, floor((default - what a
 * fresh account or project holds) / one environment's need); the least of them
 * over the region- and zone-scoped quotas caps each slot, and over the
 * project-scoped ones each project (all its regions together). Quotas whose
 * value varies by account (vCPUs) never size a slot.
 */
import { LabConfig } from '../../config/schema';
import { Cloud } from '../../model/contract';
import { environmentsWithin, QuotaSpec, quotasOf } from '../../model/quotas';

/** A quota that sets a capacity, with its figures. */
export interface BindingQuota {
  readonly quota: QuotaSpec & { readonly defaultLimit: number };
  /** What one environment needs of it. */
  readonly perEnvironment: number;
  /** floor((default - fresh) / perEnvironment). */
  readonly fits: number;
  /** Whether it caps each slot, or each account or project over its slots. */
  readonly per: 'slot' | 'project';
}

/** How many environments one cloud's slots take. */
export interface Capacity {
  /** Environments one slot takes; undefined: no limit. */
  readonly perSlot?: number;
  /** Environments one account or project takes over all its slots; undefined: no limit. */
  readonly perGroup?: number;
  /**
   * What set it: `unplaced` (the cloud's placement is not configured: one slot, no limit, notes
   * for what is over a default), `perSlot` (the config's), or `quotas` (the binding quotas).
   */
  readonly source: 'unplaced' | 'perSlot' | 'quotas';
  /** The quotas that set `perSlot` and `perGroup` (source `quotas`): every one at the least, in table order (raising one alone leaves the others). */
  readonly binding: readonly BindingQuota[];
}

/**
 * Whether a cloud's environments are placed in slots with a capacity: its lists, `placement.perSlot`
 * or a pin on it is set. Otherwise the cloud keeps one slot without a limit, as before (synth notes
 * each default its environments exceed).
 */
export function cloudPlaced(cloud: Cloud, config: Pick<LabConfig, 'aws' | 'gcp' | 'placement' | 'attendees'>): boolean {
  const lists = cloud === 'aws' ? config.aws.regions ?? config.aws.accounts : config.gcp.regions ?? config.gcp.projects;
  const pinned = (config.attendees ?? []).some((a) => typeof a === 'object' && a.placement?.[cloud] !== undefined);
  return lists !== undefined || pinned || perSlotOf(cloud, config) !== undefined;
}

/** `placement.perSlot` for a cloud. */
export function perSlotOf(cloud: Cloud, config: Pick<LabConfig, 'placement'>): number | undefined {
  const perSlot = config.placement?.perSlot;
  return typeof perSlot === 'number' ? perSlot : perSlot?.[cloud];
}

/** The capacity of a cloud's slots; `needs` (one environment's need by quota id) is asked only when the quotas decide. */
export function cloudCapacity(cloud: Cloud, config: Pick<LabConfig, 'aws' | 'gcp' | 'placement' | 'attendees'>, needs: () => ReadonlyMap<string, number>): Capacity {
  if (!cloudPlaced(cloud, config)) return { source: 'unplaced', binding: [] };
  const perSlot = perSlotOf(cloud, config);
  if (perSlot !== undefined) return { perSlot, source: 'perSlot', binding: [] };
  const need = needs();
  const candidates = quotasOf(cloud).flatMap((quota): BindingQuota[] => {
    const perEnvironment = need.get(quota.id) ?? 0;
    const fits = environmentsWithin(quota, perEnvironment);
    return fits === undefined ? [] : [{ quota: quota as BindingQuota['quota'], perEnvironment, fits, per: quota.scope === 'project' ? 'project' : 'slot' }];
  });
  // The least of each kind, and every quota at it.
  const least = (per: BindingQuota['per']) => {
    const mine = candidates.filter((c) => c.per === per);
    const fits = mine.length > 0 ? Math.min(...mine.map((c) => c.fits)) : undefined;
    return { fits, binding: mine.filter((c) => c.fits === fits) };
  };
  const slot = least('slot');
  const group = least('project');
  return { perSlot: slot.fits, perGroup: group.fits, source: 'quotas', binding: [...slot.binding, ...group.binding] };
}
