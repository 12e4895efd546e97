export {
  createStoreRecorders,
  type StoreRecorders,
  type StoreRecordersOptions,
} from "./create-store-recorders.js";
export { inboundRecordOf, outboundRecordOf, textOfGraphBody } from "./record-of.js";
export { turnRecordOf } from "./record-turns.js";
