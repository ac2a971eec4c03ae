/**
 * Decodes a YAML request body in time linear in its size. The `yaml` package's own duplicate-key
 * check compares every key with every other (20,000 keys took seconds), so it is off and one walk
 * over the parsed nodes finds duplicates with a set per mapping, reported as `duplicate field
 * "<path>"` like JSON's (fieldValidation decides). The same walk bounds nesting
 * (`MAX_BODY_DEPTH`, as for JSON) and what aliases may add: no more nodes than the document
 * itself holds (plus `ALIAS_ALLOWANCE`), so a billion laughs is refused before it is expanded,
 * and the keys of one mapping (`MAX_OBJECT_KEYS`, as for JSON).
 *
 * @example
 *   decodeYaml('metadata:\n  name: a\n  name: b\n')
 *   // { value: { metadata: { name: 'b' } }, duplicateFields: ['metadata.name'] }
 */
import { Composer, isAlias, isMap, isPair, isScalar, isSeq, Lexer, LineCounter, Parser, type Document, type Node, type CST, type YAMLMap, type YAMLSeq } from 'yaml';
import { MAX_BODY_DEPTH, MAX_OBJECT_KEYS, tooManyKeysMessage } from './json-syntax.js';

/** Nodes aliases may add to a small document whatever its own size. */
export const ALIAS_ALLOWANCE = 10_000;

export interface DecodedYaml {
  value: unknown;
  duplicateFields: string[];
}

/** A YAML body that does not decode; the message is the client's to read. */
export class YamlDecodeError extends Error {}

interface Frame {
  node: YAMLMap | YAMLSeq;
  path: string;
  depth: number;
  index: number;
  /** Nodes below, aliases expanded. */
  size: number;
  keys: Set<string> | undefined;
}

export function decodeYaml(text: string): DecodedYaml {
  const doc = composeFirstDocument(text);
  const error = doc.errors[0];
  if (error) throw new YamlDecodeError(`yaml: line ${error.linePos?.[0].line ?? 1}: ${error.message}`);
  const duplicateFields = inspect(doc);
  // The walk bounded the expansion; the package's own alias count would refuse sound documents.
  return { value: doc.toJS({ maxAliasCount: -1 }), duplicateFields };
}

const depthError = (): YamlDecodeError => new YamlDecodeError(`yaml: exceeded max depth of ${MAX_BODY_DEPTH}`);

/**
 * The first document (Go's YAML decoder reads no further). Lexer and parser are iterative; the
 * composer recurses once per level, and near the end of the stack V8 can fail fatally (a regular
 * expression compiled there aborts the process), so nesting is refused from the parser's stack
 * (one entry per open collection, plus the document) before anything is composed.
 */
function composeFirstDocument(text: string): Document {
  const lines = new LineCounter();
  lines.addNewLine(0); // as Parser.parse() does: line 1 starts at offset 0
  const parser = new Parser(lines.addNewLine);
  const composer = new Composer({ uniqueKeys: false });
  const docs: Document[] = [];
  const compose = (tokens: Iterable<CST.Token>): void => {
    for (const token of tokens) if (docs.length === 0) docs.push(...(composer.next(token) as Iterable<Document>));
  };
  for (const lexeme of new Lexer().lex(text)) {
    compose(parser.next(lexeme));
    if (parser.stack.length > MAX_BODY_DEPTH + 1) throw depthError();
  }
  compose(parser.end());
  if (docs.length === 0) docs.push(...(composer.end(true, text.length) as Iterable<Document>));
  const doc = docs[0]!;
  for (const error of doc.errors) error.linePos = [lines.linePos(error.pos[0])];
  return doc;
}

function keyText(key: unknown): string {
  if (isScalar(key)) return key.value === null ? '' : String(key.value);
  return String(key);
}

/** Duplicate keys by path; throws when nesting or alias expansion goes past the bounds. */
function inspect(doc: Document): string[] {
  const duplicates: string[] = [];
  const root = doc.contents;
  if (!isMap(root) && !isSeq(root)) return duplicates;
  // Expanded sizes of finished collections and the latest node of each anchor, in document order.
  const sizes = new Map<Node, number>();
  const anchors = new Map<string, Node>();
  let literal = 0;
  const frame = (node: YAMLMap | YAMLSeq, path: string, depth: number): Frame => {
    if (depth > MAX_BODY_DEPTH) throw depthError();
    if (node.anchor) anchors.set(node.anchor, node);
    literal += 1;
    return { node, path, depth, index: 0, size: 1, keys: isMap(node) ? new Set() : undefined };
  };
  const stack: Frame[] = [frame(root, '', 1)];
  let result = 0;
  while (stack.length > 0) {
    const top = stack.at(-1)!;
    const items = top.node.items as unknown[];
    if (top.index === items.length) {
      stack.pop();
      sizes.set(top.node, top.size);
      if (stack.length > 0) stack.at(-1)!.size += top.size;
      else result = top.size;
      continue;
    }
    const item = items[top.index];
    let child: unknown = item;
    let childPath = `${top.path}[${top.index}]`;
    top.index += 1;
    if (top.keys && isPair(item)) {
      const key = keyText(item.key);
      childPath = top.path === '' ? key : `${top.path}.${key}`;
      if (top.keys.has(key)) duplicates.push(childPath);
      else if (top.keys.size === MAX_OBJECT_KEYS) throw new YamlDecodeError(`yaml: ${tooManyKeysMessage(top.path)}`);
      else top.keys.add(key);
      child = item.value;
    }
    if (isMap(child) || isSeq(child)) {
      stack.push(frame(child, childPath, top.depth + 1));
    } else if (isAlias(child)) {
      const target = anchors.get(child.source);
      // An alias of an enclosing collection (not finished yet) would expand forever.
      const size = target === undefined ? 1 : isScalar(target) ? 1 : sizes.get(target);
      if (size === undefined) throw new YamlDecodeError('yaml: document contains excessive aliasing');
      top.size += size;
    } else {
      if (isScalar(child) && child.anchor) anchors.set(child.anchor, child);
      literal += 1;
      top.size += 1;
    }
  }
  if (result - literal > Math.max(literal, ALIAS_ALLOWANCE)) throw new YamlDecodeError('yaml: document contains excessive aliasing');
  return duplicates;
}
