import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the README and of docs/ leads somewhere: the file or directory exists and, for a
 * link into a Markdown file, its #anchor is one of that file's headings (as GitHub makes their ids).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith('.md') ? [file] : [];
  });
}

/** The page's text without fenced code blocks and inline code, where brackets are not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1] ?? '');
}

/** GitHub's heading ids: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const [, heading = ''] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    ids.add(count === 0 ? base : `${base}-${count}`);
  }
  return ids;
}

const pages = [path.join(ROOT, 'README.md'), ...markdownFiles(path.join(ROOT, 'docs'))];

describe('links of the README and docs/', () => {
  it.each(pages.map((page) => [path.relative(ROOT, page), page]))('%s links to what exists', (_name, page) => {
    const markdown = readFileSync(page, 'utf8');
    const broken: string[] = [];
    for (const link of links(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto: and the like
      const [target = '', anchor] = link.split('#');
      const file = target === '' ? page : path.resolve(path.dirname(page), decodeURIComponent(target));
      if (!existsSync(file)) {
        broken.push(`${link} (no such file)`);
        continue;
      }
      if (anchor && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reads the README and the pages of docs/', () => {
    expect(pages.length).toBeGreaterThan(30);
  });
});
