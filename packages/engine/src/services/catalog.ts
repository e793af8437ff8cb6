/**
 * Cluster groups, projects, profiles, flavors, images, placement groups and
 * resource classes: validated, stored, and mirrored into the model where the
 * pipeline reads them (groups, projects, placement groups).
 */

import {
  FLAVOR_NAME_PATTERN,
  INSTANCE_NAME_PATTERN,
  PROFILE_NAME_PATTERN,
  PROJECT_NAME_PATTERN,
} from "@berth/api-types";
import {
  instanceConfigProblem,
  isStandardResourceClass,
  resourceClassMessages,
  STANDARD_RESOURCE_CLASSES,
  validateCustomName,
  validateFlavor,
} from "@berth/resources";
import { conflict, EngineError, forbidden, invalid, isEngineError, notFound } from "../base/errors.js";
import { imageByFingerprintPrefix } from "../expand/catalog-cache.js";
import { projectLimitsOf } from "../expand/project-limits.js";
import { checkedSettings, placementGroupConfigOf } from "../rules/writes/placement-group-config.js";
import type { EngineRuntime } from "../runtime/runtime.js";
import type {
  FlavorRecord,
  GroupRecord,
  ImageRecord,
  PlacementGroupRecord,
  ProfileRecord,
  ProjectRecord,
} from "../store/records.js";
import type { FlavorInput } from "./catalog-patches.js";
import {
  type FlavorChanges,
  type FlavorFields,
  type ImageChanges,
  type ImageFields,
  newPlacementGroup,
  type PlacementGroupChanges,
  type PlacementGroupFields,
  type ProfileChanges,
  type ProfileFields,
  type ProjectChanges,
  type ProjectFields,
  patchedFlavor,
  patchedImage,
  patchedPlacementGroup,
  patchedProfile,
  patchedProject,
  replacedPlacementGroup,
} from "./catalog-patches.js";
import { refuseDefaultGroupChange } from "./default-group.js";
import { guardedUpdate, type Precondition, type UpdateTarget } from "./guarded-update.js";

function checkName(kind: string, name: string, pattern: RegExp): void {
  if (!pattern.test(name)) throw invalid(`Invalid ${kind} name "${name}"`);
}

async function must<T>(value: Promise<T | undefined>, message: string): Promise<T> {
  const found = await value;
  if (found === undefined) throw notFound(message);
  return found;
}

/** A resource class as listed: its name and whether it is custom. */
export interface ResourceClassInfo {
  /** The class name. */
  name: string;
  /** True for `CUSTOM_*` classes (created through the API). */
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

/**
 * A profile's config is checked as LXD's validator checks it when it is
 * written (keys of either instance type, no `volatile.`/`image.` keys), so
 * a typo or bad value is refused there rather than failing every placement
 * that uses the profile.
 */
function checkProfileConfig(profile: ProfileRecord): void {
  const problem = instanceConfigProblem(profile.config, "any");
  if (problem !== undefined) throw invalid(problem);
}

/**
 * The catalog (`engine.catalog`): cluster groups and their members, projects, profiles, flavors,
 * images and aliases, placement groups, resource classes; edits with PUT/PATCH semantics and
 * optional ETags, renames refused while referenced.
 */
export class Catalog {
  constructor(
    private readonly runtime: EngineRuntime,
    /**
     * Told after every profile write or removal: members' DISK_GB follows
     * the pools the profiles' root disks use (Members.profilesChanged).
     */
    private readonly profilesChanged: () => Promise<void> = async () => {},
  ) {}

  private get store() {
    return this.runtime.store;
  }

