import { EksAddon as EksAddonResource } from '@cdktf/provider-aws/lib/eks-addon';
import { ITerraformDependable } from 'cdktf';
import { Construct } from 'constructs';

export interface EksAddonProps {
  /** Name of the cluster. Required. */
  readonly clusterName: string;
  /** Add-on name, e.g. `vpc-cni`. Required. */
  readonly addonName: string;
  /**
   * Add-on version.
   * @default - the default version EKS picks for the cluster's Kubernetes version
   */
  readonly addonVersion?: string;
  /**
   * IAM role for the add-on's service account (IRSA).
   * @default - the node role's permissions
   */
  readonly serviceAccountRoleArn?: string;
  /**
   * The add-on's configuration as JSON, checked by EKS against the add-on's
   * published schema (`aws eks describe-addon-configuration`), e.g.
   * `{"mode":"ipvs","ipvs":{"scheduler":"rr"}}` for kube-proxy.
   * @default - the add-on's stock configuration
   */
  readonly configurationValues?: string;
  /**
   * Resources the add-on waits for (coredns needs nodes to schedule on).
   * @default - none
   */
  readonly dependsOn?: ITerraformDependable[];
}

/**
 * An EKS managed add-on. EKS owns its configuration: on create and update the
 * add-on's settings overwrite what is in the cluster, so a lab always gets the
 * stock add-on.
 */
export class EksAddon extends Construct {
  /** The add-on resource, for dependencies. */
  public readonly addon: EksAddonResource;

  constructor(scope: Construct, id: string, props: EksAddonProps) {
    super(scope, id);
    this.addon = new EksAddonResource(this, 'addon', {
      clusterName: props.clusterName,
      addonName: props.addonName,
      addonVersion: props.addonVersion,
      serviceAccountRoleArn: props.serviceAccountRoleArn,
      configurationValues: props.configurationValues,
      resolveConflictsOnCreate: 'OVERWRITE',
      resolveConflictsOnUpdate: 'OVERWRITE',
      dependsOn: props.dependsOn,
    });
  }
}
