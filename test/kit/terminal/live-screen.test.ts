import { LiveScreen } from '../../../lib/kit/terminal/live-screen';

function screen() {
  const writes: string[] = [];
  return { writes, live: new LiveScreen({ isTTY: true, columns: 80, write: (t: string) => writes.push(t) }) };
}

describe('LiveScreen', () => {
  test('GIVEN a first frame WHEN drawn THEN the cursor is hidden and each line clears its rest, the screen below cleared', () => {
    const { writes, live } = screen();
    live.draw(['one', 'two']);
    expect(writes).toEqual(['\x1b[?25lone\x1b[K\ntwo\x1b[K\n\x1b[J']);
  });

  test('GIVEN a frame drawn WHEN the next is drawn THEN the cursor goes back up over the previous frame first', () => {
    const { writes, live } = screen();
    live.draw(['one', 'two', 'three']);
    live.draw(['four']);
    live.draw(['five', 'six']);
    expect(writes.slice(1)).toEqual(['\x1b[3Ffour\x1b[K\n\x1b[J', '\x1b[1Ffive\x1b[K\nsix\x1b[K\n\x1b[J']);
  });

  test('GIVEN a frame WHEN released THEN the cursor is shown again and what follows is written below', () => {
    const { writes, live } = screen();
    live.draw(['one']);
    live.release();
    live.draw(['two']);
    expect(writes).toEqual(['\x1b[?25lone\x1b[K\n\x1b[J', '\x1b[?25h', '\x1b[?25ltwo\x1b[K\n\x1b[J']);
  });
});
