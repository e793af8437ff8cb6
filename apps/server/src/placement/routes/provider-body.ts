/** A resource provider as Placement shows it at a microversion (fields and links appear with their versions). */
import type { ProviderRecord } from "@berth/engine";
import { atLeast, type Microversion } from "../microversion.js";

export const providerPath = (uuid: string) => `/resource_providers/${uuid}`;

export function providerBody(provider: ProviderRecord, version: Microversion): Record<string, unknown> {
  const self = providerPath(provider.uuid);
  const links = [
    { rel: "self", href: self },
    { rel: "inventories", href: `${self}/inventories` },
    { rel: "usages", href: `${self}/usages` },
  ];
  if (atLeast(version, 1)) links.push({ rel: "aggregates", href: `${self}/aggregates` });
  if (atLeast(version, 6)) links.push({ rel: "traits", href: `${self}/traits` });
  if (atLeast(version, 11)) links.push({ rel: "allocations", href: `${self}/allocations` });
  const body: Record<string, unknown> = {
    uuid: provider.uuid,
    name: provider.name,
    generation: provider.generation,
    links,
  };
  if (atLeast(version, 14)) {
    body.parent_provider_uuid = provider.parentUuid;
    body.root_provider_uuid = provider.rootUuid;
  }
  return body;
}

/** When a provider last changed, for `last-modified` (1.15). */
export const providerModified = (provider: ProviderRecord) => new Date(provider.updatedAt);

/** The latest change among several (now for an empty list, as Placement answers). */
export function latestModified(dates: readonly Date[]): Date {
  return dates.length === 0 ? new Date() : new Date(Math.max(...dates.map((d) => d.getTime())));
}
