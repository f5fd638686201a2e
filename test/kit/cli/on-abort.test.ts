/** One `abort` listener per signal however many wait on it (lib/kit/cli/on-abort.ts): each wait runs once, an ended one never, and nothing stays on the signal. */
import { getEventListeners } from 'node:events';
import { onAbort } from '../../../lib/kit/cli/on-abort';

describe('one abort listener per signal, however many wait on it', () => {
  test('GIVEN 50 waits on one signal WHEN it aborts THEN one listener was on the signal, each wait runs once, and none is left', () => {
    const controller = new AbortController();
    const ran: number[] = [];
    for (let i = 0; i < 50; i += 1) onAbort(controller.signal, () => ran.push(i));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    controller.abort();
    expect([ran.length, new Set(ran).size, getEventListeners(controller.signal, 'abort')]).toEqual([50, 50, []]);
  });

  test('GIVEN waits that end before the signal aborts WHEN it aborts THEN only the others run, and a wait ended after it ran changes nothing', () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const endA = onAbort(controller.signal, () => ran.push('a'));
    const endB = onAbort(controller.signal, () => ran.push('b'));
    endA();
    endA();
    controller.abort();
    endB();
    expect(ran).toEqual(['b']);
  });

  test('GIVEN a signal already aborted WHEN waited on THEN the listener runs at once', () => {
    const ran: string[] = [];
    onAbort(AbortSignal.abort(), () => ran.push('now'));
    expect(ran).toEqual(['now']);
  });

  test('GIVEN every wait ended WHEN the signal aborts later THEN no listener was left on it', () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const ends = Array.from({ length: 20 }, (_, i) => onAbort(controller.signal, () => ran.push(String(i))));
    for (const end of ends) end();
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
    // A wait added after they all ended is the only one that runs.
    onAbort(controller.signal, () => ran.push('late'));
    controller.abort();
    expect(ran).toEqual(['late']);
  });
});
