import { describe, expect, it } from 'vitest';
import { decodeJsonBody, JSON_INLINE_LIMIT, parseInOwnTurn } from './body-decoder.js';

/** Counts event-loop turns: an immediate queued from an immediate's callback runs in the next turn. */
function turnCounter(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = (): void => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { now: () => turn, stop: () => (running = false) };
}

describe('body decoding', () => {
  it('parses large bodies one per event-loop turn', async () => {
    const turns = turnCounter();
    const texts = ['[1]', '{"a":2}', '"x"'];
    const parsedIn = await Promise.all(texts.map(async (text) => [await parseInOwnTurn(text), turns.now()] as const));
    turns.stop();
    expect(parsedIn.map(([value]) => value)).toEqual([[1], { a: 2 }, 'x']);
    const distinct = new Set(parsedIn.map(([, turn]) => turn));
    expect(distinct.size).toBe(3);
  });

  it('scans and parses a large body off the inline path, and refuses what the scan refuses', async () => {
    const big = JSON.stringify({ items: Array.from({ length: JSON_INLINE_LIMIT / 8 }, (_, i) => i) });
    expect((await decodeJsonBody(big)).value).toEqual(JSON.parse(big));
    const bad = await decodeJsonBody(`${big.slice(0, -1)},`);
    expect(bad.error).toBe('unexpected end of JSON input');
    expect(bad.value).toBeUndefined();
    expect(await decodeJsonBody('{"a":1,"a":2}')).toEqual({ error: undefined, duplicateFields: ['a'], value: { a: 2 } });
  });
});
