import { Cloud } from '../../model/contract';
import { labNames } from '../../model/names';

/** The four kinds of stack an environment has. */
export const STACK_KINDS = ['aws-cluster', 'aws-lb', 'gcp-cluster', 'gcp-lb'] as const;
export type StackKind = (typeof STACK_KINDS)[number];

/** One stack to deploy or destroy, and the stacks that must be done first. */
export interface StackTask {
  /** Stack name, e.g. `lab-aws-cluster`. */
  readonly stack: string;
  readonly env: string;
  readonly cloud: Cloud;
  readonly kind: StackKind;
  /** Stacks that must finish first. */
  readonly after: readonly string[];
}

export type Direction = 'deploy' | 'destroy';

/**
 * The stacks of the given environments as a dependency graph. Deploy: each
 * cloud's cluster stack before its lb stack; AWS and GCP, and environments,
 * independent of each other. Destroy: the reverse (lb before cluster), so the
 * controllers remove their load balancers while the cluster still runs.
 */
export function stackGraph(envs: readonly string[], direction: Direction, kinds: readonly StackKind[] = STACK_KINDS): StackTask[] {
  const tasks: StackTask[] = [];
  for (const env of envs) {
    const names = labNames({ name: env });
    for (const cloud of ['aws', 'gcp'] as const) {
      const cluster = cloud === 'aws' ? names.awsClusterStack : names.gcpClusterStack;
      const lb = cloud === 'aws' ? names.awsLbStack : names.gcpLbStack;
      const clusterKind: StackKind = `${cloud}-cluster`;
      const lbKind: StackKind = `${cloud}-lb`;
      const withCluster = kinds.includes(clusterKind);
      const withLb = kinds.includes(lbKind);
      if (withCluster) {
        tasks.push({ stack: cluster, env, cloud, kind: clusterKind, after: direction === 'destroy' && withLb ? [lb] : [] });
      }
      if (withLb) {
        tasks.push({ stack: lb, env, cloud, kind: lbKind, after: direction === 'deploy' && withCluster ? [cluster] : [] });
      }
    }
  }
  return tasks;
}
