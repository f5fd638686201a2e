import { ExposureMode } from '../../model/modes';
import { DEMO_APP_LABELS, EXPOSURE_LABEL } from './demo-app';

/** Port every exposure's Service and load balancer listens on, on both clouds. */
export const EXPOSURE_PORT = 80;

/** Name of an exposure's Service and Ingress: `echo-native`, `echo-nodeport`, `echo-nodeport-local`. */
export function exposureObjectName(mode: ExposureMode): string {
  return `echo-${mode}`;
}

/** Labels of an exposure's Service and Ingress: the app's part-of label and `hoplab.dev/exposure: <mode>` (what `explain` looks for). */
export function exposureLabels(mode: ExposureMode): Record<string, string> {
  return { 'app.kubernetes.io/part-of': DEMO_APP_LABELS['app.kubernetes.io/part-of'], [EXPOSURE_LABEL]: mode };
}
