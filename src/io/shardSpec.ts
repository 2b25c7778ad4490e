// `--shard I/N`, and `--shard auto` (or `auto/N`): the shard index and count read from the batch
// engine that started the process, so one command line serves every task of an array job.
// Recognised, in this order: LOOPSIM_SHARD_INDEX/LOOPSIM_SHARD_COUNT (1-based, set by hand or by a
// CI matrix: GitHub Actions has no variable of its own, so its workflow sets these from
// strategy.job-index and strategy.job-total); Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX,
// 0-based; the count from LOOPSIM_SHARD_COUNT or auto/N, since the Job's completions are not in
// the environment); Slurm job arrays (SLURM_ARRAY_TASK_ID from SLURM_ARRAY_TASK_MIN, and
// SLURM_ARRAY_TASK_COUNT); GitLab CI parallel jobs (CI_NODE_INDEX 1-based, CI_NODE_TOTAL); AWS
// Batch array jobs (AWS_BATCH_JOB_ARRAY_INDEX, 0-based; the count as for Kubernetes).
import { UserError } from "./errors.js";

/** Shard `index` of `of` (`--shard I/N`): every N-th item of a listing, from the I-th. */
export interface Shard {
  /** 1-based. */
  readonly index: number;
  readonly of: number;
}

type Env = Readonly<Record<string, string | undefined>>;

function int(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UserError(`--shard auto: ${name}=${raw} is not a whole number`);
  return Number(raw.trim());
}

/** Which engine's variables are set, with the shard they give (count may be missing). */
function fromEngine(env: Env): { engine: string; index: number; of: number | undefined } | undefined {
  const explicit = int(env, "LOOPSIM_SHARD_INDEX");
  if (explicit !== undefined) return { engine: "LOOPSIM_SHARD_INDEX", index: explicit, of: int(env, "LOOPSIM_SHARD_COUNT") };
  const k8s = int(env, "JOB_COMPLETION_INDEX");
  if (k8s !== undefined) return { engine: "a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)", index: k8s + 1, of: int(env, "LOOPSIM_SHARD_COUNT") };
  const slurm = int(env, "SLURM_ARRAY_TASK_ID");
  if (slurm !== undefined) return { engine: "a Slurm job array (SLURM_ARRAY_TASK_ID)", index: slurm - (int(env, "SLURM_ARRAY_TASK_MIN") ?? 0) + 1, of: int(env, "SLURM_ARRAY_TASK_COUNT") ?? int(env, "LOOPSIM_SHARD_COUNT") };
  const gitlab = int(env, "CI_NODE_INDEX");
  if (gitlab !== undefined) return { engine: "a GitLab CI parallel job (CI_NODE_INDEX)", index: gitlab, of: int(env, "CI_NODE_TOTAL") };
  const aws = int(env, "AWS_BATCH_JOB_ARRAY_INDEX");
  if (aws !== undefined) return { engine: "an AWS Batch array job (AWS_BATCH_JOB_ARRAY_INDEX)", index: aws + 1, of: int(env, "LOOPSIM_SHARD_COUNT") };
  return undefined;
}

export function parseShard(spec: string, env: Env = process.env): Shard {
  const auto = /^auto(?:\/([1-9][0-9]*))?$/.exec(spec);
  if (auto !== null) {
    const found = fromEngine(env);
    if (found === undefined) throw new UserError(`--shard ${spec}: no batch engine's shard variables are set (LOOPSIM_SHARD_INDEX/COUNT, JOB_COMPLETION_INDEX, SLURM_ARRAY_TASK_ID, CI_NODE_INDEX, AWS_BATCH_JOB_ARRAY_INDEX); on GitHub Actions set LOOPSIM_SHARD_INDEX and LOOPSIM_SHARD_COUNT from the matrix`);
    const of = auto[1] !== undefined ? Number(auto[1]) : found.of;
    if (of === undefined) throw new UserError(`--shard ${spec}: ${found.engine} gives the index but not the count: use --shard auto/N or set LOOPSIM_SHARD_COUNT`);
    return checked(found.index, of, `--shard ${spec} (from ${found.engine})`);
  }
  // Shards count from 1, as `1/4 ... 4/4` reads; a 0-based index from habit is told so.
  if (/^0+\/[0-9]+$/.test(spec)) throw new UserError(`--shard ${spec}: I counts from 1 (the first shard is 1/${spec.split("/")[1]}); for a 0-based index from a batch engine use --shard auto`);
  const match = /^([1-9][0-9]*)\/([1-9][0-9]*)$/.exec(spec);
  if (match === null) throw new UserError(`--shard ${spec}: expected I/N (for example 1/4), auto, or auto/N`);
  return checked(Number(match[1]), Number(match[2]), `--shard ${spec}`);
}

function checked(index: number, of: number, what: string): Shard {
  if (of < 1) throw new UserError(`${what}: the count must be at least 1`);
  if (index < 1 || index > of) throw new UserError(`${what}: shard ${index} of ${of} is out of range (I must be between 1 and N)`);
  return { index, of };
}
