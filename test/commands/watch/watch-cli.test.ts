/**
 * `npm run watch` in-process against loopback echo servers that change while
 * it runs: the live screen on a (fake) terminal, the lines off a terminal, the
 * JSON timeline, the change highlighting, Ctrl-C and the rate bound. Runs are
 * ended by --duration or by the test's abort; nothing here waits on a fixed
 * timeout.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPOSURE_FACTS } from '../../../lib/model/exposure-facts';
import { runWatch, WatchIo } from '../../../lib/commands/watch/watch-cli';
import { WATCH_COMMAND } from '../../../lib/commands/watch/command';
import { UsageError } from '../../../lib/kit/cli/cli';
import { stripAnsi } from '../../../lib/kit/terminal/terminal';
import { SERVED_PAGE_CSP } from '../../../lib/kit/svg/html-page';
import { selectShard } from '../../../lib/lab/selection/shard';
import { ControlledServer, startControlledEchoServer } from '../../support/echo-servers';

let local: ControlledServer;
let l4: ControlledServer;
let outputsFile: string;

beforeAll(async () => {
  local = await startControlledEchoServer({ behaviour: 'client-address' });
  l4 = await startControlledEchoServer({ behaviour: 'snat-l4' });
  const outputs = {
    'ann-aws-lb': {
      exposure_nodeport_local: { mode: 'nodeport-local', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-local'], url: local.url },
      exposure_nodeport_l4: { mode: 'nodeport-l4', cloud: 'aws', ...EXPOSURE_FACTS.aws['nodeport-l4'], url: l4.url },
      exposure_native: { mode: 'native', cloud: 'aws', ...EXPOSURE_FACTS.aws.native, url: null },
    },
  };
  outputsFile = join(mkdtempSync(join(tmpdir(), 'hoplab-watch-')), 'outputs.json');
  writeFileSync(outputsFile, JSON.stringify(outputs));
});

afterAll(async () => {
  await Promise.all([local.close(), l4.close()]);
});

beforeEach(() => {
  local.control.fail = false;
  l4.control.fail = false;
});

interface Run {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly writes: string[];
}

async function watch(
  argv: readonly string[],
  options: {
    tty?: { columns: number; rows?: number };
    env?: Record<string, string>;
    onWrite?: (n: number, stop: () => void, text: string) => void;
    onErr?: (text: string, stop: () => void) => Promise<void>;
    /** The config's environment names (--shard). @default - the config file's */
    environments?: readonly string[];
  } = {},
): Promise<Run> {
  const writes: string[] = [];
  let err = '';
  const stop = new AbortController();
  const io: WatchIo = {
    stdout: {
      write: (text: string) => {
        writes.push(text);
        options.onWrite?.(writes.length, () => stop.abort(), text);
        return true;
      },
      ...(options.tty ? { isTTY: true, columns: options.tty.columns, rows: options.tty.rows ?? 50 } : {}),
    },
    err: (t) => {
      err += t;
      void options.onErr?.(t, () => stop.abort());
    },
    env: options.env ?? {},
    signal: stop.signal,
    ...(options.environments ? { environments: () => options.environments! } : {}),
  };
  // A long deadline: on a busy machine replies come late; they must not become timeouts.
  const code = await runWatch(['--outputs', outputsFile, '--timeout', '60000', ...argv], io);
  return { code, out: writes.join(''), err, writes };
}