  // Where each guarded edit (guarded-update.ts) reads and writes its record.
  private projectTarget(name: string): UpdateTarget<ProjectRecord> {
    return {
      label: `Project "${name}"`,
      read: () => this.getProject(name),
      write: (next, expected) => this.updateProject(next, expected),
    };
  }
  private profileTarget(project: string, name: string): UpdateTarget<ProfileRecord> {
    return {
      label: `Profile "${name}"`,
      read: () => this.getProfile(project, name),
      write: (next, expected) => this.updateProfile(next, expected),
    };
  }
  private flavorTarget(name: string): UpdateTarget<FlavorRecord> {
    return {
      label: `Flavor "${name}"`,
      read: () => this.getFlavor(name),
      // Changes are validated into a record (flavorRecord) before they get here.
      write: (next, expected) => this.store.flavors.update(next, expected),
    };
  }
  private imageTarget(fingerprint: string): UpdateTarget<ImageRecord> {
    return {
      label: `Image "${fingerprint}"`,
      read: () => this.getImage(fingerprint),
      write: (next, expected) => this.updateImage(next, expected),
    };
  }
  private placementGroupTarget(project: string, name: string): UpdateTarget<PlacementGroupRecord> {
    return {
      label: `Placement group "${name}"`,
      read: () => this.getPlacementGroup(project, name),
      write: (next, expected) => this.updatePlacementGroup(next, expected),
    };
  }

  // --- cluster groups -------------------------------------------------------------
  /** Every cluster group. */
  async listGroups(): Promise<GroupRecord[]> {
    return this.store.groups.list();
  }
  /** One cluster group; not_found when absent. */
  async getGroup(name: string): Promise<GroupRecord> {
    return must(this.store.groups.get({ name }), `Cluster group "${name}" not found`);
  }
  /** Creates a cluster group (LXD's name rule); conflict when the name is taken. */
  async createGroup(group: GroupRecord): Promise<GroupRecord> {
    checkName("cluster group", group.name, INSTANCE_NAME_PATTERN);
    const stored = await this.store.groups.create(group);
    this.runtime.model.groups.set(stored.name, stored);
    return stored;
  }
  /** Writes a group's description. */
  async updateGroup(group: GroupRecord): Promise<GroupRecord> {
    const stored = await this.store.groups.update(group);
    this.runtime.model.groups.set(stored.name, stored);
    return stored;
  }
  /** Deletes a cluster group; forbidden for `default`, conflict while members belong to it. */
  async deleteGroup(name: string): Promise<void> {
    refuseDefaultGroupChange(name, "deleted");
    await this.store.groups.delete({ name });
    this.runtime.model.groups.delete(name);
  }

  /**
   * Makes exactly `members` the members of cluster group `group`, in one
   * store transaction (rules/writes/group-members.ts): a refusal (an
   * unknown group or member) changes nothing.
   */
  async setGroupMembers(group: string, members: readonly string[]): Promise<void> {
    await this.runtime.sync();
    for (const record of await this.runtime.store.setGroupMembers(group, members))
      this.runtime.model.upsertMember(record);
  }

  /** Renames a cluster group; forbidden for `default`, refused while members belong to it. */
  async renameGroup(name: string, newName: string): Promise<GroupRecord> {
    refuseDefaultGroupChange(name, "renamed");
    const group = await this.getGroup(name);
    return renameByCopy(
      () => this.createGroup({ ...group, name: newName }),
      () => this.deleteGroup(name),
      () => this.deleteGroup(newName),
      `Cluster group "${name}" can't be renamed while members belong to it`,
    );
  }

