/**
 * Waiting for a Compute Engine operation (what a delete or setSecurityPolicy
 * answers) until it is done: global operations, and zonal ones (a NEG's
 * delete), which name their zone.
 */
import { GoogleApiReader } from '../../kit/google/google-api-reader';
import { GOOGLE_CALLS as CALLS } from '../../lab/checks/google-calls';

export interface OperationWait {
  readonly project: string;
  /** Between two looks at an operation. @default 2000 */
  readonly pollMs?: number;
  /** Longest wait for one operation. @default 300000 (5 minutes) */
  readonly operationTimeoutMs?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the operation until its status is DONE; an operation error or the time bound rejects, the message starting with `what` (`deleting firewall rule x`). */
export async function untilDone(api: GoogleApiReader, options: OperationWait, what: string, first: Record<string, unknown>): Promise<void> {
  const bound = options.operationTimeoutMs ?? 300_000;
  const deadline = Date.now() + bound;
  let operation = first;
  for (;;) {
    if (operation.status === 'DONE') {
      const errors = ((operation.error as { errors?: { code?: string; message?: string }[] } | undefined)?.errors ?? []).map((e) => `${e.code ?? 'ERROR'}: ${e.message ?? ''}`);
      if (errors.length > 0) throw new Error(`${what} failed: ${errors.join('; ')}`);
      return;
    }
    if (typeof operation.name !== 'string' || !operation.name) {
      throw new Error(`${what}: the answer is not an operation (no name): ${JSON.stringify(operation).slice(0, 200)}`);
    }
    if (Date.now() >= deadline) {
      throw new Error(`${what}: operation ${operation.name} still ${String(operation.status)} after ${Math.round(bound / 1000)} s`);
    }
    await sleep(options.pollMs ?? 2000);
    const zone = typeof operation.zone === 'string' ? operation.zone.split('/').pop() : undefined;
    operation = zone
      ? await api.call(CALLS.zoneOperationsGet, { project: options.project, zone, operation: operation.name })
      : await api.call(CALLS.globalOperationsGet, { project: options.project, operation: operation.name });
  }
}
