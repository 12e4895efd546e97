import type { AppConfig } from "../config/index.js";
import { createGraphApiClient, createHttpTransport, type GraphApiClient } from "../whatsapp/index.js";
import { StartupError } from "./errors.js";

export interface GraphClients {
  /** The Graph API client of a tenant (its token), made on first use. */
  readonly clientFor: (tenantId: string) => GraphApiClient;
  close(): Promise<void>;
}

/** One Graph API client per tenant token, over one keep-alive transport. */
export function createGraphClients(config: AppConfig, timeoutMs: number): GraphClients {
  const transport = createHttpTransport();
  const clients = new Map<string, GraphApiClient>();
  return {
    clientFor(tenantId) {
      const known = clients.get(tenantId);
      if (known !== undefined) return known;
      const token = config.tenants.find((tenant) => tenant.id === tenantId)?.graphToken;
      if (token === undefined)
        throw new StartupError(`tenant "${tenantId}" has no Graph API token to send with`);
      const client = createGraphApiClient(
        { transport },
        {
          ...config.graph,
          token,
          timeoutMs,
          ...(config.mediaHosts === undefined ? {} : { mediaHostSuffixes: config.mediaHosts }),
        },
      );
      clients.set(tenantId, client);
      return client;
    },
    async close() {
      await Promise.all([...clients.values()].map((client) => client.close()));
      await transport.close();
    },
  };
}
