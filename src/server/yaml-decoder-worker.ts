/** The worker thread of `yaml-decoder.ts`: decodes one YAML body per message, in order. */
import { parentPort } from 'node:worker_threads';
import { decodeYaml, YamlDecodeError } from '../../api/schema/yaml-body.js';
import type { YamlReply, YamlRequest } from './yaml-decoder.js';

const port = parentPort!;
port.on('message', ({ id, text }: YamlRequest) => {
  let reply: YamlReply;
  try {
    // JSON text, not the value: cloning a large value into the main thread costs it more than
    // parsing the text (measured: ~130 ms of main-thread time for a 1.7 MB list of maps).
    const { value, duplicateFields } = decodeYaml(text);
    reply = { id, json: JSON.stringify(value) ?? 'null', duplicateFields };
  } catch (err) {
    // A body that does not decode is the client's error; anything else is ours (a 500, with its stack).
    const bad = err instanceof YamlDecodeError;
    reply = { id, error: { bad, message: bad ? err.message : err instanceof Error ? (err.stack ?? err.message) : String(err) } };
  }
  port.postMessage(reply);
});
