/**
 * Mermaid flowcharts of exposure paths, one `.mmd` file per environment,
 * cloud and exposure (paste into slides or a Markdown ```mermaid block). The
 * hop that adds SNAT is drawn thick and red, and says so.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cloud } from '../../model/contract';
import { ExplainModel, ExposureExplanation } from '../../lab/anatomy/model';

const CLUSTER_TITLE: Readonly<Record<Cloud, string>> = { aws: 'EKS cluster', gcp: 'GKE cluster' };

function label(text: string): string {
  return `"${text.replace(/"/g, '#quot;')}"`;
}

/** The Mermaid source of one exposure's path. */
export function mermaidDiagram(env: string, cloud: Cloud, exposure: ExposureExplanation): string {
  const lines = [
    `%% hoplab explain: environment ${env}, ${cloud}, exposure ${exposure.mode}`,
    `%% ${exposure.path_summary}`,
    `%% hops LB -> Pod: ${exposure.expected_hops ?? 'unknown'}; SNAT: ${exposure.snat === null ? 'unknown' : exposure.snat ? 'yes' : 'no'}; client IP via: ${
      exposure.client_ip_via ?? 'unknown'
    } (preserved: ${exposure.client_ip_preserved ?? 'unknown'})`,
    'flowchart LR',
  ];
  const steps = exposure.path;
  if (steps.length === 0) {
    lines.push(`  s0[${label('client')}] --> s1[${label(`${exposure.mode}: path unknown`)}]`);
    return `${lines.join('\n')}\n`;
  }
  // Client and load balancer outside the cluster; nodes and Pods inside.
  const inCluster = (at: string) => at.startsWith('node') || at.startsWith('Pod');
  const outside = steps.map((s, i) => ({ s, i })).filter(({ s }) => !inCluster(s.at));
  const inside = steps.map((s, i) => ({ s, i })).filter(({ s }) => inCluster(s.at));
  for (const { s, i } of outside) {
    lines.push(`  s${i}[${label(s.at)}]`);
  }
  lines.push(`  subgraph cluster[${label(`${CLUSTER_TITLE[cloud]} (${env})`)}]`);
  for (const { s, i } of inside) {
    lines.push(`    s${i}[${label(s.at)}]`);
  }
  lines.push('  end');
  const snatLinks: number[] = [];
  steps.slice(0, -1).forEach((step, i) => {
    if (step.snat) {
      snatLinks.push(i);
      lines.push(`  s${i} ==>|${label(`SNAT here: ${step.then}`)}| s${i + 1}`);
    } else {
      lines.push(`  s${i} -->|${label(step.then)}| s${i + 1}`);
    }
  });
  lines.push('  classDef snat fill:#fde2e1,stroke:#c0392b,stroke-width:2px');
  const snatNodes = steps.map((s, i) => (s.snat ? `s${i}` : '')).filter((s) => s !== '');
  if (snatNodes.length > 0) {
    lines.push(`  class ${snatNodes.join(',')} snat`);
  }
  for (const link of snatLinks) {
    lines.push(`  linkStyle ${link} stroke:#c0392b,stroke-width:3px`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The comparison matrix of one cloud as a graph: one node per exposure, one
 * edge per pair that differs in exactly one variable, labelled with it.
 */
export function mermaidMatrix(env: string, cloud: Cloud, exposures: readonly ExposureExplanation[], notOffered: readonly { mode: string; reason: string }[] = []): string {
  const lines = [`%% hoplab explain: environment ${env}, ${cloud}: exposures one variable apart`, 'flowchart LR'];
  const id = (mode: string) => `m${exposures.findIndex((e) => e.mode === mode)}`;
  exposures.forEach((e, i) => {
    lines.push(
      `  m${i}[${label(
        `${e.mode}: ${e.layer ?? '?'}, ${e.targets ?? '?'}${e.targets === 'nodes' ? `, ETP ${e.external_traffic_policy ?? '?'}` : ''}${e.api === 'Gateway API' ? ', Gateway API' : ''}`,
      )}]`,
    );
  });
  exposures.forEach((e) => {
    for (const n of e.differs_in_one) {
      // Each pair once: from the earlier exposure to the later one.
      if (exposures.findIndex((x) => x.mode === n.mode) > exposures.indexOf(e)) {
        lines.push(`  ${id(e.mode)} ---|${label(n.variable)}| ${id(n.mode)}`);
      }
    }
  });
  notOffered.forEach((n, i) => lines.push(`  x${i}[${label(`${n.mode}: not offered on ${cloud === 'gcp' ? 'GKE' : 'EKS'}`)}]`, `  class x${i} absent`));
  if (notOffered.length > 0) {
    lines.push('  classDef absent stroke-dasharray:4 4,color:#777');
  }
  return `${lines.join('\n')}\n`;
}

/** File name of a diagram: `<env>-<cloud>-<mode>.mmd`. */
export function diagramFileName(env: string, cloud: Cloud, mode: string): string {
  return `${env}-${cloud}-${mode}`.replace(/[^A-Za-z0-9._-]/g, '_') + '.mmd';
}

/** Writes one diagram per environment, cloud and exposure into `outDir`; returns the paths written. */
export function writeDiagrams(model: ExplainModel, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const written: string[] = [];
  for (const env of model.environments) {
    for (const cloud of env.clouds) {
      for (const exposure of cloud.exposures) {
        const file = join(outDir, diagramFileName(env.env, cloud.cloud, exposure.mode));
        writeFileSync(file, mermaidDiagram(env.env, cloud.cloud, exposure));
        written.push(file);
      }
      if (cloud.exposures.length > 1) {
        const file = join(outDir, diagramFileName(env.env, cloud.cloud, 'matrix'));
        writeFileSync(file, mermaidMatrix(env.env, cloud.cloud, cloud.exposures, cloud.not_offered));
        written.push(file);
      }
    }
  }
  return written;
}
