/**
 * `deploy.parallelism: auto`: how many stacks fit in this machine's memory at
 * once. Every running stack is one `terraform` process plus one process per
 * provider its stack loads. A provider's resident size is mostly its binary's
 * pages (file-backed: several processes of the same provider share them
 * through the page cache) and partly its own heap (private: paid per process).
 */
import { readFileSync } from 'node:fs';
import { freemem } from 'node:os';
import { StackKind } from './stack-graph';

/** Resident memory of one process kind, in MiB. */
export interface ProcessMemory {
  /** Peak resident set (VmHWM). */
  readonly rssMiB: number;
  /** Of which file-backed (the binary), shared by all processes of the same binary. */
  readonly sharedMiB: number;
  /** `measured` here, or `estimate` (not installable on the machine that wrote this table). */
  readonly basis: 'measured' | 'estimate';
  readonly source: string;
}

export type ProviderName = 'terraform' | 'aws' | 'google' | 'helm' | 'kubernetes';

/**
 * Measured 2026-11-30 on the hoplab development machine (Linux x86_64, Terraform 1.11.4):
 * `terraform apply` of a VPC, subnet, security group and IAM role against moto, sampling
 * /proc/<pid>/status (VmHWM, RssAnon, RssFile) every 100-200 ms: terraform core peaked at
 * 207-215 MiB (anonymous 160 MiB), hashicorp/aws 5.100.0 at 599-608 MiB, of which 487 MiB
 * file-backed (its binary is 674 MiB) and 142 MiB anonymous. google, helm and kubernetes
 * providers cannot be installed there: their figures are estimates from their binary sizes
 * (about 150, 80 and 90 MiB) plus a private heap like the AWS provider's; measure them with
 * the same sampling on a machine that has them and replace the estimates.
 */
export const PROCESS_MEMORY: Readonly<Record<ProviderName, ProcessMemory>> = {
  terraform: { rssMiB: 215, sharedMiB: 50, basis: 'measured', source: 'terraform 1.11.4 core, VmHWM during apply/plan/destroy, 2026-11-30' },
  aws: { rssMiB: 610, sharedMiB: 490, basis: 'measured', source: 'hashicorp/aws 5.100.0, VmHWM 599-608 MiB, RssFile 487 MiB, RssAnon peak 142 MiB, 2026-11-30' },
  google: { rssMiB: 300, sharedMiB: 150, basis: 'estimate', source: "not installable here: binary about 150 MiB plus a heap like the AWS provider's" },
  helm: { rssMiB: 200, sharedMiB: 80, basis: 'estimate', source: 'not installable here: binary about 80 MiB plus a heap for the chart and its rendering' },
  kubernetes: { rssMiB: 200, sharedMiB: 90, basis: 'estimate', source: 'not installable here: binary about 90 MiB plus a heap for the API discovery' },
};

/** The providers each stack kind loads (see docs/stacks-and-outputs.md). */
export const STACK_PROVIDERS: Readonly<Record<StackKind, readonly ProviderName[]>> = {
  'aws-cluster': ['aws'],
  'aws-lb': ['aws', 'helm', 'kubernetes'],
  'gcp-cluster': ['google'],
  'gcp-lb': ['google', 'kubernetes'],
};

/** Kept free for the OS, node and hoplab itself. */
export const RESERVED_MIB = 1024;
export const MAX_PARALLELISM = 32;

export interface AutoParallelism {
  readonly parallelism: number;
  /** One line: what it chose and why. */
  readonly reason: string;
}

/** The private memory of one running stack of `kind`: terraform plus its providers, less their shared pages. */
export function stackPrivateMiB(kind: StackKind): number {
  return [...STACK_PROVIDERS[kind], 'terraform' as const].reduce((sum, p) => sum + PROCESS_MEMORY[p].rssMiB - PROCESS_MEMORY[p].sharedMiB, 0);
}

/**
 * Stacks at once for `availableMiB` of free memory: what is left after the
 * reserve and one copy of each binary's shared pages, divided by the private
 * memory of the hungriest selected stack kind (any mix may run at once),
 * between 1 and 32.
 */
export function autoParallelism(availableMiB: number, kinds: readonly StackKind[]): AutoParallelism {
  const providers = new Set<ProviderName>(['terraform', ...kinds.flatMap((k) => STACK_PROVIDERS[k])]);
  const shared = [...providers].reduce((sum, p) => sum + PROCESS_MEMORY[p].sharedMiB, 0);
  const worst = [...kinds].sort((a, b) => stackPrivateMiB(b) - stackPrivateMiB(a))[0] ?? 'aws-cluster';
  const perStack = stackPrivateMiB(worst);
  const budget = availableMiB - RESERVED_MIB - shared;
  const fits = Math.floor(budget / perStack);
  const parallelism = Math.max(1, Math.min(MAX_PARALLELISM, fits));
  const estimates = [...providers].filter((p) => PROCESS_MEMORY[p].basis === 'estimate');
  const limit = fits > MAX_PARALLELISM ? ` (capped at ${MAX_PARALLELISM})` : fits < 1 ? ' (too little memory for even one: running one anyway, expect swapping or OOM kills)' : '';
  const reason =
    `parallelism auto: ${parallelism}${limit} = (${Math.round(availableMiB)} MiB available - ${RESERVED_MIB} reserved - ${shared} MiB of shared provider binaries) ` +
    `/ ${perStack} MiB per ${worst} stack (terraform + ${STACK_PROVIDERS[worst].join(' + ')}, private memory)` +
    (estimates.length > 0 ? `; ${estimates.join(', ')} figures are estimates, aws and terraform measured (lib/lab/selection/parallelism.ts)` : '; measured figures (lib/lab/selection/parallelism.ts)');
  return { parallelism, reason };
}

/** Free memory in MiB: MemAvailable from /proc/meminfo (what can be had without swapping), else os.freemem(). */
export function availableMemoryMiB(meminfo: () => string = () => readFileSync('/proc/meminfo', 'utf8')): number {
  try {
    const match = /^MemAvailable:\s+(\d+)\s+kB$/m.exec(meminfo());
    if (match) return Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  return freemem() / 1024 / 1024;
}

/** A number stays as is; `auto` is computed from this machine's memory now. */
export function resolveParallelism(setting: number | 'auto', kinds: readonly StackKind[], availableMiB: () => number = availableMemoryMiB): AutoParallelism {
  if (setting !== 'auto') return { parallelism: setting, reason: `parallelism ${setting} (set)` };
  return autoParallelism(availableMiB(), kinds);
}
