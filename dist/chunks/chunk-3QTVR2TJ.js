import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);

// src/cli/state-folder.ts
import path from "node:path";
var STATE_FOLDER_WORDS = "<repository>/.git/loopgate/state/<loop-id>";
function stateFolder(repo, loopId) {
  return path.join(repo.commonDir, "loopgate", "state", loopId);
}

export {
  STATE_FOLDER_WORDS,
  stateFolder
};
