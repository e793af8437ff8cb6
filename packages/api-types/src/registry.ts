import { z } from "zod";
import { BulkCreateFailureSchema, BulkCreateRequestSchema, BulkCreateResultSchema } from "./bulk.js";
import { ClusterCapacityPostSchema, ClusterCapacitySchema } from "./capacity.js";
import { DryRunResultSchema } from "./dry-run.js";
import { AsyncResponseSchema, ErrorResponseSchema, OperationSchema, SyncResponseSchema } from "./envelope.js";
import { FlavorPatchSchema, FlavorPutSchema, FlavorSchema, FlavorsPostSchema } from "./flavors.js";
import {
  ImageAliasesEntrySchema,
  ImageAliasesPostSchema,
  ImageAliasPatchSchema,
  ImageAliasPostSchema,
  ImageAliasPutSchema,
  ImagePatchSchema,
  ImagePutSchema,
  ImageSchema,
  ImagesPostSchema,
} from "./images.js";
import {
  InstanceCommitPostSchema,
  InstancePatchSchema,
  InstancePostSchema,
  InstancePutSchema,
  InstanceSchema,
  InstanceSourceSchema,
  InstancesPostSchema,
} from "./instances.js";
import {
  InventoriesPutSchema,
  InventoryFillSchema,
  InventoryPutSchema,
  InventorySchema,
  MemberInventoriesSchema,
} from "./inventories.js";
import { ResourcesSchema } from "./member-resources.js";
import { ClusterMemberStateSchema } from "./member-state.js";
import {
  ClusterGroupPatchSchema,
  ClusterGroupPostSchema,
  ClusterGroupPutSchema,
  ClusterGroupSchema,
  ClusterGroupsPostSchema,
  ClusterMemberFullSchema,
  ClusterMemberPatchSchema,
  ClusterMemberPostSchema,
  ClusterMemberPutSchema,
  ClusterMemberSchema,
  ClusterMemberStatePostSchema,
  ClusterMembersPostSchema,
} from "./members.js";
import {
  PlacementGroupPatchSchema,
  PlacementGroupPostSchema,
  PlacementGroupPutSchema,
  PlacementGroupSchema,
  PlacementGroupsPostSchema,
} from "./placement-groups.js";
import { InstancePlacementRecordSchema } from "./placement-record.js";
import {
  ProfilePatchSchema,
  ProfilePostSchema,
  ProfilePutSchema,
  ProfileSchema,
  ProfilesPostSchema,
} from "./profiles.js";
import {
  ProjectPatchSchema,
  ProjectPostSchema,
  ProjectPutSchema,
  ProjectSchema,
  ProjectsPostSchema,
} from "./projects.js";
import { AutomaticRebalancePreviewSchema, RebalancePlanSchema } from "./rebalance.js";
import { RejectionGroupSchema } from "./rejections.js";
import { ResourceClassesPostSchema, ResourceClassSchema } from "./resource-classes.js";
import { InstancePlacementSchema, InstanceResourcesSchema } from "./scriptlet.js";
import { ScriptletCheckRequestSchema, ScriptletCheckResultSchema } from "./scriptlet-check.js";
import { ServerPatchSchema, ServerPutSchema, ServerSchema, ServerUntrustedSchema } from "./server.js";
import { ServerConfigSchema } from "./server-config.js";
import { TokenCreatedSchema, TokenSchema, TokensPostSchema } from "./tokens.js";
import { WarningPutSchema, WarningSchema } from "./warnings.js";

/**
 * Every named wire schema, keyed by the name it has in the OpenAPI document
 * (`components.schemas.NAME`). Servers look bodies up here; the OpenAPI generator walks it.
 */
