/** Reported by GET /1.0 and the OpenAPI document. */
export const SERVER_VERSION = "0.1.0";
