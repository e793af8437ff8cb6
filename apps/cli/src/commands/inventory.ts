import type { InventoryPut } from "@berth/api-types";
import type { Command } from "commander";
import type { Io } from "../context.js";
import { isDocumentFormat } from "../output/format.js";
import { formatClassAmount, formatCount } from "../output/sizes.js";
import { type Column, renderDocument, renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { completeArguments, memberNames } from "./argument-names.js";
import { parseCount, parseNumber } from "./arguments.js";
import { type ClassUsage, memberUsage, orderClasses } from "./member-usage.js";

type Row = ClassUsage & { resourceClass: string };

const columns: Column<Row>[] = [
  { header: "CLASS", human: (r) => r.resourceClass },
  { header: "TOTAL", human: (r) => formatClassAmount(r.resourceClass, r.total), exact: (r) => r.total },
  {
    header: "RESERVED",
    human: (r) => formatClassAmount(r.resourceClass, r.reserved),
    exact: (r) => r.reserved,
  },
  { header: "RATIO", human: (r) => formatCount(r.allocation_ratio), exact: (r) => r.allocation_ratio },
  {
    header: "CAPACITY",
    human: (r) => formatClassAmount(r.resourceClass, r.capacity),
    exact: (r) => r.capacity,
  },
  { header: "USED", human: (r) => formatClassAmount(r.resourceClass, r.used), exact: (r) => r.used },
  {
    header: "FORTHCOMING",
    human: (r) => formatClassAmount(r.resourceClass, r.forthcoming),
    exact: (r) => r.forthcoming,
  },
  { header: "SOURCE", human: (r) => (r.derived ? "derived" : "explicit") },
];

interface SetFlags {
  reserved?: string;
  allocationRatio?: string;
  minUnit?: string;
  maxUnit?: string;
  stepSize?: string;
}

export function registerInventoryCommands(cluster: Command, io: Io): void {
  const inventory = cluster
    .command("inventory")
    .description(
      "Resource inventories of a member (OpenStack Placement model: capacity = (total - reserved) x ratio)",
    )
    .addHelpText(
      "after",
      examples("berth cluster inventory list node1", "berth cluster inventory set node1 MEMORY_MB 65536"),
    );

  completeArguments(
    inventory
      .command("list")
      .alias("ls")
      .description("List a member's inventories with usage")
      .argument("<member>", "member name")
      .addHelpText(
        "after",
        examples("berth cluster inventory list node1", "berth cluster inventory list node1 --format yaml"),
      )
      .action(
        action(io, async (ctx, member: string) => {
          const usage = await memberUsage(ctx.api, member);
          const rows = orderClasses(Object.keys(usage)).map((resourceClass) => ({
            resourceClass,
            ...(usage[resourceClass] as ClassUsage),
          }));
          ctx.out(renderList({ columns, rows, document: usage }, ctx.format, ctx.colors));
        }),
      ),
    memberNames,
  );

  completeArguments(
    inventory
      .command("set")
      .description("Set one class's inventory on a member (explicit values win over derived ones)")
      .argument("<member>", "member name")
      .argument("<class>", "resource class, e.g. VCPU, MEMORY_MB, DISK_GB, CUSTOM_GPU")
      .argument("<total>", "total amount (MEMORY_MB in MiB, DISK_GB in GiB)")
      .option("--reserved <n>", "amount kept back for the host")
      .option("--allocation-ratio <x>", "overcommit ratio, e.g. 4.0 for VCPU")
      .option("--min-unit <n>", "smallest amount one instance may take")
      .option("--max-unit <n>", "largest amount one instance may take")
      .option("--step-size <n>", "amounts must be multiples of this")
      .addHelpText(
        "after",
        examples(
          "berth cluster inventory set node1 VCPU 32 --allocation-ratio 4",
          "berth cluster inventory set node1 MEMORY_MB 65536 --reserved 2048",
          "berth cluster inventory set gpu1 CUSTOM_GPU 4",
        ),
      )
      .action(
        action(io, async (ctx, member: string, resourceClass: string, total: string, flags: SetFlags) => {
          // The generation guards against a concurrent edit between our read and our write (409 when stale).
          const { generation } = await ctx.api.getInventories(member);
          const body: InventoryPut = {
            generation,
            total: parseCount(total, "total"),
            reserved: flags.reserved !== undefined ? parseCount(flags.reserved, "--reserved") : 0,
            allocation_ratio:
              flags.allocationRatio !== undefined
                ? parseNumber(flags.allocationRatio, "--allocation-ratio")
                : 1,
            min_unit: flags.minUnit !== undefined ? parseCount(flags.minUnit, "--min-unit") : 1,
            max_unit: flags.maxUnit !== undefined ? parseCount(flags.maxUnit, "--max-unit") : 2147483647,
            step_size: flags.stepSize !== undefined ? parseCount(flags.stepSize, "--step-size") : 1,
          };
          const result = await ctx.api.putInventory(member, resourceClass, body);
          if (isDocumentFormat(ctx.format)) ctx.out(renderDocument(result, ctx.format));
        }),
      ),
    memberNames,
  );

  completeArguments(
    inventory
      .command("unset")
      .alias("delete")
      .description(
        "Remove an explicit inventory (standard classes fall back to derived values); refused while in use",
      )
      .argument("<member>", "member name")
      .argument("<class>", "resource class")
      .addHelpText("after", examples("berth cluster inventory unset node1 CUSTOM_GPU"))
      .action(
        action(io, async (ctx, member: string, resourceClass: string) => {
          await ctx.api.deleteInventory(member, resourceClass);
        }),
      ),
    memberNames,
  );
}
