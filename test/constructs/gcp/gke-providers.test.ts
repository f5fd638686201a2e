import { DataGoogleClientConfig } from '@cdktf/provider-google/lib/data-google-client-config';
import { GoogleProvider } from '@cdktf/provider-google/lib/provider';
import { KubernetesProvider } from '@cdktf/provider-kubernetes/lib/provider';
import { gcpLabelValue, GKE_AUTH_PLUGIN_EXEC, GkeProviders, GkeProvidersProps, labGoogleProvider } from '../../../lib/constructs/gcp/gke-providers';
import { synthScope } from '../../support/synth';

const PROPS: GkeProvidersProps = { endpoint: '34.1.2.3', caCertificate: '-----BEGIN CERTIFICATE-----', project: 'hoplab-demo', region: 'us-central1' };
const synth = (props: Partial<GkeProvidersProps> = {}) => synthScope((scope) => new GkeProviders(scope, 'providers', { ...PROPS, ...props }));

describe('GkeProviders', () => {
  test('GIVEN the default credentials WHEN synthesized THEN kubernetes runs gke-gcloud-auth-plugin with ADC and no token or google provider is involved', () => {
    const { json, parsed } = synth();
    expect(parsed.provider).toEqual({
      kubernetes: [
        {
          host: 'https://34.1.2.3',
          cluster_ca_certificate: '-----BEGIN CERTIFICATE-----',
          exec: [{ api_version: 'client.authentication.k8s.io/v1beta1', command: 'gke-gcloud-auth-plugin', args: ['--use_application_default_credentials'] }],
        },
      ],
    });
    expect(json).not.toHaveDataSource(DataGoogleClientConfig);
    expect(GKE_AUTH_PLUGIN_EXEC.command).toBe('gke-gcloud-auth-plugin');
  });

  test('GIVEN access-token credentials WHEN synthesized THEN kubernetes uses the google provider token from data google_client_config', () => {
    const { json, parsed } = synth({ credentials: 'access-token', labels: { 'hoplab-env': 'lab' } });
    expect(json).toHaveDataSource(DataGoogleClientConfig);
    const [clientId] = Object.keys(parsed.data?.google_client_config ?? {});
    expect(parsed.provider?.kubernetes).toEqual([{ host: 'https://34.1.2.3', cluster_ca_certificate: '-----BEGIN CERTIFICATE-----', token: `\${data.google_client_config.${clientId}.access_token}` }]);
    expect(json).toHaveProviderWithProperties(GoogleProvider, { project: 'hoplab-demo', region: 'us-central1', default_labels: { 'hoplab-env': 'lab' } });
    expect(json).toHaveProviderWithProperties(KubernetesProvider, { host: 'https://34.1.2.3' });
  });
});

describe('labGoogleProvider', () => {
  test('GIVEN labels with hyphens WHEN synthesized THEN their keys stay as written (cdktf would snake_case a provider map)', () => {
    const { parsed } = synthScope((scope) => {
      labGoogleProvider(scope, 'google', { project: 'hoplab-demo', region: 'europe-west1', labels: { 'hoplab-env': 'lab', 'managed-by': 'hoplab' } });
    });
    expect(parsed.provider?.google).toEqual([{ project: 'hoplab-demo', region: 'europe-west1', default_labels: { 'hoplab-env': 'lab', 'managed-by': 'hoplab' } }]);
  });

  test.each([
    ['2026-12-01T18:00:00Z', '2026-12-01t18-00-00z'],
    ['Alice@Example.com', 'alice-example-com'],
    ['x'.repeat(70), 'x'.repeat(63)],
    ['lab-gcp-cluster', 'lab-gcp-cluster'],
  ])('GIVEN label value %s WHEN made a GCP label THEN it is %s', (value, label) => {
    expect(gcpLabelValue(value)).toBe(label);
  });

  test('GIVEN a label value GCP would reject WHEN synthesized THEN the provider gets the valid form', () => {
    const { parsed } = synthScope((scope) => {
      labGoogleProvider(scope, 'google', { project: 'hoplab-demo', region: 'europe-west1', labels: { 'hoplab-expires': '2026-12-01T18:00:00Z' } });
    });
    expect(parsed.provider?.google[0].default_labels).toEqual({ 'hoplab-expires': '2026-12-01t18-00-00z' });
  });

  test('GIVEN no labels WHEN synthesized THEN no default_labels are written', () => {
    const { parsed } = synthScope((scope) => {
      labGoogleProvider(scope, 'google', { project: 'hoplab-demo', region: 'europe-west1' });
    });
    expect(parsed.provider?.google).toEqual([{ project: 'hoplab-demo', region: 'europe-west1' }]);
  });
});
