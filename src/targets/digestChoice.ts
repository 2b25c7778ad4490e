// Which fixed-size digest (SPEC H1) the reference and the oracle use. The default, walk128, is
// the fast one; LOOPSIM_DIGEST=sha256 gives the SHA-256 that OpenClaw uses. Verdicts depend only
// on digest equality, so every trace, verdict and report is byte-identical with either.
import { DEFAULT_DIGEST, DIGEST_NAMES, isDigestName, type DigestName } from "../../models/digest.js";
import { UserError } from "../io/errors.js";

export function chosenDigest(): DigestName {
  const name = process.env.LOOPSIM_DIGEST;
  if (name === undefined || name === "") return DEFAULT_DIGEST;
  if (isDigestName(name)) return name;
  throw new UserError(`LOOPSIM_DIGEST: unknown digest ${JSON.stringify(name)}; choose one of ${DIGEST_NAMES.join(", ")}`);
}
