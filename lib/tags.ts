import { LabConfig } from './config/schema';

/** Tag key that marks every resource of an environment; leftover checks search by it. */
export const ENV_TAG = 'hoplab-env';

/**
 * Tags for every taggable AWS resource of a stack (provider default tags), and,
 * lowercased, labels for GCP resources: which environment and stack made it.
 */
export function labTags(config: LabConfig, stackName: string): Record<string, string> {
  return {
    [ENV_TAG]: config.name,
    'hoplab-stack': stackName,
    'managed-by': 'hoplab',
  };
}