  // --- projects ------------------------------------------------------------------------
  /** Every project. */
  async listProjects(): Promise<ProjectRecord[]> {
    return this.store.projects.list();
  }
  /** One project; not_found when absent. */
  async getProject(name: string): Promise<ProjectRecord> {
    return must(this.store.projects.get({ name }), `Project "${name}" not found`);
  }
  /** Creates a project; its name and limits are checked first. */
  async createProject(project: ProjectRecord): Promise<ProjectRecord> {
    checkName("project", project.name, PROJECT_NAME_PATTERN);
    projectLimitsOf(project);
    const stored = await this.store.projects.create(project);
    this.runtime.model.projects.set(stored.name, stored);
    return stored;
  }
  /** Writes `project` whole; with `expected`, only over that version (see guarded-update.ts). */
  async updateProject(project: ProjectRecord, expected?: ProjectRecord): Promise<ProjectRecord> {
    projectLimitsOf(project);
    const stored = await this.store.projects.update(project, expected);
    this.runtime.model.projects.set(stored.name, stored);
    return stored;
  }
  /** PUT: description and config replaced. */
  replaceProject(name: string, fields: ProjectFields, precondition?: Precondition): Promise<ProjectRecord> {
    return guardedUpdate(this.projectTarget(name), (current) => ({ ...current, ...fields }), precondition);
  }
  /** PATCH: the named fields; config keys merge, "" unsets one. */
  patchProject(name: string, changes: ProjectChanges, precondition?: Precondition): Promise<ProjectRecord> {
    return guardedUpdate(
      this.projectTarget(name),
      (current) => patchedProject(current, changes),
      precondition,
    );
  }
  /**
   * Deletes a project; forbidden for `default`, conflict while it holds instances, profiles or
   * placement groups.
   */
  async deleteProject(name: string): Promise<void> {
    if (name === "default") throw forbidden("The 'default' project cannot be deleted");
    await this.store.projects.delete({ name });
    this.runtime.model.projects.delete(name);
  }

  /** Renames a project; forbidden for `default`, refused unless it is empty. */
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
  /** The profiles of a project. */
  async listProfiles(project: string): Promise<ProfileRecord[]> {
    return this.store.profiles.list({ project });
  }
  /** One profile of a project; not_found when absent. */
  async getProfile(project: string, name: string): Promise<ProfileRecord> {
    return must(
      this.store.profiles.get({ project, name }),
      `Profile "${name}" not found in project "${project}"`,
    );
  }
  /**
   * Creates a profile; its config is checked as LXD checks it, so a bad key fails here and not at
   * every placement.
   */
  async createProfile(profile: ProfileRecord): Promise<ProfileRecord> {
    checkName("profile", profile.name, PROFILE_NAME_PATTERN);
    checkProfileConfig(profile);
    const stored = await this.store.profiles.create(profile);
    await this.profilesChanged();
    return stored;
  }
  /** Writes `profile` whole; with `expected`, only over that version (see guarded-update.ts). */
  async updateProfile(profile: ProfileRecord, expected?: ProfileRecord): Promise<ProfileRecord> {
    checkProfileConfig(profile);
    const stored = await this.store.profiles.update(profile, expected);
    await this.profilesChanged();
    return stored;
  }
  /** PUT: description, config and devices replaced. */
  replaceProfile(
    project: string,
    name: string,
    fields: ProfileFields,
    precondition?: Precondition,
  ): Promise<ProfileRecord> {
    return guardedUpdate(
      this.profileTarget(project, name),
      (current) => ({ ...current, ...fields }),
      precondition,
    );
  }
  /** PATCH: config keys merge ("" unsets one), named devices are replaced whole, others stay. */
  patchProfile(
    project: string,
    name: string,
    changes: ProfileChanges,
    precondition?: Precondition,
  ): Promise<ProfileRecord> {
    return guardedUpdate(
      this.profileTarget(project, name),
      (current) => patchedProfile(current, changes),
      precondition,
    );
  }
  /** Deletes a profile; forbidden for `default`, conflict while instances use it. */
  async deleteProfile(project: string, name: string): Promise<void> {
    if (name === "default") throw forbidden('The "default" profile cannot be deleted');
    await this.store.profiles.delete({ project, name });
    await this.profilesChanged();
  }

