/**
 * A `.dockerignore` as Docker reads it: one pattern a line (`#` comments), Go's filepath.Match with `**`
 * for any number of folders, `!` to take a path back; the last pattern that matches a path, or one of its
 * parent folders, decides.
 */
export interface DockerIgnore {
  /** Whether the build context holds `path` (relative to the context, `/`-separated). */
  includes(path: string): boolean;
}

interface Rule {
  readonly negated: boolean;
  readonly pattern: RegExp;
}

function patternToRegExp(pattern: string): RegExp {
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index] as string;
    if (char === "*" && pattern[index + 1] === "*") {
      // `**/` matches no folder or any number of them; a trailing `**` matches everything below.
      const slash = pattern[index + 2] === "/";
      source += slash ? "(?:.*/)?" : ".*";
      index += slash ? 2 : 1;
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

function clean(path: string): string {
  return path.replace(/^\.?\/+/, "").replace(/\/+$/, "");
}

export function parseDockerIgnore(text: string): DockerIgnore {
  const rules: Rule[] = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const negated = line.startsWith("!");
      return { negated, pattern: patternToRegExp(clean(negated ? line.slice(1).trim() : line)) };
    });
  return {
    includes(path) {
      const parts = clean(path).split("/");
      // The path and each of its parent folders: a pattern matching a folder covers what is inside it.
      const candidates = parts.map((_, index) => parts.slice(0, index + 1).join("/"));
      let included = true;
      for (const rule of rules) {
        if (candidates.some((candidate) => rule.pattern.test(candidate))) included = rule.negated;
      }
      return included;
    },
  };
}