export const apiSchemas = {
  SyncResponse: SyncResponseSchema,
  ErrorResponse: ErrorResponseSchema,
  AsyncResponse: AsyncResponseSchema,
  Operation: OperationSchema,
  Server: ServerSchema,
  ServerUntrusted: ServerUntrustedSchema,
  ServerPut: ServerPutSchema,
  ServerPatch: ServerPatchSchema,
  ServerConfig: ServerConfigSchema,
  ClusterMember: ClusterMemberSchema,
  ClusterMemberFull: ClusterMemberFullSchema,
  ClusterMembersPost: ClusterMembersPostSchema,
  ClusterMemberPut: ClusterMemberPutSchema,
  ClusterMemberPatch: ClusterMemberPatchSchema,
  ClusterMemberPost: ClusterMemberPostSchema,
  ClusterMemberState: ClusterMemberStateSchema,
  ClusterMemberStatePost: ClusterMemberStatePostSchema,
  Resources: ResourcesSchema,
  Inventory: InventorySchema,
  InventoryPut: InventoryPutSchema,
  InventoriesPut: InventoriesPutSchema,
  MemberInventories: MemberInventoriesSchema,
  InventoryFill: InventoryFillSchema,
  ClusterGroup: ClusterGroupSchema,
  ClusterGroupsPost: ClusterGroupsPostSchema,
  ClusterGroupPut: ClusterGroupPutSchema,
  ClusterGroupPatch: ClusterGroupPatchSchema,
  ClusterGroupPost: ClusterGroupPostSchema,
  RebalancePlan: RebalancePlanSchema,
  ClusterCapacityPost: ClusterCapacityPostSchema,
  ClusterCapacity: ClusterCapacitySchema,
  AutomaticRebalancePreview: AutomaticRebalancePreviewSchema,
  ResourceClass: ResourceClassSchema,
  ResourceClassesPost: ResourceClassesPostSchema,
  Flavor: FlavorSchema,
  FlavorsPost: FlavorsPostSchema,
  FlavorPut: FlavorPutSchema,
  FlavorPatch: FlavorPatchSchema,
  Project: ProjectSchema,
  ProjectsPost: ProjectsPostSchema,
  ProjectPut: ProjectPutSchema,
  ProjectPatch: ProjectPatchSchema,
  ProjectPost: ProjectPostSchema,
  Profile: ProfileSchema,
  ProfilesPost: ProfilesPostSchema,
  ProfilePut: ProfilePutSchema,
  ProfilePatch: ProfilePatchSchema,
  ProfilePost: ProfilePostSchema,
  Image: ImageSchema,
  ImagesPost: ImagesPostSchema,
  ImagePut: ImagePutSchema,
  ImagePatch: ImagePatchSchema,
  ImageAliasesEntry: ImageAliasesEntrySchema,
  ImageAliasesPost: ImageAliasesPostSchema,
  ImageAliasPut: ImageAliasPutSchema,
  ImageAliasPatch: ImageAliasPatchSchema,
  ImageAliasPost: ImageAliasPostSchema,
  PlacementGroup: PlacementGroupSchema,
  PlacementGroupsPost: PlacementGroupsPostSchema,
  PlacementGroupPut: PlacementGroupPutSchema,
  PlacementGroupPatch: PlacementGroupPatchSchema,
  PlacementGroupPost: PlacementGroupPostSchema,
  Warning: WarningSchema,
  WarningPut: WarningPutSchema,
  Instance: InstanceSchema,
  InstanceSource: InstanceSourceSchema,
  InstancesPost: InstancesPostSchema,
  InstancePut: InstancePutSchema,
  InstancePatch: InstancePatchSchema,
  InstancePost: InstancePostSchema,
  InstanceCommitPost: InstanceCommitPostSchema,
  InstancePlacement: InstancePlacementSchema,
  InstanceResources: InstanceResourcesSchema,
  BulkCreateRequest: BulkCreateRequestSchema,
  BulkCreateResult: BulkCreateResultSchema,
  BulkCreateFailure: BulkCreateFailureSchema,
  DryRunResult: DryRunResultSchema,
  RejectionGroup: RejectionGroupSchema,
  InstancePlacementRecord: InstancePlacementRecordSchema,
  ScriptletCheckRequest: ScriptletCheckRequestSchema,
  ScriptletCheckResult: ScriptletCheckResultSchema,
  Token: TokenSchema,
  TokensPost: TokensPostSchema,
  TokenCreated: TokenCreatedSchema,
} as const;

export type ApiSchemaName = keyof typeof apiSchemas;

export interface ApiSchemaMeta {
  readonly id: string;
}

/**
 * A zod registry holding every schema of `apiSchemas` under its name, built fresh per call
 * so nothing leaks into zod's global registry. Nested schemas that are themselves named
 * (e.g. InstanceSource inside InstancesPost) become `$ref`s in the generated document.
 */
export function createApiSchemaRegistry(): z.core.$ZodRegistry<ApiSchemaMeta> {
  const registry = z.registry<ApiSchemaMeta>();
  for (const [name, schema] of Object.entries(apiSchemas)) {
    // Schemas shared under two names (ServerPatch is ServerPut) are registered once.
    if (!registry.has(schema)) registry.add(schema, { id: name });
  }
  return registry;
}

/**
 * JSON Schemas (draft 2020-12) of every named wire schema, as request bodies are read
 * (`io: "input"`: fields with defaults are optional). The server embeds these into
 * `/1.0/openapi.json` under `components.schemas`.
 */
export function apiJsonSchemas(): Record<string, Record<string, unknown>> {
  const document = z.toJSONSchema(createApiSchemaRegistry(), {
    io: "input",
    // Refinements and defaults are not JSON Schema; anything else unrepresentable becomes "any" rather than throwing.
    unrepresentable: "any",
    uri: (id) => `#/components/schemas/${id}`,
  });
  const schemas: Record<string, Record<string, unknown>> = {};
  for (const [name, schema] of Object.entries(document.schemas)) {
    // OpenAPI components are addressed by their key; per-schema $id/$schema would only confuse tools.
    const { $id: _id, $schema: _dialect, ...rest } = schema as Record<string, unknown>;
    schemas[name] = rest;
  }
  return schemas;
}

/** A body of the named schema as a caller writes it: fields with server-side defaults may be left out. */
export type ApiInput<N extends ApiSchemaName> = z.input<(typeof apiSchemas)[N]>;
/** A value of the named schema as the server sends it. */
export type ApiOutput<N extends ApiSchemaName> = z.output<(typeof apiSchemas)[N]>;
