/** The dependency graph Terraform builds from a synthesized stack, and the order `terraform destroy` may follow. */
import { Synthesized } from './synth';

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
