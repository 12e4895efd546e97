import { DockerfileParser, type Instruction } from "dockerfile-ast";

/** One instruction of a Dockerfile, as the deploy tests read it. */
export interface DockerInstruction {
  /** Upper case: `FROM`, `COPY`, `RUN`, … */
  readonly keyword: string;
  /** `--from=build` → `from` → `build`. */
  readonly flags: ReadonlyMap<string, string | null>;
  /** The arguments after the flags, split as the shell form would be (JSON brackets included). */
  readonly args: readonly string[];
  /** The exec (JSON) form's strings, when the instruction uses it (`HEALTHCHECK` after its `CMD`). */
  readonly exec: readonly string[] | undefined;
  readonly line: number;
}

export interface DockerStage {
  /** The stage's `AS` name, if any. */
  readonly name: string | undefined;
  /** What follows FROM, unexpanded: `${NODE_IMAGE}`. */
  readonly base: string;
  readonly instructions: readonly DockerInstruction[];
}

export interface DockerfileModel {
  /** The ARGs before the first FROM (the only ones a FROM may use), with their defaults. */
  readonly globalArgs: ReadonlyMap<string, string | undefined>;
  readonly stages: readonly DockerStage[];
}

/** The exec form's strings: what follows the flags (and HEALTHCHECK's `CMD`) when it is a JSON array. */
function execForm(instruction: Instruction, keyword: string): string[] | undefined {
  let rest = (instruction.getArgumentsContent() ?? "").trim();
  while (rest.startsWith("--")) rest = rest.replace(/^--\S+\s*/, "");
  if (keyword === "HEALTHCHECK") rest = rest.replace(/^CMD\s+/, "");
  if (!rest.startsWith("[")) return undefined;
  const parsed: unknown = JSON.parse(rest);
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === "string"))
    throw new Error(`line ${instruction.getRange().start.line + 1}: not an array of strings`);
  return parsed;
}

/** Parses a Dockerfile (dockerfile-ast) into its global ARGs and its stages' instructions. */
export function parseDockerfile(text: string): DockerfileModel {
  const dockerfile = DockerfileParser.parse(text);
  const globalArgs = new Map<string, string | undefined>();
  for (const arg of dockerfile.getInitialARGs()) {
    const property = arg.getProperty();
    if (property !== null) globalArgs.set(property.getName(), property.getValue() ?? undefined);
  }
  const stages: { name: string | undefined; base: string; instructions: DockerInstruction[] }[] = [];
  for (const instruction of dockerfile.getInstructions()) {
    const keyword = instruction.getKeyword().toUpperCase();
    const withFlags = instruction as Instruction & {
      getFlags?: () => { getName(): string; getValue(): string | null }[];
    };
    const flags = new Map((withFlags.getFlags?.() ?? []).map((flag) => [flag.getName(), flag.getValue()]));
    const args = instruction
      .getArguments()
      .map((argument) => argument.getValue())
      .filter((value) => !value.startsWith("--") || keyword === "RUN");
    if (keyword === "FROM") {
      const asIndex = args.findIndex((value) => value.toUpperCase() === "AS");
      stages.push({
        name: asIndex === -1 ? undefined : args[asIndex + 1],
        base: args[0] ?? "",
        instructions: [],
      });
      continue;
    }
    if (stages.length === 0) continue; // the global ARGs, read above
    stages[stages.length - 1]?.instructions.push({
      keyword,
      flags,
      args,
      exec: execForm(instruction, keyword),
      line: instruction.getRange().start.line + 1,
    });
  }
  return { globalArgs, stages };
}

/** The instructions of `stage` with that keyword. */
export function instructionsOf(stage: DockerStage, keyword: string): DockerInstruction[] {
  return stage.instructions.filter((instruction) => instruction.keyword === keyword);
}
