export {
  createPostgresCampaignStore,
  openPostgresCampaignStore,
  type PostgresCampaignStore,
  type PostgresCampaignStoreOptions,
} from "./postgres-campaign-store.js";
