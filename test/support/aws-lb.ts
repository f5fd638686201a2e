import { Testing } from 'cdktf';
import { LabConfigInput } from '../../lib/config/schema';
import { validConfig } from '../../lib/config/load';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';
import { AwsLbStack } from '../../lib/stacks/aws-lb-stack';

/** A synthesized stack (cdk.tf.json), loosely typed for assertions. */
export interface Synthesized {
  readonly resource: Record<string, Record<string, Record<string, unknown>>>;
  readonly data?: Record<string, Record<string, Record<string, unknown>>>;
  readonly output: Record<string, { value: unknown; description?: string }>;
  readonly provider: Record<string, Record<string, unknown>[]>;
  readonly terraform: Record<string, unknown>;
}

/**
 * GIVEN a lab config, the app's cluster and lb stacks, with the lb stack
 * synthesized the way `app.synth()` does it: `prepareStack()` first turns
 * references into the cluster stack into remote-state reads and cluster outputs.
 */
export function synthAwsLb(raw: LabConfigInput = {}) {
  const config = validConfig(raw, 'test');
  const app = Testing.app();
  const cluster = new AwsClusterStack(app, `${config.name}-aws-cluster`, { config });
  const lb = new AwsLbStack(app, `${config.name}-aws-lb`, { config, cluster });
  lb.prepareStack();
  const text = Testing.synth(lb);
  return { config, cluster, lb, text, json: JSON.parse(text) as Synthesized };
}

/** The one resource of `type` whose address contains `fragment`. */
export function resourceOf(json: Synthesized, type: string, fragment = ''): { address: string; config: Record<string, any> } {
  const matches = Object.entries(json.resource[type] ?? {}).filter(([name]) => name.includes(fragment));
  if (matches.length !== 1) {
    throw new Error(`expected one ${type} matching "${fragment}", found ${matches.map(([n]) => n).join(', ') || 'none'}`);
  }
  const [name, config] = matches[0];
  return { address: `${type}.${name}`, config };
}

/** Every resource address with the addresses it depends on (through `depends_on` or a reference in its arguments). */
export function dependencyGraph(json: Synthesized): Map<string, Set<string>> {
  const addresses = Object.entries(json.resource).flatMap(([type, byName]) => Object.keys(byName).map((name) => `${type}.${name}`));
  const graph = new Map<string, Set<string>>();
  for (const address of addresses) {
    const [type, name] = splitAddress(address);
    const text = JSON.stringify(json.resource[type][name]);
    const uses = addresses.filter((other) => other !== address && [`${other}.`, `${other}}`, `"${other}"`].some((form) => text.includes(form)));
    graph.set(address, new Set(uses));
  }
  return graph;
}

/**
 * The order `terraform destroy` may delete resources in (one valid order; Terraform
 * runs independent ones in parallel): a resource goes only once nothing left depends on it.
 */
export function destroyOrder(graph: Map<string, Set<string>>): string[] {
  const remaining = new Map([...graph].map(([address, uses]) => [address, new Set(uses)]));
  const order: string[] = [];
  while (remaining.size > 0) {
    const free = [...remaining.keys()].filter((address) => ![...remaining.values()].some((uses) => uses.has(address))).sort();
    if (free.length === 0) {
      throw new Error(`dependency cycle among ${[...remaining.keys()].join(', ')}`);
    }
    for (const address of free) {
      remaining.delete(address);
      order.push(address);
    }
  }
  return order;
}

function splitAddress(address: string): [string, string] {
  const dot = address.indexOf('.');
  return [address.slice(0, dot), address.slice(dot + 1)];
}

/** The synthesized text with this checkout's directory replaced, so snapshots do not depend on where the repo lives. */
export function portable(text: string): string {
  return text.split(process.cwd()).join('<repo>');
}