describe('watch off a terminal', () => {
  let run: Run;
  const before = { local: 0, l4: 0 };
  beforeAll(async () => {
    before.local = local.requests();
    before.l4 = l4.requests();
    // After the first interval's lines the nodeport-local server starts failing (a drained node, a bad rollout).
    run = await watch(['--rate', '5', '--duration', '3', '--interval', '1', '--window', '1'], { onWrite: (n) => (n === 1 ? (local.control.fail = 'http-503') : undefined) });
  });

  test('GIVEN output that is not a terminal WHEN watching THEN one line per exposure per interval, time first, no escape codes', () => {
    expect(run.code).toBe(0);
    expect(run.out).not.toContain('\x1b');
    const lines = run.out.split('\n');
    // In compare's order of exposures; the first interval may have no reply yet on a busy machine.
    expect(lines[0]).toBe('00:01 ann aws native: not probed: no URL in the output (not deployed yet?)');
    expect(lines[1]).toMatch(/^00:01 ann aws nodeport-l4: [\d.]+ req\/s, errors 0, p50 (\d+|-) ms, p99 (\d+|-) ms, pods \d, nodes \d, client IP (none, SNAT|not measured)$/);
    expect(lines[2]).toMatch(/^00:01 ann aws nodeport-local: [\d.]+ req\/s, errors 0, p50 (\d+|-) ms, p99 (\d+|-) ms, pods \d, nodes \d, client IP (tcp-source, no SNAT|not measured)$/);
    // The last interval (after the requests in flight finished) has replies from both Pods on both nodes.
    const lastL4 = lines.filter((l) => /^\d\d:\d\d ann aws nodeport-l4:/.test(l)).at(-1);
    expect(lastL4).toMatch(/^\d\d:\d\d ann aws nodeport-l4: [\d.]+ req\/s, errors 0, p50 \d+ ms, p99 \d+ ms, pods 2, nodes 2, client IP none, SNAT$/);
  });

  test('GIVEN a server that starts failing mid-run WHEN watching THEN a change line says errors started, for that exposure only', () => {
    expect(run.out).toMatch(/^\d\d:\d\d ! ann aws nodeport-local: errors started: HTTP 503$/m);
    expect(run.out).not.toMatch(/! ann aws nodeport-l4: errors/);
  });

  test('GIVEN --duration 3 and --rate 5 WHEN watching THEN no exposure got more than rate x duration + 1 requests', () => {
    expect(local.requests() - before.local).toBeLessThanOrEqual(16);
    expect(l4.requests() - before.l4).toBeLessThanOrEqual(16);
    expect(l4.requests() - before.l4).toBeGreaterThan(0);
  });

  test('GIVEN the end of the duration WHEN watching THEN a summary closes the output', () => {
    expect(run.out).toMatch(
      /\nwatch: done after \d+\.\d s, \d+ snapshots, 5 req\/s per exposure, \d+ changes\n {2}ann aws native: not probed: no URL in the output \(not deployed yet\?\)\n {2}ann aws nodeport-l4: \d+ sent, \d+ ok, 0 failed; last window p50 \d+ ms, p99 \d+ ms, client IP none, SNAT\n {2}ann aws nodeport-local: \d+ sent, \d+ ok, \d+ failed; last window p50 - ms, p99 - ms, client IP not measured\n$/,
    );
  });
});

describe('watch --format json', () => {
  test('GIVEN --format json WHEN watching THEN every line is a JSON object of the timeline and the last is the summary', async () => {
    const run = await watch(['--format', 'json', '--rate', '4', '--duration', '2'], { tty: { columns: 80 } });
    const objects = run.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(run.out).not.toContain('\x1b');
    expect(objects.every((o) => o.schema === 'hoplab.watch/v1')).toBe(true);
    const intervals = objects.filter((o) => o.type === 'interval');
    expect(intervals.length % 3).toBe(0);
    // The last interval (after the requests in flight finished) has replies on a busy machine too.
    const last = intervals.filter((o) => o.final === true);
    expect(last.map((o) => o.mode)).toEqual(['native', 'nodeport-l4', 'nodeport-local']);
    expect(last[1]).toMatchObject({ env: 'ann', cloud: 'aws', mode: 'nodeport-l4', client_ip_via: 'none', source_nat: true, as_expected: true, changes: [] });
    expect(Object.keys(intervals[0])).toEqual(expect.arrayContaining(['t_ms', 'rps', 'errors', 'p50_ms', 'p99_ms', 'pods', 'nodes']));
    expect(objects.at(-1)).toMatchObject({ type: 'summary', stopped: false, rate_per_exposure: 4 });
  });
});

