import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  createClient
} from "./chunk-RQFZEIHT.js";
import "./chunk-IIYLKHEW.js";
import "./chunk-USYPUJD4.js";
import "./chunk-DGG4OAUV.js";
export {
  createClient
};
