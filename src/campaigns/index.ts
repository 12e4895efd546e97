export type * from "./campaign-types.js";
export type * from "./ports.js";
