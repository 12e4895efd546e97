// The FAQ index lives in src/knowledge so the router's FAQ tier can use it without depending on the agent.
export {
  createKnowledgeBase,
  type KnowledgeBase,
  type KnowledgeEntry,
  type KnowledgeHit,
} from "../knowledge/knowledge-base.js";
