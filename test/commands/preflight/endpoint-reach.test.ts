/**
 * Preflight's config-only check that attendees who reach the demo app can reach their cluster's
 * API too: every address app.allowedSourceCidrs admits must be inside the API endpoint lists.
 */
import { validConfig } from '../../../lib/config/load';
import { endpointReachFindings } from '../../../lib/commands/preflight/preflight';

const workshop = (extra: Record<string, unknown>) => validConfig({ attendees: ['ann', 'bob'], ...extra }, 'test');

describe('preflight: attendees can reach the API endpoints', () => {
  test('GIVEN the defaults (any address everywhere) WHEN checked THEN both clouds pass', () => {
    expect(endpointReachFindings(workshop({}), { aws: true, gcp: true })).toEqual([
      { check: 'attendee addresses aws', verdict: 'pass', detail: 'every address app.allowedSourceCidrs admits (0.0.0.0/0) may reach the API endpoint (aws.endpointPublicAccessCidrs 0.0.0.0/0)' },
      { check: 'attendee addresses gcp', verdict: 'pass', detail: 'every address app.allowedSourceCidrs admits (0.0.0.0/0) may reach the API endpoint (gcp.masterAuthorizedCidrs 0.0.0.0/0)' },
    ]);
  });

  test('GIVEN the app open to any address and the EKS endpoint narrowed to the host WHEN checked THEN it warns that attendees reach the app but not kubectl, with the fix', () => {
    const config = workshop({ aws: { endpointPublicAccessCidrs: ['198.51.100.7/32'] } });
    expect(endpointReachFindings(config, { aws: true, gcp: false })).toEqual([
      {
        check: 'attendee addresses aws',
        verdict: 'warn',
        detail:
          'app.allowedSourceCidrs admits addresses that aws.endpointPublicAccessCidrs (198.51.100.7/32) does not: 0.0.0.0/0. ' +
          'Attendees there reach the demo app, but kubectl to their cluster fails (the API endpoint refuses them)',
        fix: "add the attendees' networks to aws.endpointPublicAccessCidrs (their addresses in 0.0.0.0/0), or narrow app.allowedSourceCidrs to what aws.endpointPublicAccessCidrs admits",
      },
    ]);
  });

  test('GIVEN the room’s network in both lists (the endpoint list split in two halves) WHEN checked THEN it passes', () => {
    const config = workshop({ app: { allowedSourceCidrs: ['203.0.113.0/24'] }, gcp: { masterAuthorizedCidrs: ['203.0.113.0/25', '203.0.113.128/25', '198.51.100.7/32'] } });
    expect(endpointReachFindings(config, { aws: false, gcp: true }).map((f) => f.verdict)).toEqual(['pass']);
  });

  test('GIVEN a single environment (no attendees) WHEN checked THEN nothing is said: the host’s own address is checked apart', () => {
    expect(endpointReachFindings(validConfig({ aws: { endpointPublicAccessCidrs: ['198.51.100.7/32'] } }, 'test'), { aws: true, gcp: true })).toEqual([]);
  });
});
