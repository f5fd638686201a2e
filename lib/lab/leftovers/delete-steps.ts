/**
 * How to delete a lab by hand, for a lab no state here knows (another host's,
 * or one whose state is lost): hoplab deletes nothing it has no state for, so
 * the reaper names the commands, in the order the clouds need them. Load
 * balancers first: a controller deletes those it made while its cluster runs,
 * and a cluster deleted first leaves them (EKS: "If you have active services
 * in your cluster that are associated with a load balancer, you must delete
 * those services before deleting the cluster", and node groups before the
 * cluster, https://docs.aws.amazon.com/eks/latest/APIReference/API_DeleteCluster.html;
 * GKE: deleting a cluster only attempts to delete the load balancers it
 * created, "Deletion of these resources is not always guaranteed",
 * `gcloud container clusters delete --help`, Cloud SDK 528.0.0; both read
 * 2026-12-08). Then what the cluster's network holds, then the network (AWS:
 * the VPC console deletes a VPC's subnets, route tables, internet gateways and
 * security groups with it, https://docs.aws.amazon.com/vpc/latest/userguide/delete-vpc.html,
 * read 2026-12-08).
 */
import { APP_NAMESPACE, labNames } from '../../model/names';
import { TaggedLab } from './tagged-labs';
import { TaggedResource } from './tagged-resource';

/** One step: what it does, and its commands in order (none: a console step, said in `say`). */
export interface DeleteStep {
  readonly say: string;
  readonly commands: readonly string[];
}

type Of<K extends TaggedResource['kind']> = Extract<TaggedResource, { kind: K }>;
const ofKind = <K extends TaggedResource['kind']>(lab: TaggedLab, kind: K): Of<K>[] => lab.resources.filter((r): r is Of<K> => r.kind === kind);

/** The steps that delete `lab` (see the module's comment); empty for a lab with nothing to delete. */
export function deleteSteps(lab: TaggedLab): DeleteStep[] {
  return lab.cloud === 'aws' ? awsSteps(lab) : gcpSteps(lab);
}

function awsSteps(lab: TaggedLab): DeleteStep[] {
  const region = `--region ${lab.region}`;
  const clusters = ofKind(lab, 'eks:cluster');
  const balancers = ofKind(lab, 'elbv2:load-balancer');
  const loose = ofKind(lab, 'ec2:instance').filter((i) => !i.nodegroup || !clusters.some((c) => c.nodegroups.includes(i.nodegroup!)));
  const nats = ofKind(lab, 'ec2:nat-gateway');
  const addresses = ofKind(lab, 'ec2:elastic-ip');
  const vpcs = ofKind(lab, 'ec2:vpc');
  const steps: DeleteStep[] = [];
  for (const cluster of clusters) {
    steps.push({
      say: `load balancers first: while ${cluster.id} runs, its controller deletes those it made for namespace ${APP_NAMESPACE} (and other namespaces' Ingresses, LoadBalancer Services and Gateways: delete them too)`,
      commands: [`aws eks update-kubeconfig --name ${cluster.id} ${region}`, `kubectl delete namespace ${APP_NAMESPACE}`],
    });
  }
  if (balancers.length > 0) {
    steps.push({
      say: clusters.length > 0 ? 'then each load balancer still there (all of them, if the cluster is gone):' : 'the load balancers first:',
      commands: balancers.map(
        (lb) =>
          `aws elbv2 delete-load-balancer ${region} --load-balancer-arn "$(aws elbv2 describe-load-balancers ${region} --names ${lb.name} ` +
          `--query 'LoadBalancers[0].LoadBalancerArn' --output text)"`,
      ),
    });
  }
  for (const cluster of clusters) {
    steps.push({
      say: `the cluster ${cluster.id}: its node groups first (EKS refuses to delete a cluster that has some), then the cluster`,
      commands: [
        ...cluster.nodegroups.flatMap((group) => [
          `aws eks delete-nodegroup --cluster-name ${cluster.id} --nodegroup-name ${group} ${region}`,
          `aws eks wait nodegroup-deleted --cluster-name ${cluster.id} --nodegroup-name ${group} ${region}`,
        ]),
        `aws eks delete-cluster --name ${cluster.id} ${region}`,
        `aws eks wait cluster-deleted --name ${cluster.id} ${region}`,
      ],
    });
  }
  if (loose.length > 0) steps.push({ say: 'the instances', commands: [`aws ec2 terminate-instances ${region} --instance-ids ${loose.map((i) => i.id).join(' ')}`] });
  if (nats.length > 0) {
    const ids = nats.map((n) => n.id).join(' ');
    steps.push({
      say: 'the NAT gateways, and wait until they are gone (each holds an Elastic IP)',
      commands: [...nats.map((n) => `aws ec2 delete-nat-gateway --nat-gateway-id ${n.id} ${region}`), `aws ec2 wait nat-gateway-deleted --nat-gateway-ids ${ids} ${region}`],
    });
  }
  if (addresses.length > 0) steps.push({ say: 'the Elastic IPs', commands: addresses.map((a) => `aws ec2 release-address --allocation-id ${a.id} ${region}`) });
  for (const vpc of vpcs) {
    steps.push({
      say: `${steps.length > 0 ? 'last, ' : ''}${vpc.id} with what it still holds: VPC console (${lab.region}), Your VPCs, ${
        vpc.id
      }, Actions, Delete VPC: it deletes its subnets, route tables, internet gateway and security groups with it, and names anything else that still uses it`,
      commands: [],
    });
  }
  return steps;
}

