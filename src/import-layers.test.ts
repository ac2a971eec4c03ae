/**
 * The import graph runs downwards only: a folder imports its own layer and the layers below it,
 * never one above (DESIGN.md section 9, docs/architecture.md). Tests are left out: a test may
 * compose the layers above the code it tests (a controller test builds a control plane).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Lowest first; a file belongs to the longest prefix it starts with. */
const LAYERS = ['storage/', 'api/', 'authz/', 'src/client/', 'controllers/', 'src/bootstrap/', 'src/server/', 'src/'] as const;

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

  it('has no import from a lower folder to a higher one', () => {
    expect(found).toEqual([]);
  });

  it('sees the tree (the check is not vacuous)', () => {
    expect(SOURCE_FILES.length).toBeGreaterThan(100);
    expect(importedFiles('src/server/status.ts')).toContain('api/status.ts');
    expect(layerOf('src/client/index.ts')).toBeLessThan(layerOf('controllers/runtime/informer.ts'));
    expect(layerOf('src/server/app.ts')).toBeLessThan(layerOf('src/cli.ts'));
  });
});
