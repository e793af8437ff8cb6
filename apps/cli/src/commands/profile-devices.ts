import type { Profile } from "@berth/api-types";
import type { Command } from "commander";
import type { Io } from "../context.js";
import { CliError, ExitCode } from "../exit-codes.js";
import { renderList } from "../output/view.js";
import { action, examples } from "./action.js";
import { parseKeyValues } from "./arguments.js";

const toPut = (p: Profile) => ({ description: p.description, config: p.config, devices: p.devices });

interface DeviceRow {
  name: string;
  device: Record<string, string>;
}

/** `berth profile device add|remove|list`, as `lxc profile device`: read the profile, change one device, PUT it back. */
export function registerProfileDeviceCommands(profile: Command, io: Io): void {
  const device = profile
    .command("device")
    .description("Devices of a profile (a root disk device sizes DISK_GB)")
    .addHelpText(
      "after",
      examples("berth profile device add default root disk path=/ pool=default size=20GiB"),
    );

  device
    .command("add")
    .description("Add a device to a profile")
    .argument("<profile>", "profile name")
    .argument("<device>", "device name")
    .argument("<type>", "device type, e.g. disk, nic, gpu")
    .argument("[key=value...]", "device options")
    .addHelpText(
      "after",
      examples(
        "berth profile device add default root disk path=/ pool=default",
        "berth profile device add gpu gpu0 gpu",
      ),
    )
    .action(
      action(io, async (ctx, name: string, deviceName: string, type: string, options: string[]) => {
        const current = await ctx.api.profiles.get(name);
        if (current.devices[deviceName]) {
          throw new CliError(`Profile "${name}" already has a device "${deviceName}"`, ExitCode.conflict);
        }
        const devices = {
          ...current.devices,
          [deviceName]: { ...parseKeyValues(options, "device option"), type },
        };
        await ctx.api.profiles.put(name, toPut({ ...current, devices }));
      }),
    );

  device
    .command("remove")
    .alias("rm")
    .description("Remove a device from a profile")
    .argument("<profile>", "profile name")
    .argument("<device>", "device name")
    .addHelpText("after", examples("berth profile device remove default root"))
    .action(
      action(io, async (ctx, name: string, deviceName: string) => {
        const current = await ctx.api.profiles.get(name);
        if (!current.devices[deviceName]) {
          throw new CliError(`Profile "${name}" has no device "${deviceName}"`, ExitCode.notFound);
        }
        const { [deviceName]: _removed, ...devices } = current.devices;
        await ctx.api.profiles.put(name, toPut({ ...current, devices }));
      }),
    );

  device
    .command("list")
    .alias("ls")
    .description("List a profile's devices")
    .argument("<profile>", "profile name")
    .addHelpText("after", examples("berth profile device list default"))
    .action(
      action(io, async (ctx, name: string) => {
        const current = await ctx.api.profiles.get(name);
        const rows: DeviceRow[] = Object.entries(current.devices).map(([deviceName, d]) => ({
          name: deviceName,
          device: d,
        }));
        ctx.out(
          renderList(
            {
              columns: [
                { header: "NAME", human: (r) => r.name },
                { header: "TYPE", human: (r) => r.device.type ?? "" },
                {
                  header: "OPTIONS",
                  human: (r) =>
                    Object.entries(r.device)
                      .filter(([k]) => k !== "type")
                      .map(([k, v]) => `${k}=${v}`)
                      .join(", "),
                },
              ],
              rows,
              document: current.devices,
            },
            ctx.format,
            ctx.colors,
          ),
        );
      }),
    );
}
