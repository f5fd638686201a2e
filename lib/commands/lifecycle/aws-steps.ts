/**
 * The steps teardown takes on AWS beside Terraform (the AWS side of
 * {@link GkeSteps}):
 * - before `<env>-aws-lb` is destroyed: refuse while the cluster holds load
 *   balancers hoplab did not make (uninstalling the controller would orphan
 *   them; foreign-load-balancers.ts);
 * - `<env>-aws-lb`'s destroy again with `-refresh=false` when a retried destroy
 *   stops at the Gateway's `kubernetes_resource` data source because the
 *   Gateway is already gone (the kubernetes provider answers a missing object
 *   with no value, which Terraform reports as "Provider produced null object");
 * - after `<env>-aws-lb` is destroyed, and again before `<env>-aws-cluster`
 *   deletes the VPC: remove the controller's shared backend security group if
 *   it was left behind (aws-backend-group-cleanup.ts).
 * Against the emulator only the last runs (only aws-cluster stacks run there).
 */
import { LabConfig } from '../../config/schema';
import { APP_NAMESPACE, labNames } from '../../model/names';
import { AwsSlot } from '../../model/slots';
import { removeControllerBackendGroups } from './aws-backend-group-cleanup';
import { AccountLookup, accountLookup, adoptOrphans } from './aws-orphans';
import { readStack } from '../../lab/files/synth-dir';
import { eksKubernetesLists } from './eks-kubernetes';
import { foreignLoadBalancers, foreignLoadBalancersRefusal, KubernetesLists } from './foreign-load-balancers';

export interface AwsStepsOptions {
  readonly config: LabConfig;
  /** A local AWS emulator. @default - AWS */
  readonly awsEndpoint?: string;
  /** Each environment's slot (placement: where its state says, for a deployed one). @default - aws.region of the host's account */
  readonly slotOf?: ReadonlyMap<string, AwsSlot>;
  /** Progress lines. */
  readonly write: (line: string) => void;
  /** Where a stack's synthesized `cdk.tf.json` is. */
  readonly stackFile: (stack: string) => string;
  /** Overrides for tests. */
  readonly overrides?: {
    /** The cluster's Kubernetes lists (undefined: no cluster). @default - eks:DescribeCluster and `aws eks get-token`; none against the emulator */
    readonly kubernetes?: (env: string) => Promise<KubernetesLists | undefined>;
    /** The account as an environment's cluster stack reaches it. @default - accountLookup: IAM and STS */
    readonly lookup?: (env: string) => AccountLookup;
  };
}

/** The Terraform error of a destroy that refreshed a `kubernetes_resource` data source whose object is gone. */
export function nullDataSource(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : String(error);
  if (!/Provider produced null object/.test(message)) return undefined;
  return /produced a null value for\s+(\S*data\.kubernetes_resource\.[\w-]+)/.exec(message)?.[1] ?? undefined;
}

/** The namespaces whose load balancers are the aws-lb stack's own. */
const OWN_NAMESPACES = [APP_NAMESPACE];

/** The AWS steps of one lifecycle run. */
export class AwsSteps {
  /** Environments whose backend security group was looked for in this run (once is enough). */
  private readonly cleaned = new Set<string>();

  constructor(private readonly options: AwsStepsOptions) {}

  private slot(env: string): { region: string; roleArn?: string } {
    const slot = this.options.slotOf?.get(env);
    return { region: slot?.region ?? this.options.config.aws.region, roleArn: slot?.account?.roleArn };
  }

  /**
   * Before `<env>-aws-cluster` is applied: the stack's IAM roles and policies that an interrupted deploy
   * made but left out of its state, tagged as this environment's, are imported (aws-orphans.ts).
   */
  async beforeClusterApply(env: string, stack: string, terraform: (args: readonly string[]) => Promise<string>): Promise<void> {
    const { region, roleArn } = this.slot(env);
    await adoptOrphans({
      stack: readStack(stack, this.options.stackFile(stack)),
      env,
      workshop: this.options.config.workshop.name,
      lookup: this.options.overrides?.lookup?.(env) ?? accountLookup({ region, endpoint: this.options.awsEndpoint, roleArn }),
      terraform,
      say: (line) => this.options.write(`  step   ${stack}: ${line}`),
    });
  }

  /**
   * Teardown of `<env>-aws-lb`: refuses (rejects, nothing destroyed) while the
   * cluster holds load balancers of other namespaces; destroys; once more with
   * `-refresh=false` if the destroy stopped at a data source whose object is
   * gone; then removes the backend security group the controller left.
   */
  async destroyLb(env: string, stack: string, destroy: (extraArgs?: readonly string[]) => Promise<void>): Promise<void> {
    const say = (line: string) => this.options.write(`  step   ${stack}: ${line}`);
    await this.refuseForeignLoadBalancers(env, stack, say);
    try {
      await destroy();
    } catch (error) {
      const source = nullDataSource(error);
      if (!source) throw error;
      say(`${source} read nothing: what it reads is already gone (an earlier destroy deleted it); destroying again without refreshing (-refresh=false)`);
      await destroy(['-refresh=false']);
    }
    await this.cleanup(env, stack);
  }

  /** Teardown of `<env>-aws-cluster`: the backend security group first (if this run has not looked yet), then `destroy`. */
  async destroyCluster(env: string, stack: string, destroy: () => Promise<void>): Promise<void> {
    if (!this.cleaned.has(env)) await this.cleanup(env, stack);
    await destroy();
  }

  private async refuseForeignLoadBalancers(env: string, stack: string, say: (line: string) => void): Promise<void> {
    const clusterName = labNames({ name: env }).eksCluster;
    const { region, roleArn } = this.slot(env);
    // The emulator has no Kubernetes API (and runs no aws-lb stack); tests give a loopback one.
    const lists = this.options.overrides?.kubernetes ?? (this.options.awsEndpoint ? undefined : () => eksKubernetesLists({ clusterName, region, roleArn }));
    if (!lists) return;
    let found;
    try {
      const kube = await lists(env);
      if (!kube) return;
      found = await foreignLoadBalancers(kube, OWN_NAMESPACES);
    } catch (error) {
      // Terraform reads the same cluster next and says what is wrong with it; this check only adds to it.
      say(
        `could not list the load balancers of cluster ${clusterName} (${error instanceof Error ? error.message : String(error)}); ` +
          'not checked that none outside namespace hoplab would be orphaned by uninstalling the controller',
      );
      return;
    }
    if (found.length > 0) throw new Error(foreignLoadBalancersRefusal(clusterName, stack, OWN_NAMESPACES, found));
  }

  /** Removes the backend security group; a failure is said and the teardown goes on (the cluster is what costs most). */
  private async cleanup(env: string, stack: string): Promise<void> {
    this.cleaned.add(env);
    const say = (line: string) => this.options.write(`  step   ${stack}: ${line}`);
    const clusterName = labNames({ name: env }).eksCluster;
    const { region, roleArn } = this.slot(env);
    try {
      const removed = await removeControllerBackendGroups({ clusterName, region, roleArn, endpoint: this.options.awsEndpoint, write: say });
      if (removed.length === 0) say(`no backend security group of the controller left for cluster ${clusterName}`);
    } catch (error) {
      say(
        `${error instanceof Error ? error.message : String(error)}; destroying anyway. If deleting the VPC fails on it, delete what still uses it, ` +
          `then the group (aws ec2 delete-security-group --group-id <id> --region ${region}) and run npx hoplab teardown again`,
      );
    }
  }
}
