import { attendeeIdentities, AttendeeIdentities } from './attendees';
import { LabConfig } from './schema';

/**
 * One environment's config: the lab config with the environment's own name,
 * and, in a workshop, the attendee it is for with the identities that get
 * access to it (and to no other environment).
 */
export type LabEnvironment = LabConfig & {
  /** The attendee this environment is for; unset for the single environment of a config without attendees. */
  readonly attendee?: AttendeeIdentities;
};

/**
 * The environments a config asks for: one per attendee (named after them), or
 * a single one named `name`. Each is a full lab config with its own name, so
 * every stack and construct takes one environment's config.
 */
export function labEnvironments(config: LabConfig): LabEnvironment[] {
  if (config.attendees === undefined) return [{ ...config }];
  return config.attendees.map((entry) => {
    const attendee = attendeeIdentities(entry);
    return { ...config, name: attendee.name, attendee };
  });
}

/** The config narrowed to the environments named in `envs` (all when unset), each attendee kept with its identities. */
export function narrowedConfig(config: LabConfig, envs?: readonly string[]): LabConfig {
  if (!envs) return config;
  const attendees = config.attendees ?? [config.name];
  return { ...config, attendees: attendees.filter((entry) => envs.includes(attendeeIdentities(entry).name)) };
}
