export { buildIngressApp, type IngressAppOptions } from "./build-ingress-app.js";
export { ingressErrorCatalog } from "./errors.js";
export { constantTimeEquals, isValidSignature, signatureFor } from "./signature.js";
