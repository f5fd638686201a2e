import { App } from 'cdktf';
import { LabConfig } from './config/schema';
import { labNames } from './names';
import { AwsClusterStack } from './stacks/aws-cluster-stack';

/** The stacks of one environment. */
export interface LabStacks {
  readonly awsCluster: AwsClusterStack;
}

/** Adds every stack of the lab to `app`. The config must be validated (see `loadConfig`). */
export function addLab(app: App, config: LabConfig): LabStacks {
  const names = labNames(config);
  const awsCluster = new AwsClusterStack(app, names.awsClusterStack, { config });
  return { awsCluster };
}
