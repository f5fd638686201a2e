/** Versions hoplab is tested against: EKS releases and the AWS Load Balancer Controller charts whose IAM policy it ships. */
/** EKS Kubernetes versions hoplab is tested against. */
export const EKS_VERSIONS = ['1.31', '1.32', '1.33', '1.34', '1.35'] as const;

/** AWS Load Balancer Controller Helm chart versions whose IAM policy hoplab ships. */
export const LB_CONTROLLER_CHART_VERSIONS = ['3.5.0'] as const;