  /** Renames a profile; forbidden for `default`, refused while instances use it. */
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
  /** Every flavor. */
  async listFlavors(): Promise<FlavorRecord[]> {
    return this.store.flavors.list();
  }
  /** One flavor; not_found when absent. */
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
  /** Creates a flavor; sizes and extra specs are checked with Nova's rules. */
  async createFlavor(input: FlavorInput): Promise<FlavorRecord> {
    return this.store.flavors.create(this.flavorRecord(input));
  }
  /** Writes the flavor whole (validated); with `expected`, only over that version. */
  async updateFlavor(input: FlavorInput, expected?: FlavorRecord): Promise<FlavorRecord> {
    return this.store.flavors.update(this.flavorRecord(input), expected);
  }
  /** PUT: every field replaced. */
  replaceFlavor(name: string, fields: FlavorFields, precondition?: Precondition): Promise<FlavorRecord> {
    return guardedUpdate(this.flavorTarget(name), () => this.flavorRecord({ ...fields, name }), precondition);
  }
  /** PATCH: the named fields; extra specs merge key by key. */
  patchFlavor(name: string, changes: FlavorChanges, precondition?: Precondition): Promise<FlavorRecord> {
    return guardedUpdate(
      this.flavorTarget(name),
      (current) => this.flavorRecord(patchedFlavor(current, changes)),
      precondition,
    );
  }
  /**
   * Refused while an instance uses the flavor (409, naming one): instances
   * are re-expanded from their flavor on every edit, and Berth keeps no
   * copy of it on the instance as Nova does.
   */
  async deleteFlavor(name: string): Promise<void> {
    const user = (await this.store.listInstances()).find((instance) => instance.flavor === name);
    if (user !== undefined) {
      const label = user.name === "" ? user.id : user.name;
      throw conflict(`Flavor "${name}" is in use by instance "${label}" in project "${user.project}"`);
    }
    return this.store.flavors.delete({ name });
  }

  // --- images ---------------------------------------------------------------------------
  /** Every image. */
  async listImages(): Promise<ImageRecord[]> {
    return this.store.images.list();
  }
  /** By fingerprint, or by a prefix of one that names exactly one image (as LXD resolves them). */
  async getImage(fingerprint: string): Promise<ImageRecord> {
    const exact = await this.store.images.get({ name: fingerprint });
    if (exact !== undefined) return exact;
    if (fingerprint === "") throw notFound(`Image "${fingerprint}" not found`);
    try {
      return imageByFingerprintPrefix(await this.store.images.list(), fingerprint);
    } catch (error) {
      // The image API names the fingerprint it was asked for.
      if (isEngineError(error, "not_found")) throw notFound(`Image "${fingerprint}" not found`);
      throw error;
    }
  }
  private async checkAliases(image: ImageRecord): Promise<void> {
    for (const other of await this.store.images.list()) {
      if (other.fingerprint === image.fingerprint) continue;
      const clash = other.aliases.find((alias) => image.aliases.includes(alias));
      if (clash !== undefined) throw new EngineError("conflict", `Image alias "${clash}" already exists`);
    }
  }
  /** Creates an image record (its fingerprint is its key). */
  async createImage(image: ImageRecord): Promise<ImageRecord> {
    await this.checkAliases(image);
    return this.store.images.create(image);
  }
  /** Writes `image` whole (aliases must stay unique); with `expected`, only over that version. */
  async updateImage(image: ImageRecord, expected?: ImageRecord): Promise<ImageRecord> {
    await this.checkAliases(image);
    return this.store.images.update(image, expected);
  }
  /** PUT: description and properties replaced (aliases have routes of their own). */
  replaceImage(fingerprint: string, fields: ImageFields, precondition?: Precondition): Promise<ImageRecord> {
    return guardedUpdate(
      this.imageTarget(fingerprint),
      (current) => ({ ...current, ...fields }),
      precondition,
    );
  }
  /** PATCH: the named fields; properties merge key by key. */
  patchImage(fingerprint: string, changes: ImageChanges, precondition?: Precondition): Promise<ImageRecord> {
    return guardedUpdate(
      this.imageTarget(fingerprint),
      (current) => patchedImage(current, changes),
      precondition,
    );
  }

