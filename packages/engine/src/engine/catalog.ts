/**
 * Cluster groups, projects, profiles, flavors, images, placement groups and
 * resource classes: validated, stored, and mirrored into the model where the
 * pipeline reads them (groups, projects, placement groups).
 */
import {
  FLAVOR_NAME_PATTERN,
  INSTANCE_NAME_PATTERN,
  PLACEMENT_POLICIES,
  PLACEMENT_RIGORS,
  PROFILE_NAME_PATTERN,
  PROJECT_NAME_PATTERN,
} from "@berth/api-types";
import {
  isStandardResourceClass,
  resourceClassMessages,
  STANDARD_RESOURCE_CLASSES,
  validateCustomName,
  validateFlavor,
} from "@berth/resources";
import { EngineError, forbidden, invalid, notFound } from "../errors.js";
import { projectLimitsOf } from "../expand/project-limits.js";
import type {
  FlavorRecord,
  GroupRecord,
  ImageRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
} from "../store/records.js";
import type { EngineRuntime } from "./runtime.js";

function checkName(kind: string, name: string, pattern: RegExp): void {
  if (!pattern.test(name)) throw invalid(`Invalid ${kind} name "${name}"`);
}

async function must<T>(value: Promise<T | undefined>, message: string): Promise<T> {
  const found = await value;
  if (found === undefined) throw notFound(message);
  return found;
}

export interface FlavorInput {
  name: string;
  description?: string;
  vcpus: unknown;
  memory_mb: unknown;
  disk_gb?: unknown;
  extra_specs?: Record<string, unknown>;
}

export interface ResourceClassInfo {
  name: string;
  custom: boolean;
}

/**
 * Renames by copy: create the record under its new name, then delete the old
 * one; if the old one can't go (still referenced), the copy is removed again
 * and the refusal is reported. The store's in-use rules decide, so a rename
 * never leaves dangling references.
 */
async function renameByCopy<T>(
  create: () => Promise<T>,
  removeOld: () => Promise<void>,
  removeNew: () => Promise<void>,
  refusal: string,
): Promise<T> {
  const created = await create();
  try {
    await removeOld();
  } catch (error) {
    await removeNew();
    if (error instanceof EngineError && error.kind === "conflict") {
      throw new EngineError("conflict", `${refusal}: ${error.message}`);
    }
    throw error;
  }
  return created;
}

export class Catalog {
  constructor(private readonly runtime: EngineRuntime) {}

  private get store() {
    return this.runtime.store;
  }

  // --- cluster groups -------------------------------------------------------------
  async listGroups(): Promise<GroupRecord[]> {
    return this.store.groups.list();
  }
  async getGroup(name: string): Promise<GroupRecord> {
    return must(this.store.groups.get({ name }), `Cluster group "${name}" not found`);
  }
  async createGroup(group: GroupRecord): Promise<GroupRecord> {
    checkName("cluster group", group.name, INSTANCE_NAME_PATTERN);
    const stored = await this.store.groups.create(group);
    this.runtime.model.groups.set(stored.name, stored);
    return stored;
  }
  async updateGroup(group: GroupRecord): Promise<GroupRecord> {
    const stored = await this.store.groups.update(group);
    this.runtime.model.groups.set(stored.name, stored);
    return stored;
  }
  async deleteGroup(name: string): Promise<void> {
    await this.store.groups.delete({ name });
    this.runtime.model.groups.delete(name);
  }

  async renameGroup(name: string, newName: string): Promise<GroupRecord> {
    const group = await this.getGroup(name);
    return renameByCopy(
      () => this.createGroup({ ...group, name: newName }),
      () => this.deleteGroup(name),
      () => this.deleteGroup(newName),
      `Cluster group "${name}" can't be renamed while members belong to it`,
    );
  }

  // --- projects ------------------------------------------------------------------------
  async listProjects(): Promise<ProjectRecord[]> {
    return this.store.projects.list();
  }
  async getProject(name: string): Promise<ProjectRecord> {
    return must(this.store.projects.get({ name }), `Project "${name}" not found`);
  }
  async createProject(project: ProjectRecord): Promise<ProjectRecord> {
    checkName("project", project.name, PROJECT_NAME_PATTERN);
    projectLimitsOf(project);
    const stored = await this.store.projects.create(project);
    this.runtime.model.projects.set(stored.name, stored);
    return stored;
  }
  async updateProject(project: ProjectRecord): Promise<ProjectRecord> {
    projectLimitsOf(project);
    const stored = await this.store.projects.update(project);
    this.runtime.model.projects.set(stored.name, stored);
    return stored;
  }
  async deleteProject(name: string): Promise<void> {
    if (name === "default") throw forbidden("The 'default' project cannot be deleted");
    await this.store.projects.delete({ name });
    this.runtime.model.projects.delete(name);
  }

