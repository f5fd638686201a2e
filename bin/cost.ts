/** `npm run cost`: the estimated cost of the configured lab, as `deploy` prints it first. */
import { loadConfig } from '../lib/config/load';
import { estimateCost, formatCostEstimate } from '../lib/cost/estimate';
import { runCli, simpleArgs } from '../lib/cli';

const HELP = `usage: npm run cost -- [--json]

The estimated cost of the configured lab per environment, per hour and for
workshop.durationHours, per cloud and in total, from lib/cost/price-table.ts
(list prices of its stated date and regions). deploy prints the same first.`;

runCli(async () => {
  const flags = simpleArgs(HELP, ['json']);
  if (!flags) return 0;
  if (flags.json) {
    console.log(JSON.stringify(estimateCost(loadConfig().config), null, 2));
    return 0;
  }
  for (const line of formatCostEstimate(estimateCost(loadConfig().config))) console.log(line);
  return 0;
});
