import type { BulkPlacement, InstancesPost } from "@berth/api-types";
import { BerthApiError } from "@berth/client/node";
import type { Command } from "commander";
import type { CommandContext, Io } from "../context.js";
import { usageError } from "../exit-codes.js";
import { isDocumentFormat } from "../output/format.js";
import { ProgressLine } from "../output/progress.js";
import { type Column, renderDocument, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { parseCount, readDocument } from "./arguments.js";
import { imageSource } from "./instance-body.js";

/**
 * The batch file: `{instances: [...]}` or a bare list. Each entry is an
 * instance create body (LXD `InstancesPost`, plus `flavor`); `image: ALIAS`
 * is accepted as shorthand for `source`, as on the `berth init` command line.
 */
export function parseBatch(document: unknown, path: string): InstancesPost[] {
  const list = Array.isArray(document)
    ? document
    : typeof document === "object" &&
        document !== null &&
        Array.isArray((document as { instances?: unknown }).instances)
      ? (document as { instances: unknown[] }).instances
      : undefined;
  if (list === undefined)
    throw usageError(`Invalid batch file ${path}: expected a list of instances or {instances: [...]}`);
  if (list.length === 0) throw usageError(`Invalid batch file ${path}: no instances`);
  return list.map((entry, index) => {
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw usageError(`Invalid batch file ${path}: instances[${index}] must be a mapping`);
    }
    const { image, ...body } = entry as Record<string, unknown>;
    if (image !== undefined) {
      if (typeof image !== "string")
        throw usageError(`Invalid batch file ${path}: instances[${index}].image must be a string`);
      if (body.source !== undefined)
        throw usageError(`Invalid batch file ${path}: instances[${index}] has both image and source`);
      body.source = imageSource(image);
    }
    return body as InstancesPost;
  });
}

const placementColumns: Column<BulkPlacement>[] = [
  { header: "NAME", human: (p) => p.name || "-", exact: (p) => p.name },
  { header: "LOCATION", human: (p, c) => c.cyan(p.location), exact: (p) => p.location },
  { header: "UUID", human: (p) => p.uuid },
];

/** `node1 (3), node2 (2)`: how many instances each member received, busiest first. */
export function perMemberSummary(placements: BulkPlacement[]): string {
  const counts = new Map<string, number>();
  for (const p of placements) counts.set(p.location, (counts.get(p.location) ?? 0) + 1);
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([member, n]) => `${member} (${n})`)
    .join(", ");
}

interface BulkFlags {
  file: string;
  target?: string;
  chunkSize?: string;
}

async function bulkCreate(ctx: CommandContext, flags: BulkFlags): Promise<void> {
  // Loaded here, not at start-up: the schemas module costs every other command ~0.2 s of CPU.
  const { MAX_BULK_INSTANCES } = await import("@berth/api-types");
  const instances = parseBatch(readDocument(flags.file, "batch file"), flags.file);
  const chunkSize =
    flags.chunkSize !== undefined ? parseCount(flags.chunkSize, "--chunk-size") : instances.length;
  if (chunkSize < 1 || chunkSize > MAX_BULK_INSTANCES) {
    throw usageError(`Invalid --chunk-size ${chunkSize}: expected 1 to ${MAX_BULK_INSTANCES}`);
  }
  if (flags.chunkSize === undefined && instances.length > MAX_BULK_INSTANCES) {
    throw usageError(
      `The batch has ${instances.length} instances; one all-or-nothing request takes at most ${MAX_BULK_INSTANCES}. Pass --chunk-size N to send it in parts (each part all-or-nothing).`,
    );
  }
  const progress =
    ctx.interactive && !isDocumentFormat(ctx.format)
      ? new ProgressLine(ctx.io.stdout, ctx.colors, "Placing instances", instances.length)
      : undefined;
  progress?.start();
  const placements: BulkPlacement[] = [];
  const options = flags.target !== undefined ? { target: flags.target } : {};
  try {
    for (let start = 0; start < instances.length; start += chunkSize) {
      const chunk = instances.slice(start, start + chunkSize);
      try {
        const result = await ctx.api.bulkCreate({ instances: chunk }, options);
        placements.push(...result.placements);
        progress?.advance(chunk.length);
      } catch (error) {
        throw bulkError(error, start, placements.length);
      }
    }
  } finally {
    progress?.stop();
  }
  if (isDocumentFormat(ctx.format)) {
    ctx.out(renderDocument({ placements }, ctx.format));
    return;
  }
  ctx.out(renderList({ columns: placementColumns, rows: placements }, ctx.format, ctx.colors));
  if (ctx.format === "table" || ctx.format === "compact") {
    const members = new Set(placements.map((p) => p.location)).size;
    ctx.out(
      `Placed ${placements.length} instance(s) on ${members} member(s): ${perMemberSummary(placements)}`,
    );
  }
}

/** Names the failing instance by its position in the whole file, and says what was kept. */
function bulkError(error: unknown, offset: number, alreadyPlaced: number): unknown {
  if (!(error instanceof BerthApiError)) return error;
  const failure = error.metadata as { index?: unknown; name?: unknown } | null;
  const where =
    failure && typeof failure.index === "number"
      ? ` (instances[${offset + failure.index}]${typeof failure.name === "string" && failure.name !== "" ? ` "${failure.name}"` : ""})`
      : "";
  const kept =
    alreadyPlaced === 0
      ? "nothing was created"
      : `the ${alreadyPlaced} instance(s) of earlier chunks stay placed; this chunk was not created`;
  return new BerthApiError(
    error.status,
    `Failed bulk creation${where}: ${error.message}; ${kept}`,
    error.metadata,
  );
}

export function registerBulkCommands(program: Command, io: Io): void {
  const bulk = program
    .command("bulk")
    .description("Many instances at once, all placed or none")
    .addHelpText("after", examples("berth bulk create -f batch.yaml"));
  bulk
    .command("create")
    .description("Create a batch of instances from a YAML or JSON file, all-or-nothing")
    .requiredOption(
      "-f, --file <file>",
      'batch file ("-" for stdin): a list of instance bodies, or {instances: [...]}',
    )
    .option("--target <member|@group>", "place the whole batch on this member or group")
    .option(
      "--chunk-size <n>",
      "send the batch in parts of N (each part all-or-nothing; needed above 10000, the server's limit per request)",
    )
    .addHelpText(
      "after",
      `${examples("berth bulk create -f batch.yaml", "berth bulk create -f batch.json --target @rack1 --format json")}
Batch file:
  instances:
    - name: web1
      image: ubuntu/jammy
      flavor: m1.small
    - name: db1
      image: ubuntu/jammy
      config: {limits.cpu: "4", limits.memory: 8GiB, placement.group: db}
`,
    )
    .action(action(io, async (ctx, flags: BulkFlags) => bulkCreate(ctx, flags)));
}
