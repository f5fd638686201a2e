/**
 * The one AWS SDK client set-up (lib/kit/aws/aws-clients.ts): real AWS with the
 * default credential chain, or an emulator with dummy credentials; and the SDK's
 * Node 22 notice dropped, every other warning kept.
 */
import { STSClient } from '@aws-sdk/client-sts';
import { awsClientConfig, EMULATOR_CREDENTIALS } from '../../../lib/kit/aws/aws-clients';

describe('awsClientConfig', () => {
  test('GIVEN a region THEN the SDK finds credentials itself, with two attempts a call', () => {
    expect(awsClientConfig({ region: 'eu-west-1' })).toEqual({ region: 'eu-west-1', maxAttempts: 2 });
    expect(awsClientConfig({ region: 'eu-west-1', maxAttempts: 1 })).toEqual({ region: 'eu-west-1', maxAttempts: 1 });
  });

  test('GIVEN an emulator endpoint THEN the clients talk to it with dummy credentials', async () => {
    const config = awsClientConfig({ region: 'us-east-1', endpoint: 'http://127.0.0.1:5000' });
    expect(config).toEqual({ region: 'us-east-1', maxAttempts: 2, endpoint: 'http://127.0.0.1:5000', credentials: EMULATOR_CREDENTIALS });
    // What a client makes of it.
    const sts = new STSClient(config);
    expect(await sts.config.credentials()).toMatchObject(EMULATOR_CREDENTIALS);
    expect(await sts.config.endpoint?.()).toMatchObject({ hostname: '127.0.0.1', port: 5000, protocol: 'http:' });
    sts.destroy();
  });

  test("GIVEN the SDK's notice that it will need Node 22 WHEN emitted THEN it is dropped, and other warnings are not", () => {
    const saved = process.emitWarning;
    const emitted = jest.fn();
    process.emitWarning = emitted as unknown as typeof process.emitWarning;
    try {
      // Loaded afresh, it wraps what process.emitWarning is now.
      jest.isolateModules(() => jest.requireActual('../../../lib/kit/aws/aws-clients'));
      process.emitWarning('NodeVersionSupportWarning: The AWS SDK for JavaScript (v3) versions published after the first week of January 2027 will need Node.js 22');
      process.emitWarning(new Error('The AWS SDK for JavaScript (v3) will need Node.js 22'));
      process.emitWarning('something else', 'Warning');
      expect(emitted.mock.calls).toEqual([['something else', 'Warning']]);
    } finally {
      process.emitWarning = saved;
    }
  });
});
