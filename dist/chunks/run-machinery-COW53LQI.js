import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  DryRunPublisher,
  openStateSession,
  runSession
} from "./chunk-4ELXB7DR.js";
import {
  stateFolder
} from "./chunk-3QTVR2TJ.js";
import "./chunk-UOEWHHCT.js";
import "./chunk-PDUDO662.js";
import "./chunk-FMPF2IXT.js";
import "./chunk-A7L3NG6G.js";
import "./chunk-VL6SSRFO.js";

// src/state/folder-cache.ts
import { createHash } from "node:crypto";
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
var KEEP_STATES = 5;
var KEEP_RECORDS = 500;
var RECORD_KEY = /@(?:charges|lease)-/;
var KEY_FILE = ".loopgate-key";
function folderName(key) {
  return /^[A-Za-z0-9][A-Za-z0-9._@~-]{0,200}$/.test(key) ? key : `h-${createHash("sha256").update(key).digest("hex").slice(0, 40)}`;
}
function copyFiles(from, to) {
  mkdirSync(to, { recursive: true, mode: 448 });
  for (const name of readdirSync(from)) {
    const source = path.join(from, name);
    if (lstatSync(source).isFile()) copyFileSync(source, path.join(to, name));
  }
}
function readEntry(root, name) {
  const dir = path.join(root, name);
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory() || name.startsWith(".")) return null;
    const keyFile = path.join(dir, KEY_FILE);
    const key = lstatSync(keyFile, { throwIfNoEntry: false })?.isFile() ? readFileSync(keyFile, "utf8") : name;
    return { key, dir, savedAt: st.mtimeMs };
  } catch {
    return null;
  }
}
function entries(root) {
  let names;
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names.map((n) => readEntry(root, n)).filter((e) => e !== null).sort((a, b) => b.savedAt - a.savedAt);
}
function prune(root) {
  const all = entries(root);
  const states = all.filter((e) => !RECORD_KEY.test(e.key));
  const records = all.filter((e) => RECORD_KEY.test(e.key));
  for (const old of [...states.slice(KEEP_STATES), ...records.slice(KEEP_RECORDS)]) rmSync(old.dir, { recursive: true, force: true });
}
function folderCache(root) {
  return {
    isFeatureAvailable: () => true,
    restoreCache: async (paths, primaryKey, restoreKeys = []) => {
      const states = entries(root).filter((e) => !RECORD_KEY.test(e.key));
      const found = states.find((e) => e.key === primaryKey) ?? states.find((e) => restoreKeys.some((prefix) => e.key.startsWith(prefix)));
      if (!found) return void 0;
      copyFiles(found.dir, path.resolve(paths[0]));
      rmSync(path.join(path.resolve(paths[0]), KEY_FILE), { force: true });
      return found.key;
    },
    saveCache: async (paths, key) => {
      mkdirSync(root, { recursive: true, mode: 448 });
      const partial = path.join(root, `.partial-${process.pid}`);
      rmSync(partial, { recursive: true, force: true });
      copyFiles(path.resolve(paths[0]), partial);
      writeFileSync(path.join(partial, KEY_FILE), key, { mode: 384 });
      const target = path.join(root, folderName(key));
      rmSync(target, { recursive: true, force: true });
      renameSync(partial, target);
      prune(root);
      return 1;
    }
  };
}
function folderCacheLister(root) {
  return async (prefix) => entries(root).filter((e) => e.key.startsWith(prefix)).map((e) => ({ key: e.key, ref: "local", createdAt: new Date(e.savedAt).toISOString() }));
}

// src/cli/local-state.ts
function localStateOpener(repo, opts) {
  return (settings) => {
    const folder = stateFolder(repo, settings.loopId);
    return openStateSession(settings, { ...opts, cache: folderCache(folder), listCaches: folderCacheLister(folder) });
  };
}
export {
  DryRunPublisher,
  localStateOpener,
  runSession
};
