/**
 * Shuffle sharding, as kube-apiserver's `shufflesharding.Dealer`: a flow's hash deals it a hand of
 * distinct queues out of a deck, always the same hand for the same flow, so two heavy flows rarely
 * share every queue. The request then joins the shortest queue of its hand.
 *
 * @example
 *   const hand = new Int32Array(6);
 *   dealHand(flowHash('global-default', 't1'), 128, 6, hand); // six distinct queue indexes < 128
 */

/**
 * A 52-bit hash of a flow (schema name and distinguisher), from two 32-bit FNV-1a passes with
 * different offsets: enough entropy for a hand of 6 out of 128 (42 bits), exact in a double, and
 * no allocation (a BigInt FNV-64 would allocate per request).
 */
export function flowHash(schema: string, distinguisher: string): number {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (const text of [schema, distinguisher]) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x01000193);
    }
    // A separator, so ('ab', 'c') and ('a', 'bc') differ.
    a = Math.imul(a ^ 0xff, 0x01000193);
    b = Math.imul(b ^ 0xff, 0x01000193);
  }
  return (a >>> 0) * 2 ** 20 + (b >>> 12);
}

/**
 * Deals `handSize` distinct card indexes out of `deckSize` into `hand`, from `hash` alone. Each
 * draw takes the hash modulo the cards left, then skips the cards already dealt (kube's Dealer
 * does the same), so the hand has no repeats.
 */
export function dealHand(hash: number, deckSize: number, handSize: number, hand: Int32Array): void {
  let rest = hash;
  for (let i = 0; i < handSize; i++) {
    const left = deckSize - i;
    hand[i] = skipDealt(rest % left, hand, i);
    rest = Math.floor(rest / left);
  }
}

/** The `card`-th index among those not in hand[0..dealt). */
function skipDealt(card: number, hand: Int32Array, dealt: number): number {
  let result = card;
  // Walk up: every dealt card at or below the candidate pushes it one further.
  for (;;) {
    let below = 0;
    for (let k = 0; k < dealt; k++) if (hand[k]! <= result) below++;
    if (card + below === result) return result;
    result = card + below;
  }
}