function gcpSteps(lab: TaggedLab): DeleteStep[] {
  const project = `--project ${lab.slot.split('/')[0]}`;
  const scope = (r: TaggedResource) => (r.region === 'global' ? '--global' : `--region ${r.region}`);
  const clusters = ofKind(lab, 'gke:cluster');
  const rules = ofKind(lab, 'compute:forwarding-rule');
  const instances = ofKind(lab, 'compute:instance');
  const addresses = ofKind(lab, 'compute:address');
  const steps: DeleteStep[] = [];
  for (const cluster of clusters) {
    const where = `--location ${cluster.location} ${project}`;
    steps.push({
      say: `load balancers first: while ${cluster.id} runs, GKE's controllers delete those they made for namespace ${APP_NAMESPACE} (and other namespaces' Ingresses, LoadBalancer Services and Gateways: delete them too)`,
      commands: [`gcloud container clusters get-credentials ${cluster.id} ${where}`, `kubectl delete namespace ${APP_NAMESPACE}`],
    });
    steps.push({ say: `the cluster ${cluster.id} with its nodes`, commands: [`gcloud container clusters delete ${cluster.id} ${where} --quiet`] });
  }
  if (rules.length > 0) steps.push({ say: 'the forwarding rules', commands: rules.map((r) => `gcloud compute forwarding-rules delete ${r.id} ${scope(r)} ${project} --quiet`) });
  if (instances.length > 0) steps.push({ say: 'the instances', commands: instances.map((i) => `gcloud compute instances delete ${i.id} --zone ${i.zone} ${project} --quiet`) });
  if (addresses.length > 0) steps.push({ say: 'the reserved addresses', commands: addresses.map((a) => `gcloud compute addresses delete ${a.id} ${scope(a)} ${project} --quiet`) });
  if (clusters.length > 0 && lab.env !== '') {
    const network = labNames({ name: lab.env }).gkeCluster;
    steps.push({
      say: `last, its network, which hoplab names ${network} (networks take no labels, so the search does not list it); while its subnet, router or firewall rules use it the delete names them: delete those first`,
      commands: [`gcloud compute networks delete ${network} ${project} --quiet`],
    });
  }
  return steps;
}
