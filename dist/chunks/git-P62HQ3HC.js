import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  GitError,
  LOOPGATE_GIT_CONFIG,
  git,
  gitArgs,
  gitEnv
} from "./chunk-TJTLUPO7.js";
import "./chunk-DGG4OAUV.js";
export {
  GitError,
  LOOPGATE_GIT_CONFIG,
  git,
  gitArgs,
  gitEnv
};
