#!/usr/bin/env node
// The repository's Markdown, checked as a reader would follow it: every
// relative link (Markdown or HTML) names a file or folder that exists, and
// every #anchor a heading (or an explicit id/name) of the file it points
// into, with GitHub's heading slugs. Links inside code are not links. Also
// the size limits the docs keep to: the root README at most 16 KB with the
// two commands in its first 60 lines, every app's and package's README at most 12 KB;
// and the repository files the docs name in backticks exist.
// Exits non-zero, listing every problem, when anything is off.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** Built, installed or generated trees: not the repository's own writing. */
const SKIPPED_DIRS = new Set([".git", "node_modules", "dist", "coverage", ".turbo", "reports"]);

function markdownFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...markdownFiles(join(dir, entry.name)));
    } else if (entry.name.endsWith(".md")) found.push(join(dir, entry.name));
  }
  return found;
}

/** The text with fenced code blocks blanked (lines kept, so line numbers stay right). */
function withoutFences(text) {
  let fence;
  return text
    .split("\n")
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) {
        fence = marker;
        return "";
      }
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length)
          fence = undefined;
        return "";
      }
      return line;
    })
    .join("\n");
}

/** Inline code spans blanked: a `[x](y)` inside backticks is an example, not a link. */
function withoutInlineCode(line) {
  return line.replace(/(`+)[\s\S]*?\1/g, (span) => " ".repeat(span.length));
}

/** GitHub's anchor for a heading: its rendered text, lower case, punctuation dropped, spaces to dashes. */
export function slugOf(heading) {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // links and images: their text
    .replace(/<[^>]+>/g, "") // inline HTML tags
    .replace(/`/g, "")
    .replace(/\*\*|__|\*/g, "");
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

const anchorCache = new Map();

/** Every anchor a Markdown file offers: heading slugs (repeats numbered) and explicit ids. */
function anchorsOf(file) {
  const cached = anchorCache.get(file);
  if (cached !== undefined) return cached;
  const anchors = new Set();
  const seen = new Map();
  const text = withoutFences(readFileSync(file, "utf8"));
  for (const line of text.split("\n")) {
    const heading = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading !== undefined) {
      const slug = slugOf(heading);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of line.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]);
  }
  anchorCache.set(file, anchors);
  return anchors;
}

/** The link targets of one line: `[text](target)`, `[id]: target`, `href="…"`, `src="…"`. */
function targetsOf(line) {
  const targets = [];
  const clean = withoutInlineCode(line);
  for (const match of clean.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]);
  const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(clean);
  if (definition !== null) targets.push(definition[1]);
  for (const match of clean.matchAll(/\b(?:href|src)="([^"]+)"/g)) targets.push(match[1]);
  return targets;
}

/** A problem with one link, or undefined when it resolves. */
function checkTarget(file, target) {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto: and the like
  const hashAt = target.indexOf("#");
  const pathPart = decodeURIComponent(hashAt === -1 ? target : target.slice(0, hashAt));
  const anchor = hashAt === -1 ? undefined : decodeURIComponent(target.slice(hashAt + 1));
  const pointed =
    pathPart === ""
      ? file
      : pathPart.startsWith("/")
        ? join(ROOT, pathPart)
        : resolve(dirname(file), pathPart);
  if (!existsSync(pointed)) return `${target}: no such file`;
  if (anchor === undefined || anchor === "") return undefined;
  if (statSync(pointed).isDirectory() || !pointed.endsWith(".md")) return undefined;
  if (anchorsOf(pointed).has(anchor)) return undefined;
  return `${target}: no heading "#${anchor}" in ${relative(ROOT, pointed)}`;
}

function brokenLinks(files) {
  const problems = [];
  for (const file of files) {
    const lines = withoutFences(readFileSync(file, "utf8")).split("\n");
    lines.forEach((line, index) => {
      for (const target of targetsOf(line)) {
        const problem = checkTarget(file, target);
        if (problem !== undefined) problems.push(`${relative(ROOT, file)}:${index + 1}: ${problem}`);
      }
    });
  }
  return problems;
}

/**
 * Files the docs name in backticks (`apps/server/src/main.ts`): in the root
 * README, docs/ and the apps' READMEs, each must exist. Globs and folders
 * written with a trailing slash are allowed; the package READMEs name their
 * own files relative to themselves, so they are left out.
 */
function missingPaths(files) {
  const checked = files.filter((file) => {
    const path = relative(ROOT, file);
    return path === "README.md" || path.startsWith("docs/") || /^apps\/[^/]+\/README\.md$/.test(path);
  });
  const problems = [];
  for (const file of checked) {
    withoutFences(readFileSync(file, "utf8"))
      .split("\n")
      .forEach((line, index) => {
        for (const match of line.matchAll(/`((?:packages|apps|bench|scripts|docs)\/[^`\s*]+)`/g)) {
          // A built file (under dist/) exists only after a build; the check runs before one.
          const built = match[1].split("/").some((segment) => SKIPPED_DIRS.has(segment));
          if (!built && !existsSync(join(ROOT, match[1])))
            problems.push(
              `${relative(ROOT, file)}:${index + 1}: \`${match[1]}\`: no such file in the repository`,
            );
        }
      });
  }
  return problems;
}

const KB = 1024;

function sizeProblems() {
  const problems = [];
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  if (Buffer.byteLength(readme) > 16 * KB)
    problems.push(`README.md: ${Buffer.byteLength(readme)} bytes, over the 16 KB of a first screen`);
  const firstLines = readme.split("\n").slice(0, 60).join("\n");
  for (const command of ["pnpm@10.34.8 start", "pnpm@10.34.8 run verify"]) {
    if (!firstLines.includes(command)) problems.push(`README.md: "${command}" is not in the first 60 lines`);
  }
  const packageDirs = ["apps", "packages"].flatMap((parent) =>
    readdirSync(join(ROOT, parent)).map((name) => join(ROOT, parent, name)),
  );
  for (const dir of [...packageDirs, join(ROOT, "bench")]) {
    const file = join(dir, "README.md");
    if (existsSync(file) && statSync(file).size > 12 * KB)
      problems.push(`${relative(ROOT, file)}: ${statSync(file).size} bytes, over 12 KB`);
  }
  return problems;
}

const files = markdownFiles(ROOT);
const problems = [...brokenLinks(files), ...missingPaths(files), ...sizeProblems()];
if (problems.length > 0) {
  process.stderr.write(
    `check-docs: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}\n`).join("")}`,
  );
  process.exit(1);
}
process.stdout.write(
  `check-docs: ${files.length} Markdown files, every relative link resolves, every file the docs name exists\n`,
);
