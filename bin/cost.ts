/** `npm run cost`: the estimated cost of the configured lab, as `deploy` prints it first. */
import { loadConfig } from '../lib/config/load';
import { estimateCost, formatCostEstimate } from '../lib/cost/estimate';
import { runCli } from '../lib/lifecycle/cli';

runCli(async () => {
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(estimateCost(loadConfig().config), null, 2));
    return 0;
  }
  for (const line of formatCostEstimate(estimateCost(loadConfig().config))) console.log(line);
  return 0;
});
