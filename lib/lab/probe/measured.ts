/**
 * The addresses a probe measured, read back from a `compare --probe --format
 * json` report (hoplab.compare/v1), for the packet's journey of `explain
 * --format html --measured FILE`: per environment, cloud and exposure, the
 * prober's own address (the client), the TCP source the Pods saw most often
 * and what compare classified the sources as, and the node of the Pod that
 * answered most often where its name carries the address (EKS). Tolerant: a
 * cell without a probe, or a field it lacks, is left out.
 */
import { readFileSync } from 'node:fs';
import { Cloud } from '../../model/contract';
import { parseJson } from '../../config/json-syntax';
import { isRecord } from '../../kit/terraform/terraform-json';
import { addressInNodeName } from './echo-reply';

/** What a probe measured of one exposure, in the journey's terms. */
export interface MeasuredAddresses {
  /** The prober's own address: the client. */
  readonly client?: string;
  /** The TCP source the Pods saw most often, and what compare classified the sources as (its `tcp_peer`). */
  readonly seenByPod?: { readonly address: string; readonly peer: 'client' | 'node' | 'load-balancer' | 'mixed'; readonly replies: number; readonly of: number };
  /** The address of the node whose Pod answered most often (EKS node names carry it). */
  readonly podNode?: string;
}

/** Measured addresses: environment -> cloud -> mode. */
export type MeasuredByExposure = ReadonlyMap<string, Partial<Record<Cloud, ReadonlyMap<string, MeasuredAddresses>>>>;

const PEERS = ['client', 'node', 'load-balancer', 'mixed'] as const;

/** The key with the largest count of a `{key: count}` tally, the first of equals; undefined when empty. */
function mostOften(tally: unknown): { key: string; count: number; total: number } | undefined {
  if (!isRecord(tally)) return undefined;
  const entries = Object.entries(tally).filter((x): x is [string, number] => typeof x[1] === 'number');
  if (entries.length === 0) return undefined;
  const [key, count] = entries.reduce((best, x) => (x[1] > best[1] ? x : best));
  return { key, count, total: entries.reduce((sum, [, n]) => sum + n, 0) };
}

/** One cell's probe in the journey's terms, or undefined when it has none. */
function measuredOf(probe: unknown): MeasuredAddresses | undefined {
  if (!isRecord(probe) || !isRecord(probe.client_ip)) return undefined;
  const ip = probe.client_ip;
  const seen = mostOften(ip.seen_by_pod);
  const peer = PEERS.find((p) => p === ip.tcp_peer);
  const node = mostOften(probe.nodes);
  const podNode = node ? addressInNodeName(node.key) : undefined;
  const found: MeasuredAddresses = {
    ...(typeof ip.prober_address === 'string' ? { client: ip.prober_address } : {}),
    ...(seen && peer ? { seenByPod: { address: seen.key, peer, replies: seen.count, of: seen.total } } : {}),
    ...(podNode ? { podNode } : {}),
  };
  return Object.keys(found).length > 0 ? found : undefined;
}

/** The measured addresses of a parsed compare report; throws naming `source` when it is none. */
export function measuredFromCompare(report: unknown, source: string): MeasuredByExposure {
  if (!isRecord(report) || report.schema !== 'hoplab.compare/v1' || !Array.isArray(report.environments)) {
    throw new Error(`${source} is not a compare report (schema hoplab.compare/v1): write one with \`npx hoplab compare --probe --format json > ${source}\``);
  }
  const result = new Map<string, Partial<Record<Cloud, Map<string, MeasuredAddresses>>>>();
  for (const env of report.environments) {
    if (!isRecord(env) || typeof env.env !== 'string' || !Array.isArray(env.rows)) continue;
    const byCloud: Partial<Record<Cloud, Map<string, MeasuredAddresses>>> = {};
    for (const row of env.rows) {
      if (!isRecord(row) || typeof row.mode !== 'string' || !isRecord(row.clouds)) continue;
      for (const cloud of ['aws', 'gcp'] as const) {
        const cell = row.clouds[cloud];
        const measured = isRecord(cell) ? measuredOf(cell.probe) : undefined;
        if (measured) (byCloud[cloud] ??= new Map()).set(row.mode, measured);
      }
    }
    result.set(env.env, byCloud);
  }
  if (report.probe === null || [...result.values()].every((c) => Object.keys(c).length === 0)) {
    throw new Error(`${source} holds no probe: write it with \`npx hoplab compare --probe --format json > ${source}\` (with --probe)`);
  }
  return result;
}

/** Reads a compare report from `file`. */
export function readMeasuredFile(file: string): MeasuredByExposure {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the compare report ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const parsed = parseJson(text, (reason) => new Error(`the compare report ${file} ${reason}; write it with \`npx hoplab compare --probe --format json > ${file}\``));
  return measuredFromCompare(parsed, file);
}

/** The measurement of one exposure, if the report has it. */
export function measuredOfExposure(measured: MeasuredByExposure | undefined, env: string, cloud: Cloud, mode: string): MeasuredAddresses | undefined {
  return measured?.get(env)?.[cloud]?.get(mode);
}