describe('watch on a terminal', () => {
  const frames = (run: Run) => run.writes.filter((w) => w.includes('hoplab watch:'));

  test('GIVEN a terminal WHEN watching THEN the screen is redrawn in place, every line within the width, the change highlighted, and Ctrl-C ends it with a summary', async () => {
    // Once a frame shows the nodeport-l4 verdict measured (SNAT), its server turns SNAT off; once a frame shows the
    // flip, Ctrl-C. Driven by what is on the screen, not by time, so a busy machine only makes it slower.
    let flipped = false;
    const run = await watch(['--rate', '5', '--interval', '1', '--window', '1'], {
      tty: { columns: 80, rows: 40 },
      onWrite: (_n, stop, text) => {
        if (!flipped && stripAnsi(text).includes('none, SNAT')) {
          flipped = true;
          l4.control.behaviour = 'client-address';
        } else if (flipped && text.includes('-> tcp-source/no-snat')) stop();
      },
    });
    l4.control.behaviour = 'snat-l4';
    expect(run.code).toBe(0);
    const drawn = frames(run);
    expect(drawn.length).toBeGreaterThanOrEqual(3);
    expect(drawn[0].startsWith('\x1b[?25l')).toBe(true);
    // Each later frame moves the cursor back up over the previous one instead of scrolling.
    expect(drawn[1]).toMatch(/^\r\x1b\[\d+A\x1b\[J/);
    for (const frame of drawn) {
      for (const line of stripAnsi(frame).split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    }
    // The flip is an event, and the row that changed is shown reversed (7) in the frame where it happens.
    const flipFrame = drawn.find((f) => f.includes('client IP none/snat -> tcp-source/no-snat'))!;
    expect(flipFrame).toBeDefined();
    expect(flipFrame).toMatch(/\x1b\[(\d+;)*7maws nodeport-l4 /);
    expect(flipFrame).toContain('environment ann');
    expect(run.out).toContain('\x1b[?25h');
    expect(run.out).toMatch(/watch: stopped after \d+\.\d s/);
  });

  test('GIVEN NO_COLOR WHEN watching on a terminal THEN it is still redrawn in place, without a colour code', async () => {
    // Ctrl-C after the second frame: three frames in all (the last one the final), however busy the machine.
    const run = await watch(['--rate', '2'], { tty: { columns: 100 }, env: { NO_COLOR: '' }, onWrite: (n, stop) => (n === 2 ? stop() : undefined) });
    expect(frames(run)[1]).toMatch(/^\r\x1b\[\d+A\x1b\[J/);
    expect(run.out).not.toMatch(/\x1b\[[\d;]*m/);
  });

  test('GIVEN a 40-column terminal WHEN watching THEN every line fits, words whole', async () => {
    const run = await watch(['--rate', '2', '--duration', '1'], { tty: { columns: 40 } });
    const lines = stripAnsi(run.out).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(40);
    expect(lines.join(' ')).toContain('nodeport-local:');
    // The summary too, its lines indented under their exposure.
    expect(stripAnsi(run.out)).toMatch(/\n {2}ann aws nodeport-l4: \d+ sent, \d+ ok, 0\n {4}failed;/);
  });
});

describe('watch --html', () => {
  let run: Run;
  let page: string;
  let file: string;
  beforeAll(async () => {
    file = join(mkdtempSync(join(tmpdir(), 'hoplab-watch-html-')), 'watch.html');
    // After the first interval's lines the nodeport-local server starts failing.
    run = await watch(['--rate', '5', '--duration', '3', '--window', '1', '--html', file], { onWrite: (n) => (n === 1 ? (local.control.fail = 'http-503') : undefined) });
    page = readFileSync(file, 'utf8');
  });

  test('GIVEN --html FILE WHEN the watch ends THEN it writes the page and says so, the lines on stdout unchanged', () => {
    expect(run.code).toBe(0);
    expect(run.err).toBe(`hoplab watch: wrote ${file}\n`);
    expect(run.out).toMatch(/^\d\d:\d\d ann aws native: not probed/);
    expect(run.out).toMatch(/\nwatch: done after /);
  });

  test('GIVEN the page THEN it is one self-contained document with a chart per probed exposure and no external URL', () => {
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain("default-src 'none'");
    expect(page.match(/<svg /g)).toHaveLength(2);
    expect(page.replaceAll('xmlns="http://www.w3.org/2000/svg"', '')).not.toMatch(/https?:|src=|url\(/);
    expect(page).toContain('<h2>ann aws native</h2><p class="muted">not probed: no URL in the output (not deployed yet?)</p>');
  });

  test('GIVEN a server that failed mid-run THEN its chart has failure bars and the change marked, and its table counts the failures', () => {
    const localSection = page.slice(page.indexOf('<h2>ann aws nodeport-local</h2>'));
    expect(localSection).toMatch(/<rect [^>]*fill="#b00020"><title>\d\d:\d\d: \d+ failed<\/title><\/rect>/);
    expect(localSection).toMatch(/>1\. \d\d:\d\d errors started: HTTP 503<\/text>/);
    expect(localSection).toMatch(/<tr><th scope="row">failed<\/th><td class="bad">\d+ \(\d+ HTTP 503\)<\/td><\/tr>/);
    // The verdict measured before the outage, not "not measured" from the failing last window.
    expect(localSection).toContain('<tr><th scope="row">client-IP verdict, last measured</th><td>tcp-source, no SNAT</td></tr>');
  });

  test('GIVEN a healthy server THEN its chart draws the latency lines and its table has the overall p50/p99 and the verdict', () => {
    const l4Section = page.slice(page.indexOf('<h2>ann aws nodeport-l4</h2>'), page.indexOf('<h2>ann aws nodeport-local</h2>'));
    expect(l4Section).toMatch(/data-series="p50" points="[\d.]+,[\d.]+( [\d.]+,[\d.]+)+"/);
    expect(l4Section).toMatch(/<tr><th scope="row">requests sent<\/th><td>\d+<\/td><\/tr>/);
    expect(l4Section).toMatch(/<tr><th scope="row">latency p50, whole run<\/th><td>[\d.]+ ms<\/td><\/tr><tr><th scope="row">latency p99, whole run<\/th><td>[\d.]+ ms<\/td><\/tr>/);
    expect(l4Section).toContain('<tr><th scope="row">failed</th><td>0</td></tr>');
    expect(l4Section).toContain('<tr><th scope="row">client-IP verdict, last measured</th><td>none, SNAT</td></tr>');
  });
});

describe('watch --serve', () => {
  test('GIVEN --serve-address on loopback WHEN watching THEN the page (with its CSP, no external URL) and the room as JSON are served while it runs, and nothing once it ended', async () => {
    let url = '';
    let page = '';
    let csp: string | null = null;
    let state: { schema: string; attendees: { env: string; cells: { mode: string }[] }[] } | undefined;
    const run = await watch(['--rate', '2', '--serve-address', '127.0.0.1:0'], {
      onErr: async (text, stop) => {
        const found = /serving the room on (http:\/\/\S+) /.exec(text)?.[1];
        if (!found) return;
        url = found;
        const response = await fetch(url);
        csp = response.headers.get('content-security-policy');
        page = await response.text();
        state = (await (await fetch(`${url}state`)).json()) as typeof state;
        // The first state comes with the first snapshot.
        while (state === null) state = (await (await fetch(`${url}state`)).json()) as typeof state;
        stop();
      },
    });
    expect(run.code).toBe(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(csp).toBe(SERVED_PAGE_CSP);
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).toContain(`content="${SERVED_PAGE_CSP}"`);
    expect(page).not.toMatch(/https?:\/\/|src=|url\(/);
    expect(state?.schema).toBe('hoplab.room/v1');
    expect(state?.attendees.map((a) => [a.env, a.cells.map((c) => c.mode)])).toEqual([['ann', ['native', 'nodeport-l4', 'nodeport-local']]]);
    await expect(fetch(url)).rejects.toThrow();
  });

  test('GIVEN --serve-address on a port already taken WHEN watch runs THEN it exits 1 saying so, before probing', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const before = local.requests();
    const run = await watch(['--serve-address', `127.0.0.1:${port}`]);
    taken.close();
    expect(run.code).toBe(1);
    expect(run.err).toBe(`hoplab watch: --serve: 127.0.0.1:${port} is in use (another watch --serve?): choose another port with --serve-address\n`);
    expect(local.requests()).toBe(before);
  });
});

describe('watch arguments', () => {
  test.each([
    [['--rate', '0'], '--rate: "0" is not a whole number from 1 to 50'],
    [['--duration', '1.5'], '--duration: "1.5" is not a whole number from 0 to 86400'],
    [['--exposure', 'nodeport,bogus'], '--exposure: "bogus" is not one of native, gateway, nodeport, nodeport-l4, nodeport-local, native-l4'],
    [['--format', 'html'], '--format: "html" is not one of table, json'],
    [['--my-ip', 'me'], '--my-ip: "me" is not an IP address (e.g. 203.0.113.7)'],
    [['--env', 'ann,'], '--env: "ann," has an empty item; write NAME[,NAME]'],
    [['--html', ''], '--html: needs a value: --html FILE'],
    [['--html', '/no-such-hoplab-folder/watch.html'], '--html: "/no-such-hoplab-folder/watch.html": there is no folder /no-such-hoplab-folder; create it or choose another path'],
  ])('GIVEN %j WHEN watch runs THEN a usage error (exit 2 through runCli) says: %s', async (argv, message) => {
    await expect(watch(argv)).rejects.toThrow(new UsageError(message, 'watch'));
  });

  test('GIVEN --html naming a folder or a path under a file WHEN watch runs THEN a usage error before probing names the path', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'hoplab-watch-html-'));
    const aFile = join(folder, 'plain');
    writeFileSync(aFile, '');
    const before = local.requests();
    await expect(watch(['--html', folder])).rejects.toThrow(new UsageError(`--html: ${JSON.stringify(folder)} is a folder: give a file name (e.g. ${folder}/watch.html)`));
    await expect(watch(['--html', join(aFile, 'watch.html')])).rejects.toThrow(
      new UsageError(`--html: ${JSON.stringify(join(aFile, 'watch.html'))}: there is no folder ${aFile}; create it or choose another path`),
    );
    expect(local.requests()).toBe(before);
    expect(existsSync(join(aFile, 'watch.html'))).toBe(false);
  });

  test('GIVEN --env naming no environment of the outputs WHEN watch runs THEN it exits 1 naming the ones found', async () => {
    const run = await watch(['--env', 'ann,bob']);
    expect(run.code).toBe(1);
    expect(run.err).toBe('hoplab watch: --env bob: no such environment in the outputs; found: ann\n');
  });

  test('GIVEN --shard holding none of the outputs’ environments WHEN watch runs THEN it exits 1 naming what the shard and the outputs hold', async () => {
    const environments = ['ann', 'bob', 'cy'];
    const shard = [1, 2].find((k) => !selectShard(environments, { index: k, total: 2 }).includes('ann'))!;
    const run = await watch(['--shard', `${shard}/2`], { environments });
    expect(run.code).toBe(1);
    expect(run.err).toBe(
      `hoplab watch: shard ${shard}/2 holds none of the outputs' environments (it holds ${selectShard(environments, { index: shard, total: 2 }).join(', ')}; the outputs hold ann)\n`,
    );
  });

  test('GIVEN --exposure choosing only an exposure without a URL WHEN watch runs THEN it exits 1 saying why', async () => {
    const run = await watch(['--exposure', 'native']);
    expect(run.code).toBe(1);
    expect(run.err).toBe('hoplab watch: no exposure has a URL to probe (ann aws native: no URL in the output (not deployed yet?))\n');
  });

  test('GIVEN --help WHEN watch runs THEN it shows the usage and exits 0', async () => {
    const run = await watch(['--help']);
    expect(run.code).toBe(0);
    expect(run.out).toBe(WATCH_COMMAND.help());
    expect(run.out).toContain('usage: npm run watch -- [--outputs FILE]');
    expect(run.out).toContain('\n\nnpm run compare -- --watch takes the same options.\n\n');
    expect(run.out).toContain('[--format table|json] [--html FILE]');
    expect(run.out).toMatch(/\n {2}--html FILE +when the watch ends, also write the timeline as a chart\n/);
  });
});
