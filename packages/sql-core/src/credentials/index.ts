export { type ApiTokenRecord, apiTokenRows } from "./api-tokens.js";
export { type TrustedCertificateRecord, type TrustTokenRecord, trustRows } from "./trust.js";
