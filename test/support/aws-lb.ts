import { Testing } from 'cdktf';
import { LabConfigInput } from '../../lib/config/schema';
import { validConfig } from '../../lib/config/load';
import { AwsClusterStack } from '../../lib/stacks/aws-cluster-stack';
import { AwsLbStack } from '../../lib/stacks/aws-lb-stack';
import { Synthesized } from './synth';

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
