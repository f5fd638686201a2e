/** The namespace of the demo app and its exposures on both clouds; attendees may change things in it. */
export const APP_NAMESPACE = 'hoplab';

/** The demo app's Deployment in that namespace (DemoApp); exercises scale it and roll it out. */
export const DEMO_DEPLOYMENT = 'echo';

/** Stack and cluster names derived from the environment name. These are a contract: renaming one recreates cloud resources. */
export function labNames(config: { readonly name: string }) {
  const env = config.name;
  return {
    awsClusterStack: `${env}-aws-cluster`,
    awsLbStack: `${env}-aws-lb`,
    gcpClusterStack: `${env}-gcp-cluster`,
    gcpLbStack: `${env}-gcp-lb`,
    eksCluster: `${env}-eks`,
    gkeCluster: `${env}-gke`,
    /** The Cloud Armor policy of the GKE Ingress and Gateway when `app.allowedSourceCidrs` is narrowed. */
    gkeSecurityPolicy: `${env}-gke-sources`,
  };
}
