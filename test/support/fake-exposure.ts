/**
 * Exposures answered on a fake clock, for the watch engine's tests: each
 * target's URL is answered from a mutable {@link Fake} (latency, failure, SNAT,
 * the Pods), which a test changes while the watch runs. Replies are the demo
 * app's (echoBody), parsed as the prober parses them. The prober is
 * 203.0.113.99 (pass it as `myIp`); with SNAT the Pod sees its node's address.
 */
import { Cloud } from '../../lib/model/contract';
import { EXPOSURE_FACTS } from '../../lib/model/exposure-facts';
import { parseEchoReply } from '../../lib/lab/probe/echo-reply';
import { ProbeTarget } from '../../lib/lab/probe/compare-model';
import { Sample } from '../../lib/lab/probe/probe';
import { echoBody } from './echo-servers';
import { FakeClock } from './fake-clock';

/** What a fake exposure answers now; tests change it while the watch runs. */
export interface Fake {
  latencyMs: number;
  fail: string | null;
  /** Every reply SNATed (true), none (false), or this share of them, drawn at random (Cilium's `Cluster`: a reply from a Pod on the receiving node keeps the client's address). */
  snat: boolean | number;
  pods: readonly string[];
  /** Which Pod answers: in turn, or at random (a balancer that hashes each new connection). @default 'turn' */
  pick?: 'turn' | 'random';
  /** An L7 proxy in front: X-Forwarded-For names the prober, and without SNAT the Pod's peer is the proxy (10.0.230.5). @default false */
  proxy?: boolean;
}

/** The load balancer's own address, as a proxied Pod sees its peer. */
export const PROXY = '10.0.230.5';

export const PROBER = '203.0.113.99';

export const POD_NODES: Readonly<Record<string, string>> = {
  'echo-a': 'ip-10-0-1-23.ec2.internal',
  'echo-b': 'ip-10-0-33-41.ec2.internal',
  'echo-c': 'ip-10-0-2-200.ec2.internal',
};

/** One exposure of environment `env<n>` at 203.0.113.<n> (or without a URL). */
export function fakeTarget(mode: 'nodeport-local' | 'nodeport-l4', n: number, url: string | null = `http://203.0.113.${n}/`, env = `env${n}`): ProbeTarget {
  const exposure = { mode, cloud: 'aws' as Cloud, url, ...EXPOSURE_FACTS.aws[mode]! } as unknown as ProbeTarget['exposure'];
  return { env, cloud: 'aws', mode, label: `${env} aws ${mode}`, exposure, url: url === null ? 'no URL in the output (not deployed yet?)' : new URL(url), nodeRanges: [] };
}

/** A repeatable stream of numbers in [0, 1) (mulberry32), so "random" replies are the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A `send` for watchTargets that answers each URL from `fakes`, after the fake's latency on `clock`; `sent` collects the URLs. */
export function fakeSend(clock: FakeClock, fakes: Map<string, Fake>, sent: string[] = [], random: () => number = seeded(29)) {
  const turn = new Map<string, number>();
  return async (url: URL, _timeoutMs: number, stop: AbortSignal): Promise<Sample> => {
    sent.push(url.href);
    const fake = fakes.get(url.href)!;
    const started = clock.now();
    await clock.sleep(fake.latencyMs, stop);
    if (stop.aborted) return { ok: false, ms: clock.now() - started, error: 'stopped' };
    if (fake.fail) return { ok: false, ms: clock.now() - started, error: fake.fail };
    const n = turn.get(url.href) ?? 0;
    turn.set(url.href, n + 1);
    const pod = fake.pick === 'random' ? fake.pods[Math.floor(random() * fake.pods.length)] : fake.pods[n % fake.pods.length];
    const node = POD_NODES[pod];
    const snat = typeof fake.snat === 'number' ? random() < fake.snat : fake.snat;
    const clientAddress = snat ? node.replace(/^ip-(\d+)-(\d+)-(\d+)-(\d+).*$/, '$1.$2.$3.$4') : fake.proxy ? PROXY : PROBER;
    const reply = parseEchoReply(echoBody({ pod, node, podIp: '10.0.9.9', clientAddress, host: url.host, ...(fake.proxy ? { forwardedFor: `${PROBER}, ${PROXY}` } : {}) }));
    return { ok: true, ms: clock.now() - started, status: 200, reply };
  };
}
