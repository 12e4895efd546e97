import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { Agent, buildConnector } from "undici";
import type { EgressPolicy } from "./egress-policy.js";
import { EgressRefusedError } from "./errors.js";

/**
 * An HTTP agent whose every connection is checked against `policy` at connect
 * time: an IP literal before the socket opens, a host name on the addresses
 * DNS gave for this very connection (so a name that answers with a public
 * address when checked and a private one when used, DNS rebinding, gets
 * nowhere). A refusal fails the request with an `EgressRefusedError` as its
 * cause; no byte is sent. `resolve` is Node's dns.lookup unless a test swaps it.
 */
export function createEgressAgent(policy: EgressPolicy, resolve: LookupFunction = dnsLookup): Agent {
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    // All of them: with autoSelectFamily Node may try any, and a name that mixes in a refused one is refused.
    resolve(hostname, { ...options, all: true }, (error, found) => {
      if (error !== null) return callback(error, "", 0);
      const addresses = (Array.isArray(found) ? found : [{ address: found, family: 0 }]) as LookupAddress[];
      for (const { address } of addresses) {
        const verdict = policy.check(address);
        if (!verdict.allowed)
          return callback(new EgressRefusedError(hostname, address, verdict.range), "", 0);
      }
      const [first] = addresses;
      if (options.all === true) callback(null, addresses);
      else if (first === undefined)
        callback(Object.assign(new Error(`no address for ${hostname}`), { code: "ENOTFOUND" }), "", 0);
      else callback(null, first.address, first.family);
    });
  };
  const connector = buildConnector({ lookup: checkedLookup });
  return new Agent({
    connect(options, callback) {
      // Node skips the lookup for an IP literal, so the literal is checked here.
      if (isIP(options.hostname) !== 0) {
        const verdict = policy.check(options.hostname);
        if (!verdict.allowed) {
          const refused = new EgressRefusedError(options.hostname, options.hostname, verdict.range);
          process.nextTick(() => callback(refused, null));
          return;
        }
      }
      connector(options, callback);
    },
  });
}
