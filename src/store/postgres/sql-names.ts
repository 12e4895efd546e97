/** Quotes a PostgreSQL identifier (the schema name comes from configuration or a test). */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Fully qualified table names of one store schema. */
export function tableNames(schema: string) {
  const q = quoteIdentifier(schema);
  return {
    conversations: `${q}.conversations`,
    messages: `${q}.messages`,
    deliveries: `${q}.deliveries`,
    turns: `${q}.turns`,
    notes: `${q}.notes`,
    operators: `${q}.operators`,
    operatorGrants: `${q}.operator_grants`,
    sessions: `${q}.sessions`,
    apiTokens: `${q}.api_tokens`,
    migrations: `${q}.schema_migrations`,
    campaigns: `${q}.campaigns`,
    campaignRecipients: `${q}.campaign_recipients`,
    messagingWindow: `${q}.messaging_window`,
    suppressions: `${q}.suppressions`,
    numberStandings: `${q}.number_standings`,
  } as const;
}

export type TableNames = ReturnType<typeof tableNames>;