  async renameProject(name: string, newName: string): Promise<ProjectRecord> {
    if (name === "default") throw forbidden("The 'default' project cannot be renamed");
    const project = await this.getProject(name);
    return renameByCopy(
      () => this.createProject({ ...project, name: newName }),
      () => this.deleteProject(name),
      () => this.deleteProject(newName),
      "Only empty projects can be renamed",
    );
  }

  // --- profiles ------------------------------------------------------------------------
  async listProfiles(project: string): Promise<ProfileRecord[]> {
    return this.store.profiles.list({ project });
  }
  async getProfile(project: string, name: string): Promise<ProfileRecord> {
    return must(
      this.store.profiles.get({ project, name }),
      `Profile "${name}" not found in project "${project}"`,
    );
  }
  async createProfile(profile: ProfileRecord): Promise<ProfileRecord> {
    checkName("profile", profile.name, PROFILE_NAME_PATTERN);
    return this.store.profiles.create(profile);
  }
  async updateProfile(profile: ProfileRecord): Promise<ProfileRecord> {
    return this.store.profiles.update(profile);
  }
  async deleteProfile(project: string, name: string): Promise<void> {
    if (name === "default") throw forbidden('The "default" profile cannot be deleted');
    return this.store.profiles.delete({ project, name });
  }

  async renameProfile(project: string, name: string, newName: string): Promise<ProfileRecord> {
    if (name === "default") throw forbidden('The "default" profile cannot be renamed');
    const profile = await this.getProfile(project, name);
    return renameByCopy(
      () => this.createProfile({ ...profile, name: newName }),
      () => this.deleteProfile(project, name),
      () => this.deleteProfile(project, newName),
      `Profile "${name}" can't be renamed while instances use it`,
    );
  }

  // --- flavors --------------------------------------------------------------------------
  async listFlavors(): Promise<FlavorRecord[]> {
    return this.store.flavors.list();
  }
  async getFlavor(name: string): Promise<FlavorRecord> {
    return must(this.store.flavors.get({ name }), `Flavor "${name}" not found`);
  }
  /** Validated with Nova's rules (@berth/resources); invalid extra specs are a 400 with Nova's message. */
  private flavorRecord(input: FlavorInput): FlavorRecord {
    checkName("flavor", input.name, FLAVOR_NAME_PATTERN);
    const validated = validateFlavor({
      vcpus: input.vcpus,
      memory_mb: input.memory_mb,
      ...(input.disk_gb !== undefined ? { disk_gb: input.disk_gb } : {}),
      ...(input.extra_specs !== undefined ? { extra_specs: input.extra_specs } : {}),
    });
    if (!validated.ok) throw invalid(validated.error.message);
    return {
      name: input.name,
      description: input.description ?? "",
      vcpus: validated.value.vcpus,
      memoryMb: validated.value.memory_mb,
      diskGb: validated.value.disk_gb,
      extraSpecs: { ...validated.value.extra_specs },
    };
  }
  async createFlavor(input: FlavorInput): Promise<FlavorRecord> {
    return this.store.flavors.create(this.flavorRecord(input));
  }
  async updateFlavor(input: FlavorInput): Promise<FlavorRecord> {
    return this.store.flavors.update(this.flavorRecord(input));
  }
  async deleteFlavor(name: string): Promise<void> {
    return this.store.flavors.delete({ name });
  }

  // --- images ---------------------------------------------------------------------------
  async listImages(): Promise<ImageRecord[]> {
    return this.store.images.list();
  }
  async getImage(fingerprint: string): Promise<ImageRecord> {
    return must(this.store.images.get({ name: fingerprint }), `Image "${fingerprint}" not found`);
  }
  private async checkAliases(image: ImageRecord): Promise<void> {
    for (const other of await this.store.images.list()) {
      if (other.fingerprint === image.fingerprint) continue;
      const clash = other.aliases.find((alias) => image.aliases.includes(alias));
      if (clash !== undefined) throw new EngineError("conflict", `Image alias "${clash}" already exists`);
    }
  }
  async createImage(image: ImageRecord): Promise<ImageRecord> {
    await this.checkAliases(image);
    return this.store.images.create(image);
  }
  async updateImage(image: ImageRecord): Promise<ImageRecord> {
    await this.checkAliases(image);
    return this.store.images.update(image);
  }
  async deleteImage(fingerprint: string): Promise<void> {
    return this.store.images.delete({ name: fingerprint });
  }
  /** `GET /1.0/images/aliases`: alias -> image. */
  async listImageAliases(): Promise<{ name: string; target: string; architecture: string }[]> {
    return (await this.store.images.list()).flatMap((image) =>
      image.aliases.map((alias) => ({
        name: alias,
        target: image.fingerprint,
        architecture: image.architecture,
      })),
    );
  }

