/** The dependency graph Terraform builds from a synthesized stack, and the order `terraform destroy` may follow. */
import { Synthesized } from './synth';

/**
 * Every resource address with the addresses it depends on (through `depends_on` or a reference in its arguments).
 * With `data`, data sources too (`data.<type>.<name>`), as nodes and as dependencies: they are read, not
 * destroyed, so leave them out of a graph for {@link destroyOrder}.
 */
export function dependencyGraph(json: Synthesized, options: { readonly data?: boolean } = {}): Map<string, Set<string>> {
  const entries: [string, unknown][] = [
    ...Object.entries(json.resource).flatMap(([type, byName]) => Object.entries(byName).map(([name, body]): [string, unknown] => [`${type}.${name}`, body])),
    ...(options.data ? Object.entries(json.data ?? {}).flatMap(([type, byName]) => Object.entries(byName).map(([name, body]): [string, unknown] => [`data.${type}.${name}`, body])) : []),
  ];
  const addresses = entries.map(([address]) => address);
  const graph = new Map<string, Set<string>>();
  for (const [address, body] of entries) {
    const text = JSON.stringify(body);
    // A resource address is also the tail of a data source's (`data.<type>.<name>`): only count it where it is not.
    const uses = addresses.filter((other) => other !== address && [`${other}.`, `${other}}`, `"${other}"`].some((form) => occursAsAddress(text, form, other.startsWith('data.'))));
    graph.set(address, new Set(uses));
  }
  return graph;
}

/** Whether `form` occurs in `text` as an address of its own, not as the tail of `data.<address>`. */
function occursAsAddress(text: string, form: string, isData: boolean): boolean {
  for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
    if (isData || !text.slice(0, at).endsWith('data.')) return true;
  }
  return false;
}

/** Everything `address` depends on, directly or through others. */
export function dependenciesOf(graph: Map<string, Set<string>>, address: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(graph.get(address) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(graph.get(next) ?? []));
  }
  return seen;
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
