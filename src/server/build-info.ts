/**
 * What `/version` reports: the Kubernetes API level we serve plus our own build. The minor
 * matters beyond display: the `kubectl` on the PATH is a dispatcher that runs `kubectl.1.<minor>`,
 * so it decides which client (and so which wire behaviour, e.g. protobuf bodies) talks to us.
 *
 * @example
 *   versionInfo({ version: '0.1.0', gitCommit: 'abc', gitTreeState: 'clean', buildDate: '2025-01-01T00:00:00Z' })
 *   // { major: '1', minor: '33', gitVersion: 'v1.33.0-kube-spaces.0.1.0', … }
 */
import { execFile } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The Kubernetes release whose API we emulate. */
export const KUBERNETES_RELEASE = { major: 1, minor: 33, patch: 0 } as const;

export interface BuildInfo {
  /** kube-spaces' own version, from package.json. */
  version: string;
  /** Empty when unknown (not a git checkout). */
  gitCommit: string;
  gitTreeState: 'clean' | 'dirty' | '';
  /** RFC 3339, seconds precision, as Kubernetes prints it. */
  buildDate: string;
}

/** Kubernetes' `version.Info`. */
export interface VersionInfo {
  major: string;
  minor: string;
  gitVersion: string;
  gitCommit: string;
  gitTreeState: string;
  buildDate: string;
  goVersion: string;
  compiler: string;
  platform: string;
}

/** Node's arch names, spelled the way Go (and so every Kubernetes client) spells them. */
const GO_ARCH: Readonly<Record<string, string>> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

export function versionInfo(build: BuildInfo): VersionInfo {
  const { major, minor, patch } = KUBERNETES_RELEASE;
  return {
    major: String(major),
    minor: String(minor),
    // A semver pre-release tag keeps the version valid for clients that parse it.
    gitVersion: `v${major}.${minor}.${patch}-kube-spaces.${build.version}`,
    gitCommit: build.gitCommit,
    gitTreeState: build.gitTreeState,
    buildDate: build.buildDate,
    goVersion: `node ${process.version}`,
    compiler: 'tsc',
    platform: `${process.platform}/${GO_ARCH[process.arch] ?? process.arch}`,
  };
}

/**
 * Reads the build facts once at start: the version from package.json, the commit from git when the
 * server runs from a checkout, and as build date the time this module was compiled.
 */
export async function readBuildInfo(): Promise<BuildInfo> {
  const modulePath = fileURLToPath(import.meta.url);
  const root = await packageRoot(dirname(modulePath));
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  const [gitCommit, gitTreeState] = await gitState(root);
  const built = await stat(modulePath);
  return { version: pkg.version, gitCommit, gitTreeState, buildDate: built.mtime.toISOString().replace(/\.\d{3}Z$/, 'Z') };
}

/** The nearest folder above `from` holding kube-spaces' package.json (src/ in tests, dist/src/ when built). */
async function packageRoot(from: string): Promise<string> {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name?: string };
      if (pkg.name === 'kube-spaces') return dir;
    } catch {
      // no package.json here: keep climbing
    }
    if (dirname(dir) === dir) throw new Error(`kube-spaces package.json not found above ${from}`);
  }
}

async function gitState(root: string): Promise<[string, BuildInfo['gitTreeState']]> {
  const run = promisify(execFile);
  try {
    const commit = (await run('git', ['rev-parse', 'HEAD'], { cwd: root })).stdout.trim();
    const changes = (await run('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: root })).stdout.trim();
    return [commit, changes === '' ? 'clean' : 'dirty'];
  } catch {
    return ['', ''];
  }
}