  // --- image aliases: names on their image's alias list -------------------------------------
  /** The image an alias points at (not_found: `Image alias "x" not found`). */
  async imageOfAlias(alias: string): Promise<ImageRecord> {
    const image = (await this.store.images.list()).find((candidate) => candidate.aliases.includes(alias));
    if (image === undefined) throw notFound(`Image alias "${alias}" not found`);
    return image;
  }
  /** Adds `alias` to the image `fingerprint` (conflict when any image has it already). */
  addImageAlias(fingerprint: string, alias: string): Promise<ImageRecord> {
    return guardedUpdate(this.imageTarget(fingerprint), (image) => {
      if (image.aliases.includes(alias)) throw conflict(`Image alias "${alias}" already exists`);
      return { ...image, aliases: [...image.aliases, alias] };
    });
  }
  /** Points `alias` at the image `fingerprint` (not_found when that image is unknown). */
  async retargetImageAlias(alias: string, fingerprint: string): Promise<void> {
    const from = await this.imageOfAlias(alias);
    if (from.fingerprint === fingerprint) return;
    await this.getImage(fingerprint);
    await this.removeImageAlias(alias);
    await this.addImageAlias(fingerprint, alias);
  }
  /** Renames an alias; conflict when the new name is taken. */
  async renameImageAlias(alias: string, newName: string): Promise<ImageRecord> {
    const image = await this.imageOfAlias(alias);
    return guardedUpdate(this.imageTarget(image.fingerprint), (current) => {
      if (!current.aliases.includes(alias)) throw notFound(`Image alias "${alias}" not found`);
      if (newName !== alias && current.aliases.includes(newName)) {
        throw conflict(`Image alias "${newName}" already exists`);
      }
      return { ...current, aliases: current.aliases.map((name) => (name === alias ? newName : name)) };
    });
  }
  /** Removes an alias from its image; not_found when no image has it. */
  async removeImageAlias(alias: string): Promise<ImageRecord> {
    const image = await this.imageOfAlias(alias);
    return guardedUpdate(this.imageTarget(image.fingerprint), (current) => {
      if (!current.aliases.includes(alias)) throw notFound(`Image alias "${alias}" not found`);
      return { ...current, aliases: current.aliases.filter((name) => name !== alias) };
    });
  }
  /** Deletes an image, by fingerprint or a prefix naming exactly one. */
  async deleteImage(fingerprint: string): Promise<void> {
    const image = await this.getImage(fingerprint); // a prefix names its image
    return this.store.images.delete({ name: image.fingerprint });
  }
  /** `GET /1.0/images/aliases`: alias -> image. */
  async listImageAliases(): Promise<
    {
      /** The alias's name. */
      name: string;
      /** The fingerprint of the image it points at. */
      target: string;
      /** The image's architecture name. */
      architecture: string;
    }[]
  > {
    return (await this.store.images.list()).flatMap((image) =>
      image.aliases.map((alias) => ({
        name: alias,
        target: image.fingerprint,
        architecture: image.architecture,
      })),
    );
  }

