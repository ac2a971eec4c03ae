/**
 * Runs docs/getting-started.md as a new user would: its first `sh` block (`kube-spaces serve …`)
 * as the server, with the page's flags, in a fresh working directory; then every other `sh` block
 * in order, in one bash with `set -e` (as the reader's second shell), in that directory, with `kube-spaces` on the PATH and the stock
 * kubectl. The harness gives the server a free port (the page's later commands read it from the
 * admin kubeconfig the server writes), so the test never collides with another server.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlForTests } from './harness/kubectl.js';
import { CLI_PATH, REPO_ROOT, startServer, type ServerProcess } from './harness/server.js';

const PAGE = join(REPO_ROOT, 'docs/getting-started.md');
const BLOCK_TIMEOUT_MS = 180_000;

/** The page's `sh` blocks, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

function runBlock(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `set -euo pipefail\n${script}`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), BLOCK_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const kubectl = kubectlForTests();

describe.skipIf(kubectl === undefined)('docs/getting-started.md', () => {
  const blocks = shellBlocks(readFileSync(PAGE, 'utf8'));
  let cwd: string;
  let server: ServerProcess | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), 'kube-spaces-getting-started-'));
    const bin = join(cwd, '.bin');
    await runBlock(`mkdir -p ${JSON.stringify(bin)}`, cwd, process.env);
    // What `npm link` would put on the PATH: the built CLI.
    await writeFile(join(bin, 'kube-spaces'), `#!/bin/sh\nexec node ${JSON.stringify(CLI_PATH)} "$@"\n`);
    await chmod(join(bin, 'kube-spaces'), 0o755);
    env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: cwd };
    delete env.KUBECONFIG;
  });

  afterAll(async () => {
    await server?.cleanup();
    if (cwd) await rm(cwd, { recursive: true, force: true });
  });

  it('starts the server as the page says', async () => {
    const serve = blocks[0]!.trim().split(/\s+/);
    expect(serve.slice(0, 2)).toEqual(['kube-spaces', 'serve']);
    // The page's flags, its default data dir (./.kube-spaces in the working directory); the harness picks the port and keeps the PID.
    server = await startServer({ dataDir: join(cwd, '.kube-spaces'), extraArgs: serve.slice(2) });
  });

  it('runs every other block of the page in order, in one shell', async () => {
    expect(blocks.length).toBeGreaterThan(4);
    // One shell, as the reader's second one: a block's `export` holds for the next.
    const script = blocks
      .slice(1)
      .map((block, i) => `echo '### block ${i + 2}'\n${block}`)
      .join('\n');
    const { code, output } = await runBlock(script, cwd, env);
    expect(code, output).toBe(0);
  });

  it('leaves a tenant running the workload, apart from other spaces', async () => {
    const all = await runBlock('kubectl --kubeconfig all-spaces.kubeconfig get deployments -A', cwd, env);
    expect(all.output).toMatch(/^NAMESPACE\s+TENANT\s+NAME\s+READY/m);
    expect(all.output, all.output).toMatch(/^default\s+acme\s+web\s+2\/2/m);
    const own = await runBlock('kubectl --kubeconfig .kube-spaces/admin.kubeconfig get deployments -A', cwd, env);
    expect(own.output).not.toMatch(/\bweb\b/);
    const denied = await runBlock('kubectl --kubeconfig acme-admin.kubeconfig get tenants', cwd, env);
    expect(denied.code).toBe(1);
    expect(denied.output).toBe('error: the server doesn\'t have a resource type "tenants"\n');
  });
});
