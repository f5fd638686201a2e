/**
 * The loopback Google APIs (serveGoogleFixtures) and Kubernetes API of a
 * test file, closed after each test; GkeSteps against them; and a stand-in
 * for the Terraform run a step wraps. Call {@link loopbackApis} or
 * {@link loopbackGke} at a test file's top level.
 */
import { validConfig } from '../../lib/config/load';
import { GkeSteps } from '../../lib/commands/lifecycle/gke-steps';
import { GcpSlot } from '../../lib/model/slots';
import { Answer, FIXTURE_TOKEN, FixtureApi, Scenario, serveGoogleFixtures } from './google-api';
import { KubernetesApi, serveCrds } from './kubernetes-api';

/** The loopback servers of the running test, closed after it. */
export interface LoopbackApis {
  readonly google: () => FixtureApi;
  readonly kubernetes: () => KubernetesApi | undefined;
  serveGoogle(...args: Parameters<typeof serveGoogleFixtures>): Promise<FixtureApi>;
  serveKubernetes(...args: Parameters<typeof serveCrds>): Promise<KubernetesApi>;
}

/** Loopback Google and Kubernetes APIs for a test file's tests; call at its top level: each test's servers are closed after it. */
export function loopbackApis(): LoopbackApis {
  let google: FixtureApi | undefined;
  let kubernetes: KubernetesApi | undefined;
  afterEach(async () => {
    await google?.close();
    await kubernetes?.close();
    google = kubernetes = undefined;
  });
  return {
    google: () => google!,
    kubernetes: () => kubernetes,
    serveGoogle: async (...args) => (google = await serveGoogleFixtures(...args)),
    serveKubernetes: async (...args) => (kubernetes = await serveCrds(...args)),
  };
}

/** {@link LoopbackApis}, and GkeSteps against them. */
export interface LoopbackGke extends LoopbackApis {
  /**
   * GkeSteps of a config (`raw`, validated) against `scenario` (and the Kubernetes API served before,
   * if any), with the lines they print (times made `N s` and `T`). `credentials: null`: none to be had; `slots`: each environment's.
   */
  steps(
    scenario: Scenario,
    raw: unknown,
    options?: { readonly answers?: Record<string, Answer>; readonly credentials?: null; readonly slots?: ReadonlyMap<string, GcpSlot> },
  ): Promise<{ gke: GkeSteps; events: string[] }>;
}

export function loopbackGke(): LoopbackGke {
  const apis = loopbackApis();
  return {
    ...apis,
    steps: async (scenario, raw, options = {}) => {
      const google = await apis.serveGoogle(scenario, options.answers);
      const events: string[] = [];
      const gke = new GkeSteps({
        config: validConfig(raw, 'test'),
        slots: options.slots,
        write: (line) => events.push(line.replace(/ in \d+\.\d s/, ' in N s').replace(/\b\d+m\d\ds\b|(?<![a-z0-9])\d+s\b/g, 'T')),
        overrides: {
          compute: google.compute,
          container: google.container,
          kubernetes: apis.kubernetes()?.base,
          credentials: options.credentials === null ? null : { accessToken: FIXTURE_TOKEN, source: 'GOOGLE_OAUTH_ACCESS_TOKEN' },
          pollMs: 10,
        },
      });
      return { gke, events };
    },
  };
}

/** A Terraform stand-in that records `<label> #<n>` in `events` and fails with the given errors in turn, then succeeds. */
export function terraformStandIn(events: string[], failures: readonly string[] = [], label = 'terraform destroy'): () => Promise<void> {
  let call = 0;
  return async () => {
    events.push(`${label} #${++call}`);
    const failure = failures[call - 1];
    if (failure) throw new Error(failure);
  };
}
