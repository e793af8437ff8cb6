import type {
  ClusterGroup,
  Flavor,
  Image,
  ImageAliasesEntry,
  PlacementGroup,
  Profile,
  Project,
  ResourceClass,
} from "@berth/api-types";
import type {
  FlavorRecord,
  GroupRecord,
  ImageRecord,
  InstanceRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
  ResourceClassInfo,
} from "@berth/engine";
import { placementGroupConfigOf } from "@berth/engine";
import { copyDevices } from "./devices.js";
import { resourceUrl } from "./urls.js";

export function groupToWire(group: GroupRecord, members: string[]): ClusterGroup {
  return { name: group.name, description: group.description, members };
}

export function flavorToWire(f: FlavorRecord): Flavor {
  return {
    name: f.name,
    description: f.description,
    vcpus: f.vcpus,
    memory_mb: f.memoryMb,
    disk_gb: f.diskGb,
    extra_specs: { ...f.extraSpecs },
  };
}

export function projectToWire(p: ProjectRecord, usedBy: string[]): Project {
  return { name: p.name, description: p.description, config: { ...p.config }, used_by: usedBy };
}

export function profileToWire(p: ProfileRecord, usedBy: string[]): Profile {
  return {
    name: p.name,
    description: p.description,
    config: { ...p.config },
    devices: copyDevices(p.devices),
    project: p.project,
    used_by: usedBy,
  };
}

export function imageToWire(i: ImageRecord): Image {
  return {
    fingerprint: i.fingerprint,
    architecture: i.architecture as Image["architecture"],
    type: i.type as Image["type"],
    description: i.description,
    properties: { ...i.properties },
    aliases: i.aliases.map((name) => ({ name, description: "" })),
  };
}

export function aliasToWire(name: string, image: ImageRecord): ImageAliasesEntry {
  return { name, description: "", target: image.fingerprint, type: image.type as ImageAliasesEntry["type"] };
}

/** LXD 6.6's `PlacementGroup`: `policy` and `rigor` inside `config`, with `user.*` and `topology`. */
export function placementGroupToWire(g: PlacementGroupRecord, usedBy: string[]): PlacementGroup {
  return {
    name: g.name,
    description: g.description,
    config: placementGroupConfigOf(g),
    project: g.project,
    used_by: usedBy,
  };
}

export function resourceClassToWire(c: ResourceClassInfo): ResourceClass {
  return { name: c.name, standard: !c.custom };
}

export function instanceUrlOf(record: Pick<InstanceRecord, "name" | "id" | "project">): string {
  // An unnamed reservation is addressed by its UUID.
  return resourceUrl("/1.0/instances", record.name === "" ? record.id : record.name, record.project);
}
