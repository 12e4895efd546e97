export { type ErrorCatalogEntry, SharpsharpError, type SharpsharpErrorOptions } from "./sharpsharp-error.js";
