import { LabConfig } from './schema';

/**
 * The environments a config asks for: one per attendee (named after them), or
 * a single one named `name`. Each is a full lab config with its own name, so
 * every stack and construct takes one environment's config.
 */
export function labEnvironments(config: LabConfig): LabConfig[] {
  const names = config.attendees ?? [config.name];
  return names.map((name) => ({ ...config, name }));
}
