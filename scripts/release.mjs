// `pnpm release`: what the next release would publish, as npm tarballs, without changing anything.
// `pnpm release --publish`: the release itself (a maintainer's step, never CI's). The dry run builds
// the last commit in a temporary worktree, applies the pending changesets there and packs every
// publishable package with pnpm (`workspace:` ranges become versions); each tarball must have no
// `workspace:` range, a CHANGELOG.md and an `engines` field. The tarballs stay in --out (default:
// release-tarballs/).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repository = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const usage = `pnpm release [--out <folder>]     packs what the next release would publish (dry run)
pnpm release --publish            versions, builds and publishes the pending changesets (maintainers)

The dry run changes nothing in this checkout: it works in a temporary worktree of the last commit
and leaves the tarballs in --out (default: release-tarballs/).`;

function parseArgs(argv) {
  const options = { publish: false, out: join(repository, 'release-tarballs') };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--publish') options.publish = true;
    else if (arg === '--out' && argv[index + 1] !== undefined) options.out = resolve(argv[++index]);
    else if (arg === '--help' || arg === '-h') {
      console.log(usage);
      process.exit(0);
    } else {
      console.error(`release: unknown argument ${arg}\n${usage}`);
      process.exit(2);
    }
  }
  return options;
}

function run(command, args, cwd, quiet = true) {
  execFileSync(command, args, { cwd, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
}

/** The workspace's publishable packages: every package.json under packages/ without `private`. */
function publishable(root) {
  return readdirSync(join(root, 'packages'))
    .map((folder) => join(root, 'packages', folder))
    .filter((folder) => existsSync(join(folder, 'package.json')))
    .map((folder) => ({
      folder,
      manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')),
    }))
    .filter(({ manifest }) => manifest.private !== true);
}

/** What is wrong with a packed tarball, as sentences; empty when it is fit to publish. */
function checkTarball(file) {
  const problems = [];
  const listing = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' }).split('\n');
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }),
  );
  for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (String(range).startsWith('workspace:'))
        problems.push(`${field}.${name} is still ${range}`);
    }
  }
  if (!listing.includes('package/CHANGELOG.md')) problems.push('no CHANGELOG.md');
  if (manifest.engines?.node === undefined) problems.push('no engines.node');
  return { manifest, problems };
}

/** Builds every publishable package; a worktree takes what this checkout's turbo cache already holds. */
function buildAll(root) {
  const filters = publishable(root).map(({ manifest }) => `--filter=${manifest.name}`);
  run(
    'pnpm',
    [
      'exec',
      'turbo',
      'run',
      'build',
      '--output-logs=errors-only',
      `--cache-dir=${join(repository, '.turbo', 'cache')}`,
      ...filters,
    ],
    root,
  );
}

function packAll(root, out) {
  mkdirSync(out, { recursive: true });
  for (const file of readdirSync(out)) if (file.endsWith('.tgz')) rmSync(join(out, file));
  for (const { folder } of publishable(root))
    run('pnpm', ['pack', '--pack-destination', out], folder);
  let failed = false;
  for (const file of readdirSync(out).filter((name) => name.endsWith('.tgz'))) {
    const { manifest, problems } = checkTarball(join(out, file));
    console.log(
      `${manifest.name}@${manifest.version}  ${file}${problems.length === 0 ? '' : `  NOT FIT: ${problems.join('; ')}`}`,
    );
    failed ||= problems.length > 0;
  }
  return !failed;
}

const options = parseArgs(process.argv.slice(2));

if (options.publish) {
  if (
    execFileSync('git', ['status', '--porcelain'], { cwd: repository, encoding: 'utf8' }).trim() !==
    ''
  ) {
    console.error('release: the work tree has uncommitted changes; commit or stash them first');
    process.exit(1);
  }
  run('pnpm', ['changeset', 'version'], repository, false);
  run('pnpm', ['install', '--lockfile-only'], repository);
  buildAll(repository);
  if (!packAll(repository, options.out)) process.exit(1);
  run('pnpm', ['changeset', 'publish'], repository, false);
  console.log(
    'Published. Commit the new versions and CHANGELOG files, and push the tags changesets made.',
  );
} else {
  const work = mkdtempSync(join(tmpdir(), 'infergate-release-'));
  const checkout = join(work, 'repository');
  try {
    run('git', ['worktree', 'add', '--detach', checkout, 'HEAD'], repository);
    console.log(
      `Dry run in a worktree of ${execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repository, encoding: 'utf8' }).trim()}: installing, versioning, building...`,
    );
    run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline'], checkout);
    // Built before versioning: no built file holds a version, and the build's inputs then match this
    // checkout's, whose cache turbo reuses.
    buildAll(checkout);
    run('pnpm', ['changeset', 'version'], checkout);
    const fit = packAll(checkout, options.out);
    console.log(
      `Tarballs in ${options.out}; try them with: npm install ${join(options.out, '*.tgz')}`,
    );
    if (!fit) process.exitCode = 1;
  } finally {
    execFileSync('git', ['worktree', 'remove', '--force', checkout], {
      cwd: repository,
      stdio: 'ignore',
    });
    rmSync(work, { recursive: true, force: true });
  }
}
