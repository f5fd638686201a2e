/**
 * A lab for `watch` tests that read clusters (--progress, --endpoints): per
 * attendee, the fixture's AWS cluster outputs pointing at a loopback
 * Kubernetes API (test/support/kubernetes-api.ts, trusted through
 * LOOPBACK_CA) and the fixture's AWS exposures, each answered by a fake on
 * the fake clock (test/support/fake-exposure.ts) at a URL of its own; and the
 * WatchIo that runs the command in-process on that clock with the host's
 * token.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validConfig } from '../../lib/config/load';
import { WatchIo } from '../../lib/commands/watch/watch-cli';
import { HostTokens } from '../../lib/lab/cluster/cluster-access';
import { FakeClock } from './fake-clock';
import { Fake, fakeSend } from './fake-exposure';
import { fixture } from './fixtures';
import { HOST_TOKEN, LOOPBACK_CA } from './kubernetes-api';

const FIXTURE = JSON.parse(readFileSync(fixture('outputs.json'), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;

/** The fixture's AWS cluster outputs of `env`, its API at `server` (a loopback Kubernetes API's base). */
export function watchLabCluster(env: string, server: string): Record<string, unknown> {
  return { ...FIXTURE['lab-aws-cluster'], cluster_name: `${env}-eks`, cluster_endpoint: server, cluster_ca_certificate: Buffer.from(LOOPBACK_CA).toString('base64') };
}

/** Writes `dir`/outputs.json for `clusters` (attendee → the API's base URL); the file and the fakes that answer its exposures. */
export function watchLabOutputs(dir: string, clusters: readonly (readonly [string, string])[], pick: Fake['pick'] = 'turn'): { outputsFile: string; fakes: Map<string, Fake> } {
  const fakes = new Map<string, Fake>();
  const outputs: Record<string, unknown> = {};
  for (const [env, server] of clusters) {
    outputs[`${env}-aws-cluster`] = watchLabCluster(env, server);
    outputs[`${env}-aws-lb`] = Object.fromEntries(
      Object.entries(FIXTURE['lab-aws-lb']).map(([name, exposure]) => {
        const url = `http://${env}.${exposure.mode as string}.example/`;
        fakes.set(url, { latencyMs: 40, fail: null, snat: exposure.source_nat === true, proxy: exposure.client_ip_via === 'x-forwarded-for', pods: ['echo-a', 'echo-b'], pick });
        return [name, { ...exposure, url }];
      }),
    );
  }
  const outputsFile = join(dir, 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify(outputs));
  return { outputsFile, fakes };
}

/** The config of `attendees`, as the watch reads it (--progress, --endpoints). */
export const watchLabConfig = (attendees: string[]) => validConfig({ attendees }, 'test');

/** A WatchIo on `clock`: the fakes answer the probes, `tokens` (by default the host's token for every cluster) the clusters, `signal` ends it. */
export function watchLabIo(options: {
  readonly clock: FakeClock;
  readonly fakes: Map<string, Fake>;
  readonly signal: AbortSignal;
  readonly attendees: string[];
  readonly stdout: WatchIo['stdout'];
  readonly err: WatchIo['err'];
  readonly tokens?: HostTokens;
}): WatchIo {
  const config = watchLabConfig(options.attendees);
  return {
    stdout: options.stdout,
    err: options.err,
    env: {},
    clock: options.clock,
    send: fakeSend(options.clock, options.fakes),
    signal: options.signal,
    config: () => config,
    tokens: options.tokens ?? { token: async () => HOST_TOKEN },
  };
}
