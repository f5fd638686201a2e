/**
 * The handout's "how you reach your cluster" steps, per cluster: where the
 * cluster is (account or project, region: the placement the outputs say), and
 * how kubectl works with the attendee's kubeconfig file: their own identity
 * (no IAM permission needed), or the token the host minted (a secret, with its
 * expiry and how to get a new one). An environment that is no attendee's (a
 * single lab) gets the host's own commands.
 */
import { AttendeeIdentities } from '../../config/attendees';
import { ClusterTarget, Unreachable, isUnreachable } from '../../lab/cluster/cluster-access';
import { Cloud } from '../../model/contract';
import { ATTENDEE_SERVICE_ACCOUNT, isRefusal, parseGcpMember } from '../../model/identities';
import { APP_NAMESPACE } from '../../model/names';
import { HOST_ACCOUNT } from '../../model/slots';
import { EnvironmentKubeconfig } from './kubeconfig';
import { Step } from './handout-model';

/** The command that mints an environment's tokens again. */
export const refreshCommand = (env: string) => `npx hoplab handout --refresh-kubeconfigs --env ${env}`;

/** Where a cluster is, in words: `account 111122223333, region eu-west-1` or `project lab-ws-2, location europe-west1-b`. */
export function placementWords(target: ClusterTarget): string {
  if (target.cloud === 'aws') return `${target.owner === HOST_ACCOUNT ? "the host's AWS account" : `AWS account ${target.owner}`}, region ${target.region}`;
  return `Google Cloud project ${target.owner}, ${target.location === target.region ? 'region' : 'zone'} ${target.location}`;
}

/** The host's own way in, for an environment that is no attendee's. */
function hostSteps(target: ClusterTarget): Step[] {
  if (target.cloud === 'aws') {
    const role = target.roleArn ? ` --role-arn ${target.roleArn}` : '';
    return [
      {
        say: 'This environment is no attendee’s: use your own admin access (the identity that deployed it):',
        command: `aws eks update-kubeconfig --name ${target.clusterName} --region ${target.region}${role}`,
      },
    ];
  }
  return [
    {
      say: 'This environment is no attendee’s: use your own admin access (the identity that deployed it):',
      command: `gcloud container clusters get-credentials ${target.clusterName} --location ${target.location} --project ${target.owner}`,
    },
  ];
}

const check = (file: string, context: string) =>
  `kubectl --kubeconfig ${file} --context ${context} auth can-i patch deployments -n ${APP_NAMESPACE}   # yes; "get nodes" works, "get secrets -A" does not`;

/** How the attendee reaches `cloud`'s cluster, in order. */
export function accessSteps(
  cloud: Cloud,
  sources: { readonly env: string; readonly attendee?: AttendeeIdentities; readonly target: ClusterTarget | Unreachable; readonly kubeconfig?: EnvironmentKubeconfig },
): Step[] {
  const { target, attendee, kubeconfig, env } = sources;
  if (isUnreachable(target)) return [{ say: `Your cluster cannot be reached from the outputs the host read (${target.why}): ask the host.` }];
  const where: Step = { say: `Your cluster ${target.clusterName} is in ${placementWords(target)}.` };
  if (!attendee) return [where, ...hostSteps(target)];
  const entry = kubeconfig?.entries.find((e) => e.target.cloud === cloud);
  if (!kubeconfig || !entry) {
    const why = kubeconfig?.missing[cloud] ?? 'no kubeconfig was written';
    return [where, { say: `The host could not write this cluster into your kubeconfig (${why}): ask the host to run \`${refreshCommand(env)}\`.` }];
  }
  const file = kubeconfig.file;
  const use = `kubectl --kubeconfig ${file} --context ${entry.context} get pods`;
  const auth = entry.auth;
  if (auth.kind === 'token') {
    return [
      where,
      {
        say: `Your kubeconfig \`${file}\` (from the host) holds a token of the ServiceAccount ${ATTENDEE_SERVICE_ACCOUNT} in this cluster, ${
          auth.expirationTimestamp ? `valid until ${auth.expirationTimestamp}` : 'valid until the time the host tells you'
        }. It is a secret: whoever has the file is you here. kubectl is all you need:`,
        command: use,
      },
      { say: `When it runs out, the host mints a new one (\`${refreshCommand(env)}\`) and hands you the new file.` },
      { say: 'Check what you may do:', command: check(file, entry.context) },
    ];
  }
  if (auth.kind === 'aws') {
    return [
      where,
      {
        say: `Your kubeconfig \`${file}\` runs \`aws eks get-token\` with your own AWS credentials, as ${auth.identity}: no IAM permission needed, the cluster's access entry for you does the rest. With your credentials in a profile:`,
        command: `AWS_PROFILE=<your profile> ${use}`,
      },
      ...(auth.assumeRoleContext
        ? [
            {
              say: `If your credentials are another identity that may assume the role (its trust policy and your policy allow sts:AssumeRole), use the context ${auth.assumeRoleContext}: it adds --role-arn.`,
            },
          ]
        : []),
      { say: 'Check what you may do:', command: check(file, entry.context) },
    ];
  }
  const member = parseGcpMember(auth.identity);
  const email = isRefusal(member) ? auth.identity : member.email;
  const signIn = !isRefusal(member) && member.kind === 'serviceAccount' ? `gcloud config set auth/impersonate_service_account ${email}` : `gcloud auth login ${email}`;
  return [
    where,
    { say: `Sign in as ${email}:`, command: signIn },
    {
      say: `Your kubeconfig \`${file}\` asks gke-gcloud-auth-plugin for your Google token (\`gcloud components install gke-gcloud-auth-plugin\` if kubectl says it is missing):`,
      command: use,
    },
    { say: 'Check what you may do:', command: check(file, entry.context) },
  ];
}
