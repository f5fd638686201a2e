// Preloaded by the benchmark (`node --require`): reports the process's peak
// resident memory at exit, as a JSON line on stderr, for bin/bench.ts to read.
process.on('exit', () => {
  process.stderr.write(`\n${JSON.stringify({ hoplabPeakRssKiB: process.resourceUsage().maxRSS })}\n`);
});
