/**
 * Finds keys that appear twice in one JSON object of a request body. JSON.parse keeps the last
 * value silently; kube-apiserver's strict decoder reports each as `duplicate field "<path>"`
 * (400 under fieldValidation=Strict, a warning under Warn). One pass over the text, allocating a
 * key set only per object. The text is valid JSON (`jsonSyntaxError` passed it first).
 *
 * @example
 *   duplicateFields('{"metadata":{"name":"a","name":"b"}}') // ['metadata.name']
 */
export function duplicateFields(text: string): string[] {
  const found: string[] = [];
  // One frame per open container: for objects the keys seen and the key being read.
  const stack: Array<{ keys: Set<string> | undefined; key: string; index: number }> = [];
  const path = (): string =>
    stack
      .map((f, i) => (f.keys ? (i === 0 ? f.key : `.${f.key}`) : `[${f.index}]`))
      .join('');
  let expectKey = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const frame = stack.at(-1);
      if (expectKey && frame?.keys) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        frame.key = key;
        if (frame.keys.has(key)) found.push(path());
        else frame.keys.add(key);
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({ keys: new Set(), key: '', index: 0 });
      expectKey = true;
    } else if (c === '[') {
      stack.push({ keys: undefined, key: '', index: 0 });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const frame = stack.at(-1);
      if (frame?.keys) expectKey = true;
      else if (frame) frame.index += 1;
    }
  }
  return found;
}
