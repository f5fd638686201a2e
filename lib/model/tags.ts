/** Tag key that marks every resource of an environment; leftover checks search by it. */
export const ENV_TAG = 'hoplab-env';
/** Tag keys every resource carries. */
export const TAG_KEYS = { env: ENV_TAG, workshop: 'hoplab-workshop', owner: 'hoplab-owner', expires: 'hoplab-expires', stack: 'hoplab-stack', managedBy: 'managed-by' } as const;

/** AWS tags as the SDK lists them (`[{ Key, Value }]`), as a map; a tag without a key is dropped. */
export function awsTagMap(tags: readonly { readonly Key?: string; readonly Value?: string }[] | undefined): Record<string, string> {
  return Object.fromEntries((tags ?? []).filter((t): t is { Key: string; Value?: string } => t.Key !== undefined).map((t) => [t.Key, t.Value ?? '']));
}

/** Whether a resource's tags make it environment `env`'s of workshop `workshop` (what that workshop's deploy made). */
export function isEnvironmentsOwn(tags: Readonly<Record<string, string>>, env: string, workshop: string): boolean {
  return tags[TAG_KEYS.env] === env && tags[TAG_KEYS.workshop] === workshop;
}

/** What the tags are made of: an environment's name and its workshop's. */
export interface TagSource {
  readonly name: string;
  readonly workshop: { readonly name: string; readonly owner: string; readonly expiresAt?: string };
}

/**
 * Tags for every taggable AWS resource of a stack (provider default tags), and
 * the google provider's default labels (made label-safe by `gcpLabelValue`):
 * which environment, workshop and stack made it, who owns it, and when it may
 * be deleted.
 */
export function labTags(config: TagSource, stackName: string): Record<string, string> {
  return {
    [TAG_KEYS.env]: config.name,
    [TAG_KEYS.workshop]: config.workshop.name,
    [TAG_KEYS.owner]: config.workshop.owner,
    [TAG_KEYS.expires]: config.workshop.expiresAt ?? 'unset',
    [TAG_KEYS.stack]: stackName,
    [TAG_KEYS.managedBy]: 'hoplab',
  };
}

/**
 * A `hoplab-expires` value read back from a resource: the time, `unset` (deployed without
 * `workshop.expiresAt`), or undefined when it is neither. AWS tags keep what was written
 * (`2026-12-01T18:00:00Z`); GCP labels are lowercase with `:` turned into `-`
 * (`2026-12-01t18-00-00z`, see `gcpLabelValue` in lib/constructs/gcp/gke-providers.ts).
 */
export function expiryOfTag(value: string | undefined): Date | 'unset' | undefined {
  if (value === 'unset') return 'unset';
  const shape = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2})[:-](\d{2})(?:[:-](\d{2}))?[Zz]$/.exec(value ?? '');
  if (!shape) return undefined;
  const at = new Date(`${shape[1]}T${shape[2]}:${shape[3]}:${shape[4] ?? '00'}Z`);
  return Number.isNaN(at.getTime()) ? undefined : at;
}
