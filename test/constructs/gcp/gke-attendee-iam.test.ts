import { ProjectIamMember } from '@cdktf/provider-google/lib/project-iam-member';
import { Testing } from 'cdktf';
import { GkeAttendeeIam } from '../../../lib/constructs/gcp/gke-attendee-iam';

describe('GkeAttendeeIam', () => {
  test.each(['user:ann@example.com', 'serviceAccount:ann@acme-lab.iam.gserviceaccount.com'])(
    'GIVEN member %s WHEN synthesized THEN it gets roles/container.clusterViewer on the project (credentials, nothing inside a cluster), and that only',
    (member) => {
      const json = Testing.synthScope((scope) => new GkeAttendeeIam(scope, 'attendee-iam', { project: 'acme-lab', member }));
      expect(json).toHaveResourceWithProperties(ProjectIamMember, { project: 'acme-lab', role: 'roles/container.clusterViewer', member });
      expect(Object.keys(JSON.parse(json).resource)).toEqual(['google_project_iam_member']);
      expect(Object.keys(JSON.parse(json).resource.google_project_iam_member)).toHaveLength(1);
    },
  );

  test.each([
    ['group:devs@example.com', 'is a Google group'],
    ['allUsers', "is not one person's identity"],
  ])('GIVEN member %s WHEN constructed THEN it throws naming the member and why', (member, reason) => {
    expect(() => Testing.synthScope((scope) => new GkeAttendeeIam(scope, 'attendee-iam', { project: 'acme-lab', member }))).toThrow(`GkeAttendeeIam attendee-iam: member "${member}" ${reason}`);
  });
});
