/**
 * The published package: `npm pack` holds every file the `kube-spaces/client` and
 * `kube-spaces/runtime` exports load (code and declarations), and a built file imports them by
 * the package's name (Node resolves a package's own name through its `exports`), in JavaScript
 * and in TypeScript against the declarations alone. Needs `npm run build` first.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './harness/server.js';

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  private?: boolean;
  exports: Record<string, { types: string; default: string } | string>;
};
const entryPoints = Object.entries(manifest.exports).flatMap(([name, target]) => (typeof target === 'string' ? [] : [{ name: `kube-spaces${name.slice(1)}`, ...target }]));
/** A scratch folder inside the package (so its name resolves), in the build output. */
const SCRATCH = join(REPO_ROOT, 'dist/.package-test');

/** Every file a module loads through relative imports, itself included (a declaration file's `./x.js` is `./x.d.ts`). */
function importClosure(entry: string): string[] {
  const seen = new Set<string>();
  const pending = [resolve(REPO_ROOT, entry)];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), specifier!);
      pending.push(file.endsWith('.d.ts') ? target.replace(/\.js$/, '.d.ts') : target);
    }
  }
  return [...seen].map((file) => relative(REPO_ROOT, file));
}

describe('the kube-spaces package', () => {
  afterAll(() => rm(SCRATCH, { recursive: true, force: true }));

  it('is publishable, with entry points for the client and the runtime', () => {
    expect(manifest.private).toBeUndefined();
    expect(entryPoints.map((e) => e.name)).toEqual(['kube-spaces/client', 'kube-spaces/runtime']);
  });

  it('packs every file the entry points load, code and declarations, and no source maps', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT });
    const packed = new Set((JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path));
    const needed = entryPoints.flatMap((e) => [...importClosure(e.default), ...importClosure(e.types)]);
    expect(needed.length).toBeGreaterThan(40);
    expect(needed.filter((file) => !packed.has(file))).toEqual([]);
    expect([...packed].filter((file) => file.endsWith('.map'))).toEqual([]);
    expect(packed.has('dist/src/cli.js')).toBe(true); // the `kube-spaces` bin
  });

  it('is imported by its name from a built JavaScript file', async () => {
    await mkdir(SCRATCH, { recursive: true });
    const consumer = join(SCRATCH, 'consumer.mjs');
    await writeFile(
      consumer,
      [
        "import { KubeClient, configMaps, keyString, isNotFound } from 'kube-spaces/client';",
        "import { WorkQueue } from 'kube-spaces/runtime';",
        'const queue = new WorkQueue();',
        "queue.add({ tenant: 't1', namespace: 'default', name: 'a' });",
        'const key = await queue.get();',
        'console.log(JSON.stringify({ client: typeof KubeClient, resource: configMaps.resource, key: keyString(key), isNotFound: typeof isNotFound }));',
      ].join('\n'),
    );
    const { stdout } = await run(process.execPath, [consumer], { cwd: SCRATCH });
    expect(JSON.parse(stdout)).toEqual({ client: 'function', resource: 'configmaps', key: 't1/default/a', isNotFound: 'function' });
  });

  it('types a TypeScript consumer from the declarations alone', async () => {
    await mkdir(SCRATCH, { recursive: true });
    expect(existsSync(join(REPO_ROOT, 'dist/src/client/index.d.ts'))).toBe(true);
    const consumer = join(SCRATCH, 'consumer.ts');
    await writeFile(
      consumer,
      [
        "import { KubeClient, configMaps, pods, type ConfigMap, type WatchEvent } from 'kube-spaces/client';",
        "import { WorkQueue } from 'kube-spaces/runtime';",
        'export async function summarize(client: KubeClient): Promise<number> {',
        '  const { items } = await client.allSpaces().resource(configMaps).listAll();',
        "  const first: ConfigMap | undefined = items[0];",
        "  const events: WatchEvent<ConfigMap>[] = [];",
        "  new WorkQueue().add({ tenant: first?.metadata.tenant ?? 'system', namespace: 'default', name: 'x' });",
        '  return items.length + events.length;',
        '}',
        // The kind types generated from the schemas: a field the server's hand-written Pod leaves out.
        'export async function readOnlyRoot(client: KubeClient): Promise<boolean | undefined> {',
        "  const pod = await client.space('t1').namespace('a').resource(pods).get('p');",
        '  return pod.spec?.containers[0]?.securityContext?.readOnlyRootFilesystem;',
        '}',
      ].join('\n'),
    );
    const compilerOptions = { noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'] };
    await writeFile(join(SCRATCH, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['consumer.ts'] }));
    const tsc = join(REPO_ROOT, 'node_modules/.bin/tsc');
    const args = ['-p', SCRATCH];
    const result = await run(tsc, args, { cwd: SCRATCH }).then(
      () => 'typed',
      (err: { stdout: string }) => err.stdout,
    );
    expect(result).toBe('typed');
  });
});
