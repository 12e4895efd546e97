export {
  createSqliteCampaignStore,
  type SqliteCampaignStore,
  type SqliteCampaignStoreOptions,
} from "./sqlite-campaign-store.js";
