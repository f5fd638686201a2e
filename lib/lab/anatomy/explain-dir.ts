/**
 * `explainDir(dir)`: the structured explanation of every environment, cloud
 * and exposure synthesized into `dir` (a cdktf output directory).
 */
import { Cloud } from '../../model/contract';
import { EXPOSURE_UNAVAILABLE } from '../../model/exposure-facts';
import { deriveExposure } from './derive-exposure';
import { oneVariableNeighbours } from './matrix';
import { findExposures, namespaceLabels } from './exposure-resources';
import { CloudExplanation, EnvironmentExplanation, ExplainModel } from './model';
import { awsDatapath, gcpDatapath } from './datapath';
import { awsCapacity, gcpCapacity, gcpVpcNative } from './pod-capacity';
import { awsAddressing, gcpAddressing } from './exposure-plan';
import { CloudStacks, readSynthDir } from '../files/synth-dir';

export interface ExplainOptions {
  /**
   * Only these environments (`<env>` of the stack names); each must have stacks in the directory.
   * @default - every environment in the directory
   */
  readonly envs?: readonly string[];
  /**
   * Only these clouds.
   * @default - both
   */
  readonly clouds?: readonly Cloud[];
}

function explainCloud(found: CloudStacks): CloudExplanation {
  const { env, cloud, cluster, lb } = found;
  const notes: string[] = [];
  const clusterStack = `${env}-${cloud}-cluster`;
  const lbStack = `${env}-${cloud}-lb`;
  if (!cluster) {
    notes.push(`${clusterStack} was not synthesized: Pod capacity and cluster settings are unknown`);
  }
  if (!lb) {
    notes.push(`${lbStack} was not synthesized: no exposures to explain (its load balancers come with that stack)`);
  }
  const datapath = cluster ? (cloud === 'aws' ? awsDatapath(cluster) : gcpDatapath(cluster)) : null;
  const dataplane = datapath?.dataplane ?? null;
  const capacity = cluster ? (cloud === 'aws' ? awsCapacity(cluster) : gcpCapacity(cluster)) : null;
  const ctx = {
    vpcNative: cloud === 'aws' ? true : cluster ? gcpVpcNative(cluster) : null,
    namespaceLabels: lb ? namespaceLabels(lb) : new Map(),
    dataplane: dataplane ?? 'kube-proxy',
    datapath,
    addressing: cloud === 'aws' ? awsAddressing(cluster, capacity) : gcpAddressing(cluster, capacity),
  };
  const derived = lb ? findExposures(lb).map((e) => deriveExposure(cloud, lb, e, ctx)) : [];
  const neighbours = oneVariableNeighbours(derived);
  const exposures = derived.map((e) => ({ ...e, differs_in_one: neighbours.get(e.mode) ?? [] }));
  const not_offered = Object.entries(EXPOSURE_UNAVAILABLE[cloud]).map(([mode, reason]) => ({ mode, reason: reason as string }));
  if (lb && exposures.length === 0) {
    notes.push(`${lbStack} has no Ingress or Service labelled hoplab.dev/exposure`);
  }
  return {
    cloud,
    cluster_stack: clusterStack,
    lb_stack: lbStack,
    cluster_synthesized: cluster !== undefined,
    lb_synthesized: lb !== undefined,
    dataplane,
    datapath,
    capacity,
    exposures,
    not_offered,
    notes,
  };
}

/**
 * Reads and explains the synthesized stacks in `dir`. Throws an Error saying what and how to fix it
 * when there is nothing to read, or when an environment of `options.envs` has no stacks there.
 */
export function explainDir(dir: string, options: ExplainOptions = {}): ExplainModel {
  const synth = readSynthDir(dir);
  const onClouds = synth.clouds.filter((c) => options.clouds === undefined || options.clouds.includes(c.cloud));
  const absent = options.envs?.filter((env) => !onClouds.some((c) => c.env === env)) ?? [];
  const selected = onClouds.filter((c) => options.envs === undefined || options.envs.includes(c.env));
  if (absent.length > 0 || selected.length === 0) {
    const available = [...new Set(synth.clouds.map((c) => `${c.env} (${c.cloud})`))].join(', ');
    throw new Error(
      `no stacks of ${absent.length > 0 ? `environment${absent.length === 1 ? '' : 's'} ${absent.map((env) => `"${env}"`).join(', ')}` : 'the selected environments'}` +
        `${options.clouds ? ` on ${options.clouds.join('/')}` : ''} in ${dir}; found: ${available}`,
    );
  }
  const environments: EnvironmentExplanation[] = [];
  for (const found of selected) {
    let environment = environments.find((e) => e.env === found.env);
    if (!environment) {
      environment = { env: found.env, clouds: [] };
      environments.push(environment);
    }
    (environment.clouds as CloudExplanation[]).push(explainCloud(found));
  }
  return { schema: 'hoplab.explain/v1', dir, environments, ignored_stacks: synth.ignored };
}
