/**
 * The placement as `synth`, `cost` and `preflight` show it when the config asks
 * for placement: per slot its environments, the quota that binds it with its
 * figure (what the slot's environments take, with what a fresh account or
 * project holds, of the documented default), and the EC2 vCPUs its nodes need
 * (set per account: preflight with credentials checks them). As a compact text
 * table that fits the terminal (80 columns for 30 environments over 8 slots),
 * as Markdown, and as data for the JSON forms.
 */
import { markdownTable, textTable, wrapIndented } from '../../kit/terminal/text-table';
import { Cloud } from '../../model/contract';
import { quotasOf, VCPU_QUOTA } from '../../model/quotas';
import { Slot, slotGroup } from '../../model/slots';
import { LabQuotaNeeds } from '../estimate/quotas';
import { EnvironmentNeeds } from '../estimate/environment-needs';
import { capacityWords, CloudPlacement, LabPlacement } from './lab-placement';

/** A slot's figure for one quota: what applies where its limit does (the slot, or its project). */
export interface QuotaFigure {
  readonly quota: string;
  readonly name: string;
  readonly short: string;
  /** What the environments take, with what a fresh account or project holds. */
  readonly total: number;
  readonly limit: number;
  /** `slot`, or `project` when the limit is over all the slots of its account or project. */
  readonly per: 'slot' | 'project';
}

export interface SlotReport {
  readonly cloud: Cloud;
  readonly slot: string;
  /** The AWS account id (`host` for the host's own) or the GCP project. */
  readonly account?: string;
  readonly project?: string;
  readonly region: string;
  readonly zones: readonly string[];
  readonly environments: readonly string[];
  /** The slot's capacity; undefined: no limit. */
  readonly capacity?: number;
  readonly binding: readonly QuotaFigure[];
  /** vCPUs its nodes take (AWS: EC2 on-demand standard; GCP: CPUS), a need checked with credentials. */
  readonly vcpus: number;
}

export interface PlacementReport {
  readonly environments: number;
  /** Per cloud, how its slots are sized, in words. */
  readonly capacity: { readonly aws: string; readonly gcp: string };
  readonly slots: readonly SlotReport[];
}

/** What one quota of a slot takes where its limit applies (the slot, or its project), without what a fresh account holds. */
export type SlotNeed = (quotaId: string, slot: Slot) => number;

/** Slot needs counted from the synthesized stacks (synth, preflight). */
export function countedNeeds(needs: LabQuotaNeeds): SlotNeed {
  return (quotaId, slot) => needs.needs.find((n) => n.quota.id === quotaId && n.slots.some((s) => s.id === slot.id))?.need ?? 0;
}

/** Slot needs from one environment's, times the environments placed where the limit applies (cost, which synthesizes nothing else). */
export function perEnvironmentNeeds(placement: LabPlacement, one: EnvironmentNeeds): SlotNeed {
  return (quotaId, slot) => {
    const cloud: CloudPlacement<Slot> = slot.cloud === 'aws' ? placement.aws : placement.gcp;
    const project = quotasOf(slot.cloud).find((q) => q.id === quotaId)?.scope === 'project';
    const count = cloud.bySlot.filter((s) => (project ? slotGroup(s.slot) === slotGroup(slot) : s.slot.id === slot.id)).reduce((n, s) => n + s.envs.length, 0);
    return count * (one[slot.cloud].get(quotaId) ?? 0);
  };
}

/** The report of a placement; `need` gives each slot's figures. */
export function placementReport(placement: LabPlacement, need: SlotNeed): PlacementReport {
  const slots = [placement.aws, placement.gcp].flatMap((cloud: CloudPlacement<Slot>) =>
    cloud.bySlot.map(({ slot, envs }): SlotReport => {
      const where = slot.cloud === 'aws' ? { account: slotGroup(slot) } : { project: slot.project };
      return {
        cloud: slot.cloud,
        slot: slot.id,
        ...where,
        region: slot.region,
        zones: slot.zones,
        environments: envs,
        capacity: cloud.capacity.perSlot,
        binding: cloud.capacity.binding.map((b) => ({
          quota: b.quota.id,
          name: b.quota.name,
          short: b.quota.short,
          total: need(b.quota.id, slot) + b.quota.fresh,
          limit: b.quota.defaultLimit,
          per: b.per,
        })),
        vcpus: need(VCPU_QUOTA[slot.cloud], slot),
      };
    }),
  );
  return {
    environments: placement.envs.length,
    capacity: { aws: capacityWords('aws', placement.aws.slots, placement.aws.capacity), gcp: capacityWords('gcp', placement.gcp.slots, placement.gcp.capacity) },
    slots,
  };
}

/** `a01..a04` for a run in attendee order, else names; cut with `+N` to stay short. */
function who(environments: readonly string[], order: readonly string[]): string {
  if (environments.length === 0) return '-';
  const at = environments.map((e) => order.indexOf(e));
  const run = at.every((i, k) => k === 0 || i === at[k - 1] + 1);
  if (run && environments.length > 2) return `${environments[0]}..${environments[environments.length - 1]}`;
  const shown = environments.slice(0, 2).join(', ');
  return environments.length > 2 ? `${shown} +${environments.length - 2}` : shown;
}

/** One table per cloud: slot, environments, who, a column per binding quota (its figure), vCPUs. */
function cloudTable(report: PlacementReport, cloud: Cloud, order: readonly string[]): { header: string[]; rows: string[][] } {
  const slots = report.slots.filter((s) => s.cloud === cloud);
  const binding = slots[0]?.binding ?? [];
  const header = [`${cloud === 'aws' ? 'AWS' : 'GCP'} slot`, 'envs', 'who', ...binding.map((b) => `${b.short}${b.per === 'project' ? ' per project' : ''}`), 'vCPUs'];
  const rows = slots.map((s) => [
    s.slot,
    s.capacity === undefined ? String(s.environments.length) : `${s.environments.length}/${s.capacity}`,
    who(s.environments, order),
    ...s.binding.map((b) => `${b.total}/${b.limit}`),
    String(s.vcpus),
  ]);
  return { header, rows };
}

/** The report as lines for the terminal, at most `width` wide. */
export function formatPlacement(report: PlacementReport, order: readonly string[], width = 80): string[] {
  const tables = (['aws', 'gcp'] as const).flatMap((cloud) => {
    const { header, rows } = cloudTable(report, cloud, order);
    return textTable(header, rows, { width, rules: 'header' }).split('\n');
  });
  return [
    `Placement of ${report.environments} environment${report.environments === 1 ? '' : 's'}:`,
    ...wrapIndented(`AWS: ${report.capacity.aws}`, width, '  ', '    '),
    ...wrapIndented(`GCP: ${report.capacity.gcp}`, width, '  ', '    '),
    ...tables,
    ...wrapIndented(
      "A quota column: what the slot's environments take with what a fresh account or project holds, of the documented default. vCPUs: what its nodes take (EC2 on-demand standard; GCP CPUS), set per account and project: preflight with credentials checks it.",
      width,
      '  ',
      '  ',
    ),
  ];
}

/** The report in Markdown (preflight --format markdown). */
export function placementMarkdown(report: PlacementReport, order: readonly string[]): string {
  const tables = (['aws', 'gcp'] as const).flatMap((cloud) => {
    const { header, rows } = cloudTable(report, cloud, order);
    return [markdownTable(header, rows), ''];
  });
  return ['### Placement', '', `- AWS: ${report.capacity.aws}`, `- GCP: ${report.capacity.gcp}`, '', ...tables].join('\n');
}
