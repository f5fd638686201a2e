/**
 * An AWS account as deploy's orphan check looks it up (AccountLookup,
 * lib/commands/lifecycle/aws-orphans.ts), for tests that deploy with a
 * stand-in Terraform and no cloud: what exists under each role name, policy
 * ARN or log group name, with its tags; everything else absent. Every lookup is recorded.
 */
import { AccountLookup, Found } from '../../lib/commands/lifecycle/aws-orphans';

/** An account holding `existing` (role name or policy ARN → its tags), id `account`; `asked` records each lookup. */
export function accountHolding(existing: Readonly<Record<string, Readonly<Record<string, string>>>> = {}, account = '111122223333'): AccountLookup & { readonly asked: string[] } {
  const asked: string[] = [];
  const find = async (key: string): Promise<Found> => {
    asked.push(key);
    return existing[key] ? { tags: existing[key] } : 'absent';
  };
  return { asked, role: find, policy: find, logGroup: find, account: async () => account };
}

/** For deploys that must not reach AWS: an account that holds nothing. */
export const noOrphans = () => accountHolding();
