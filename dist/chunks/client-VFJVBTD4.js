import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  createClient
} from "./chunk-YQFVJ6GO.js";
import "./chunk-LQLEHJOQ.js";
import "./chunk-PMCYRXYS.js";
import "./chunk-VL6SSRFO.js";
export {
  createClient
};
