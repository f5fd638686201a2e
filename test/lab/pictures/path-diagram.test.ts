import { exposurePathSvg, overviewSvg, pathShape } from '../../../lib/lab/pictures/path-diagram';
import { demoEnvironment, exposureOf, externalReferences, unbalancedTags, unknownExposure } from '../../support/pictures';

/** The text a diagram shows, tags removed and entities read back. */
function shownText(svg: string): string {
  return svg
    .replace(/<title>[\s\S]*?<\/title>|<desc>[\s\S]*?<\/desc>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

describe('exposurePathSvg', () => {
  const cases = [
    ['aws', 'native', 'pods'],
    ['aws', 'gateway', 'pods'],
    ['aws', 'nodeport', 'nodes-cluster'],
    ['aws', 'nodeport-l4', 'nodes-cluster'],
    ['aws', 'nodeport-local', 'nodes-local'],
    ['aws', 'native-l4', 'pods'],
    ['gcp', 'native', 'pods'],
    ['gcp', 'nodeport-l4', 'nodes-cluster'],
    ['gcp', 'nodeport-local', 'nodes-local'],
  ] as const;

  test.each(cases)('GIVEN %s %s (a %s path) THEN it is one self-contained, well-formed <svg> with a viewBox, role="img" and a <title>', (cloud, mode, shape) => {
    const e = exposureOf(cloud, mode);
    expect(pathShape(e)).toBe(shape);
    const svg = exposurePathSvg(e);
    expect(svg.startsWith('<svg ')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    expect(svg.match(/<svg /g)).toHaveLength(1);
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"[^>]*role="img"/);
    expect(svg).toContain(`<title>${mode}: `);
    expect(unbalancedTags(svg)).toEqual([]);
    expect(externalReferences(svg)).toEqual([]);
    expect(svg).not.toMatch(/<style|class=|id=|<marker|<image|<use/);
  });

  test('GIVEN a path to Pod IPs THEN one hop, no DNAT or SNAT on a node, and the client-IP verdict and health check are shown', () => {
    const e = exposureOf('aws', 'native');
    const shown = shownText(exposurePathSvg(e));
    expect(shown).toContain('client ALB');
    expect(shown).toContain('hop 1');
    expect(shown).toContain('1 hop');
    expect(shown).not.toContain('hop 2');
    expect(shown).not.toMatch(/DNAT \+ SNAT|DNAT only/);
    expect(shown).toContain('no DNAT, no SNAT on a node');
    expect(shown).toContain('no SNAT on the way');
    expect(shown).toContain('kept, via X-Forwarded-For');
    expect(shown).toContain(`health check: ${e.health_check}`.replace(/\s+/g, ' ').slice(0, 40));
  });

  test('GIVEN nodeport-l4 (NodePort, ETP Cluster, L4) THEN the node is marked DNAT + SNAT, the second hop is drawn, and the client IP is LOST', () => {
    const svg = exposurePathSvg(exposureOf('aws', 'nodeport-l4'));
    const shown = shownText(svg);
    expect(shown).toContain('DNAT + SNAT here');
    expect(shown).toContain('hop 1');
    expect(shown).toContain('hop 2');
    expect(shown).toContain('2 hops');
    expect(shown).toContain('client IP at the Pod: LOST');
    expect(shown).toContain('SNAT on the node');
    // The SNATed hop is red and thick.
    expect(svg).toMatch(/stroke="#b00020" stroke-width="4"/);
  });

  test('GIVEN nodeport-local (ETP Local) THEN DNAT only, no SNAT, the Pod on the same node, one hop', () => {
    const shown = shownText(exposurePathSvg(exposureOf('gcp', 'nodeport-local')));
    expect(shown).toContain('DNAT only, no SNAT');
    expect(shown).toContain('same node');
    expect(shown).toContain('1 hop');
    expect(shown).toContain('LB IP:port, passthrough');
    expect(shown).toContain('kept, via the TCP source address');
  });

  test('GIVEN a path explain could not derive THEN it says so instead of guessing', () => {
    const shown = shownText(exposurePathSvg(unknownExposure()));
    expect(shown).toContain('path unknown');
    expect(shown).toContain('hops unknown');
    expect(shown).toContain('source NAT: unknown');
  });

  test('GIVEN a title and text with markup characters THEN the title is used and everything is escaped', () => {
    const svg = exposurePathSvg({ ...exposureOf('aws', 'native'), health_check: 'HTTP <"/"> & more' }, { title: 'ann & bob: <native>' });
    expect(svg).toContain('<title>ann &amp; bob: &lt;native&gt;: client -&gt; ALB -&gt; Pod</title>');
    expect(svg).toContain('HTTP &lt;&quot;/&quot;&gt; &amp; more');
    expect(unbalancedTags(svg)).toEqual([]);
  });
});

describe('overviewSvg', () => {
  test('GIVEN the default lab on AWS THEN six columns and one arc per pair that differs in exactly one variable, named after it', () => {
    const env = demoEnvironment();
    const aws = env.clouds.find((c) => c.cloud === 'aws')!;
    const svg = overviewSvg(env, 'aws');
    expect(unbalancedTags(svg)).toEqual([]);
    expect(externalReferences(svg)).toEqual([]);
    const pairs = new Set(aws.exposures.flatMap((e) => e.differs_in_one.map((n) => [e.mode, n.mode].sort().join(' ') + ` (${n.variable})`)));
    expect(pairs.size).toBeGreaterThan(4);
    expect(svg.match(/<path d="M /g)).toHaveLength(pairs.size);
    const desc = /<desc>(.*)<\/desc>/.exec(svg)![1];
    for (const pair of pairs) {
      const [a, b] = pair.split(' ');
      const variable = /\((.*)\)/.exec(pair)![1];
      const first = aws.exposures.findIndex((e) => e.mode === a) < aws.exposures.findIndex((e) => e.mode === b) ? [a, b] : [b, a];
      expect(desc).toContain(`${first[0]} and ${first[1]} (${variable})`);
    }
    const shown = shownText(svg);
    for (const e of aws.exposures) {
      expect(shown).toContain(` ${e.mode} `);
    }
    expect(shown).toContain('DNAT + SNAT');
    expect(shown).toContain('client IP LOST');
    expect(shown).toContain('traffic policy');
  });

  test('GIVEN GKE THEN the mode it does not offer is a dashed column that says why', () => {
    const shown = shownText(overviewSvg(demoEnvironment(), 'gcp'));
    expect(shown).toContain('native-l4 not offered on GKE: GKE passthrough Network Load Balancers only');
  });

  test('GIVEN an environment without that cloud THEN a small picture says so', () => {
    const env = { env: 'solo', clouds: demoEnvironment().clouds.filter((c) => c.cloud === 'aws') };
    const svg = overviewSvg(env, 'gcp');
    expect(shownText(svg)).toContain('no GCP (GKE) stacks in environment solo');
    expect(svg).toContain('role="img"');
  });
});
