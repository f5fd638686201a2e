/**
 * Environments whose labs are the same but for their names (a workshop's
 * attendees usually are): shown once, with every name, instead of once per
 * attendee.
 */
import { EnvironmentExplanation } from '../../lab/anatomy/model';

/** Environments that explain the same, under their names in model order. */
export interface EnvironmentGroup {
  /** The environments' names, in the model's order. */
  readonly names: readonly string[];
  /** The first environment's explanation, standing for them all. */
  readonly environment: EnvironmentExplanation;
}

/** An environment's explanation with its own name taken out: equal for labs that differ only in the name. */
export function labKey(environment: EnvironmentExplanation): string {
  return JSON.stringify(
    environment.clouds.map((cloud) => {
      let json = JSON.stringify(cloud);
      // Longest first, so `ann-aws-cluster` is replaced whole before a shorter name inside it could be.
      for (const [name, placeholder] of [
        [cloud.cluster_stack, '<env>-cluster'],
        [cloud.lb_stack, '<env>-lb'],
      ].sort((a, b) => b[0].length - a[0].length)) {
        json = json.replaceAll(name, placeholder);
      }
      return json;
    }),
  );
}

/** Groups identical labs, each group where its first environment stands in the model. */
export function groupIdentical(environments: readonly EnvironmentExplanation[]): EnvironmentGroup[] {
  const groups = new Map<string, { names: string[]; environment: EnvironmentExplanation }>();
  for (const environment of environments) {
    const key = labKey(environment);
    const found = groups.get(key);
    if (found) {
      found.names.push(environment.env);
    } else {
      groups.set(key, { names: [environment.env], environment });
    }
  }
  return [...groups.values()];
}

/** A stack name for a group: its own for one environment, `<env>-aws-cluster` for several. */
export function groupStackName(group: EnvironmentGroup, stack: string): string {
  return group.names.length === 1 ? stack : stack.replace(new RegExp(`^${group.environment.env.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-`), '<env>-');
}

/** `lab`, or `ann, bob and chen`. */
export function namesText(names: readonly string[]): string {
  return names.length <= 1 ? names[0] ?? '' : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** `lab`, `ann and bob`, or for more than `shown` names the first ones and a count: `ann, bob, chen and 27 more`. */
export function namesShort(names: readonly string[], shown = 3): string {
  return names.length <= shown ? namesText(names) : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}
