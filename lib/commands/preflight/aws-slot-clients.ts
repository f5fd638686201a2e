/**
 * How preflight makes an AWS SDK client for a slot: the slot's region, and for
 * an account of `aws.accounts` the role the host's credentials assume there.
 * The one place preflight decides that, so it can follow wherever the lab
 * makes its per-account clients.
 */
import { AwsClientConfig, awsClientConfig } from '../../kit/aws/aws-clients';
import { AwsSlot } from '../../model/slots';

/** The client configuration of `slot` (an emulator's endpoint and dummy credentials when `endpoint` is given). */
export function awsSlotClientConfig(slot: { readonly region: string; readonly account?: Pick<NonNullable<AwsSlot['account']>, 'roleArn'> }, endpoint?: string): AwsClientConfig {
  return awsClientConfig({ region: slot.region, endpoint, roleArn: slot.account?.roleArn });
}
