export type { ApiTokenRecord } from "./api-tokens.js";
export type { TrustedCertificateRecord, TrustTokenRecord } from "./trust.js";
