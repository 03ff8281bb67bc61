import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './repository-root.js';

// A reader of the repository can follow every reference: design decisions are in docs/design.md,
// not in a file or folder outside it.
const outsideReferences = [
  /\b[Ii]ssue \d+\b/,
  /\bprotocols \d+\.\d+/,
  /\bDESIGN\.md\b/,
  /\bshared\/ref\//,
  /\bprotocols\.md\b/,
  /\bfault-matrix\.md\b/,
];

describe('the repository stands alone', () => {
  it('no tracked file points to a design document or folder outside the repository', () => {
    const root = repositoryRoot();
    const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      .filter(Boolean);
    const found: string[] = [];
    for (const file of tracked) {
      if (
        file.endsWith('CHANGELOG.md') ||
        file === 'packages/core/test/repository-stands-alone.node.test.ts'
      )
        continue;
      let text: string;
      try {
        text = readFileSync(join(root, file), 'utf8');
      } catch {
        continue;
      }
      text.split('\n').forEach((line, index) => {
        if (outsideReferences.some((pattern) => pattern.test(line)))
          found.push(`${file}:${index + 1}: ${line.trim().slice(0, 120)}`);
      });
    }
    expect(found).toEqual([]);
  });
});
