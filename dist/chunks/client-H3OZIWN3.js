import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  createClient
} from "./chunk-X2EX65DF.js";
import "./chunk-TI5JBSWS.js";
import "./chunk-ZIVWQX7B.js";
import "./chunk-VL6SSRFO.js";
export {
  createClient
};