  // --- placement groups -------------------------------------------------------------------
  async listPlacementGroups(project: string): Promise<PlacementGroupRecord[]> {
    return this.store.placementGroups.list({ project });
  }
  async getPlacementGroup(project: string, name: string): Promise<PlacementGroupRecord> {
    return must(
      this.store.placementGroups.get({ project, name }),
      `Placement group "${name}" not found in project "${project}"`,
    );
  }
  private checkPlacementGroup(group: PlacementGroupRecord): void {
    checkName("placement group", group.name, INSTANCE_NAME_PATTERN);
    if (!(PLACEMENT_POLICIES as readonly string[]).includes(group.policy)) {
      throw invalid(
        `Invalid placement group policy "${group.policy}" (expected ${PLACEMENT_POLICIES.join(" or ")})`,
      );
    }
    if (!(PLACEMENT_RIGORS as readonly string[]).includes(group.rigor)) {
      throw invalid(
        `Invalid placement group rigor "${group.rigor}" (expected ${PLACEMENT_RIGORS.join(" or ")})`,
      );
    }
  }
  async createPlacementGroup(group: PlacementGroupRecord): Promise<PlacementGroupRecord> {
    this.checkPlacementGroup(group);
    const stored = await this.store.placementGroups.create(group);
    this.runtime.model.setPlacementGroup(stored);
    return stored;
  }
  async updatePlacementGroup(group: PlacementGroupRecord): Promise<PlacementGroupRecord> {
    this.checkPlacementGroup(group);
    const stored = await this.store.placementGroups.update(group);
    this.runtime.model.setPlacementGroup(stored);
    return stored;
  }
  async deletePlacementGroup(project: string, name: string): Promise<void> {
    await this.store.placementGroups.delete({ project, name });
    this.runtime.model.deletePlacementGroup(project, name);
  }

  async renamePlacementGroup(project: string, name: string, newName: string): Promise<PlacementGroupRecord> {
    const group = await this.getPlacementGroup(project, name);
    return renameByCopy(
      () => this.createPlacementGroup({ ...group, name: newName }),
      () => this.deletePlacementGroup(project, name),
      () => this.deletePlacementGroup(project, newName),
      `Placement group "${name}" can't be renamed while instances belong to it`,
    );
  }

  // --- resource classes ---------------------------------------------------------------------
  async listResourceClasses(): Promise<ResourceClassInfo[]> {
    const custom = await this.store.resourceClasses.list();
    return [
      ...STANDARD_RESOURCE_CLASSES.map((name) => ({ name, custom: false })),
      ...custom.map((record) => ({ name: record.name, custom: true })),
    ];
  }
  async getResourceClass(name: string): Promise<ResourceClassInfo> {
    if (isStandardResourceClass(name)) return { name, custom: false };
    await must(this.store.resourceClasses.get({ name }), resourceClassMessages.notFound(name));
    return { name, custom: true };
  }
  async createResourceClass(name: string): Promise<ResourceClassInfo> {
    const valid = validateCustomName(name);
    if (!valid.ok) throw invalid(valid.error.message);
    try {
      await this.store.resourceClasses.create({ name, custom: true });
    } catch (error) {
      if (error instanceof EngineError && error.kind === "conflict") {
        throw new EngineError("conflict", resourceClassMessages.conflict(name));
      }
      throw error;
    }
    return { name, custom: true };
  }
  /** Placement's `PUT /resource_classes/{name}`: creates a custom class unless it exists. */
  async ensureResourceClass(name: string): Promise<{ created: boolean }> {
    if (isStandardResourceClass(name)) throw invalid(resourceClassMessages.cannotUpdateStandard(name));
    if ((await this.store.resourceClasses.get({ name })) !== undefined) return { created: false };
    try {
      await this.createResourceClass(name);
      return { created: true };
    } catch (error) {
      if (error instanceof EngineError && error.kind === "conflict") return { created: false };
      throw error;
    }
  }

  async deleteResourceClass(name: string): Promise<void> {
    if (isStandardResourceClass(name)) throw invalid(resourceClassMessages.cannotDeleteStandard(name));
    try {
      await this.store.resourceClasses.delete({ name });
    } catch (error) {
      if (error instanceof EngineError && error.kind === "conflict") {
        throw new EngineError("conflict", resourceClassMessages.inUse(name));
      }
      if (error instanceof EngineError && error.kind === "not_found") {
        throw notFound(resourceClassMessages.notFound(name));
      }
      throw error;
    }
  }
}
