/**
 * The import graph runs downwards only: a folder imports its own layer and the layers below it,
 * never one above (DESIGN.md section 9, docs/architecture.md). Tests are left out: a test may
 * compose the layers above the code it tests (a controller test builds a control plane).
 * Known upward imports are listed with the reason they are still there; the list may only
 * shrink, so an entry whose import is gone fails the test until it is removed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Lowest first; a file belongs to the longest prefix it starts with. */
const LAYERS = ['storage/', 'api/', 'authz/', 'src/client/', 'controllers/', 'src/bootstrap/', 'src/server/', 'src/'] as const;

/** `from → to` import arrows still running upwards (issue 13, part 5). */
const KNOWN_UPWARD_IMPORTS = new Set([
  // api/kinds and authz import each other: identities and access decisions are authz types that
  // the review kinds and the generic store's admission hooks need.
  'api/kinds/authentication/user-info.ts → authz/user.ts',
  'api/kinds/authorization/access-attributes.ts → authz/authorize.ts',
  'api/kinds/authorization/testing.ts → authz/authorize.ts',
  'api/kinds/authorization/testing.ts → authz/user.ts',
  'api/registry/generic-store.ts → authz/user.ts',
  'api/registry/resource-definition.ts → authz/user.ts',
  'api/registry/resource-definition.ts → authz/authorize.ts',
]);

function layerOf(file: string): number {
  let best = -1;
  for (const [index, prefix] of LAYERS.entries()) {
    if (file.startsWith(prefix) && (best === -1 || prefix.length > LAYERS[best]!.length)) best = index;
  }
  return best;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Relative module specifiers of static imports, re-exports and dynamic imports. */
function importedFiles(file: string): string[] {
  const text = readFileSync(join(REPO_ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]!);
  return specifiers.map((spec) => relative(REPO_ROOT, resolve(REPO_ROOT, dirname(file), spec)).replace(/\.js$/, '.ts'));
}

const SOURCE_FILES = ['storage', 'api', 'authz', 'controllers', 'src'].flatMap(sourceFiles);

function upwardImports(): string[] {
  return SOURCE_FILES.flatMap((file) =>
    importedFiles(file)
      .filter((target) => layerOf(target) > layerOf(file))
      .map((target) => `${file} → ${target}`),
  );
}

describe('import layers', () => {
  const found = upwardImports();

  it('has no import from a lower folder to a higher one, but the known ones', () => {
    expect(found.filter((arrow) => !KNOWN_UPWARD_IMPORTS.has(arrow))).toEqual([]);
  });

  it('lists no known upward import that is gone', () => {
    expect([...KNOWN_UPWARD_IMPORTS].filter((arrow) => !found.includes(arrow))).toEqual([]);
  });

  it('sees the tree (the check is not vacuous)', () => {
    expect(SOURCE_FILES.length).toBeGreaterThan(100);
    expect(importedFiles('src/server/status.ts')).toContain('api/status.ts');
    expect(layerOf('src/client/index.ts')).toBeLessThan(layerOf('controllers/runtime/informer.ts'));
    expect(layerOf('src/server/app.ts')).toBeLessThan(layerOf('src/cli.ts'));
  });
});
