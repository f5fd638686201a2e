/**
 * The lab shows what it claims: each measured fact of `compare --probe`
 * (source NAT or not, where the Pod finds the client address) set against the
 * exposure's exported claim (`source_nat`, `client_ip_via` of the output
 * contract; `client_ip_preserved` where an output predates those fields).
 */
import { CompareCell } from '../../lab/probe/compare-model';
import { ProbeResult } from '../../lab/probe/probe-summary';
import { ClientIpVia } from '../../model/contract';

/** The claim fields of an exposure output (the contract's names). */
export interface ExposureClaims {
  readonly source_nat: boolean | null;
  readonly client_ip_via: ClientIpVia | null;
  readonly client_ip_preserved: boolean | null;
}

export interface FactCheck {
  readonly fact: 'source_nat' | 'client_ip_via' | 'client_ip_preserved';
  readonly claimed: string | boolean | null;
  readonly measured: string | boolean | null;
  /** `null`: not measurable (or not claimed). */
  readonly agrees: boolean | null;
}

export interface ClaimCheck {
  readonly env: string;
  readonly cloud: string;
  readonly mode: string;
  readonly url: string | null;
  /** `match`: every claimed fact measured and equal. `contradiction`: one differs. `not-measured`: nothing or not enough measured. */
  readonly status: 'match' | 'contradiction' | 'not-measured';
  readonly facts: readonly FactCheck[];
  /** Why not measured, or what contradicts. */
  readonly reason: string | null;
  /** The probe's figures (requests, latency, Pods and nodes reached). */
  readonly probe: ProbeResult | null;
}

/** What the probe measured, as the contract's facts; `null` where it cannot tell. */
export function measuredFacts(probe: ProbeResult): { source_nat: boolean | null; client_ip_via: ExposureClaims['client_ip_via'] } {
  const { peer_kinds: kinds, forwarded_for_names_prober: xff, prober_address: prober } = probe.client_ip;
  const known = Object.values(kinds).reduce((a, b) => a + (b ?? 0), 0);
  if (probe.ok === 0 || known === 0) return { source_nat: null, client_ip_via: null };
  const nodes = kinds.node ?? 0;
  let via: ExposureClaims['client_ip_via'] = null;
  if ((kinds.prober ?? 0) === known) via = 'tcp-source';
  else if (prober !== null && xff === probe.ok) via = 'x-forwarded-for';
  else if (prober !== null) via = 'none';
  const sourceNat = nodes > 0 ? true : via !== null ? false : null;
  return { source_nat: sourceNat, client_ip_via: via };
}

/** Sets one probed exposure against its claims. */
export function checkClaims(env: string, cloud: string, mode: string, cell: CompareCell, claims: ExposureClaims): ClaimCheck {
  const base = { env, cloud, mode, url: cell.exposure.url, probe: cell.probe };
  if (!cell.probe) return { ...base, status: 'not-measured', facts: [], reason: cell.not_probed_because ?? 'not probed' };
  if (cell.probe.ok === 0) {
    const errors = Object.entries(cell.probe.errors)
      .map(([e, n]) => `${n} ${e}`)
      .join(', ');
    return { ...base, status: 'not-measured', facts: [], reason: `no successful reply of ${cell.probe.sent}${errors ? ` (${errors})` : ''}` };
  }
  const measured = measuredFacts(cell.probe);
  const facts: FactCheck[] = [];
  const fact = (name: FactCheck['fact'], claimed: string | boolean | null, value: string | boolean | null) =>
    facts.push({ fact: name, claimed, measured: value, agrees: claimed === null || value === null ? null : claimed === value });
  if (claims.source_nat !== null || claims.client_ip_via !== null) {
    fact('source_nat', claims.source_nat, measured.source_nat);
    fact('client_ip_via', claims.client_ip_via, measured.client_ip_via);
  } else {
    // An output from before the contract had source_nat and client_ip_via.
    fact('client_ip_preserved', claims.client_ip_preserved, cell.probe.client_ip.preserved);
  }
  const wrong = facts.filter((f) => f.agrees === false);
  if (wrong.length > 0) {
    return {
      ...base,
      status: 'contradiction',
      facts,
      reason: `${wrong.map((f) => `${f.fact} claimed ${String(f.claimed)}, measured ${String(f.measured)}`).join('; ')} (${cell.probe.client_ip.summary})`,
    };
  }
  if (facts.some((f) => f.agrees === null)) {
    const unknown = facts.filter((f) => f.agrees === null).map((f) => (f.claimed === null ? `${f.fact} not claimed by the output` : `${f.fact} not measurable`));
    return { ...base, status: 'not-measured', facts, reason: `${unknown.join('; ')} (${cell.probe.client_ip.summary})` };
  }
  return { ...base, status: 'match', facts, reason: null };
}
