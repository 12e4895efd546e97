/**
 * Hosts Meta serves media downloads from: the URL `GET /{media-id}` answers
 * is on `lookaside.fbsbx.com` (Meta's media docs and every recorded answer in
 * test/fixtures), older and CDN URLs on `*.whatsapp.net` and `*.facebook.com`.
 * The bearer token goes to these (over https) and to the Graph API's own host only.
 */
export const DEFAULT_MEDIA_HOST_SUFFIXES: readonly string[] = Object.freeze([
  "fbsbx.com",
  "facebook.com",
  "whatsapp.net",
]);

const HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/**
 * Checks and normalises a list of host suffixes (lower case, no leading or
 * trailing dot). Throws a TypeError naming the first bad entry: a suffix is a
 * host name such as `fbsbx.com`, never a URL, a pattern or an empty string.
 */
export function checkMediaHostSuffixes(suffixes: readonly string[]): readonly string[] {
  return Object.freeze(
    suffixes.map((raw) => {
      const suffix = raw.trim().toLowerCase().replace(/^\./, "").replace(/\.$/, "");
      if (!HOST_NAME.test(suffix)) {
        throw new TypeError(
          `media host suffix ${JSON.stringify(raw)} is not a host name such as "fbsbx.com"`,
        );
      }
      return suffix;
    }),
  );
}

/**
 * Whether `hostname` is one of `suffixes` or a subdomain of one, on a dot
 * boundary: `lookaside.fbsbx.com` and `fbsbx.com` match `fbsbx.com`;
 * `evilfbsbx.com` and `fbsbx.com.evil.net` do not. `suffixes` must have been
 * through `checkMediaHostSuffixes`.
 */
export function hostMatchesSuffix(hostname: string, suffixes: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return suffixes.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}
