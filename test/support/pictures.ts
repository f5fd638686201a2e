/** Explanations to draw: the default lab (six exposures on AWS, five on GKE) and hand-made odd ones. */
import { validConfig } from '../../lib/config/load';
import { explainLab } from '../../lib/lab/anatomy/explain-lab';
import { EnvironmentExplanation, ExplainModel, ExposureExplanation } from '../../lib/lab/anatomy/model';
import { SVG_NAMESPACE } from '../../lib/lab/pictures/path-diagram';

let cached: ExplainModel | undefined;

/** The default lab, environment `demo`, both clouds (synthesized once per test file). */
export function defaultLab(): ExplainModel {
  cached ??= explainLab(validConfig({ name: 'demo' }, 'test'));
  return cached;
}

export function demoEnvironment(): EnvironmentExplanation {
  return defaultLab().environments[0];
}

export function exposureOf(cloud: 'aws' | 'gcp', mode: string): ExposureExplanation {
  const found = demoEnvironment()
    .clouds.find((c) => c.cloud === cloud)
    ?.exposures.find((e) => e.mode === mode);
  if (!found) throw new Error(`no ${cloud} ${mode} in the default lab`);
  return found;
}

/** An exposure explain could not derive: no path, nothing known. */
export function unknownExposure(mode = 'mystery'): ExposureExplanation {
  return {
    ...exposureOf('aws', 'native'),
    mode,
    targets: null,
    external_traffic_policy: null,
    expected_hops: null,
    snat: null,
    source_nat: null,
    client_ip_via: null,
    client_ip_preserved: null,
    path: [],
    path_summary: 'unknown',
    layer: null,
    api: null,
    variables: null,
    differs_in_one: [],
  };
}

/** The tags of `markup` close in order and nothing is left open (a small well-formedness check). */
export function unbalancedTags(markup: string): string[] {
  const stack: string[] = [];
  const problems: string[] = [];
  for (const match of markup.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*?)(\/?)>/g)) {
    const [, closing, name, , selfClosing] = match;
    if (selfClosing) continue;
    if (closing) {
      const open = stack.pop();
      if (open !== name) problems.push(`</${name}> closes <${open ?? 'nothing'}>`);
    } else {
      stack.push(name);
    }
  }
  return [...problems, ...stack.map((t) => `<${t}> left open`)];
}

/** Every URL-like string in `markup` but the SVG namespace. */
export function externalReferences(markup: string): string[] {
  return [...markup.replaceAll(`xmlns="${SVG_NAMESPACE}"`, '').matchAll(/(?:https?:|\/\/|url\(|href=|src=)[^\s"'<>)]*/g)].map((m) => m[0]);
}
