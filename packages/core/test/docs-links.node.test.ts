import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from './repository-root.js';

const root = repositoryRoot();

function markdownFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? markdownFiles(path) : name.endsWith('.md') ? [path] : [];
  });
}

// Code blocks and inline code show link syntax as text; only the prose's links are followed.
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] as string,
  );
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(
    (match) => match[1] as string,
  );
  return [...inline, ...references];
}

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const match of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = (match[1] as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const seen = counts.get(slug) ?? 0;
    counts.set(slug, seen + 1);
    anchors.add(seen === 0 ? slug : `${slug}-${seen}`);
  }
  return anchors;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

const pages = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

describe('links in README.md and docs/', () => {
  it('finds the pages to check', () => {
    expect(existsSync(join(root, 'README.md'))).toBe(true);
    expect(pages.length).toBeGreaterThan(1);
  });

  it.each(pages.map((page) => [relative(root, page), page]))(
    '%s: every relative link reaches a file, and its anchor a heading',
    (_name, page) => {
      const broken: string[] = [];
      for (const target of linkTargets(readFileSync(page, 'utf8'))) {
        if (isExternal(target)) continue;
        const [path = '', anchor] = target.split('#');
        const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
        if (!file.startsWith(root) || !existsSync(file)) {
          broken.push(`${target}: no such file`);
          continue;
        }
        if (
          anchor !== undefined &&
          anchor !== '' &&
          file.endsWith('.md') &&
          !anchorsOf(readFileSync(file, 'utf8')).has(anchor)
        )
          broken.push(`${target}: no heading with this anchor`);
      }
      expect(broken).toEqual([]);
    },
  );
});
