// The docs answer first and their links hold (docs/decisions/0260-docs-answer-first.md): the
// benchmarks page stays a short table, every relative link and every `docs/….md` path named in the
// docs, the READMEs or a code comment points at a file (and a heading) that exists, the decision
// index lists every decision, and nothing cites a style guide outside the repository.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** Tracked and new files (not ignored ones), repository-relative. */
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f !== '' && fs.existsSync(path.join(root, f)));
const markdown = files.filter((f) => f.endsWith('.md') && (f.startsWith('docs/') || /^(packages\/[^/]+\/|apps\/[^/]+\/)?README\.md$/.test(f)));
const code = files.filter((f) => /\.(ts|tsx|mjs|cjs|js|sh)$/.test(f) && /^(apps|packages|bench|scripts)\/|^[^/]+\.(js|cjs|ts)$/.test(f));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_~]/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorCache = new Map<string, Set<string>>();
/** The anchors of a markdown file's headings, numbered as GitHub numbers repeats. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of read(file).split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1] ?? '');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** The markdown links of a file, outside code blocks and spans. */
function linksOf(file: string): string[] {
  const text = read(file)
    .replace(/```[\s\S]*?```/g, '')
    .replace(/`[^`\n]*`/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] ?? '');
}

describe('docs', () => {
  it('docs/benchmarks.md opens with its table and stays under 150 lines', () => {
    const lines = read('docs/benchmarks.md').split('\n').length;
    expect(lines).toBeLessThan(150);
  });

  it('every relative link in the docs and READMEs resolves, to the heading too', () => {
    const broken: string[] = [];
    for (const file of markdown) {
      for (const link of linksOf(file)) {
        if (/^[a-z]+:/i.test(link) || link.startsWith('//')) continue;
        const [target, anchor] = link.split('#') as [string, string | undefined];
        const resolved = target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(target)));
        if (!fs.existsSync(path.join(root, resolved))) {
          broken.push(`${file}: ${link} (no ${resolved})`);
        } else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor.toLowerCase())) {
          broken.push(`${file}: ${link} (no heading #${anchor} in ${resolved})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs/….md path named in the docs, READMEs and code comments exists', () => {
    const missing: string[] = [];
    for (const file of [...markdown, ...code]) {
      for (const m of read(file).matchAll(/\bdocs\/[\w./-]*?\.md\b/g)) {
        if (!fs.existsSync(path.join(root, m[0]))) missing.push(`${file}: ${m[0]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('nothing cites a STYLE.md: the style guide is docs/style.md', () => {
    const citing = [...markdown, ...code].filter((f) => f !== 'scripts/docs.test.ts' && /\bSTYLE(\.md)?\b/.test(read(f)));
    expect(citing).toEqual([]);
  });

  it('the decision index lists every decision', () => {
    const index = read('docs/decisions/README.md');
    const decisions = files.filter((f) => /^docs\/decisions\/\d{4}-.*\.md$/.test(f)).map((f) => path.basename(f));
    expect(decisions.filter((d) => !index.includes(`(${d})`))).toEqual([]);
  });
});
