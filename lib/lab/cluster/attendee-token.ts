/**
 * The token of an attendee without a cloud identity: minted by the host
 * with the TokenRequest API for the attendee's ServiceAccount in their own
 * cluster (`POST /api/v1/namespaces/hoplab/serviceaccounts/hoplab-attendee/token`),
 * so no token is ever a Terraform resource or in state. The API server may
 * shorten the lifetime asked for (kube-apiserver's
 * `--service-account-max-token-expiration`, with a warning): the token's real
 * expiry is the `expirationTimestamp` it answers, and that is what is shown.
 */
import { KubernetesClient } from '../../kit/kubernetes/kubernetes-client';
import { ATTENDEE_SERVICE_ACCOUNT } from '../../model/identities';
import { APP_NAMESPACE } from '../../model/names';

/** A minted token, its real expiry, and what the API said about it (a shortened lifetime). */
export interface AttendeeToken {
  readonly token: string;
  /** RFC 3339, as the API answered it. */
  readonly expirationTimestamp: string;
  readonly warnings: readonly string[];
}

/** The path of the attendee ServiceAccount's token subresource. */
export const ATTENDEE_TOKEN_PATH = `/api/v1/namespaces/${APP_NAMESPACE}/serviceaccounts/${ATTENDEE_SERVICE_ACCOUNT}/token`;

/** Mints a token for the attendee's ServiceAccount, asking for `seconds` of lifetime, with the host's client of their cluster. */
export async function mintAttendeeToken(client: KubernetesClient, seconds: number): Promise<AttendeeToken> {
  const answer = await client.create<{ status?: { token?: unknown; expirationTimestamp?: unknown } }>(ATTENDEE_TOKEN_PATH, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: seconds },
  });
  const { token, expirationTimestamp } = answer.body.status ?? {};
  if (typeof token !== 'string' || token === '' || typeof expirationTimestamp !== 'string') {
    throw new Error(`POST ${client.server}${ATTENDEE_TOKEN_PATH} answered without status.token and status.expirationTimestamp`);
  }
  return { token, expirationTimestamp, warnings: answer.warnings };
}
