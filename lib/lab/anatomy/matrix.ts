/**
 * The controlled-comparison matrix: which exposures differ from which in
 * exactly one variable, computed from what `explain` derived from the
 * synthesized resources (never from the mode names), so a change to a
 * Service's traffic policy or target type changes the matrix.
 *
 * The variables:
 * - `layer`: L7 (a proxy that opens its own connection) or L4 (passthrough);
 * - `api`: the Kubernetes API that asks for the load balancer: the Gateway API,
 *   or the core API (an Ingress at L7, a `type: LoadBalancer` Service at L4);
 * - `targets`: Pod IPs or nodes;
 * - `traffic policy`: the Service's externalTrafficPolicy, exactly as explain's
 *   table and JSON show it (`external_traffic_policy`), whatever the targets.
 *
 * Two exposures differ in one variable only when every other variable is
 * known and equal: `null` (not known) is equal to nothing, not even another
 * `null`. So `nodeport-local` (nodes, Local) and `native-l4` (Pods, Cluster)
 * differ in two, and are no pair.
 */
import { ExposureExplanation, MatrixNeighbour, MatrixVariables } from './model';

/** Names of the variables, as the matrix shows them. */
export const MATRIX_VARIABLES = ['layer', 'api', 'targets', 'traffic policy'] as const;
export type MatrixVariable = (typeof MATRIX_VARIABLES)[number];

/** The variables of one exposure, or null where explain could not derive them. */
export function matrixVariables(e: Pick<ExposureExplanation, 'layer' | 'api' | 'targets' | 'external_traffic_policy'>): MatrixVariables | null {
  if (e.layer === null || e.api === null || e.targets === null) {
    return null;
  }
  return { layer: e.layer, api: e.api, targets: e.targets, traffic_policy: e.external_traffic_policy };
}

/** Equal only when both are known: `null` equals nothing. */
const same = <T>(a: T | null, b: T | null) => a !== null && b !== null && a === b;

/** Every variable in which `a` and `b` are not known to be equal, with both values as the matrix shows them. */
export function differences(a: MatrixVariables, b: MatrixVariables): { variable: MatrixVariable; this: string; other: string }[] {
  const found: { variable: MatrixVariable; this: string; other: string }[] = [];
  if (!same(a.layer, b.layer)) found.push({ variable: 'layer', this: a.layer, other: b.layer });
  if (!same(a.api, b.api)) found.push({ variable: 'api', this: a.api, other: b.api });
  if (!same(a.targets, b.targets)) found.push({ variable: 'targets', this: a.targets, other: b.targets });
  if (!same(a.traffic_policy, b.traffic_policy)) {
    found.push({ variable: 'traffic policy', this: `ETP ${a.traffic_policy ?? 'unknown'}`, other: `ETP ${b.traffic_policy ?? 'unknown'}` });
  }
  return found;
}

/** For each exposure of one cloud, the others it differs from in exactly one variable (in the given order). */
export function oneVariableNeighbours(exposures: readonly ExposureExplanation[]): Map<string, MatrixNeighbour[]> {
  const result = new Map<string, MatrixNeighbour[]>();
  for (const e of exposures) {
    const mine = e.variables;
    const neighbours: MatrixNeighbour[] = [];
    if (mine) {
      for (const other of exposures) {
        if (other === e || !other.variables) continue;
        const diff = differences(mine, other.variables);
        if (diff.length === 1) {
          neighbours.push({ mode: other.mode, variable: diff[0].variable, this: diff[0].this, other: diff[0].other });
        }
      }
    }
    result.set(e.mode, neighbours);
  }
  return result;
}

/** Two exposures of one cloud that differ in exactly one variable, `a` before `b` in the exposures' order. */
export interface OneVariablePair {
  readonly a: string;
  readonly b: string;
  readonly variable: string;
  /** `a`'s value and `b`'s, e.g. `L7` and `L4`. */
  readonly values: readonly [string, string];
}

/** Each one-variable pair of one cloud once, in the exposures' order: the source of explain's matrix and of the docs' pair table. */
export function oneVariablePairs(exposures: readonly ExposureExplanation[]): OneVariablePair[] {
  const neighbours = oneVariableNeighbours(exposures);
  const order = exposures.map((e) => e.mode);
  return exposures.flatMap((e) =>
    (neighbours.get(e.mode) ?? []).filter((n) => order.indexOf(n.mode) > order.indexOf(e.mode)).map((n) => ({ a: e.mode, b: n.mode, variable: n.variable, values: [n.this, n.other] as const })),
  );
}

/** `gateway (api: Gateway API vs core API)`: one neighbour in words. */
export function neighbourText(n: MatrixNeighbour): string {
  return `${n.mode} (${n.variable}: ${n.this} vs ${n.other})`;
}
