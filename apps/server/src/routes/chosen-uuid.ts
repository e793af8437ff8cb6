import type { InstancesPost } from "@berth/api-types";
import { isAdmin, type Principal } from "../auth/principal.js";
import { forbiddenHttp } from "../http/http-error.js";

/**
 * Instance UUIDs are unique across projects, so a create naming one that
 * another project's instance holds must fail, and that failure would tell a
 * project-scoped caller the instance exists. Only admins (who see every
 * project) choose UUIDs; a project-scoped token gets the same 403 for any
 * `uuid`, taken or not, and the server assigns one when it is left out (the
 * answer carries it, so reservations stay addressable by UUID).
 */
export function refuseChosenUuids(principal: Principal, bodies: readonly InstancesPost[]): void {
  if (isAdmin(principal)) return;
  if (bodies.some((body) => body.uuid !== undefined)) {
    throw forbiddenHttp(
      'Forbidden: only admin tokens may choose an instance\'s "uuid"; leave it out and the server assigns one',
    );
  }
}
