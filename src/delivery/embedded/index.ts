export {
  createSqliteDeliveryStatusStore,
  type SqliteDeliveryStatusStore,
  type SqliteDeliveryStatusStoreOptions,
} from "./sqlite-delivery-status-store.js";
