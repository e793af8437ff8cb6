/**
 * Code blocks of a Markdown file marked as runnable: a line
 * `<!-- snippet: NAME -->` right before a fenced block names it. The
 * snippet test runs each one as written, so README examples cannot rot.
 */
const MARKED_BLOCK = /<!-- snippet: ([\w-]+) -->\n```[\w-]*\n([\s\S]*?)\n```/g;

export function snippetsOf(markdown: string): Map<string, string> {
  const snippets = new Map<string, string>();
  for (const match of markdown.matchAll(MARKED_BLOCK)) {
    const [, name, code] = match;
    if (snippets.has(name!)) throw new Error(`Two snippets are named "${name}"`);
    snippets.set(name!, code!);
  }
  return snippets;
}