  // --- placement groups -------------------------------------------------------------------
  /** The placement groups of a project. */
  async listPlacementGroups(project: string): Promise<PlacementGroupRecord[]> {
    return this.store.placementGroups.list({ project });
  }
  /** One placement group of a project; not_found when absent. */
  async getPlacementGroup(project: string, name: string): Promise<PlacementGroupRecord> {
    return must(
      this.store.placementGroups.get({ project, name }),
      `Placement group "${name}" not found in project "${project}"`,
    );
  }
  /** The name, and the whole config as LXD checks it (a record built in code gets the same checks). */
  private checkPlacementGroup(group: PlacementGroupRecord): void {
    checkName("placement group", group.name, INSTANCE_NAME_PATTERN);
    checkedSettings(placementGroupConfigOf(group));
  }
  /** Creates a group from LXD's `config` map or Berth's earlier top-level `policy`/`rigor` (placement-group-config.ts). */
  async createPlacementGroup(
    input: PlacementGroupFields & { project: string; name: string },
  ): Promise<PlacementGroupRecord> {
    const group = newPlacementGroup(input);
    this.checkPlacementGroup(group);
    const stored = await this.store.placementGroups.create(group);
    this.runtime.model.setPlacementGroup(stored);
    return stored;
  }
  /** Writes `group` whole; with `expected`, only over that version (see guarded-update.ts). */
  async updatePlacementGroup(
    group: PlacementGroupRecord,
    expected?: PlacementGroupRecord,
  ): Promise<PlacementGroupRecord> {
    this.checkPlacementGroup(group);
    const stored = await this.store.placementGroups.update(group, expected);
    this.runtime.model.setPlacementGroup(stored);
    return stored;
  }
  /** PUT: description and config replaced (LXD). */
  replacePlacementGroup(
    project: string,
    name: string,
    fields: PlacementGroupFields,
    precondition?: Precondition,
  ): Promise<PlacementGroupRecord> {
    return guardedUpdate(
      this.placementGroupTarget(project, name),
      (current) => replacedPlacementGroup(current, fields),
      precondition,
    );
  }
  /** PATCH: the description if given; config merged key by key (`""` unsets). */
  patchPlacementGroup(
    project: string,
    name: string,
    changes: PlacementGroupChanges,
    precondition?: Precondition,
  ): Promise<PlacementGroupRecord> {
    return guardedUpdate(
      this.placementGroupTarget(project, name),
      (current) => patchedPlacementGroup(current, changes),
      precondition,
    );
  }
  /** Deletes a placement group; conflict while instances belong to it. */
  async deletePlacementGroup(project: string, name: string): Promise<void> {
    await this.store.placementGroups.delete({ project, name });
    this.runtime.model.deletePlacementGroup(project, name);
  }

  /** Renames a placement group; refused while instances belong to it. */
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
  /** Every resource class: the standard ones in id order, then the custom ones. */
  async listResourceClasses(): Promise<ResourceClassInfo[]> {
    const custom = await this.store.resourceClasses.list();
    return [
      ...STANDARD_RESOURCE_CLASSES.map((name) => ({ name, custom: false })),
      ...custom.map((record) => ({ name: record.name, custom: true })),
    ];
  }
  /** One resource class; not_found for an unknown custom name. */
  async getResourceClass(name: string): Promise<ResourceClassInfo> {
    if (isStandardResourceClass(name)) return { name, custom: false };
    await must(this.store.resourceClasses.get({ name }), resourceClassMessages.notFound(name));
    return { name, custom: true };
  }
  /** Creates a custom class (`CUSTOM_*`, Placement's name rule); conflict when it exists. */
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
  async ensureResourceClass(name: string): Promise<{
    /** True when the class did not exist and was created now; false when it already existed. */
    created: boolean;
  }> {
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

  /**
   * Placement's `PUT /resource_classes/{name}` before 1.7: renames a custom
   * class. The new name must be a free custom name; a class still used by an
   * inventory cannot be renamed (the copy is removed again).
   */
  async renameResourceClass(name: string, newName: string): Promise<ResourceClassInfo> {
    if (isStandardResourceClass(name)) throw invalid(resourceClassMessages.cannotUpdateStandard(name));
    await must(this.store.resourceClasses.get({ name }), resourceClassMessages.notFound(name));
    if (newName === name) return { name, custom: true };
    const valid = validateCustomName(newName);
    if (!valid.ok) throw invalid(valid.error.message);
    if ((await this.store.resourceClasses.get({ name: newName })) !== undefined) {
      throw new EngineError("conflict", resourceClassMessages.renameConflict(newName));
    }
    return renameByCopy(
      () => this.createResourceClass(newName),
      () => this.deleteResourceClass(name),
      () => this.deleteResourceClass(newName),
      `Resource class ${name} can't be renamed`,
    );
  }

  /**
   * Deletes a custom class; invalid for a standard one, conflict while an inventory or allocation
   * uses it.
   */
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
