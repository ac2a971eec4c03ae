/**
 * `Warning` response headers as kube-apiserver's warning recorder writes them: one `299 - "text"`
 * per distinct text, only `"` and `\` escaped (Go's NewWarningHeader), texts with control
 * characters dropped, and past 4,096 runes in all every text cut to 256 runes.
 */
const TOTAL_RUNES = 4 * 1024;
const ITEM_RUNES = 256;

/** One header value, or undefined for a text Go refuses to send. UTF-8 bytes as Node writes header strings (latin1). */
function warningHeader(runes: readonly string[]): string | undefined {
  const text = runes.join('');
  if (/\p{Cc}/u.test(text)) return undefined;
  return Buffer.from(`299 - "${text.replace(/["\\]/g, '\\$&')}"`, 'utf8').toString('latin1');
}

export function warningHeaders(texts: readonly string[]): string[] {
  const seen = new Set<string>();
  const ordered: string[][] = [];
  let headers: string[] = [];
  let written = 0;
  let truncating = false;
  for (const text of texts) {
    if (text === '' || seen.has(text)) continue;
    // Once cut down and full, every later text is dropped.
    if (truncating && written >= TOTAL_RUNES) break;
    seen.add(text);
    const runes = [...text];
    ordered.push(runes);
    const kept = truncating ? runes.slice(0, ITEM_RUNES) : runes;
    const header = warningHeader(kept);
    if (header === undefined) continue;
    if (truncating || written + kept.length <= TOTAL_RUNES) {
      written += kept.length;
      headers.push(header);
      continue;
    }
    // Over the limit for the first time: start again with every text so far cut down.
    truncating = true;
    written = 0;
    headers = [];
    for (const earlier of ordered) {
      const cut = earlier.slice(0, ITEM_RUNES);
      const h = warningHeader(cut);
      if (h === undefined) continue;
      written += cut.length;
      headers.push(h);
    }
  }
  return headers;
}
