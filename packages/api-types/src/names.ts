import { z } from "zod";

/*
 * Name rules. Each rule is a regular expression (so it also appears in the generated
 * JSON Schema) plus one message that states the whole rule, so a rejected name tells the
 * user what a good one looks like.
 */

/**
 * Instance names follow LXD's "instance name requirements" (a DNS host label):
 * 1-63 characters, ASCII letters, digits and hyphens, starting with a letter, not ending
 * with a hyphen. Starting with a letter also rules out all-digit names, as LXD does.
 */
export const INSTANCE_NAME_PATTERN = /^(?=.{1,63}$)[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
export const INSTANCE_NAME_RULE =
  "must be 1-63 characters of letters, digits and hyphens, start with a letter and not end with a hyphen";
export const InstanceNameSchema = z.string().regex(INSTANCE_NAME_PATTERN, { error: INSTANCE_NAME_RULE });

/**
 * Cluster member names are host names: 1-63 characters of letters, digits, dots, underscores
 * and hyphens, starting and ending with a letter or digit (`node1`, `rack2-host07`, `h1.dc1`).
 */
export const MEMBER_NAME_PATTERN = /^(?=.{1,63}$)[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
export const MEMBER_NAME_RULE =
  "must be 1-63 characters of letters, digits, dots, underscores and hyphens, starting and ending with a letter or digit";
export const MemberNameSchema = z.string().regex(MEMBER_NAME_PATTERN, { error: MEMBER_NAME_RULE });

/**
 * Cluster groups, placement groups and tokens use the instance (host label) rule: they appear
 * in `?target=@group` and in config values, where a plain label is never ambiguous.
 */
export const GroupNameSchema = z.string().regex(INSTANCE_NAME_PATTERN, { error: INSTANCE_NAME_RULE });
export const PlacementGroupNameSchema = GroupNameSchema;
export const TokenNameSchema = GroupNameSchema;

/**
 * Project names follow LXD's project rule: not empty, at most 63 characters (Berth's cap),
 * and none of `/`, space, `_`, quotes; `*`, `.` and `..` are reserved.
 */
export const PROJECT_NAME_PATTERN = /^(?!\*$)(?!\.{1,2}$)[^/ _'"\s]{1,63}$/;
export const PROJECT_NAME_RULE =
  'must be 1-63 characters without "/", spaces, underscores or quotes, and not "*", "." or ".."';
export const ProjectNameSchema = z.string().regex(PROJECT_NAME_PATTERN, { error: PROJECT_NAME_RULE });

/**
 * Profile names follow LXD's profile rule: not empty, no `/`, not `.` or `..`;
 * Berth also rejects whitespace and caps the length at 63.
 */
export const PROFILE_NAME_PATTERN = /^(?!\.{1,2}$)[^/\s]{1,63}$/;
export const PROFILE_NAME_RULE = 'must be 1-63 characters without "/" or whitespace, and not "." or ".."';
export const ProfileNameSchema = z.string().regex(PROFILE_NAME_PATTERN, { error: PROFILE_NAME_RULE });

/**
 * Flavor names as operators write them (`m1.small`, `c4-m8`, `baremetal-gold`): 1-255
 * characters of letters, digits, `.`, `_`, `:`, `-`, starting with a letter or digit.
 */
export const FLAVOR_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,254}$/;
export const FLAVOR_NAME_RULE =
  'must be 1-255 characters of letters, digits, ".", "_", ":" and "-", starting with a letter or digit';
export const FlavorNameSchema = z.string().regex(FLAVOR_NAME_PATTERN, { error: FLAVOR_NAME_RULE });

/**
 * Resource class names as OpenStack Placement writes them: upper-case letters, digits and
 * underscores, at most 255 characters. Whether a name is one of the standard classes is
 * checked by @berth/resources; the wire schema checks the shape only. Which names may be
 * created (`CUSTOM_*`) is @berth/resources' rule alone (`validateCustomName`), with
 * Placement's texts: `POST /1.0/resource-classes` leaves it to the engine.
 */
export const RESOURCE_CLASS_NAME_PATTERN = /^[A-Z0-9_]{1,255}$/;
export const RESOURCE_CLASS_NAME_RULE =
  "must be 1-255 characters of upper-case letters, digits and underscores (a standard class or CUSTOM_*)";
export const ResourceClassNameSchema = z
  .string()
  .regex(RESOURCE_CLASS_NAME_PATTERN, { error: RESOURCE_CLASS_NAME_RULE });

/** Traits share the resource class shape: standard (`HW_CPU_X86_AVX2`) or `CUSTOM_*`. */
export const TRAIT_NAME_PATTERN = /^[A-Z0-9_]{1,255}$/;
export const TRAIT_NAME_RULE =
  "must be 1-255 characters of upper-case letters, digits and underscores (a standard trait or CUSTOM_*)";
export const TraitNameSchema = z.string().regex(TRAIT_NAME_PATTERN, { error: TRAIT_NAME_RULE });

/** Image fingerprints: the SHA-256 of the image, 64 lower-case hex digits. */
export const FINGERPRINT_PATTERN = /^[0-9a-f]{64}$/;
export const FINGERPRINT_RULE = "must be 64 lower-case hexadecimal digits (a SHA-256)";
export const FingerprintSchema = z.string().regex(FINGERPRINT_PATTERN, { error: FINGERPRINT_RULE });

/** A fingerprint or a prefix of one (LXD clients accept the short form `lxc image list` shows). */
export const FINGERPRINT_PREFIX_PATTERN = /^[0-9a-f]{1,64}$/;
export const FingerprintPrefixSchema = z.string().regex(FINGERPRINT_PREFIX_PATTERN, {
  error: "must be 1-64 lower-case hexadecimal digits (an image fingerprint or a prefix of one)",
});

/** Image alias names (`ubuntu/22.04`, `alpine/edge/amd64`): 1-255 characters, no whitespace. */
export const IMAGE_ALIAS_PATTERN = /^[^\s]{1,255}$/;
export const IMAGE_ALIAS_RULE = "must be 1-255 characters without whitespace";
export const ImageAliasNameSchema = z.string().regex(IMAGE_ALIAS_PATTERN, { error: IMAGE_ALIAS_RULE });
