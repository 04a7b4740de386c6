import { createRequire as __loopgateRequire } from 'node:module'; const require = __loopgateRequire(import.meta.url);
import {
  require_semver
} from "./chunk-A7L3NG6G.js";
import {
  __commonJS,
  __toESM
} from "./chunk-VL6SSRFO.js";

// node_modules/picomatch/lib/constants.js
var require_constants = __commonJS({
  "node_modules/picomatch/lib/constants.js"(exports, module) {
    "use strict";
    var WIN_SLASH = "\\\\/";
    var WIN_NO_SLASH = `[^${WIN_SLASH}]`;
    var DEFAULT_MAX_EXTGLOB_RECURSION = 0;
    var DOT_LITERAL = "\\.";
    var PLUS_LITERAL = "\\+";
    var QMARK_LITERAL = "\\?";
    var SLASH_LITERAL = "\\/";
    var ONE_CHAR = "(?=.)";
    var QMARK = "[^/]";
    var END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
    var START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
    var DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
    var NO_DOT = `(?!${DOT_LITERAL})`;
    var NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
    var NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
    var NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
    var QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
    var STAR = `${QMARK}*?`;
    var SEP = "/";
    var POSIX_CHARS = {
      DOT_LITERAL,
      PLUS_LITERAL,
      QMARK_LITERAL,
      SLASH_LITERAL,
      ONE_CHAR,
      QMARK,
      END_ANCHOR,
      DOTS_SLASH,
      NO_DOT,
      NO_DOTS,
      NO_DOT_SLASH,
      NO_DOTS_SLASH,
      QMARK_NO_DOT,
      STAR,
      START_ANCHOR,
      SEP
    };
    var WINDOWS_CHARS = {
      ...POSIX_CHARS,
      SLASH_LITERAL: `[${WIN_SLASH}]`,
      QMARK: WIN_NO_SLASH,
      STAR: `${WIN_NO_SLASH}*?`,
      DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
      NO_DOT: `(?!${DOT_LITERAL})`,
      NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
      NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
      START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
      END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
      SEP: "\\"
    };
    var POSIX_REGEX_SOURCE = {
      __proto__: null,
      alnum: "a-zA-Z0-9",
      alpha: "a-zA-Z",
      ascii: "\\x00-\\x7F",
      blank: " \\t",
      cntrl: "\\x00-\\x1F\\x7F",
      digit: "0-9",
      graph: "\\x21-\\x7E",
      lower: "a-z",
      print: "\\x20-\\x7E ",
      punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
      space: " \\t\\r\\n\\v\\f",
      upper: "A-Z",
      word: "A-Za-z0-9_",
      xdigit: "A-Fa-f0-9"
    };
    module.exports = {
      DEFAULT_MAX_EXTGLOB_RECURSION,
      MAX_LENGTH: 1024 * 64,
      POSIX_REGEX_SOURCE,
      // regular expressions
      REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
      REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
      REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
      REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
      REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
      REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,
      // Replace globs with equivalent patterns to reduce parsing time.
      REPLACEMENTS: {
        __proto__: null,
        "***": "*",
        "**/**": "**",
        "**/**/**": "**"
      },
      // Digits
      CHAR_0: 48,
      /* 0 */
      CHAR_9: 57,
      /* 9 */
      // Alphabet chars.
      CHAR_UPPERCASE_A: 65,
      /* A */
      CHAR_LOWERCASE_A: 97,
      /* a */
      CHAR_UPPERCASE_Z: 90,
      /* Z */
      CHAR_LOWERCASE_Z: 122,
      /* z */
      CHAR_LEFT_PARENTHESES: 40,
      /* ( */
      CHAR_RIGHT_PARENTHESES: 41,
      /* ) */
      CHAR_ASTERISK: 42,
      /* * */
      // Non-alphabetic chars.
      CHAR_AMPERSAND: 38,
      /* & */
      CHAR_AT: 64,
      /* @ */
      CHAR_BACKWARD_SLASH: 92,
      /* \ */
      CHAR_CARRIAGE_RETURN: 13,
      /* \r */
      CHAR_CIRCUMFLEX_ACCENT: 94,
      /* ^ */
      CHAR_COLON: 58,
      /* : */
      CHAR_COMMA: 44,
      /* , */
      CHAR_DOT: 46,
      /* . */
      CHAR_DOUBLE_QUOTE: 34,
      /* " */
      CHAR_EQUAL: 61,
      /* = */
      CHAR_EXCLAMATION_MARK: 33,
      /* ! */
      CHAR_FORM_FEED: 12,
      /* \f */
      CHAR_FORWARD_SLASH: 47,
      /* / */
      CHAR_GRAVE_ACCENT: 96,
      /* ` */
      CHAR_HASH: 35,
      /* # */
      CHAR_HYPHEN_MINUS: 45,
      /* - */
      CHAR_LEFT_ANGLE_BRACKET: 60,
      /* < */
      CHAR_LEFT_CURLY_BRACE: 123,
      /* { */
      CHAR_LEFT_SQUARE_BRACKET: 91,
      /* [ */
      CHAR_LINE_FEED: 10,
      /* \n */
      CHAR_NO_BREAK_SPACE: 160,
      /* \u00A0 */
      CHAR_PERCENT: 37,
      /* % */
      CHAR_PLUS: 43,
      /* + */
      CHAR_QUESTION_MARK: 63,
      /* ? */
      CHAR_RIGHT_ANGLE_BRACKET: 62,
      /* > */
      CHAR_RIGHT_CURLY_BRACE: 125,
      /* } */
      CHAR_RIGHT_SQUARE_BRACKET: 93,
      /* ] */
      CHAR_SEMICOLON: 59,
      /* ; */
      CHAR_SINGLE_QUOTE: 39,
      /* ' */
      CHAR_SPACE: 32,
      /*   */
      CHAR_TAB: 9,
      /* \t */
      CHAR_UNDERSCORE: 95,
      /* _ */
      CHAR_VERTICAL_LINE: 124,
      /* | */
      CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279,
      /* \uFEFF */
      /**
       * Create EXTGLOB_CHARS
       */
      extglobChars(chars) {
        return {
          "!": { type: "negate", open: "(?:(?!(?:", close: `))${chars.STAR})` },
          "?": { type: "qmark", open: "(?:", close: ")?" },
          "+": { type: "plus", open: "(?:", close: ")+" },
          "*": { type: "star", open: "(?:", close: ")*" },
          "@": { type: "at", open: "(?:", close: ")" }
        };
      },
      /**
       * Create GLOB_CHARS
       */
      globChars(win32) {
        return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
      }
    };
  }
});

// node_modules/picomatch/lib/utils.js
var require_utils = __commonJS({
  "node_modules/picomatch/lib/utils.js"(exports) {
    "use strict";
    var {
      REGEX_BACKSLASH,
      REGEX_REMOVE_BACKSLASH,
      REGEX_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_GLOBAL
    } = require_constants();
    exports.isObject = (val) => val !== null && typeof val === "object" && !Array.isArray(val);
    exports.hasRegexChars = (str2) => REGEX_SPECIAL_CHARS.test(str2);
    exports.isRegexChar = (str2) => str2.length === 1 && exports.hasRegexChars(str2);
    exports.escapeRegex = (str2) => str2.replace(REGEX_SPECIAL_CHARS_GLOBAL, "\\$1");
    exports.toPosixSlashes = (str2) => str2.replace(REGEX_BACKSLASH, "/");
    exports.isWindows = () => {
      if (typeof navigator !== "undefined" && navigator.platform) {
        const platform = navigator.platform.toLowerCase();
        return platform === "win32" || platform === "windows";
      }
      if (typeof process !== "undefined" && process.platform) {
        return process.platform === "win32";
      }
      return false;
    };
    exports.removeBackslashes = (str2) => {
      return str2.replace(REGEX_REMOVE_BACKSLASH, (match) => {
        return match === "\\" ? "" : match;
      });
    };
    exports.escapeLast = (input, char, lastIdx) => {
      const idx = input.lastIndexOf(char, lastIdx);
      if (idx === -1) return input;
      if (input[idx - 1] === "\\") return exports.escapeLast(input, char, idx - 1);
      return `${input.slice(0, idx)}\\${input.slice(idx)}`;
    };
    exports.removePrefix = (input, state = {}) => {
      let output = input;
      if (output.startsWith("./")) {
        output = output.slice(2);
        state.prefix = "./";
      }
      return output;
    };
    exports.wrapOutput = (input, state = {}, options = {}) => {
      const prepend = options.contains ? "" : "^";
      const append = options.contains ? "" : "$";
      let output = `${prepend}(?:${input})${append}`;
      if (state.negated === true) {
        output = `(?:^(?!${output}).*$)`;
      }
      return output;
    };
    exports.basename = (path15, { windows } = {}) => {
      const segs = path15.split(windows ? /[\\/]/ : "/");
      const last = segs[segs.length - 1];
      if (last === "") {
        return segs[segs.length - 2];
      }
      return last;
    };
  }
});

// node_modules/picomatch/lib/scan.js
var require_scan = __commonJS({
  "node_modules/picomatch/lib/scan.js"(exports, module) {
    "use strict";
    var utils = require_utils();
    var {
      CHAR_ASTERISK,
      /* * */
      CHAR_AT,
      /* @ */
      CHAR_BACKWARD_SLASH,
      /* \ */
      CHAR_COMMA,
      /* , */
      CHAR_DOT,
      /* . */
      CHAR_EXCLAMATION_MARK,
      /* ! */
      CHAR_FORWARD_SLASH,
      /* / */
      CHAR_LEFT_CURLY_BRACE,
      /* { */
      CHAR_LEFT_PARENTHESES,
      /* ( */
      CHAR_LEFT_SQUARE_BRACKET,
      /* [ */
      CHAR_PLUS,
      /* + */
      CHAR_QUESTION_MARK,
      /* ? */
      CHAR_RIGHT_CURLY_BRACE,
      /* } */
      CHAR_RIGHT_PARENTHESES,
      /* ) */
      CHAR_RIGHT_SQUARE_BRACKET
      /* ] */
    } = require_constants();
    var isPathSeparator = (code) => {
      return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
    };
    var depth = (token) => {
      if (token.isPrefix !== true) {
        token.depth = token.isGlobstar ? Infinity : 1;
      }
    };
    var scan2 = (input, options) => {
      const opts = options || {};
      const length = input.length - 1;
      const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
      const slashes = [];
      const tokens = [];
      const parts = [];
      let str2 = input;
      let index = -1;
      let start = 0;
      let lastIndex = 0;
      let isBrace = false;
      let isBracket = false;
      let isGlob = false;
      let isExtglob = false;
      let isGlobstar = false;
      let braceEscaped = false;
      let backslashes = false;
      let negated = false;
      let negatedExtglob = false;
      let finished = false;
      let braces = 0;
      let prev;
      let code;
      let token = { value: "", depth: 0, isGlob: false };
      const eos = () => index >= length;
      const peek = () => str2.charCodeAt(index + 1);
      const advance = () => {
        prev = code;
        return str2.charCodeAt(++index);
      };
      while (index < length) {
        code = advance();
        let next;
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          code = advance();
          if (code === CHAR_LEFT_CURLY_BRACE) {
            braceEscaped = true;
          }
          continue;
        }
        if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
          braces++;
          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (code === CHAR_LEFT_CURLY_BRACE) {
              braces++;
              continue;
            }
            if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (braceEscaped !== true && code === CHAR_COMMA) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (code === CHAR_RIGHT_CURLY_BRACE) {
              braces--;
              if (braces === 0) {
                braceEscaped = false;
                isBrace = token.isBrace = true;
                finished = true;
                break;
              }
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_FORWARD_SLASH) {
          slashes.push(index);
          tokens.push(token);
          token = { value: "", depth: 0, isGlob: false };
          if (finished === true) continue;
          if (prev === CHAR_DOT && index === start + 1) {
            start += 2;
            continue;
          }
          lastIndex = index + 1;
          continue;
        }
        if (opts.noext !== true) {
          const isExtglobChar = code === CHAR_PLUS || code === CHAR_AT || code === CHAR_ASTERISK || code === CHAR_QUESTION_MARK || code === CHAR_EXCLAMATION_MARK;
          if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
            isGlob = token.isGlob = true;
            isExtglob = token.isExtglob = true;
            finished = true;
            if (code === CHAR_EXCLAMATION_MARK && index === start) {
              negatedExtglob = true;
            }
            if (scanToEnd === true) {
              let parens = 0;
              while (eos() !== true && (code = advance())) {
                if (code === CHAR_BACKWARD_SLASH) {
                  backslashes = token.backslashes = true;
                  advance();
                  continue;
                }
                if (code === CHAR_LEFT_PARENTHESES) {
                  parens++;
                  continue;
                }
                if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                  finished = true;
                  break;
                }
              }
              continue;
            }
            break;
          }
        }
        if (code === CHAR_ASTERISK) {
          if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_QUESTION_MARK) {
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_LEFT_SQUARE_BRACKET) {
          while (eos() !== true && (next = advance())) {
            if (next === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (next === CHAR_RIGHT_SQUARE_BRACKET) {
              isBracket = token.isBracket = true;
              isGlob = token.isGlob = true;
              finished = true;
              break;
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start) {
          negated = token.negated = true;
          start++;
          continue;
        }
        if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
          isGlob = token.isGlob = true;
          if (scanToEnd === true) {
            let parens = 1;
            while (eos() !== true && (code = advance())) {
              if (code === CHAR_BACKWARD_SLASH) {
                backslashes = token.backslashes = true;
                advance();
                continue;
              }
              if (code === CHAR_LEFT_PARENTHESES) {
                parens++;
                continue;
              }
              if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                finished = true;
                break;
              }
            }
            continue;
          }
          break;
        }
        if (isGlob === true) {
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
      }
      if (opts.noext === true) {
        isExtglob = false;
        isGlob = false;
      }
      let base = str2;
      let prefix = "";
      let glob = "";
      if (start > 0) {
        prefix = str2.slice(0, start);
        str2 = str2.slice(start);
        lastIndex -= start;
      }
      if (base && isGlob === true && lastIndex > 0) {
        base = str2.slice(0, lastIndex);
        glob = str2.slice(lastIndex);
      } else if (isGlob === true) {
        base = "";
        glob = str2;
      } else {
        base = str2;
      }
      if (base && base !== "" && base !== "/" && base !== str2) {
        if (isPathSeparator(base.charCodeAt(base.length - 1))) {
          base = base.slice(0, -1);
        }
      }
      if (opts.unescape === true) {
        if (glob) glob = utils.removeBackslashes(glob);
        if (base && backslashes === true) {
          base = utils.removeBackslashes(base);
        }
      }
      const state = {
        prefix,
        input,
        start,
        base,
        glob,
        isBrace,
        isBracket,
        isGlob,
        isExtglob,
        isGlobstar,
        negated,
        negatedExtglob
      };
      if (opts.tokens === true) {
        state.maxDepth = 0;
        if (!isPathSeparator(code)) {
          tokens.push(token);
        }
        state.tokens = tokens;
      }
      if (opts.parts === true || opts.tokens === true) {
        let prevIndex;
        for (let idx = 0; idx < slashes.length; idx++) {
          const n2 = prevIndex !== void 0 ? prevIndex + 1 : start;
          const i = slashes[idx];
          const value2 = input.slice(n2, i);
          if (opts.tokens) {
            if (idx === 0 && start !== 0) {
              tokens[idx].isPrefix = true;
              tokens[idx].value = prefix;
            } else {
              tokens[idx].value = value2;
            }
            depth(tokens[idx]);
            state.maxDepth += tokens[idx].depth;
          }
          if (i >= start) {
            parts.push(value2);
            prevIndex = i;
          }
        }
        const n = prevIndex !== void 0 ? prevIndex + 1 : start;
        const value = input.slice(n);
        parts.push(value);
        if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
          tokens[tokens.length - 1].value = value;
          depth(tokens[tokens.length - 1]);
          state.maxDepth += tokens[tokens.length - 1].depth;
        }
        state.slashes = slashes;
        state.parts = parts;
      }
      return state;
    };
    module.exports = scan2;
  }
});

// node_modules/picomatch/lib/parse.js
var require_parse = __commonJS({
  "node_modules/picomatch/lib/parse.js"(exports, module) {
    "use strict";
    var constants3 = require_constants();
    var utils = require_utils();
    var {
      MAX_LENGTH,
      POSIX_REGEX_SOURCE,
      REGEX_NON_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_BACKREF,
      REPLACEMENTS
    } = constants3;
    var expandRange = (args, options) => {
      if (typeof options.expandRange === "function") {
        return options.expandRange(...args, options);
      }
      args.sort();
      const value = `[${args.join("-")}]`;
      try {
        new RegExp(value);
      } catch (ex) {
        return args.map((v) => utils.escapeRegex(v)).join("..");
      }
      return value;
    };
    var syntaxError = (type2, char) => {
      return `Missing ${type2}: "${char}" - use "\\\\${char}" to match literal characters`;
    };
    var splitTopLevel = (input) => {
      const parts = [];
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let value = "";
      let escaped = false;
      for (const ch of input) {
        if (escaped === true) {
          value += ch;
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          value += ch;
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          value += ch;
          continue;
        }
        if (quote === 0) {
          if (ch === "[") {
            bracket++;
          } else if (ch === "]" && bracket > 0) {
            bracket--;
          } else if (bracket === 0) {
            if (ch === "(") {
              paren++;
            } else if (ch === ")" && paren > 0) {
              paren--;
            } else if (ch === "|" && paren === 0) {
              parts.push(value);
              value = "";
              continue;
            }
          }
        }
        value += ch;
      }
      parts.push(value);
      return parts;
    };
    var isPlainBranch = (branch) => {
      let escaped = false;
      for (const ch of branch) {
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (/[?*+@!()[\]{}]/.test(ch)) {
          return false;
        }
      }
      return true;
    };
    var normalizeSimpleBranch = (branch) => {
      let value = branch.trim();
      let changed = true;
      while (changed === true) {
        changed = false;
        if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
          value = value.slice(2, -1);
          changed = true;
        }
      }
      if (!isPlainBranch(value)) {
        return;
      }
      return value.replace(/\\(.)/g, "$1");
    };
    var hasRepeatedCharPrefixOverlap = (branches) => {
      const values = branches.map(normalizeSimpleBranch).filter(Boolean);
      for (let i = 0; i < values.length; i++) {
        for (let j = i + 1; j < values.length; j++) {
          const a = values[i];
          const b = values[j];
          const char = a[0];
          if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
            continue;
          }
          if (a === b || a.startsWith(b) || b.startsWith(a)) {
            return true;
          }
        }
      }
      return false;
    };
    var parseRepeatedExtglob = (pattern, requireEnd = true) => {
      if (pattern[0] !== "+" && pattern[0] !== "*" || pattern[1] !== "(") {
        return;
      }
      let bracket = 0;
      let paren = 0;
      let quote = 0;
      let escaped = false;
      for (let i = 1; i < pattern.length; i++) {
        const ch = pattern[i];
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote = quote === 1 ? 0 : 1;
          continue;
        }
        if (quote === 1) {
          continue;
        }
        if (ch === "[") {
          bracket++;
          continue;
        }
        if (ch === "]" && bracket > 0) {
          bracket--;
          continue;
        }
        if (bracket > 0) {
          continue;
        }
        if (ch === "(") {
          paren++;
          continue;
        }
        if (ch === ")") {
          paren--;
          if (paren === 0) {
            if (requireEnd === true && i !== pattern.length - 1) {
              return;
            }
            return {
              type: pattern[0],
              body: pattern.slice(2, i),
              end: i
            };
          }
        }
      }
    };
    var buildCharClassStar = (chars) => {
      const source = chars.length === 1 ? utils.escapeRegex(chars[0]) : `[${chars.map((ch) => utils.escapeRegex(ch)).join("")}]`;
      return `${source}*`;
    };
    var getStarExtglobSequenceChars = (pattern) => {
      let index = 0;
      const chars = [];
      while (index < pattern.length) {
        const match = parseRepeatedExtglob(pattern.slice(index), false);
        if (!match || match.type !== "*") {
          return;
        }
        const branches = splitTopLevel(match.body).map((branch2) => branch2.trim());
        if (branches.length !== 1) {
          return;
        }
        const branch = normalizeSimpleBranch(branches[0]);
        if (!branch || branch.length !== 1) {
          return;
        }
        chars.push(branch);
        index += match.end + 1;
      }
      if (chars.length < 1) {
        return;
      }
      return chars;
    };
    var repeatedExtglobRecursion = (pattern) => {
      let depth = 0;
      let value = pattern.trim();
      let match = parseRepeatedExtglob(value);
      while (match) {
        depth++;
        value = match.body.trim();
        match = parseRepeatedExtglob(value);
      }
      return depth;
    };
    var analyzeRepeatedExtglob = (body, options) => {
      if (options.maxExtglobRecursion === false) {
        return { risky: false };
      }
      const max = typeof options.maxExtglobRecursion === "number" ? options.maxExtglobRecursion : constants3.DEFAULT_MAX_EXTGLOB_RECURSION;
      const branches = splitTopLevel(body).map((branch) => branch.trim());
      if (branches.length > 1) {
        if (branches.some((branch) => branch === "") || branches.some((branch) => /^[*?]+$/.test(branch)) || hasRepeatedCharPrefixOverlap(branches)) {
          return { risky: true };
        }
      }
      const safeChars = [];
      let sawStarSequence = false;
      let combinable = true;
      for (const branch of branches) {
        const chars = getStarExtglobSequenceChars(branch);
        if (chars) {
          sawStarSequence = true;
          safeChars.push(...chars);
          continue;
        }
        const literal3 = normalizeSimpleBranch(branch);
        if (literal3 && literal3.length === 1) {
          safeChars.push(literal3);
          continue;
        }
        combinable = false;
        if (repeatedExtglobRecursion(branch) > max) {
          return { risky: true };
        }
      }
      if (sawStarSequence) {
        return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
      }
      return { risky: false };
    };
    var parse2 = (input, options) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected a string");
      }
      input = REPLACEMENTS[input] || input;
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      let len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      const bos = { type: "bos", value: "", output: opts.prepend || "" };
      const tokens = [bos];
      const capture = opts.capture ? "" : "?:";
      const PLATFORM_CHARS = constants3.globChars(opts.windows);
      const EXTGLOB_CHARS = constants3.extglobChars(PLATFORM_CHARS);
      const {
        DOT_LITERAL,
        PLUS_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOT_SLASH,
        NO_DOTS_SLASH,
        QMARK,
        QMARK_NO_DOT,
        STAR,
        START_ANCHOR
      } = PLATFORM_CHARS;
      const globstar = (opts2) => {
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const nodot = opts.dot ? "" : NO_DOT;
      const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
      let star = opts.bash === true ? globstar(opts) : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      if (typeof opts.noext === "boolean") {
        opts.noextglob = opts.noext;
      }
      const state = {
        input,
        index: -1,
        start: 0,
        dot: opts.dot === true,
        consumed: "",
        output: "",
        prefix: "",
        backtrack: false,
        negated: false,
        brackets: 0,
        braces: 0,
        parens: 0,
        quotes: 0,
        globstar: false,
        tokens
      };
      input = utils.removePrefix(input, state);
      len = input.length;
      const extglobs = [];
      const braces = [];
      const stack = [];
      let prev = bos;
      let value;
      const eos = () => state.index === len - 1;
      const peek = state.peek = (n = 1) => input[state.index + n];
      const advance = state.advance = () => input[++state.index] || "";
      const remaining = () => input.slice(state.index + 1);
      const consume = (value2 = "", num = 0) => {
        state.consumed += value2;
        state.index += num;
      };
      const append = (token) => {
        state.output += token.output != null ? token.output : token.value;
        consume(token.value);
      };
      const negate = () => {
        let count = 1;
        while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
          advance();
          state.start++;
          count++;
        }
        if (count % 2 === 0) {
          return false;
        }
        state.negated = true;
        state.start++;
        return true;
      };
      const increment = (type2) => {
        state[type2]++;
        stack.push(type2);
      };
      const decrement = (type2) => {
        state[type2]--;
        stack.pop();
      };
      const push = (tok) => {
        if (prev.type === "globstar") {
          const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
          const isExtglob = tok.extglob === true || extglobs.length && (tok.type === "pipe" || tok.type === "paren");
          if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
            state.output = state.output.slice(0, -prev.output.length);
            prev.type = "star";
            prev.value = "*";
            prev.output = star;
            state.output += prev.output;
          }
        }
        if (extglobs.length && tok.type !== "paren") {
          extglobs[extglobs.length - 1].inner += tok.value;
        }
        if (tok.value || tok.output) append(tok);
        if (prev && prev.type === "text" && tok.type === "text") {
          prev.output = (prev.output || prev.value) + tok.value;
          prev.value += tok.value;
          return;
        }
        tok.prev = prev;
        tokens.push(tok);
        prev = tok;
      };
      const extglobOpen = (type2, value2) => {
        const token = { ...EXTGLOB_CHARS[value2], conditions: 1, inner: "" };
        token.prev = prev;
        token.parens = state.parens;
        token.output = state.output;
        token.startIndex = state.index;
        token.tokensIndex = tokens.length;
        const output = (opts.capture ? "(" : "") + token.open;
        increment("parens");
        push({ type: type2, value: value2, output: state.output ? "" : ONE_CHAR });
        push({ type: "paren", extglob: true, value: advance(), output });
        extglobs.push(token);
      };
      const extglobClose = (token) => {
        const literal3 = input.slice(token.startIndex, state.index + 1);
        const body = input.slice(token.startIndex + 2, state.index);
        const analysis = analyzeRepeatedExtglob(body, opts);
        if ((token.type === "plus" || token.type === "star") && analysis.risky) {
          const safeOutput = analysis.safeOutput ? (token.output ? "" : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput) : void 0;
          const open = tokens[token.tokensIndex];
          open.type = "text";
          open.value = literal3;
          open.output = safeOutput || utils.escapeRegex(literal3);
          for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
            tokens[i].value = "";
            tokens[i].output = "";
            delete tokens[i].suffix;
          }
          state.output = token.output + open.output;
          state.backtrack = true;
          push({ type: "paren", extglob: true, value, output: "" });
          decrement("parens");
          return;
        }
        let output = token.close + (opts.capture ? ")" : "");
        let rest;
        if (token.type === "negate") {
          let extglobStar = star;
          if (token.inner && token.inner.length > 1 && token.inner.includes("/")) {
            extglobStar = globstar(opts);
          }
          if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
            output = token.close = `)$))${extglobStar}`;
          }
          if (token.inner.includes("*") && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
            const expression = parse2(rest, { ...options, fastpaths: false }).output;
            output = token.close = `)${expression})${extglobStar})`;
          }
          if (token.prev.type === "bos") {
            state.negatedExtglob = true;
          }
        }
        push({ type: "paren", extglob: true, value, output });
        decrement("parens");
      };
      if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
        let backslashes = false;
        let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
          if (first === "\\") {
            backslashes = true;
            return m;
          }
          if (first === "?") {
            if (esc) {
              return esc + first + (rest ? QMARK.repeat(rest.length) : "");
            }
            if (index === 0) {
              return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : "");
            }
            return QMARK.repeat(chars.length);
          }
          if (first === ".") {
            return DOT_LITERAL.repeat(chars.length);
          }
          if (first === "*") {
            if (esc) {
              return esc + first + (rest ? star : "");
            }
            return star;
          }
          return esc ? m : `\\${m}`;
        });
        if (backslashes === true) {
          if (opts.unescape === true) {
            output = output.replace(/\\/g, "");
          } else {
            output = output.replace(/\\+/g, (m) => {
              return m.length % 2 === 0 ? "\\\\" : m ? "\\" : "";
            });
          }
        }
        if (output === input && opts.contains === true) {
          state.output = input;
          return state;
        }
        state.output = utils.wrapOutput(output, state, options);
        return state;
      }
      while (!eos()) {
        value = advance();
        if (value === "\0") {
          continue;
        }
        if (value === "\\") {
          const next = peek();
          if (next === "/" && opts.bash !== true) {
            continue;
          }
          if (next === "." || next === ";") {
            continue;
          }
          if (!next) {
            value += "\\";
            push({ type: "text", value });
            continue;
          }
          const match = /^\\+/.exec(remaining());
          let slashes = 0;
          if (match && match[0].length > 2) {
            slashes = match[0].length;
            state.index += slashes;
            if (slashes % 2 !== 0) {
              value += "\\";
            }
          }
          if (opts.unescape === true) {
            value = advance();
          } else {
            value += advance();
          }
          if (state.brackets === 0) {
            push({ type: "text", value });
            continue;
          }
        }
        if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
          if (opts.posix !== false && value === ":") {
            const inner = prev.value.slice(1);
            if (inner.includes("[")) {
              prev.posix = true;
              if (inner.includes(":")) {
                const idx = prev.value.lastIndexOf("[");
                const pre = prev.value.slice(0, idx);
                const rest2 = prev.value.slice(idx + 2);
                const posix = POSIX_REGEX_SOURCE[rest2];
                if (posix) {
                  prev.value = pre + posix;
                  state.backtrack = true;
                  advance();
                  if (!bos.output && tokens.indexOf(prev) === 1) {
                    bos.output = ONE_CHAR;
                  }
                  continue;
                }
              }
            }
          }
          if (value === "[" && peek() !== ":" || value === "-" && peek() === "]") {
            value = `\\${value}`;
          }
          if (value === "]" && (prev.value === "[" || prev.value === "[^")) {
            value = `\\${value}`;
          }
          if (opts.posix === true && value === "!" && prev.value === "[") {
            value = "^";
          }
          prev.value += value;
          append({ value });
          continue;
        }
        if (state.quotes === 1 && value !== '"') {
          value = utils.escapeRegex(value);
          prev.value += value;
          append({ value });
          continue;
        }
        if (value === '"') {
          state.quotes = state.quotes === 1 ? 0 : 1;
          if (opts.keepQuotes === true) {
            push({ type: "text", value });
          }
          continue;
        }
        if (value === "(") {
          increment("parens");
          push({ type: "paren", value });
          continue;
        }
        if (value === ")") {
          if (state.parens === 0 && opts.strictBrackets === true) {
            throw new SyntaxError(syntaxError("opening", "("));
          }
          const extglob = extglobs[extglobs.length - 1];
          if (extglob && state.parens === extglob.parens + 1) {
            extglobClose(extglobs.pop());
            continue;
          }
          push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
          decrement("parens");
          continue;
        }
        if (value === "[") {
          if (opts.nobracket === true || !remaining().includes("]")) {
            if (opts.nobracket !== true && opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("closing", "]"));
            }
            value = `\\${value}`;
          } else {
            increment("brackets");
          }
          push({ type: "bracket", value });
          continue;
        }
        if (value === "]") {
          if (opts.nobracket === true || prev && prev.type === "bracket" && prev.value.length === 1) {
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          if (state.brackets === 0) {
            if (opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("opening", "["));
            }
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          decrement("brackets");
          const prevValue = prev.value.slice(1);
          if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) {
            value = `/${value}`;
          }
          prev.value += value;
          append({ value });
          if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
            continue;
          }
          const escaped = utils.escapeRegex(prev.value);
          state.output = state.output.slice(0, -prev.value.length);
          if (opts.literalBrackets === true) {
            state.output += escaped;
            prev.value = escaped;
            continue;
          }
          prev.value = `(${capture}${escaped}|${prev.value})`;
          state.output += prev.value;
          continue;
        }
        if (value === "{" && opts.nobrace !== true) {
          increment("braces");
          const open = {
            type: "brace",
            value,
            output: "(",
            outputIndex: state.output.length,
            tokensIndex: state.tokens.length
          };
          braces.push(open);
          push(open);
          continue;
        }
        if (value === "}") {
          const brace = braces[braces.length - 1];
          if (opts.nobrace === true || !brace) {
            push({ type: "text", value, output: value });
            continue;
          }
          let output = ")";
          if (brace.dots === true) {
            const arr = tokens.slice();
            const range = [];
            for (let i = arr.length - 1; i >= 0; i--) {
              tokens.pop();
              if (arr[i].type === "brace") {
                break;
              }
              if (arr[i].type !== "dots") {
                range.unshift(arr[i].value);
              }
            }
            output = expandRange(range, opts);
            state.backtrack = true;
          }
          if (brace.comma !== true && brace.dots !== true) {
            const out = state.output.slice(0, brace.outputIndex);
            const toks = state.tokens.slice(brace.tokensIndex);
            brace.value = brace.output = "\\{";
            value = output = "\\}";
            state.output = out;
            for (const t of toks) {
              state.output += t.output || t.value;
            }
          }
          push({ type: "brace", value, output });
          decrement("braces");
          braces.pop();
          continue;
        }
        if (value === "|") {
          if (extglobs.length > 0) {
            extglobs[extglobs.length - 1].conditions++;
          }
          push({ type: "text", value });
          continue;
        }
        if (value === ",") {
          let output = value;
          const brace = braces[braces.length - 1];
          if (brace && stack[stack.length - 1] === "braces") {
            brace.comma = true;
            output = "|";
          }
          push({ type: "comma", value, output });
          continue;
        }
        if (value === "/") {
          if (prev.type === "dot" && state.index === state.start + 1) {
            state.start = state.index + 1;
            state.consumed = "";
            state.output = "";
            tokens.pop();
            prev = bos;
            continue;
          }
          push({ type: "slash", value, output: SLASH_LITERAL });
          continue;
        }
        if (value === ".") {
          if (state.braces > 0 && prev.type === "dot") {
            if (prev.value === ".") prev.output = DOT_LITERAL;
            const brace = braces[braces.length - 1];
            prev.type = "dots";
            prev.output += value;
            prev.value += value;
            brace.dots = true;
            continue;
          }
          if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
            push({ type: "text", value, output: DOT_LITERAL });
            continue;
          }
          push({ type: "dot", value, output: DOT_LITERAL });
          continue;
        }
        if (value === "?") {
          const isGroup = prev && prev.value === "(";
          if (!isGroup && opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("qmark", value);
            continue;
          }
          if (prev && prev.type === "paren") {
            const next = peek();
            let output = value;
            if (prev.value === "(" && !/[!=<:]/.test(next) || next === "<" && !/<([!=]|\w+>)/.test(remaining())) {
              output = `\\${value}`;
            }
            push({ type: "text", value, output });
            continue;
          }
          if (opts.dot !== true && (prev.type === "slash" || prev.type === "bos")) {
            push({ type: "qmark", value, output: QMARK_NO_DOT });
            continue;
          }
          push({ type: "qmark", value, output: QMARK });
          continue;
        }
        if (value === "!") {
          if (opts.noextglob !== true && peek() === "(") {
            if (peek(2) !== "?" || !/[!=<:]/.test(peek(3))) {
              extglobOpen("negate", value);
              continue;
            }
          }
          if (opts.nonegate !== true && state.index === 0) {
            negate();
            continue;
          }
        }
        if (value === "+") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("plus", value);
            continue;
          }
          if (prev && prev.value === "(" || opts.regex === false) {
            push({ type: "plus", value, output: PLUS_LITERAL });
            continue;
          }
          if (prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace") || state.parens > 0) {
            push({ type: "plus", value });
            continue;
          }
          push({ type: "plus", value: PLUS_LITERAL });
          continue;
        }
        if (value === "@") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            push({ type: "at", extglob: true, value, output: "" });
            continue;
          }
          push({ type: "text", value });
          continue;
        }
        if (value !== "*") {
          if (value === "$" || value === "^") {
            value = `\\${value}`;
          }
          const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
          if (match) {
            value += match[0];
            state.index += match[0].length;
          }
          push({ type: "text", value });
          continue;
        }
        if (prev && (prev.type === "globstar" || prev.star === true)) {
          prev.type = "star";
          prev.star = true;
          prev.value += value;
          prev.output = star;
          state.backtrack = true;
          state.globstar = true;
          consume(value);
          continue;
        }
        let rest = remaining();
        if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
          extglobOpen("star", value);
          continue;
        }
        if (prev.type === "star") {
          if (opts.noglobstar === true) {
            consume(value);
            continue;
          }
          const prior = prev.prev;
          const before = prior.prev;
          const isStart = prior.type === "slash" || prior.type === "bos";
          const afterStar = before && (before.type === "star" || before.type === "globstar");
          if (opts.bash === true && (!isStart || rest[0] && rest[0] !== "/")) {
            push({ type: "star", value, output: "" });
            continue;
          }
          const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
          const isExtglob = extglobs.length && (prior.type === "pipe" || prior.type === "paren");
          if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
            push({ type: "star", value, output: "" });
            continue;
          }
          while (rest.slice(0, 3) === "/**") {
            const after = input[state.index + 4];
            if (after && after !== "/") {
              break;
            }
            rest = rest.slice(3);
            consume("/**", 3);
          }
          const isEnd = eos() || state.parens > 0 && rest === ")".repeat(state.parens) && !extglobs.some((extglob) => extglob.type === "negate");
          if (prior.type === "bos" && eos()) {
            prev.type = "globstar";
            prev.value += value;
            prev.output = globstar(opts);
            state.output = prev.output;
            state.globstar = true;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && !afterStar && isEnd) {
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = globstar(opts) + (opts.strictSlashes ? ")" : "|$)");
            prev.value += value;
            state.globstar = true;
            state.output += prior.output + prev.output;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && rest[0] === "/") {
            const end = rest[1] !== void 0 ? "|$" : "";
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
            prev.value += value;
            state.output += prior.output + prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          if (prior.type === "bos" && rest[0] === "/") {
            prev.type = "globstar";
            prev.value += value;
            prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
            state.output = prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          state.output = state.output.slice(0, -prev.output.length);
          prev.type = "globstar";
          prev.output = globstar(opts);
          prev.value += value;
          state.output += prev.output;
          state.globstar = true;
          consume(value);
          continue;
        }
        const token = { type: "star", value, output: star };
        if (opts.bash === true) {
          token.output = ".*?";
          if (prev.type === "bos" || prev.type === "slash") {
            token.output = nodot + token.output;
          }
          push(token);
          continue;
        }
        if (prev && (prev.type === "bracket" || prev.type === "paren") && opts.regex === true) {
          token.output = value;
          push(token);
          continue;
        }
        if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
          if (prev.type === "dot") {
            state.output += NO_DOT_SLASH;
            prev.output += NO_DOT_SLASH;
          } else if (opts.dot === true) {
            state.output += NO_DOTS_SLASH;
            prev.output += NO_DOTS_SLASH;
          } else {
            state.output += nodot;
            prev.output += nodot;
          }
          if (peek() !== "*") {
            state.output += ONE_CHAR;
            prev.output += ONE_CHAR;
          }
        }
        push(token);
      }
      while (state.brackets > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "]"));
        state.output = utils.escapeLast(state.output, "[");
        decrement("brackets");
      }
      while (state.parens > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", ")"));
        state.output = utils.escapeLast(state.output, "(");
        decrement("parens");
      }
      while (state.braces > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "}"));
        state.output = utils.escapeLast(state.output, "{");
        decrement("braces");
      }
      if (opts.strictSlashes !== true && (prev.type === "star" || prev.type === "bracket")) {
        push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });
      }
      if (state.backtrack === true) {
        state.output = "";
        for (const token of state.tokens) {
          state.output += token.output != null ? token.output : token.value;
          if (token.suffix) {
            state.output += token.suffix;
          }
        }
      }
      return state;
    };
    parse2.fastpaths = (input, options) => {
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      const len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      input = REPLACEMENTS[input] || input;
      const {
        DOT_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOTS,
        NO_DOTS_SLASH,
        STAR,
        START_ANCHOR
      } = constants3.globChars(opts.windows);
      const nodot = opts.dot ? NO_DOTS : NO_DOT;
      const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
      const capture = opts.capture ? "" : "?:";
      const state = { negated: false, prefix: "" };
      let star = opts.bash === true ? ".*?" : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      const globstar = (opts2) => {
        if (opts2.noglobstar === true) return star;
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const create = (str2) => {
        switch (str2) {
          case "*":
            return `${nodot}${ONE_CHAR}${star}`;
          case ".*":
            return `${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*.*":
            return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*/*":
            return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;
          case "**":
            return nodot + globstar(opts);
          case "**/*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;
          case "**/*.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "**/.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;
          default: {
            const match = /^(.*?)\.(\w+)$/.exec(str2);
            if (!match) return;
            const source2 = create(match[1]);
            if (!source2) return;
            return source2 + DOT_LITERAL + match[2];
          }
        }
      };
      const output = utils.removePrefix(input, state);
      let source = create(output);
      if (source && opts.strictSlashes !== true) {
        source += `${SLASH_LITERAL}?`;
      }
      return source;
    };
    module.exports = parse2;
  }
});

// node_modules/picomatch/lib/picomatch.js
var require_picomatch = __commonJS({
  "node_modules/picomatch/lib/picomatch.js"(exports, module) {
    "use strict";
    var scan2 = require_scan();
    var parse2 = require_parse();
    var utils = require_utils();
    var constants3 = require_constants();
    var isObject = (val) => val && typeof val === "object" && !Array.isArray(val);
    var picomatch4 = (glob, options, returnState = false) => {
      if (Array.isArray(glob)) {
        const fns = glob.map((input) => picomatch4(input, options, returnState));
        const arrayMatcher = (str2) => {
          for (const isMatch of fns) {
            const state2 = isMatch(str2);
            if (state2) return state2;
          }
          return false;
        };
        return arrayMatcher;
      }
      const isState = isObject(glob) && glob.tokens && glob.input;
      if (glob === "" || typeof glob !== "string" && !isState) {
        throw new TypeError("Expected pattern to be a non-empty string");
      }
      const opts = options || {};
      const posix = opts.windows;
      const regex = isState ? picomatch4.compileRe(glob, options) : picomatch4.makeRe(glob, options, false, true);
      const state = regex.state;
      delete regex.state;
      let isIgnored = () => false;
      if (opts.ignore) {
        const ignoreOpts = { ...options, ignore: null, onMatch: null, onResult: null };
        isIgnored = picomatch4(opts.ignore, ignoreOpts, returnState);
      }
      const matcher = (input, returnObject = false) => {
        const { isMatch, match, output } = picomatch4.test(input, regex, options, { glob, posix });
        const result = { glob, state, regex, posix, input, output, match, isMatch };
        if (typeof opts.onResult === "function") {
          opts.onResult(result);
        }
        if (isMatch === false) {
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (isIgnored(input)) {
          if (typeof opts.onIgnore === "function") {
            opts.onIgnore(result);
          }
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (typeof opts.onMatch === "function") {
          opts.onMatch(result);
        }
        return returnObject ? result : true;
      };
      if (returnState) {
        matcher.state = state;
      }
      return matcher;
    };
    picomatch4.test = (input, regex, options, { glob, posix } = {}) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected input to be a string");
      }
      if (input === "") {
        return { isMatch: false, output: "" };
      }
      const opts = options || {};
      const format = opts.format || (posix ? utils.toPosixSlashes : null);
      let match = input === glob;
      let output = match && format ? format(input) : input;
      if (match === false) {
        output = format ? format(input) : input;
        match = output === glob;
      }
      if (match === false || opts.capture === true) {
        if (opts.matchBase === true || opts.basename === true) {
          match = picomatch4.matchBase(input, regex, options, posix);
        } else {
          match = regex.exec(output);
        }
      }
      return { isMatch: Boolean(match), match, output };
    };
    picomatch4.matchBase = (input, glob, options, posix = options && options.windows) => {
      const regex = glob instanceof RegExp ? glob : picomatch4.makeRe(glob, options);
      return regex.test(utils.basename(input, { windows: posix }));
    };
    picomatch4.isMatch = (str2, patterns, options) => picomatch4(patterns, options)(str2);
    picomatch4.parse = (pattern, options) => {
      if (Array.isArray(pattern)) return pattern.map((p) => picomatch4.parse(p, options));
      return parse2(pattern, { ...options, fastpaths: false });
    };
    picomatch4.scan = (input, options) => scan2(input, options);
    picomatch4.compileRe = (state, options, returnOutput = false, returnState = false) => {
      if (returnOutput === true) {
        return state.output;
      }
      const opts = options || {};
      const prepend = opts.contains ? "" : "^";
      const append = opts.contains ? "" : "$";
      let source = `${prepend}(?:${state.output})${append}`;
      if (state && state.negated === true) {
        source = `^(?!${source}).*$`;
      }
      const regex = picomatch4.toRegex(source, options);
      if (returnState === true) {
        regex.state = state;
      }
      return regex;
    };
    picomatch4.makeRe = (input, options = {}, returnOutput = false, returnState = false) => {
      if (!input || typeof input !== "string") {
        throw new TypeError("Expected a non-empty string");
      }
      let parsed2 = { negated: false, fastpaths: true };
      if (options.fastpaths !== false && (input[0] === "." || input[0] === "*")) {
        parsed2.output = parse2.fastpaths(input, options);
      }
      if (!parsed2.output) {
        parsed2 = parse2(input, options);
      }
      return picomatch4.compileRe(parsed2, options, returnOutput, returnState);
    };
    picomatch4.toRegex = (source, options) => {
      try {
        const opts = options || {};
        return new RegExp(source, opts.flags || (opts.nocase ? "i" : ""));
      } catch (err) {
        if (options && options.debug === true) throw err;
        return /$^/;
      }
    };
    picomatch4.constants = constants3;
    module.exports = picomatch4;
  }
});

// node_modules/picomatch/index.js
var require_picomatch2 = __commonJS({
  "node_modules/picomatch/index.js"(exports, module) {
    "use strict";
    var pico = require_picomatch();
    var utils = require_utils();
    function picomatch4(glob, options, returnState = false) {
      if (options && (options.windows === null || options.windows === void 0)) {
        options = { ...options, windows: utils.isWindows() };
      }
      return pico(glob, options, returnState);
    }
    Object.assign(picomatch4, pico);
    module.exports = picomatch4;
  }
});

// src/errors.ts
var ConfigError = class extends Error {
  constructor(input, value, accepted) {
    super(`Input '${input}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`);
    this.input = input;
    this.value = value;
    this.accepted = accepted;
    this.name = "ConfigError";
  }
  input;
  value;
  accepted;
};
var VariableConfigError = class extends ConfigError {
  constructor(variable, value, accepted) {
    super(variable, value, accepted);
    this.message = `The variable '${variable}' has the value ${JSON.stringify(value)}; accepted: ${accepted}.`;
  }
};

// src/git/repository.ts
import path2 from "node:path";

// src/git/author.ts
var LOCAL_AUTHOR = { name: "loopgate", email: "loopgate@localhost" };
var GITHUB_ACTIONS_AUTHOR = {
  name: "github-actions[bot]",
  email: "41898282+github-actions[bot]@users.noreply.github.com"
};
function noreplyAuthor(login, id) {
  return { name: login, email: `${id}+${login}@users.noreply.github.com` };
}
function parseCommitAuthor(raw) {
  const m = /^([^<>\n\r\0]*?)\s*<([^<>\s\0]+@[^<>\s\0]+)>$/.exec(raw.trim());
  if (!m || m[1].trim() === "") return void 0;
  return { name: m[1].trim(), email: m[2] };
}

// src/git/custody-registry.ts
import path from "node:path";
var held = /* @__PURE__ */ new Map();
function registerHeld(repo) {
  held.set(path.resolve(repo.workspace), repo);
}
function unregisterHeld(workspace) {
  held.delete(path.resolve(workspace));
}
function heldRepositoryFor(cwd) {
  if (held.size === 0) return void 0;
  let dir = path.resolve(cwd);
  for (; ; ) {
    const repo = held.get(dir);
    if (repo) return repo;
    const parent = path.dirname(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
}

// src/git/command-line.ts
import { execFile, spawn } from "node:child_process";
function redact(text, secrets) {
  return secrets.reduce((t, s) => s ? t.split(s).join("***") : t, text);
}
var GitError = class extends Error {
  args;
  result;
  constructor(args, result, secrets = []) {
    const clean = { ...result, stdout: redact(result.stdout, secrets), stderr: redact(result.stderr, secrets) };
    const shown = args.map((a) => redact(a, secrets));
    super(`git ${shown.join(" ")} failed (exit ${result.exitCode}): ${clean.stderr.trim() || clean.stdout.trim()}`);
    this.name = "GitError";
    this.args = shown;
    this.result = clean;
  }
};
var LOOPGATE_GIT_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.untrackedCache=false",
  "core.pager=cat",
  "core.editor=true",
  "core.askPass=",
  "credential.helper=",
  "safe.directory=*",
  "commit.gpgSign=false",
  "tag.gpgSign=false",
  "gc.auto=0",
  "maintenance.auto=false",
  "protocol.ext.allow=never",
  "submodule.recurse=false"
];
var CHECKOUT_WORKERS = 4;
function gitEnv(author = LOCAL_AUTHOR, base = process.env) {
  const env = {};
  for (const key of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"]) if (base[key]) env[key] = base[key];
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = "/dev/null";
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_AUTHOR_NAME = author.name;
  env.GIT_AUTHOR_EMAIL = author.email;
  env.GIT_COMMITTER_NAME = author.name;
  env.GIT_COMMITTER_EMAIL = author.email;
  env.LC_ALL = "C";
  return env;
}
function commandLine(args, at2, config = []) {
  const pinned = [...LOOPGATE_GIT_CONFIG, ...at2.held ? ["core.splitIndex=true"] : [], ...config];
  const location = at2.held ? [`--git-dir=${at2.held.gitDir}`, `--work-tree=${at2.held.workTree}`] : [];
  return [...pinned.flatMap((c) => ["-c", c]), ...location, ...args];
}
function runGit(args, at2, opts = {}) {
  const fullArgs = commandLine(args, at2, opts.config);
  return new Promise((resolve, reject) => {
    const child = execFile(
      "git",
      fullArgs,
      { cwd: at2.cwd, env: opts.env ?? gitEnv(), maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024, encoding: "utf8", uid: opts.as?.uid, gid: opts.as?.gid },
      (err, stdout, stderr) => {
        const exitCode = err ? typeof err.code === "number" ? err.code : 1 : 0;
        const result = { stdout, stderr, exitCode };
        if (exitCode === 0 || (opts.okCodes ?? []).includes(exitCode)) resolve(result);
        else reject(new GitError(args, result, opts.secrets));
      }
    );
    if (opts.input !== void 0) child.stdin?.end(opts.input);
    else child.stdin?.end();
  });
}
function runGitBinary({ args, at: at2, input, env = gitEnv() }) {
  const child = spawn("git", commandLine(args, at2), { cwd: at2.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  const out = [];
  const err = [];
  child.stdout.on("data", (c) => out.push(c));
  child.stderr.on("data", (c) => err.push(c));
  child.stdin.end(input);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new GitError(args, { stdout: "", stderr: Buffer.concat(err).toString("utf8"), exitCode: code ?? 1 }));
    });
  });
}

// src/git/repository-core.ts
var zlist = (text) => text.split("\0").filter(Boolean);
var RepositoryCore = class {
  constructor(dir, held2, author) {
    this.dir = dir;
    this.held = held2;
    this.author = author;
  }
  dir;
  held;
  author;
  get location() {
    return { cwd: this.dir, held: this.held ? { gitDir: this.held.gitDir, workTree: this.held.workspace } : void 0 };
  }
  /** The command line `args` becomes here (for a process loopgate drives itself). */
  commandLine(args, config) {
    return commandLine(args, this.location, config);
  }
  /** The environment of this repository's git processes, `extra` added. */
  env(extra = {}) {
    return { ...gitEnv(this.author), ...extra };
  }
  /** Any git command, for what has no named operation yet. */
  run(args, opts = {}) {
    return runGit(args, this.location, { ...opts, env: opts.env ?? gitEnv(this.author) });
  }
  async out(args, opts = {}) {
    return (await this.run(args, opts)).stdout;
  }
  binary(args, input) {
    return runGitBinary({ args, at: this.location, input, env: gitEnv(this.author) });
  }
  indexEnv(indexFile) {
    return indexFile ? this.env({ GIT_INDEX_FILE: indexFile }) : void 0;
  }
};

// src/git/repository-trees.ts
var OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
function numstatEntry(rec) {
  const [add, del, ...name] = rec.split("	");
  const count = (n) => n === "-" ? null : Number(n);
  return { path: name.join("	"), insertions: count(add), deletions: count(del) };
}
var RepositoryTrees = class extends RepositoryCore {
  /** Reads `tree` into the index (`indexFile`: another index than the repository's). */
  async readTree(tree, opts = {}) {
    await this.run(["read-tree", tree], { env: this.indexEnv(opts.indexFile) });
  }
  /** `git update-index <flags> -z --stdin` over `paths`; the exit code (1 and 128 are answers). */
  async updateIndex(flags, paths, opts = {}) {
    return this.run(["update-index", ...flags, "-z", "--stdin"], {
      input: paths.length ? `${paths.join("\0")}\0` : "",
      okCodes: [1, 128],
      env: this.indexEnv(opts.indexFile)
    });
  }
  /** The index takes in the stat data of files whose content is unchanged (best effort: 1 is an answer). */
  async refreshIndex() {
    await this.run(["update-index", "-q", "--refresh"], { okCodes: [1] });
  }
  /** `git ls-files -z <flags>`: the names it lists. */
  async lsFiles(flags, opts = {}) {
    return zlist(await this.out(["ls-files", "-z", ...flags], { env: this.indexEnv(opts.indexFile) }));
  }
  async writeTree() {
    return (await this.out(["write-tree"])).trim();
  }
  /**
   * Every path that differs between the working tree, the index and HEAD, untracked files one by
   * one; a nested repository's folder with a trailing `/`.
   */
  async statusPorcelain() {
    const r = await this.out(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--ignore-submodules=dirty"]);
    return r.split("\0").flatMap((rec) => rec.length > 3 ? [rec.slice(3)] : []);
  }
  /** The paths `git status` reports under `pathspec` (untracked files one by one; `renames: false`: no rename detection). */
  async statusPaths(pathspec, opts = {}) {
    const renames = opts.renames === false ? ["--no-renames"] : [];
    return zlist(await this.out(["status", "--porcelain", "-z", ...renames, "--untracked-files=all", "--", ...pathspec])).map((l) => l.slice(3));
  }
  /** The paths that differ between `from` (default HEAD) and `to` (default: the index). */
  async diffNames(range = {}, pathspec = []) {
    const sides = range.to === void 0 ? ["--cached", ...range.from ? [range.from] : []] : [range.from ?? "HEAD", range.to];
    return zlist(await this.out(["diff", "--name-only", "-z", "--no-renames", ...sides, "--", ...pathspec]));
  }
  /** Stages everything under `pathspec`, deletions included. */
  async addAll(pathspec) {
    await this.run(["add", "-A", "--", ...pathspec]);
  }
  /** Stages everything under `pathspec`; false when git refuses the pathspec (exit 128) and stages nothing. */
  async tryAddAll(pathspec) {
    return (await this.run(["add", "-A", "--", ...pathspec], { okCodes: [128] })).exitCode === 0;
  }
  /** Puts `paths` in the index back to HEAD's (names literal). */
  async resetPaths(paths) {
    await this.run(["--literal-pathspecs", "reset", "-q", "--pathspec-from-file=-", "--pathspec-file-nul"], { input: `${paths.join("\0")}\0` });
  }
  /** Everything under `pathspec` back to HEAD's: the index, the tracked files, and no untracked file left. */
  async revertToHead(pathspec) {
    await this.run(["reset", "-q", "HEAD", "--", ...pathspec], { okCodes: [1] });
    const inHead = zlist((await this.run(["ls-files", "-z", "--", ...pathspec])).stdout);
    if (inHead.length) await this.run(["checkout", "-q", "HEAD", "--", ...inHead.map((p) => `:(literal)${p}`)]);
    await this.run(["clean", "-q", "-f", "--", ...pathspec]);
  }
  /** Whether anything under `pathspec` differs between `from` and `to`. */
  async differs(from, to, pathspec = []) {
    return (await this.run(["diff", "--quiet", from, to, "--", ...pathspec], { okCodes: [1] })).exitCode === 1;
  }
  /** Per-file line counts between `from` and `to` under `pathspec`, names raw. */
  async diffNumstat(from, to, pathspec = []) {
    const raw = await this.out(["diff", "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", from, to, "--", ...pathspec]);
    return zlist(raw).map(numstatEntry);
  }
  /**
   * The numstat of each pair of commits, in one process: `diff-tree --stdin` reads a commit and
   * the commit to compare it with on each line, and heads each answer with the first (`--always`
   * heads an empty one too).
   */
  async diffNumstats(pairs2) {
    if (pairs2.length === 0) return [];
    if (pairs2.some((p) => !OBJECT_ID.test(p.from) || !OBJECT_ID.test(p.to))) throw new Error("diffNumstats takes commit ids");
    const input = pairs2.map((p) => `${p.to} ${p.from}
`).join("");
    const raw = await this.out(["diff-tree", "--stdin", "-r", "--always", "--numstat", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"], { input });
    const answers = [];
    for (const rec of zlist(raw)) {
      if (!rec.includes("	")) answers.push([]);
      else if (answers.length === 0) throw new Error("git diff-tree answered without a commit heading");
      else answers[answers.length - 1].push(numstatEntry(rec));
    }
    if (answers.length !== pairs2.length) throw new Error(`git diff-tree answered ${answers.length} of ${pairs2.length} pairs`);
    return answers;
  }
  /** The records of `git ls-tree -z --full-tree` as git writes them (`<mode> <type> <oid>\t<path>`), for hashes over a listing. */
  async lsTreeRecords(tree, opts = {}) {
    const args = ["ls-tree", "-z", "--full-tree", ...opts.recursive ? ["-r"] : [], tree, "--", ...(opts.paths ?? []).map((p) => `:(literal)${p}`)];
    return zlist(await this.out(args));
  }
  /** The entries of `tree` (recursively when asked), under `paths` when given. */
  async lsTree(tree, opts = {}) {
    return (await this.lsTreeRecords(tree, opts)).map((rec) => {
      const tab = rec.indexOf("	");
      const [mode, type2, oid] = rec.slice(0, tab).split(" ");
      return { mode, type: type2, oid, path: rec.slice(tab + 1) };
    });
  }
  /** Many objects through one `git cat-file --batch`, by oid. Throws on a missing one. */
  async catFileBatch(oids) {
    const out = /* @__PURE__ */ new Map();
    if (oids.length === 0) return out;
    const buf = await this.binary(["cat-file", "--batch"], `${oids.join("\n")}
`);
    let pos = 0;
    for (const oid of oids) {
      const nl = buf.indexOf(10, pos);
      const header = buf.subarray(pos, nl).toString("utf8").split(" ");
      if (header[1] === "missing") throw new Error(`object ${oid} is missing`);
      const size = Number(header[2]);
      out.set(oid, buf.subarray(nl + 1, nl + 1 + size));
      pos = nl + 1 + size + 1;
    }
    return out;
  }
};

// src/git/repository.ts
var GitRepository = class _GitRepository extends RepositoryTrees {
  constructor(dir, held2, author) {
    super(dir, held2, author);
  }
  /** A repository whose git directory is its own: a clean clone, a scratch repository, a repository not held. */
  static plain(dir, author = LOCAL_AUTHOR) {
    return new _GitRepository(dir, void 0, author);
  }
  /** The workspace loopgate holds, through loopgate's own git directory. */
  static held(repo, author = LOCAL_AUTHOR, dir = repo.workspace) {
    return new _GitRepository(dir, repo, author);
  }
  /**
   * Lookup for call sites not yet given their repository: `dir` through loopgate's git directory
   * when it is inside a workspace loopgate holds (see custody-registry.ts), else as it is.
   */
  static lookup(dir, author = LOCAL_AUTHOR) {
    return new _GitRepository(dir, heldRepositoryFor(dir), author);
  }
  withAuthor(author) {
    return new _GitRepository(this.dir, this.held, author);
  }
  /** HEAD's commit. Throws when there is none. */
  async head() {
    return this.revParse("HEAD");
  }
  /** HEAD's commit, or null in a repository without one (or no repository). */
  tryHead() {
    return this.tryRevParse("HEAD^{commit}");
  }
  /** The object `ref` names. Throws when it names none. */
  async revParse(ref, opts = {}) {
    return (await this.out(["rev-parse", "--verify", "--end-of-options", ref], opts)).trim();
  }
  /** The object `ref` names, or null. */
  async tryRevParse(ref) {
    const r = await this.run(["rev-parse", "--verify", "--quiet", "--end-of-options", ref], { okCodes: [1, 128] });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }
  /** The git directory commands here use, absolute. */
  async gitDir() {
    return (await this.out(["rev-parse", "--absolute-git-dir"])).trim();
  }
  /** Where this repository's objects are: loopgate's own git directory's when it holds the repository. */
  async objectsDir() {
    return path2.join(this.held ? this.held.gitDir : await this.commonDir(), "objects");
  }
  /** The common git directory (the main repository's for a linked worktree), absolute. */
  async commonDir() {
    return (await this.out(["rev-parse", "--path-format=absolute", "--git-common-dir"])).trim();
  }
  /** The top folder of the work tree containing `dir`, or null outside one. */
  async topLevel() {
    const r = await this.run(["rev-parse", "--show-toplevel"], { okCodes: [128] }).catch(() => null);
    return r && r.exitCode === 0 ? r.stdout.trim() : null;
  }
  /** The short name of HEAD's branch, or null on a detached HEAD. */
  async currentBranch() {
    const r = await this.run(["symbolic-ref", "--quiet", "--short", "HEAD"], { okCodes: [1, 128] });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }
  async isShallow() {
    const r = await this.run(["rev-parse", "--is-shallow-repository"], { okCodes: [128] });
    return r.stdout.trim() === "true";
  }
  /** The full message of commit `sha`, or null when git cannot read it here. */
  async commitMessage(sha) {
    const r = await this.run(["log", "-1", "--format=%B", "--end-of-options", sha], { okCodes: [128] }).catch(() => null);
    return r && r.exitCode === 0 ? r.stdout : null;
  }
  async isAncestor(ancestor, commit) {
    return (await this.run(["merge-base", "--is-ancestor", ancestor, commit], { okCodes: [1, 128] })).exitCode === 0;
  }
  /** How many commits `range` holds (`a..b`); `filters` are rev-list options (`--grep=…`). */
  async revListCount(range, filters = []) {
    return Number((await this.out(["rev-list", "--count", ...filters, range, "--"])).trim());
  }
  /** `ref`'s object id abbreviated to at least `length` digits (longer when that is ambiguous). */
  async shortId(ref, length) {
    return (await this.out(["rev-parse", "--verify", `--short=${length}`, "--end-of-options", ref])).trim();
  }
  /** `git describe --tags --long` of `commit` among the tags matching `match`, or null when none is reachable. */
  async describeTag(commit, match) {
    const r = await this.run(["describe", "--tags", "--long", "--match", match, "--end-of-options", commit], { okCodes: [128] });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }
  /** A commit of `tree` with `parents`, `message` given on stdin; its sha. */
  async commitTree(tree, parents, message) {
    return (await this.out(["commit-tree", tree, ...parents.flatMap((p) => ["-p", p]), "-F", "-"], { input: message })).trim();
  }
  /** Moves `ref` to `value`; with `expect`, only from that old value. */
  async updateRef(ref, value, opts = {}) {
    const reason = opts.message === void 0 ? [] : ["-m", opts.message];
    await this.run(["update-ref", ...reason, ref, value, ...opts.expect ? [opts.expect] : []]);
  }
  /** Fetches `refspecs` from `remote` (a name or URL). */
  fetch(remote, refspecs, opts = {}) {
    const depth = opts.depth ? [`--depth=${opts.depth}`] : [];
    const args = ["fetch", "--no-tags", ...opts.quiet === false ? [] : ["--quiet"], ...depth, "--", remote, ...refspecs];
    return this.run(args, { env: opts.env, okCodes: opts.okCodes, secrets: opts.secrets });
  }
  /** Pushes `refspecs` to `remote` (porcelain output, no hooks). */
  push(remote, refspecs, opts = {}) {
    const lease = opts.lease === "force" ? ["--force"] : opts.lease ? [`--force-with-lease=${opts.lease.ref}:${opts.lease.expect ?? ""}`] : [];
    return this.run(["push", "--porcelain", "--no-verify", ...lease, "--", remote, ...refspecs], { env: opts.env, secrets: opts.secrets });
  }
  /** The names of the configured remotes. */
  async remotes() {
    return (await this.run(["remote"], { okCodes: [1] })).stdout.split("\n").filter(Boolean);
  }
  /** The branch `remote`'s HEAD names, or null when it names none or the remote cannot be read. */
  async remoteDefaultBranch(remote, access = {}) {
    const r = await this.run(["ls-remote", "--symref", "--", remote, "HEAD"], { okCodes: [1, 2, 128], env: access.env, secrets: access.secrets });
    const m = /^ref: refs\/heads\/(\S+)\s+HEAD/m.exec(r.stdout);
    return m ? m[1] : null;
  }
  /** The sha of `ref` on `remote`, or null. */
  async remoteRef(remote, ref, opts = {}) {
    const r = await this.run(["ls-remote", "--", remote, ref], opts);
    const line = r.stdout.split("\n").find((l) => l.endsWith(`	${ref}`));
    return line ? line.split("	")[0] : null;
  }
  /** The settings of a config file read as data, no include followed (`null`: a key without a value). */
  async configList(file, opts = {}) {
    const query = opts.regexp === void 0 ? ["--list"] : ["--get-regexp", opts.regexp];
    const includes = opts.includes ? ["--includes"] : [];
    const r = await this.run(["config", "--file", file, ...includes, "--null", ...query], { okCodes: [1] });
    return zlist(r.stdout).map((rec) => {
      const nl = rec.indexOf("\n");
      return nl < 0 ? { key: rec, value: null } : { key: rec.slice(0, nl), value: rec.slice(nl + 1) };
    });
  }
  /** Removes every `name` from a config file (only those whose value is `value`, when given). */
  async unsetConfig(file, name, value) {
    const match = value === void 0 ? ["--unset-all", name] : ["--fixed-value", "--unset-all", name, value];
    await this.run(["config", "--file", file, ...match], { okCodes: [5] });
  }
};

// src/agents/agent-spec.ts
var FRESH_PROCESS_FLAGS = ["--resume", "--continue", "--bare"];
var CONTROLLED_FLAGS = ["--max-turns", "--max-budget-usd", "--dangerously-skip-permissions", "--output-format"];
function modelArgs(settings) {
  return settings.model ? ["--model", settings.model] : [];
}

// src/process/run-process.ts
import { spawn as spawn2 } from "node:child_process";
import { randomUUID } from "node:crypto";
import { StringDecoder } from "node:string_decoder";

// src/process/cgroup.ts
import { constants, accessSync, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path3 from "node:path";
var CallCgroup = class _CallCgroup {
  constructor(dir) {
    this.dir = dir;
  }
  dir;
  /** A fresh cgroup under loopgate's own, or null when cgroup v2 is unavailable or not ours to write. */
  static create(name) {
    const mount = cgroup2Mount();
    const own = ownCgroup();
    if (!mount || own === null) return null;
    const dir = path3.join(mount, own, name);
    try {
      mkdirSync(dir);
      accessSync(path3.join(dir, "cgroup.procs"), constants.W_OK);
      return new _CallCgroup(dir);
    } catch {
      return null;
    }
  }
  /** The command and arguments that start `command` inside the cgroup (no window to escape first). */
  wrap(command2, args) {
    return { command: "/bin/sh", args: ["-c", 'echo $$ > "$0" && exec "$@"', path3.join(this.dir, "cgroup.procs"), command2, ...args] };
  }
  pids() {
    try {
      return readFileSync(path3.join(this.dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean).map(Number);
    } catch {
      return [];
    }
  }
  /** Kills every process in the cgroup and removes it; returns how many were still there. */
  killAll() {
    let killed = 0;
    const killFile = path3.join(this.dir, "cgroup.kill");
    for (let round = 0; round < 20; round++) {
      const left = this.pids();
      if (left.length === 0) break;
      killed = Math.max(killed, left.length);
      if (existsSync(killFile)) {
        try {
          writeFileSync(killFile, "1");
        } catch {
        }
      }
      for (const pid of left) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
        }
      }
    }
    try {
      rmdirSync(this.dir);
    } catch {
    }
    return killed;
  }
};
function cgroup2Mount() {
  try {
    for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
      const [before, after] = line.split(" - ");
      if (after?.startsWith("cgroup2 ")) return before.split(" ")[4];
    }
  } catch {
  }
  return null;
}
function ownCgroup() {
  try {
    const line = readFileSync("/proc/self/cgroup", "utf8").split("\n").find((l) => l.startsWith("0::"));
    return line ? line.slice(3) : null;
  } catch {
    return null;
  }
}

// src/process/proc.ts
import { readdirSync, readFileSync as readFileSync2 } from "node:fs";
function findProcesses(matches) {
  const found = [];
  let entries;
  try {
    entries = readdirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (matches((file, encoding = "utf8") => readFileSync2(`/proc/${entry}/${file}`, encoding))) found.push(Number(entry));
    } catch {
    }
  }
  return found;
}

// src/process/reap.ts
function findCallProcesses(callId) {
  const needle = `LOOPGATE_CALL_ID=${callId}`;
  return findProcesses((read) => read("environ", "latin1").split("\0").includes(needle));
}
function killCallProcesses(callId) {
  let killed = 0;
  for (let round = 0; round < 3; round++) {
    const pids = findCallProcesses(callId);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
        killed++;
      } catch {
      }
    }
  }
  return killed;
}

// src/process/run-process.ts
var DEFAULT_MAX_OUTPUT = 2e6;
var MAX_WATCHED_LINE = 4e6;
var TailBuffer = class {
  constructor(max) {
    this.max = max;
    this.keep = max * 3;
  }
  max;
  chunks = [];
  bytes = 0;
  /** Counted in bytes: UTF-8 takes at most 3 per UTF-16 unit, so the tail holds at least `max` characters. */
  keep;
  push(chunk) {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - this.chunks[0].length >= this.keep) this.bytes -= this.chunks.shift().length;
  }
  value() {
    let buf = Buffer.concat(this.chunks);
    if (buf.length > this.keep) buf = buf.subarray(buf.length - this.keep);
    const text = buf.toString("utf8");
    return text.length > this.max ? text.slice(-this.max) : text;
  }
};
function killGroup(pid, sig) {
  if (!pid) return;
  try {
    process.kill(-pid, sig);
  } catch {
  }
}
var LineReader = class {
  constructor(onLine) {
    this.onLine = onLine;
  }
  onLine;
  pending = "";
  /** Inside an overlong line: dropped up to its end. */
  skipping = false;
  decoder = new StringDecoder("utf8");
  push(bytes) {
    this.pending += this.decoder.write(bytes);
    let nl = this.pending.indexOf("\n");
    while (nl >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      if (this.skipping) this.skipping = false;
      else this.onLine(line);
      nl = this.pending.indexOf("\n");
    }
    if (this.pending.length > MAX_WATCHED_LINE) {
      this.pending = "";
      this.skipping = true;
    }
  }
  /** The last line when the output did not end with a newline. */
  rest() {
    return this.pending && !this.skipping ? this.pending : null;
  }
};
var GroupStop = class {
  constructor(pid, graceMs) {
    this.pid = pid;
    this.graceMs = graceMs;
  }
  pid;
  graceMs;
  killing = false;
  terminate() {
    if (this.killing) return;
    this.killing = true;
    killGroup(this.pid(), "SIGTERM");
    setTimeout(() => killGroup(this.pid(), "SIGKILL"), this.graceMs).unref();
  }
};
function reapLeftovers({ pid, opts, cgroup, exited }) {
  killGroup(pid, "SIGKILL");
  if (opts.sweep) {
    if (exited) opts.sweep();
  } else if (opts.callId) killCallProcesses(opts.callId);
  cgroup?.killAll();
}
function armStops(opts, stop, causes) {
  const timer = opts.timeoutMs && opts.timeoutMs > 0 ? setTimeout(() => {
    causes.timedOut = true;
    stop.terminate();
  }, opts.timeoutMs) : void 0;
  const onAbort = () => {
    causes.aborted = true;
    stop.terminate();
  };
  if (opts.signal) {
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener("abort", onAbort, { once: true });
  }
  return () => {
    if (timer) clearTimeout(timer);
    opts.signal?.removeEventListener("abort", onAbort);
  };
}
function lineWatcher(opts, stop, causes) {
  const watch = opts.onStdoutLine;
  if (!watch) return null;
  return new LineReader((line) => {
    if (stop.killing || watch(line) !== "kill") return;
    causes.killedByWatcher = true;
    stop.terminate();
  });
}
function spawnStart(opts, cgroup) {
  const env = opts.callId ? { ...opts.env, LOOPGATE_CALL_ID: opts.callId } : { ...opts.env };
  const launched = (opts.launch ?? ((s) => s))({ command: opts.command, args: opts.args, env, uid: opts.uid, gid: opts.gid });
  const start = cgroup ? cgroup.wrap(launched.command, launched.args) : launched;
  return spawn2(start.command, start.args, { cwd: opts.cwd, env: launched.env, detached: true, stdio: "pipe", uid: launched.uid, gid: launched.gid });
}
function runProcess(opts) {
  const started = Date.now();
  const max = opts.maxOutputChars ?? DEFAULT_MAX_OUTPUT;
  const cgroup = opts.contain ? CallCgroup.create(`loopgate-${process.pid}-${opts.callId ?? randomUUID()}`) : null;
  return new Promise((resolve) => {
    const child = spawnStart(opts, cgroup);
    const stdout = new TailBuffer(max);
    const stderr = new TailBuffer(max);
    const causes = { timedOut: false, aborted: false, killedByWatcher: false };
    const stop = new GroupStop(() => child.pid, opts.killGraceMs ?? 2e3);
    const disarm = armStops(opts, stop, causes);
    const watch = opts.onStdoutLine;
    const lines = lineWatcher(opts, stop, causes);
    let spawnError;
    child.stdout.on("data", (bytes) => {
      stdout.push(bytes);
      lines?.push(bytes);
    });
    child.stderr.on("data", (bytes) => stderr.push(bytes));
    child.stdin.on("error", () => void 0);
    child.on("error", (err) => {
      spawnError = err;
      if (child.pid === void 0) finish(null, null);
    });
    child.stdin.end(opts.stdin);
    child.on("exit", () => {
      reapLeftovers({ pid: child.pid, opts, cgroup, exited: true });
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
      }, 1e3).unref();
    });
    child.on("close", (code, sig) => finish(code, sig));
    let settled = false;
    function finish(code, sig) {
      if (settled) return;
      settled = true;
      disarm();
      const rest = lines?.rest();
      if (watch && rest && !stop.killing) watch(rest);
      reapLeftovers({ pid: child.pid, opts, cgroup, exited: false });
      const err = spawnError ? `${spawnError.message}
` : "";
      const notStarted = spawnError && child.pid === void 0 ? spawnError.code ?? "spawn failed" : void 0;
      resolve({
        exitCode: code,
        signal: sig,
        stdout: stdout.value(),
        stderr: `${stderr.value()}${err}`,
        ...causes,
        durationMs: Date.now() - started,
        ...notStarted ? { notStarted } : {}
      });
    }
  });
}
function exitDescription(r) {
  return r.exitCode === null ? `killed by ${r.signal}` : `exit code ${r.exitCode}`;
}

// src/agents/streaming-agent.ts
import { randomUUID as randomUUID2 } from "node:crypto";
import { mkdirSync as mkdirSync2 } from "node:fs";
function effectiveUid(call) {
  if (call.user) return call.user.uid;
  return typeof process.getuid === "function" ? process.getuid() : -1;
}
function processEnv(call, defaults, set2 = {}) {
  const env = { ...defaults, ...call.env, ...set2 };
  if (call.user) {
    env.HOME = call.user.home;
    env.USER = call.user.name;
    env.LOGNAME = call.user.name;
  }
  return env;
}
function tail(text, max = 8e3) {
  return text.length > max ? text.slice(-max) : text;
}
function processFacts(run) {
  return {
    ...run.notStarted ? { notStarted: run.notStarted } : {},
    exitCode: run.exitCode,
    signal: run.signal,
    outputTail: tail(`${run.stdout}${run.stderr ? `
[stderr]
${run.stderr}` : ""}`),
    durationMs: run.durationMs,
    timedOut: run.timedOut
  };
}
function endedByLoopgate(call, run) {
  if (run.timedOut) return { status: "failed", reason: `timeout after ${Math.round(call.timeoutMs / 1e3)} s` };
  if (run.aborted) return { status: "failed", reason: "cancelled" };
  return null;
}
function callProcess(call) {
  return {
    cwd: call.cwd,
    stdin: call.prompt,
    timeoutMs: call.timeoutMs,
    signal: call.signal,
    uid: call.user?.uid,
    gid: call.user?.gid,
    callId: randomUUID2(),
    // Without a user of its own, a cgroup of its own keeps detached processes from outliving the call.
    contain: !call.user,
    sweep: call.sweepUser,
    launch: call.sandbox?.(call.endpoint ? [call.endpoint.baseUrl] : [])
  };
}
function runStreamingAgent({ call, command: command2, args, env, watchdog, readLine }) {
  mkdirSync2(call.callDir, { recursive: true });
  return runProcess({
    ...callProcess(call),
    command: command2,
    args,
    env,
    onStdoutLine: (line) => {
      readLine(line);
      return watchdog.shouldKill() ? "kill" : void 0;
    }
  });
}

// src/agents/json-fields.ts
function parseJsonLine(line) {
  const text = line.trim();
  if (!text.startsWith("{")) return void 0;
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? value : void 0;
  } catch {
    return void 0;
  }
}
function asRecord(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value : void 0;
}
function asNumber(value) {
  return typeof value === "number" && Number.isFinite(value) ? value : void 0;
}
function asString(value) {
  return typeof value === "string" ? value : void 0;
}
function modelFromArgs(args) {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if ((arg === "--model" || arg === "-m") && i + 1 < args.length) return args[i + 1];
    if (arg.startsWith("--model=")) return arg.slice("--model=".length);
  }
  return void 0;
}

// src/agents/watchdog.ts
var TurnWatchdog = class {
  constructor(maxTurns) {
    this.maxTurns = maxTurns;
  }
  maxTurns;
  seen = /* @__PURE__ */ new Set();
  anonymous = 0;
  fired = false;
  /** Records one turn, identified by `key` when the stream repeats events for the same turn. */
  count(key) {
    if (key === void 0) this.anonymous++;
    else this.seen.add(key);
  }
  get turns() {
    return this.seen.size + this.anonymous;
  }
  /** The limit past which the call is killed: the CLI may legitimately report max-turns + 1. */
  get killAbove() {
    return this.maxTurns + 1;
  }
  /** True once the count has passed the limit; the caller returns 'kill' to the process runner. */
  shouldKill() {
    if (this.turns > this.killAbove) this.fired = true;
    return this.fired;
  }
  get tripped() {
    return this.fired;
  }
};

// src/agents/claude/adapter.ts
var ROOT_ALLOWED_TOOLS = ["Bash(*)", "Edit", "Write", "Read", "Glob", "Grep", "NotebookEdit", "TodoWrite"];
var CLAUDE_ENV_DEFAULTS = {
  DISABLE_AUTOUPDATER: "1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1"
};
function permissionArgs(uid) {
  if (uid === 0) return ["--allowedTools", ...ROOT_ALLOWED_TOOLS];
  return ["--dangerously-skip-permissions"];
}
function claudeArgs(call, extra) {
  return [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    "--max-turns",
    String(call.maxTurns),
    "--max-budget-usd",
    String(call.callBudgetUsd),
    ...permissionArgs(effectiveUid(call)),
    ...extra
  ];
}
function readClaudeLine(line, state, watchdog) {
  const event = parseJsonLine(line);
  if (!event) return;
  const type2 = asString(event.type);
  if (type2 === "system") {
    const subtype = asString(event.subtype);
    if (subtype === "init") {
      state.model = asString(event.model) ?? state.model;
      state.sessionId = asString(event.session_id) ?? state.sessionId;
    } else if (subtype === "api_retry") {
      state.warnings.push(
        `API retry ${String(event.attempt ?? "?")}/${String(event.max_retries ?? "?")}: ${String(event.error_status ?? event.error ?? "error")}`
      );
    }
  } else if (type2 === "assistant") {
    if (event.parent_tool_use_id) return;
    const message = asRecord(event.message);
    watchdog.count(asString(message?.id));
    const content = Array.isArray(message?.content) ? message.content : [];
    const texts = content.map(asRecord).filter((c) => c?.type === "text").map((c) => asString(c?.text) ?? "");
    if (texts.length > 0) state.lastText = texts.join("\n");
  } else if (type2 === "result") {
    state.result = event;
  }
}
function denials(value) {
  if (!Array.isArray(value)) return [];
  return value.map((d) => {
    const r = asRecord(d);
    if (!r) return String(d);
    const input = r.tool_input === void 0 ? "" : ` ${JSON.stringify(r.tool_input).slice(0, 200)}`;
    return `${asString(r.tool_name) ?? "tool"}${input}`;
  });
}
function tokensOf(usage) {
  if (!usage) return void 0;
  const input = asNumber(usage.input_tokens) ?? 0;
  const cacheRead = asNumber(usage.cache_read_input_tokens) ?? 0;
  const cacheWrite = asNumber(usage.cache_creation_input_tokens) ?? 0;
  return { input: input + cacheRead + cacheWrite, cachedInput: cacheRead, output: asNumber(usage.output_tokens) ?? 0 };
}
function classifyClaude({ call, run, state, watchdog }) {
  const r = state.result;
  const reportedCost = asNumber(r?.total_cost_usd);
  const costKnown = r !== void 0 && reportedCost !== void 0 && reportedCost >= 0;
  const resultText = asString(r?.result);
  const errors = Array.isArray(r?.errors) ? r.errors.map(String) : [];
  const base = {
    ...processFacts(run),
    costUsd: costKnown ? reportedCost : call.callBudgetUsd,
    costSource: costKnown ? "reported" : "worst-case",
    turns: watchdog.turns,
    reportedTurns: asNumber(r?.num_turns),
    tokens: tokensOf(asRecord(r?.usage)),
    sessionId: asString(r?.session_id) ?? state.sessionId,
    model: state.model,
    permissionDenials: denials(r?.permission_denials),
    finalText: resultText ?? (errors.join("\n") || state.lastText),
    warnings: [...state.warnings]
  };
  if (!costKnown) base.warnings.push(`no cost reported: charged the full call budget ($${call.callBudgetUsd})`);
  if (watchdog.tripped) {
    return { ...base, status: "capped", reason: `turn-cap: ${watchdog.turns} turns counted, killed above ${watchdog.killAbove} (max-turns ${call.maxTurns})` };
  }
  const ended = endedByLoopgate(call, run);
  if (ended) return { ...base, ...ended };
  if (!r) {
    const how = exitDescription(run);
    return { ...base, status: "failed", reason: `no result message (${how})` };
  }
  const subtype = asString(r.subtype) ?? "unknown";
  const stopReason = asString(r.stop_reason);
  const terminal = asString(r.terminal_reason);
  if (subtype === "error_max_turns") return { ...base, status: "capped", reason: "error_max_turns" };
  if (subtype === "error_max_budget_usd") return { ...base, status: "capped", reason: "error_max_budget_usd" };
  if (stopReason === "refusal") return { ...base, status: "failed", reason: "refusal" };
  if (subtype !== "success") return { ...base, status: "failed", reason: subtype };
  if (r.is_error === true) {
    const status = r.api_error_status ?? r.api_error;
    const detail = status !== void 0 && status !== null ? `api-error ${String(status)}` : terminal ?? "is_error";
    return { ...base, status: "failed", reason: `is_error: ${detail}` };
  }
  if (run.exitCode !== 0) {
    return { ...base, status: "failed", reason: exitDescription(run) };
  }
  return { ...base, status: "claimed-done", reason: "success" };
}
function claudeEndpointEnv(endpoint) {
  const header = `Authorization: Bearer ${endpoint.token}`;
  if (endpoint.cloud === "bedrock") {
    return { CLAUDE_CODE_USE_BEDROCK: "1", ANTHROPIC_BEDROCK_BASE_URL: endpoint.baseUrl, CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1", ANTHROPIC_CUSTOM_HEADERS: header };
  }
  if (endpoint.cloud === "vertex") {
    return { CLAUDE_CODE_USE_VERTEX: "1", ANTHROPIC_VERTEX_BASE_URL: endpoint.baseUrl, CLAUDE_CODE_SKIP_VERTEX_AUTH: "1", ANTHROPIC_CUSTOM_HEADERS: header };
  }
  return { ANTHROPIC_BASE_URL: endpoint.baseUrl, ANTHROPIC_API_KEY: endpoint.token };
}
var ClaudeAgent = class {
  constructor(opts = {}) {
    this.opts = opts;
  }
  opts;
  name = "claude";
  async run(call) {
    const watchdog = new TurnWatchdog(call.maxTurns);
    const state = { lastText: "", warnings: [] };
    const command2 = this.opts.binary ?? "claude";
    const env = processEnv(call, CLAUDE_ENV_DEFAULTS, call.endpoint ? claudeEndpointEnv(call.endpoint) : {});
    const r = await runStreamingAgent({
      call,
      command: command2,
      args: claudeArgs(call, this.opts.args ?? []),
      env,
      watchdog,
      readLine: (line) => readClaudeLine(line, state, watchdog)
    });
    return classifyClaude({ call, run: r, state, watchdog });
  }
};

// src/agents/claude/index.ts
var CLAUDE_PROVIDERS = [
  {
    name: "anthropic",
    env: ["ANTHROPIC_BASE_URL"],
    credentials: [
      { input: "anthropic-api-key", env: "ANTHROPIC_API_KEY" },
      { input: "claude-code-oauth-token", env: "CLAUDE_CODE_OAUTH_TOKEN" }
    ],
    meterRoute: "anthropic"
  },
  {
    name: "bedrock",
    env: [
      "AWS_ACCESS_KEY_ID",
      "AWS_SECRET_ACCESS_KEY",
      "AWS_SESSION_TOKEN",
      "AWS_REGION",
      "AWS_DEFAULT_REGION",
      "AWS_PROFILE",
      "AWS_CONFIG_FILE",
      "AWS_SHARED_CREDENTIALS_FILE",
      "AWS_BEARER_TOKEN_BEDROCK",
      "ANTHROPIC_BEDROCK_BASE_URL",
      "ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION",
      "CLAUDE_CODE_SKIP_BEDROCK_AUTH"
    ],
    set: { CLAUDE_CODE_USE_BEDROCK: "1" },
    files: ["AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE"],
    credentials: [],
    meterRoute: "bedrock"
  },
  {
    name: "vertex",
    env: [
      "GOOGLE_APPLICATION_CREDENTIALS",
      "CLOUD_ML_REGION",
      "ANTHROPIC_VERTEX_PROJECT_ID",
      "ANTHROPIC_VERTEX_BASE_URL",
      "GOOGLE_CLOUD_PROJECT",
      "GCLOUD_PROJECT",
      "CLOUDSDK_CORE_PROJECT",
      "CLAUDE_CODE_SKIP_VERTEX_AUTH"
    ],
    set: { CLAUDE_CODE_USE_VERTEX: "1" },
    files: ["GOOGLE_APPLICATION_CREDENTIALS"],
    credentials: [],
    meterRoute: "vertex"
  }
];
var claude = {
  name: "claude",
  summary: "Claude Code `claude -p`",
  cli: { package: "@anthropic-ai/claude-code", version: "2.1.328", bin: "claude" },
  apiKey: { input: "anthropic-api-key", env: "ANTHROPIC_API_KEY" },
  configEnv: [
    "ANTHROPIC_MODEL",
    "ANTHROPIC_SMALL_FAST_MODEL",
    "CLAUDE_CONFIG_DIR",
    "DISABLE_AUTOUPDATER",
    "DISABLE_TELEMETRY",
    "DISABLE_ERROR_REPORTING",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"
  ],
  modelCredentials: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"],
  providers: CLAUDE_PROVIDERS,
  modelFlag: "--model",
  // Claude Code's short forms of --resume and --continue.
  refusedArgs: [...FRESH_PROCESS_FLAGS, "-r", "-c"],
  controlledArgs: CONTROLLED_FLAGS,
  inputHelp: {
    "anthropic-api-key": ["<key>", "for claude (or ANTHROPIC_API_KEY)"],
    "claude-code-oauth-token": ["<token>", "for claude, a subscription token (or CLAUDE_CODE_OAUTH_TOKEN)"]
  },
  createAdapter: (settings, binary2) => new ClaudeAgent({ binary: binary2, args: [...modelArgs(settings), ...settings.agentArgs] })
};

// src/agents/pricing.ts
var PRICE_TABLE_VERSION = "2026-12-01";
var WEB_SEARCH_USD = 0.01;
var DEFAULT_PRICES = {
  // the default model of @openai/codex 0.171
  "gpt-6.2-sol": { input: 2, cachedInput: 0.1, output: 10, cacheWrite: 2.5, priority: 2 },
  "gpt-6.2-astra": { input: 10, cachedInput: 1, output: 50, cacheWrite: 12.5, priority: 2 },
  "gpt-6.1-sol": { input: 2, cachedInput: 0.1, output: 10, cacheWrite: 2.5, priority: 2 },
  "gpt-6-sol": { input: 2, cachedInput: 0.2, output: 10, cacheWrite: 2.5, priority: 2 },
  "gpt-6-luna": { input: 0.1, cachedInput: 0.01, output: 0.5, cacheWrite: 0.125, priority: 2 },
  "gpt-6-astra": { input: 10, cachedInput: 1, output: 50, cacheWrite: 12.5, priority: 2 },
  "gpt-5.6-terra": { input: 2, cachedInput: 0.2, output: 12, priority: 2 },
  "gpt-5.6-luna": { input: 0.2, cachedInput: 0.02, output: 1.2, priority: 2 },
  "gpt-5.3-codex": { input: 1.75, cachedInput: 0.175, output: 14, priority: 2 },
  "gpt-5.2": { input: 1.75, cachedInput: 0.175, output: 14, priority: 2 },
  "gpt-5.1": { input: 1.25, cachedInput: 0.125, output: 10, priority: 2 },
  "gpt-5-codex": { input: 1.25, cachedInput: 0.125, output: 10, priority: 2 },
  "gpt-5": { input: 1.25, cachedInput: 0.125, output: 10, priority: 2 },
  "gpt-5-mini": { input: 0.25, cachedInput: 0.025, output: 2, priority: 2 },
  "gpt-5-nano": { input: 0.05, cachedInput: 5e-3, output: 0.4, priority: 2 },
  // the default model of @anthropic-ai/claude-code 2.1.328
  "claude-opus-5-5": { input: 4, cachedInput: 0.4, output: 20, cacheWrite: 5, cacheWrite1h: 8 },
  "claude-opus-4-6": { input: 5, cachedInput: 0.5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10 },
  "claude-opus-4-5": { input: 5, cachedInput: 0.5, output: 25, cacheWrite: 6.25, cacheWrite1h: 10 },
  "claude-opus-4-1": { input: 15, cachedInput: 1.5, output: 75, cacheWrite: 18.75, cacheWrite1h: 30 },
  "claude-opus-4-0": { input: 15, cachedInput: 1.5, output: 75, cacheWrite: 18.75, cacheWrite1h: 30 },
  "claude-sonnet-4-6": { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 },
  "claude-sonnet-4-5": { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 },
  "claude-sonnet-4-0": { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75, cacheWrite1h: 6 },
  "claude-haiku-4-5": { input: 1, cachedInput: 0.1, output: 5, cacheWrite: 1.25, cacheWrite1h: 2 }
};
var CODEX_DEFAULT_MODEL = "gpt-6.2-sol";
var STANDARD_TIERS = /* @__PURE__ */ new Set(["standard", "default", "auto", "flex", "standard_only"]);
function priceFor(model, table) {
  const bare = model.replace(/^[^/]+\//, "");
  const candidates = [model, bare, bare.replace(/^(?:[a-z]{2,6}\.)?anthropic\./, "").replace(/-v\d+(?::\d+)?$/, "")];
  for (const c of [...candidates]) candidates.push(c.replace(/(?:-\d{4}-\d{2}-\d{2}|-\d{8}|@\d{8})$/, ""));
  for (const c of candidates) if (Object.prototype.hasOwnProperty.call(table, c)) return table[c];
  return void 0;
}
function chargeRate(model, table) {
  const known = model === void 0 ? void 0 : priceFor(model, table);
  if (known) return { price: known };
  const rates = Object.values(table);
  const dearest = (pick) => Math.max(0, ...rates.map(pick));
  const price = {
    input: dearest((p) => p.input),
    cachedInput: dearest((p) => p.cachedInput),
    output: dearest((p) => p.output),
    cacheWrite: dearest((p) => p.cacheWrite ?? p.input),
    cacheWrite1h: dearest((p) => p.cacheWrite1h ?? p.cacheWrite ?? p.input),
    priority: dearest((p) => p.priority ?? 1)
  };
  const name = model === void 0 ? "a response that named no model" : `model '${model}'`;
  return { price, note: `no price for ${name} (price table ${PRICE_TABLE_VERSION}; set the price-table input): charged at the table's dearest rates` };
}
function tierFactor(tier, price, table) {
  if (tier === void 0 || STANDARD_TIERS.has(tier)) return { factor: 1 };
  if (tier === "priority" && price.priority !== void 0) return { factor: price.priority };
  const dearest = Math.max(2, ...Object.values(table).map((p) => p.priority ?? 1));
  return {
    factor: dearest,
    note: `no price for the '${tier.slice(0, 40).replace(/[^A-Za-z0-9_.-]/g, "?")}' service tier (price table ${PRICE_TABLE_VERSION}): charged ${dearest}\xD7 the standard rates`
  };
}
function oneHourRate(price) {
  return price.cacheWrite1h ?? Math.max(2 * price.input, price.cacheWrite ?? price.input);
}
function costOf(usage, price, factor = 1) {
  const cached = Math.min(usage.cachedInput, usage.input);
  const written = Math.min(usage.cacheWrite ?? 0, usage.input - cached);
  const writtenHour = Math.min(usage.cacheWrite1h ?? 0, written);
  const uncached = usage.input - cached - written;
  const tokens = uncached * price.input + cached * price.cachedInput + (written - writtenHour) * (price.cacheWrite ?? price.input) + writtenHour * oneHourRate(price) + usage.output * price.output;
  return tokens * factor / 1e6 + (usage.webSearches ?? 0) * WEB_SEARCH_USD;
}
function parsePriceTable(raw) {
  let data;
  try {
    data = JSON.parse(raw);
  } catch (err) {
    return `not JSON (${err.message})`;
  }
  if (data === null || typeof data !== "object" || Array.isArray(data)) return "a JSON object keyed by model name";
  const table = {};
  for (const [model, value] of Object.entries(data)) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return `model '${model}' must map to an object`;
    const v = value;
    const num = (key) => {
      const n = v[key];
      return typeof n === "number" && Number.isFinite(n) && n >= 0 && n < 1e5 ? n : void 0;
    };
    const input = num("input");
    const output = num("output");
    const cachedInput = v.cachedInput === void 0 ? input : num("cachedInput");
    const cacheWrite = v.cacheWrite === void 0 ? input : num("cacheWrite");
    if (input === void 0 || output === void 0 || cachedInput === void 0 || cacheWrite === void 0) {
      return `model '${model}' needs numbers 0 or more for "input", "output" (optional "cachedInput", "cacheWrite"), USD per million tokens`;
    }
    const cacheWrite1h = v.cacheWrite1h === void 0 ? void 0 : num("cacheWrite1h");
    const priority = v.priority === void 0 ? void 0 : num("priority");
    if (v.cacheWrite1h !== void 0 && cacheWrite1h === void 0 || v.priority !== void 0 && priority === void 0) {
      return `model '${model}': "cacheWrite1h" (USD per million tokens) and "priority" (a factor) must be numbers 0 or more`;
    }
    table[model] = {
      input,
      cachedInput,
      output,
      cacheWrite,
      ...cacheWrite1h === void 0 ? {} : { cacheWrite1h },
      ...priority === void 0 ? {} : { priority }
    };
  }
  return table;
}

// src/agents/codex/adapter.ts
import { existsSync as existsSync2, readFileSync as readFileSync3 } from "node:fs";
import os from "node:os";
import path4 from "node:path";
var RETRY_NOTICE = /^Reconnecting\.\.\. \d+\/\d+/;
var NON_ACTION_ITEMS = /* @__PURE__ */ new Set(["agent_message", "reasoning", "error", "todo_list"]);
var ENDPOINT_TOKEN_VARIABLE = "LOOPGATE_CALL_TOKEN";
function endpointProviderArgs(endpoint) {
  const toml = (value) => JSON.stringify(value);
  const query = endpoint.query ? Object.entries(endpoint.query).map(([k, v]) => `${k} = ${toml(v)}`) : [];
  const provider = `{ name = "loopgate", base_url = ${toml(endpoint.baseUrl)}, env_key = ${toml(ENDPOINT_TOKEN_VARIABLE)}, wire_api = "responses", supports_websockets = false${query.length > 0 ? `, query_params = { ${query.join(", ")} }` : ""} }`;
  return ["-c", 'model_provider="loopgate"', "-c", `model_providers.loopgate=${provider}`];
}
function codexArgs(extra) {
  return ["exec", "--json", "--sandbox", "workspace-write", "--skip-git-repo-check", ...extra, "-"];
}
function modelFromConfigToml(text) {
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) return void 0;
    const m = /^model\s*=\s*["']([^"']+)["']/.exec(line);
    if (m) return m[1];
  }
  return void 0;
}
function modelFromConfigArgs(args) {
  for (let i = 0; i < args.length - 1; i++) {
    if (args[i] !== "-c" && args[i] !== "--config") continue;
    const m = /^model\s*=\s*["']?([^"']+)["']?$/.exec(args[i + 1]);
    if (m) return m[1];
  }
  return void 0;
}
function resolveCodexModel(args, env) {
  const fromArgs = modelFromArgs(args) ?? modelFromConfigArgs(args);
  if (fromArgs) return fromArgs;
  const home = env.CODEX_HOME || path4.join(env.HOME || os.homedir(), ".codex");
  const config = path4.join(home, "config.toml");
  if (existsSync2(config)) {
    try {
      const model = modelFromConfigToml(readFileSync3(config, "utf8"));
      if (model) return model;
    } catch {
    }
  }
  return CODEX_DEFAULT_MODEL;
}
function newCodexState() {
  return { turnCompleted: false, failures: [], agentMessages: [], warnings: [] };
}
function addUsage(prev, usage) {
  const p = prev ?? { input: 0, cachedInput: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  return {
    input: p.input + (asNumber(usage.input_tokens) ?? 0),
    cachedInput: p.cachedInput + (asNumber(usage.cached_input_tokens) ?? 0),
    cacheWrite: (p.cacheWrite ?? 0) + (asNumber(usage.cache_write_input_tokens) ?? 0),
    output: p.output + (asNumber(usage.output_tokens) ?? 0),
    reasoning: (p.reasoning ?? 0) + (asNumber(usage.reasoning_output_tokens) ?? 0)
  };
}
function readCodexLine(line, state, watchdog) {
  const event = parseJsonLine(line);
  if (!event) return;
  switch (asString(event.type)) {
    case "thread.started":
      state.threadId = asString(event.thread_id);
      return;
    case "turn.completed": {
      state.turnCompleted = true;
      const usage = asRecord(event.usage);
      if (usage) state.usage = addUsage(state.usage, usage);
      return;
    }
    case "turn.failed":
      state.turnFailed = `turn.failed: ${asString(asRecord(event.error)?.message) ?? "no message"}`;
      return;
    case "error": {
      const message = asString(event.message) ?? "no message";
      if (RETRY_NOTICE.test(message)) state.warnings.push(`codex retry: ${message}`);
      else state.failures.push(`error: ${message}`);
      return;
    }
    case "item.started":
    case "item.updated":
    case "item.completed": {
      const item = asRecord(event.item);
      const type2 = asString(item?.type);
      if (!item || !type2) return;
      if (!NON_ACTION_ITEMS.has(type2)) watchdog.count(asString(item.id));
      if (event.type !== "item.completed") return;
      if (type2 === "agent_message") state.agentMessages.push(asString(item.text) ?? "");
      else if (type2 === "error") state.warnings.push(asString(item.message) ?? "error item");
      return;
    }
    default:
      return;
  }
}
function classifyCodex({ call, run, state, watchdog, model, prices }) {
  const warnings = [...state.warnings];
  const price = priceFor(model, prices);
  let costUsd = call.callBudgetUsd;
  let costSource = "worst-case";
  if (!state.usage) {
    warnings.push(`no token usage reported: charged the full call budget ($${call.callBudgetUsd})`);
  } else if (!price) {
    warnings.push(
      `no price for model '${model}' (price table ${PRICE_TABLE_VERSION}; set the price-table input): charged the full call budget ($${call.callBudgetUsd})`
    );
  } else {
    costUsd = costOf(state.usage, price);
    costSource = "priced";
  }
  const finalText = state.agentMessages.at(-1) ?? [...state.failures, ...state.turnFailed ? [state.turnFailed] : []].join("\n");
  const base = {
    ...processFacts(run),
    costUsd,
    costSource,
    turns: watchdog.turns,
    tokens: state.usage,
    sessionId: state.threadId,
    model,
    permissionDenials: [],
    finalText,
    warnings
  };
  if (watchdog.tripped) {
    return { ...base, status: "capped", reason: `turn-cap: ${watchdog.turns} actions counted, killed above ${watchdog.killAbove} (max-turns ${call.maxTurns})` };
  }
  const ended = endedByLoopgate(call, run);
  if (ended) return { ...base, ...ended };
  if (state.turnFailed) return { ...base, status: "failed", reason: state.turnFailed };
  if (state.failures.length > 0) return { ...base, status: "failed", reason: state.failures.at(-1) };
  if (run.exitCode !== 0) {
    return { ...base, status: "failed", reason: exitDescription(run) };
  }
  if (!state.turnCompleted) return { ...base, status: "failed", reason: "no turn.completed event" };
  if (state.agentMessages.length === 0) return { ...base, status: "failed", reason: "no agent message (refusal or empty answer)" };
  return { ...base, status: "claimed-done", reason: "turn.completed" };
}
var CodexAgent = class {
  constructor(opts = {}) {
    this.opts = opts;
  }
  opts;
  name = "codex";
  async run(call) {
    const env = processEnv(call, {}, call.endpoint ? { [ENDPOINT_TOKEN_VARIABLE]: call.endpoint.token } : {});
    const args = call.endpoint ? [...this.opts.args ?? [], ...endpointProviderArgs(call.endpoint)] : [...this.opts.providerArgs?.(env) ?? [], ...this.opts.args ?? []];
    const model = resolveCodexModel(args, env);
    const prices = { ...DEFAULT_PRICES, ...this.opts.prices ?? {} };
    const watchdog = new TurnWatchdog(call.maxTurns);
    const state = newCodexState();
    const r = await runStreamingAgent({
      call,
      command: this.opts.binary ?? "codex",
      args: codexArgs(args),
      env,
      watchdog,
      readLine: (line) => readCodexLine(line, state, watchdog)
    });
    return classifyCodex({ call, run: r, state, watchdog, model, prices });
  }
};

// src/agents/codex/index.ts
function codexAzureArgs(env) {
  const url = env.AZURE_OPENAI_BASE_URL ?? "";
  const toml = (value) => JSON.stringify(value);
  const version = env.AZURE_OPENAI_API_VERSION ? `, query_params = { api-version = ${toml(env.AZURE_OPENAI_API_VERSION)} }` : "";
  const provider = `{ name = "Azure", base_url = ${toml(url)}, env_key = "AZURE_OPENAI_API_KEY", env_http_headers = { "api-key" = "AZURE_OPENAI_API_KEY" }, wire_api = "responses"${version} }`;
  return ["-c", 'model_provider="azure"', "-c", `model_providers.azure=${provider}`];
}
var CODEX_PROVIDERS = [
  { name: "openai", env: ["OPENAI_BASE_URL"], credentials: [{ input: "openai-api-key", env: "OPENAI_API_KEY" }], meterRoute: "openai" },
  {
    name: "azure",
    env: ["AZURE_OPENAI_API_KEY", "AZURE_OPENAI_BASE_URL", "AZURE_OPENAI_API_VERSION"],
    credentials: [{ input: "openai-api-key", env: "AZURE_OPENAI_API_KEY" }],
    args: codexAzureArgs,
    requiredEnv: {
      name: "AZURE_OPENAI_BASE_URL",
      accepted: "'azure' with AZURE_OPENAI_BASE_URL set in the environment (the endpoint, e.g. https://<resource>.openai.azure.com/openai/v1)"
    },
    meterRoute: "azure"
  }
];
var codex = {
  name: "codex",
  summary: "`codex exec`",
  cli: { package: "@openai/codex", version: "0.171.0", bin: "codex" },
  apiKey: { input: "openai-api-key", env: "OPENAI_API_KEY" },
  configEnv: ["CODEX_HOME", "RUST_LOG"],
  modelCredentials: ["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "CODEX_API_KEY"],
  providers: CODEX_PROVIDERS,
  modelFlag: "--model",
  // `codex exec resume` continues a session; codex's -c is a config override and stays allowed.
  refusedArgs: [...FRESH_PROCESS_FLAGS, "resume"],
  controlledArgs: CONTROLLED_FLAGS,
  inputHelp: { "openai-api-key": ["<key>", "for codex (or OPENAI_API_KEY)"] },
  createAdapter: (settings, binary2) => {
    const prices = settings.priceTable ? parsePriceTable(settings.priceTable) : void 0;
    if (typeof prices === "string") throw new Error(`price-table: ${prices}`);
    const provider = CODEX_PROVIDERS.find((p) => p.name === settings.provider);
    return new CodexAgent({ binary: binary2, args: [...modelArgs(settings), ...settings.agentArgs], prices, providerArgs: provider?.args });
  }
};

// src/agents/command/adapter.ts
import { mkdirSync as mkdirSync4, writeFileSync as writeFileSync3 } from "node:fs";

// src/fs/tree.ts
import { chmodSync, closeSync, constants as constants2, fstatSync, lstatSync, mkdirSync as mkdirSync3, openSync, readSync, rmSync, unlinkSync, writeFileSync as writeFileSync2 } from "node:fs";
import path5 from "node:path";
var MAX_TREE_FILE_BYTES = 64 * 1024 * 1024;
function readRegular(file, maxBytes) {
  let fd;
  try {
    fd = openSync(file, constants2.O_RDONLY | constants2.O_NOFOLLOW | constants2.O_NONBLOCK);
  } catch (err) {
    const code = err.code;
    if (code === "ELOOP") return { kind: "symlink" };
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "missing" };
    return { kind: "other" };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { kind: "dir" };
    if (!st.isFile()) return { kind: "other" };
    if (st.size > maxBytes) return { kind: "too-large", size: st.size };
    const data = Buffer.alloc(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, data, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return { kind: "file", data: data.subarray(0, read), executable: (st.mode & 73) !== 0 };
  } finally {
    closeSync(fd);
  }
}
function lstatOrNull(file) {
  try {
    return lstatSync(file);
  } catch {
    return null;
  }
}
function readTreeEntry(root, rel, maxBytes = MAX_TREE_FILE_BYTES) {
  const parts = rel.split("/");
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = path5.join(dir, part);
    const st2 = lstatOrNull(dir);
    if (!st2) return { kind: "missing" };
    if (!st2.isDirectory()) return { kind: "bad-ancestor", ancestor: path5.relative(root, dir) };
  }
  const file = path5.join(root, rel);
  const st = lstatOrNull(file);
  if (!st) return { kind: "missing" };
  if (st.isSymbolicLink()) return { kind: "symlink" };
  if (st.isDirectory()) return { kind: "dir" };
  if (!st.isFile()) return { kind: "other" };
  return readRegular(file, maxBytes);
}
function readAgentText(root, rel, maxBytes) {
  const entry = readTreeEntry(root, rel, maxBytes);
  return entry.kind === "file" ? entry.data.toString("utf8") : null;
}
function readAgentFile(file, maxBytes) {
  return readAgentText(path5.dirname(file), path5.basename(file), maxBytes);
}
function realAncestors(root, rel) {
  let dir = root;
  for (const part of rel.split("/").slice(0, -1)) {
    dir = path5.join(dir, part);
    const st = lstatOrNull(dir);
    if (st && st.isDirectory()) continue;
    if (st) unlinkSync(dir);
    mkdirSync3(dir);
  }
}
function removeTreeEntry(root, rel) {
  const entry = readTreeEntry(root, rel);
  if (entry.kind === "missing" || entry.kind === "bad-ancestor") return false;
  rmSync(path5.join(root, rel), { recursive: true, force: true });
  return true;
}
function writeTreeFile({ root, rel, data, executable = false }) {
  realAncestors(root, rel);
  const file = path5.join(root, rel);
  if (lstatOrNull(file)) rmSync(file, { recursive: true, force: true });
  writeFileSync2(file, data, { flag: "wx", mode: executable ? 493 : 420 });
  chmodSync(file, executable ? 493 : 420);
}

// src/agents/command/adapter.ts
import path6 from "node:path";

// src/agents/command/cannot-run.ts
var SHELL_REFUSAL = /^\/bin\/bash: line 1: (.+?): (command not found|No such file or directory|Permission denied|Is a directory|cannot execute[^\n]*)$/m;
function firstWord(command2) {
  const words = command2.trim().split(/\s+/);
  const word = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  return word?.replace(/^(['"])(.*)\1$/, "$2");
}
function cannotRun(command2, exitCode, stderr) {
  if (exitCode !== 126 && exitCode !== 127) return null;
  const refusal = SHELL_REFUSAL.exec(stderr);
  if (!refusal || refusal[1] !== firstWord(command2)) return null;
  return `${refusal[1]}: ${refusal[2]}`;
}

// src/agents/command/adapter.ts
var MAX_COST_FILE_BYTES = 64 * 1024;
function readCostFile(file) {
  const text = readAgentFile(file, MAX_COST_FILE_BYTES);
  if (text === null) return void 0;
  try {
    const data = JSON.parse(text);
    const cost = data.cost_usd;
    return typeof cost === "number" && Number.isFinite(cost) && cost >= 0 ? cost : void 0;
  } catch {
    return void 0;
  }
}
var CommandAgent = class {
  constructor(command2) {
    this.command = command2;
  }
  command;
  name = "command";
  async run(call) {
    mkdirSync4(path6.join(call.callDir, "out"), { recursive: true });
    const promptFile = path6.join(call.callDir, "prompt.md");
    const costFile = path6.join(call.callDir, "out", "cost.json");
    writeFileSync3(promptFile, call.prompt, { mode: 420 });
    const r = await runProcess({
      ...callProcess(call),
      command: "/bin/bash",
      args: ["-c", this.command],
      env: {
        ...call.env,
        LOOPGATE_PROMPT_FILE: promptFile,
        LOOPGATE_COST_FILE: costFile,
        LOOPGATE_ITERATION: String(call.iteration),
        LOOPGATE_MAX_TURNS: String(call.maxTurns),
        LOOPGATE_CALL_BUDGET_USD: String(call.callBudgetUsd)
      }
    });
    const cost = readCostFile(costFile);
    const base = {
      ...processFacts(r),
      costUsd: cost ?? call.callBudgetUsd,
      costSource: cost === void 0 ? "worst-case" : "reported",
      turns: 1,
      permissionDenials: [],
      finalText: r.stdout.trim().split("\n").slice(-20).join("\n"),
      warnings: []
    };
    const ended = endedByLoopgate(call, r);
    if (ended) return { ...base, ...ended };
    if (r.notStarted) return { ...base, status: "failed", reason: `the agent command could not be started: ${r.notStarted}` };
    const refused = cannotRun(this.command, r.exitCode, r.stderr);
    if (refused)
      return { ...base, notStarted: `exit ${r.exitCode}`, status: "failed", reason: `the agent command could not be run: ${refused} (exit ${r.exitCode})` };
    if (r.exitCode !== 0) {
      return { ...base, status: "failed", reason: exitDescription(r) };
    }
    return { ...base, status: "claimed-done", reason: "exit code 0" };
  }
};

// src/agents/command/index.ts
var command = {
  name: "command",
  summary: "any shell command",
  configEnv: [],
  refusedArgs: FRESH_PROCESS_FLAGS,
  controlledArgs: CONTROLLED_FLAGS,
  requiredInputs: [{ input: "agent-command", accepted: "a shell command when 'agent' is 'command'" }],
  createAdapter: (settings) => new CommandAgent(settings.agentCommand ?? "")
};

// src/agents/agent-registry.ts
var AGENTS = [claude, codex, command];
var registry = new Map(AGENTS.map((spec) => [spec.name, spec]));
function agentNames() {
  return [...registry.keys()];
}
function agentSpec(name) {
  const spec = registry.get(name);
  if (!spec) throw new Error(`unknown agent ${JSON.stringify(name)} (known: ${agentNames().join(", ")})`);
  return spec;
}
function agentSpecs() {
  return [...registry.values()];
}
function modelCredentialVariables() {
  return [...new Set(agentSpecs().flatMap((spec) => spec.modelCredentials ?? []))];
}
function providerSpec(spec, name) {
  if (!spec.providers) return void 0;
  return name === void 0 ? spec.providers[0] : spec.providers.find((p) => p.name === name);
}
function credentialInputs(spec) {
  const inputs = [...spec.apiKey ? [spec.apiKey.input] : [], ...(spec.providers ?? []).flatMap((p) => p.credentials.map((c) => c.input))];
  return [...new Set(inputs)];
}
function refusedArg(spec, args) {
  for (const arg of args) {
    const flag = arg.startsWith("-") ? arg.split("=")[0] : arg;
    if (spec.refusedArgs.includes(flag)) return { arg: flag, why: "fresh-process" };
    if (spec.controlledArgs.includes(flag)) return { arg: flag, why: "controlled" };
  }
  return void 0;
}

// src/loop/stop-reasons.ts
var retryOrTakeOver = (reason) => () => `the loop stopped with \`${reason}\`: decide whether to retry with more context or to take the task over.`;
var STOP_REASON_TABLE = {
  verified: {
    exitCode: 0,
    outcome: "verified",
    escalates: false,
    what: "The protected gate passed on a non-empty change set.",
    action: "Review the pull request; a passing gate is only as good as the tests behind it.",
    decision: retryOrTakeOver("verified")
  },
  "max-iterations": {
    exitCode: 11,
    outcome: "escalated",
    escalates: true,
    what: "The outer loop reached `max-iterations` without a passing gate.",
    action: "Split the task into smaller pieces, or raise `max-iterations` if each attempt made real progress.",
    decision: ({ attempts, firstFailure }) => `${attempts} attempts did not pass the gate${firstFailure ? ` (still failing: ${firstFailure})` : ""}: retry with a narrower task or the missing context, or raise \`max-iterations\` if each attempt made progress.`
  },
  "spend-ceiling": {
    exitCode: 12,
    outcome: "escalated",
    escalates: true,
    what: "Starting another call could have pushed this run past `spend-ceiling-usd`.",
    action: "Raise `spend-ceiling-usd`, lower `call-budget-usd`, or narrow the task.",
    decision: ({ firstFailure }) => `the budget ran out with the gate still failing${firstFailure ? ` (${firstFailure})` : ""}: raise \`spend-ceiling-usd\` to let it go on, or narrow the task.`
  },
  "period-ceiling": {
    exitCode: 13,
    outcome: "escalated",
    escalates: true,
    what: "The rolling spend over `period-hours` left no room for another call under `period-ceiling-usd`.",
    action: "Wait for the window to roll, or raise `period-ceiling-usd`.",
    decision: ({ firstFailure }) => `the budget ran out with the gate still failing${firstFailure ? ` (${firstFailure})` : ""}: raise \`period-ceiling-usd\` to let it go on, or narrow the task.`
  },
  "time-limit": {
    exitCode: 14,
    outcome: "escalated",
    escalates: true,
    what: "The run reached `time-limit-minutes`.",
    action: "Raise `time-limit-minutes` (below the job's `timeout-minutes`), or split the task.",
    decision: () => "the run reached `time-limit-minutes` with the gate still failing: raise it (below the job's timeout), or split the task."
  },
  "no-progress": {
    exitCode: 15,
    outcome: "escalated",
    escalates: true,
    what: "Several iterations in a row left the code unchanged (`no-progress-limit`).",
    action: "Make the task more specific, or check that the agent can run the tools it needs.",
    decision: () => "the agent changed nothing in several attempts in a row: check that it can run the tools it needs, or retry with a more specific task."
  },
  "same-failure": {
    exitCode: 16,
    outcome: "escalated",
    escalates: true,
    what: "The gate failed the same way after new changes (`same-failure-limit`): retrying brought no new evidence.",
    action: "Read the failing tests below; fix a flaky test, or give the agent the missing context.",
    decision: ({ firstFailure }) => `${firstFailure ?? "the gate"} failed the same way after new changes: fix or quarantine it in the base if it is wrong or flaky, or retry with the context the agent is missing.`
  },
  "protected-tampering": {
    exitCode: 17,
    outcome: "escalated",
    escalates: true,
    what: "The agent changed protected tests or test configuration again after being told it may not.",
    action: "Check whether the task needs the tests changed; if so, change them yourself first.",
    decision: ({ protectedPaths }) => `the task needs ${protectedPaths ?? "protected tests or test configuration"} changed, which the agent may not do: change it in the base, or retry with what the agent is missing.`
  },
  "agent-failure": {
    exitCode: 18,
    outcome: "escalated",
    escalates: true,
    what: "The agent process failed several calls in a row (errors, refusals, crashes or timeouts).",
    action: "Check the API key, the model name in `agent-args`, and the agent output in the attempt log.",
    decision: ({ agentFailure }) => `the agent's process failed call after call${agentFailure ? ` (${agentFailure})` : ""}: check the API key, the model and the agent output in the attempt log, then retry.`
  },
  cancelled: {
    exitCode: 19,
    outcome: "escalated",
    escalates: true,
    what: "The run was cancelled; the in-flight call was charged and the log flushed.",
    action: "Re-run the workflow; the next run resumes from the work-in-progress branch.",
    decision: () => "the run was cancelled before it finished: retry to resume from the unfinished work."
  },
  "review-capacity": {
    exitCode: 20,
    outcome: "skipped",
    escalates: false,
    what: "This loop already has `max-open-prs` open pull requests, or this pull request already had `max-runs-per-pr` loop runs; nothing was spent.",
    action: "Review or close the open loop pull requests (or the pull request itself), or raise `max-open-prs` / `max-runs-per-pr`.",
    decision: retryOrTakeOver("review-capacity")
  },
  "nothing-to-do": {
    exitCode: 21,
    outcome: "skipped",
    escalates: false,
    what: "No change was made: the run was skipped before any work (its summary says why), or the agent found nothing to change and the gate passes.",
    action: "For a skip, follow its note (e.g. list the account in `allow-users`); otherwise nothing, the next run tries again.",
    decision: retryOrTakeOver("nothing-to-do")
  },
  "state-corrupt": {
    exitCode: 22,
    outcome: "stopped",
    escalates: false,
    what: "The saved loop state could not be read; nothing was spent.",
    action: "Delete the `loopgate-<loop-id>-` cache entries, or fix the state shown in the log.",
    decision: retryOrTakeOver("state-corrupt")
  },
  "config-error": {
    exitCode: 23,
    outcome: "stopped",
    escalates: false,
    what: "An input was invalid; nothing was spent.",
    action: "Fix the input named in the error message.",
    decision: retryOrTakeOver("config-error")
  },
  "gate-broken": {
    exitCode: 24,
    outcome: "stopped",
    escalates: false,
    what: "The gate gave no result to compare with on the base itself (a setup step failed, the test runner could not start, or its tests could not be counted); nothing was spent, or only the first call, ended as soon as the baseline running alongside it failed.",
    action: "Make `gate-setup` and `gate-command` run and count their tests on the base branch (the attempt log shows what failed), or fix the environment they need.",
    decision: () => "the gate does not run on the base itself: fix `gate-setup` or `gate-command` (the attempt log shows what failed), then retry."
  },
  "agent-gave-up": {
    exitCode: 25,
    outcome: "escalated",
    escalates: true,
    what: "The agent asked for a person through its documented exit (`give-up.md`), and the gate did not pass.",
    action: "Read its reason in the escalation: change the task, the base or the tests it names, then retry.",
    decision: ({ gaveUpReason }) => `the agent asked for a person: ${gaveUpReason ?? "it gave no reason"}. Decide whether the task, the base or the tests must change, then retry with your answer.`
  },
  "provider-unavailable": {
    exitCode: 26,
    outcome: "escalated",
    escalates: true,
    what: "The model provider refused or failed the agent's requests (rate limit, overload, unavailable, or quota exhausted); the agent was not at fault.",
    action: "Wait for the provider's limits to reset, or raise the quota or credit of the account behind the key, then retry.",
    decision: ({ providerSaid }) => `the model provider kept refusing or failing the agent's requests${providerSaid ? ` (${providerSaid})` : " (rate limit, overload or exhausted quota)"}: wait for its limits to reset, or raise the quota or credit of the account, then retry.`
  },
  "flaky-tests": {
    exitCode: 27,
    outcome: "escalated",
    escalates: true,
    what: "The only failures left were tests already seen flaky in this run (failed, then passed on a rerun of the same commit), failing again, or tests failing on the base too (passed at the baseline, failed again on its tree).",
    action: "Quarantine or fix the flaky or failing tests named in the escalation in the base, then retry; the agent is never asked to fix them.",
    decision: ({ flaky, failingOnBase }) => failingOnBase ? `the tests left failing fail on the base too (${failingOnBase}; they passed at the baseline): fix them in the base${flaky ? `, and quarantine or fix the flaky ${flaky}` : ""}, then retry.` : `only flaky tests were failing at the end (each failed, then passed on the same commit): quarantine or fix ${flaky ?? "them"} in the base, then retry.`
  }
};
var STOP_REASONS = Object.keys(STOP_REASON_TABLE);
var RENAMED_STOP_REASONS = {};
function isStopReason(value) {
  return Object.hasOwn(STOP_REASON_TABLE, value);
}
function knownStopReason(value) {
  if (isStopReason(value)) return value;
  return Object.hasOwn(RENAMED_STOP_REASONS, value) ? RENAMED_STOP_REASONS[value] : void 0;
}
function stopReasonEntry(reason) {
  return STOP_REASON_TABLE[reason];
}
function needsEscalation(reason) {
  return STOP_REASON_TABLE[reason].escalates;
}
function outcomeFor(reason, escalationEnabled = true) {
  const entry = stopReasonEntry(reason);
  if (entry.escalates && !escalationEnabled) return "stopped";
  return entry.outcome;
}
function exitCodeFor(reason) {
  return STOP_REASON_TABLE[reason].exitCode;
}

// src/format.ts
var usd = (n) => `$${n.toFixed(2)}`;

// src/git/branches.ts
function workBranchName(loopId) {
  return `loopgate/${loopId}`;
}
function wipBranchName(loopId) {
  return `loopgate/${loopId}-wip`;
}

// src/run/context.ts
import os2 from "node:os";
import path8 from "node:path";

// src/fs/owned-dir.ts
import { chmodSync as chmodSync2, lstatSync as lstatSync2, mkdirSync as mkdirSync5 } from "node:fs";
import path7 from "node:path";
function ownedDir(parent, name, mode) {
  const dir = path7.join(parent, name);
  try {
    mkdirSync5(dir, { mode });
  } catch (err) {
    if (err.code !== "EEXIST") throw err;
  }
  const st = lstatSync2(dir);
  const uid = process.getuid?.() ?? st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 18) !== 0) {
    throw new Error(
      `${dir} exists and is not a private directory of uid ${uid} (${st.isSymbolicLink() ? "a symlink" : `uid ${st.uid}, mode ${(st.mode & 4095).toString(8)}`}): remove it or choose another temp folder`
    );
  }
  if ((st.mode & 4095) !== mode) chmodSync2(dir, mode);
  return dir;
}
function ownedPath(root, parts, mode) {
  let dir = root;
  for (const part of parts) dir = ownedDir(dir, part, mode);
  return dir;
}

// src/run/context.ts
function prepareRunDir(tempDir, loopId, runId) {
  return ownedPath(tempDir, ["loopgate", `${loopId}-${runId}`], 448);
}
function defaultTempDir(env) {
  return env.RUNNER_TEMP || os2.tmpdir();
}
function defaultRunId(env) {
  if (env.GITHUB_RUN_ID) return `${env.GITHUB_RUN_ID}-${env.GITHUB_RUN_ATTEMPT || "1"}`;
  return `local-${(/* @__PURE__ */ new Date()).toISOString().replace(/[-:.TZ]/g, "").slice(0, 14)}-${process.pid}`;
}
function runFiles(runDir, workspace, progressFile) {
  return {
    runDir,
    logFile: path8.join(runDir, "attempts.jsonl"),
    ledgerFile: path8.join(runDir, "ledger.jsonl"),
    progressPath: path8.join(workspace, progressFile)
  };
}
function stoppedReport({ files, stopReason, outcome, notes, upgradeAttempts }) {
  return {
    stopReason,
    outcome,
    run: null,
    runDir: files.runDir,
    logFile: files.logFile,
    ledgerFile: files.ledgerFile,
    progressFile: files.progressPath,
    published: { files: [], notes: [] },
    notes,
    upgradeAttempts
  };
}

// src/ecosystems/npm/lockfile.ts
var import_picomatch = __toESM(require_picomatch2(), 1);
var import_semver = __toESM(require_semver(), 1);
var isTable = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function npmName(key) {
  const i = key.lastIndexOf("node_modules/");
  return i === -1 ? null : key.slice(i + "node_modules/".length);
}
function npmEntry(key, value, registryHosts) {
  const entry = isTable(value) ? value : {};
  const name = npmName(key) ?? key;
  const text = JSON.stringify(entry);
  const resolved = typeof entry.resolved === "string" ? entry.resolved : "";
  const fromConfigured = resolved === "" && typeof entry.version === "string" && import_semver.default.valid(entry.version) !== null;
  let why;
  if (npmName(key) === null) why = `${key} is a folder of the tree`;
  else if (entry.link === true) why = "a link to a folder of the tree";
  else if (fromConfigured) why = void 0;
  else if (!/^https?:\/\//.test(resolved)) why = resolved ? `resolved from ${resolved.slice(0, 100)}` : "no registry tarball";
  else if (!registryHosts.some((h) => resolved.startsWith(h)) || !resolved.includes("/-/")) why = `resolved from ${resolved.slice(0, 100)}, not the registry`;
  if (why === void 0 && (typeof entry.integrity !== "string" || !/^sha(?:256|384|512)-/.test(entry.integrity))) why = "no integrity";
  const version = typeof entry.version === "string" && entry.link !== true ? { version: entry.version } : {};
  return { key, name, text, registry: why === void 0, why, ...version };
}
function workspaceFolders(root) {
  const ws = isTable(root) ? root.workspaces : void 0;
  const list = isTable(ws) ? ws.packages : ws;
  const patterns = (Array.isArray(list) ? list : []).filter((p) => typeof p === "string" && p.trim() !== "" && !p.startsWith("!")).map((p) => p.trim().replace(/^\.\//, "").replace(/\/+$/, ""));
  if (patterns.length === 0) return () => false;
  const named = (0, import_picomatch.default)(patterns);
  return (key, value) => npmName(key) === null && !key.split("/").includes("..") && isTable(value) && value.resolved === void 0 && value.link === void 0 && named(key);
}
function packageLockEntries(text, registryHosts) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isTable(doc) || !isTable(doc.packages)) return null;
  const out = [];
  const isWorkspace = workspaceFolders(doc.packages[""]);
  for (const [key, value] of Object.entries(doc.packages)) {
    if (key === "") out.push({ key: "", name: "(root)", text: JSON.stringify(value), registry: true, mirror: true });
    else if (isWorkspace(key, value)) out.push({ key, name: `(workspace ${key})`, text: JSON.stringify(value), registry: true, mirror: true });
    else out.push(npmEntry(key, value, registryHosts));
  }
  return out;
}
function npmRegistryHosts(env) {
  const hosts = ["https://registry.npmjs.org/", "https://registry.yarnpkg.com/"];
  const configured = env.npm_config_registry ?? env.NPM_CONFIG_REGISTRY;
  if (configured && /^https?:\/\//.test(configured)) hosts.push(configured.endsWith("/") ? configured : `${configured}/`);
  return hosts;
}

// src/ecosystems/npm/manager.ts
var import_semver4 = __toESM(require_semver(), 1);
import { createHash } from "node:crypto";

// src/ecosystems/npm/semver.ts
var import_semver2 = __toESM(require_semver(), 1);
function semverKind(from, to) {
  const [a, b] = [import_semver2.default.parse(from), import_semver2.default.parse(to)];
  if (!a || !b) return "major";
  if (a.major !== b.major) return "major";
  if (a.major === 0 && a.minor !== b.minor) return "major";
  if (a.major === 0 && a.minor === 0 && a.patch !== b.patch) return "major";
  if (a.minor !== b.minor) return "minor";
  return "patch";
}
var SEMVER = {
  valid: (v) => import_semver2.default.valid(v) !== null,
  compare: (a, b) => import_semver2.default.compare(a, b),
  kind: semverKind,
  prerelease: (v) => (import_semver2.default.prerelease(v)?.length ?? 0) > 0,
  satisfies: (v, range) => import_semver2.default.satisfies(v, range, { includePrerelease: true })
};

// src/ecosystems/unmanaged.ts
var UNMANAGED_LOCKFILES = {
  bun: ["bun.lockb", "bun.lock"],
  pipenv: ["Pipfile.lock", "Pipfile"],
  pdm: ["pdm.lock"]
};
var OTHER_NODE_LOCKFILES = ["pnpm-lock.yaml", "yarn.lock", "bun.lockb", "bun.lock"];

// src/ecosystems/node-project.ts
var import_picomatch2 = __toESM(require_picomatch2(), 1);
var import_semver3 = __toESM(require_semver(), 1);
import { lstatSync as lstatSync3, readdirSync as readdirSync2 } from "node:fs";
import path9 from "node:path";

// src/ecosystems/limited-map.ts
async function mapLimited(items, limit, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// src/ecosystems/node-project.ts
var MANIFEST = "package.json";
var SECTIONS = ["dependencies", "devDependencies", "optionalDependencies"];
var MAX_JSON_BYTES = 32 * 1024 * 1024;
var MAX_DEPTH = 5;
var MAX_PACKAGES = 500;
var LOOKUP_CONCURRENCY = 4;
var isTable2 = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function readJson(workspace, rel) {
  const text = readAgentText(workspace, rel, MAX_JSON_BYTES);
  if (text === null) return null;
  try {
    const data = JSON.parse(text);
    return isTable2(data) ? data : null;
  } catch {
    return null;
  }
}
var manifestOf = (dir) => dir ? `${dir}/${MANIFEST}` : MANIFEST;
function workspaceDirs(workspace, patterns) {
  const clean = patterns.filter((p) => typeof p === "string" && p.trim()).map((p) => p.trim().replace(/^\.\//, "").replace(/\/+$/, ""));
  const include = clean.filter((p) => !p.startsWith("!"));
  if (include.length === 0) return [""];
  const yes = (0, import_picomatch2.default)(include);
  const no = (0, import_picomatch2.default)(clean.filter((p) => p.startsWith("!")).map((p) => p.slice(1)));
  const found = [];
  const walk = (rel, depth) => {
    if (depth > MAX_DEPTH || found.length >= MAX_PACKAGES) return;
    let entries;
    try {
      entries = readdirSync2(path9.join(workspace, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (!e.isDirectory() || e.name === "node_modules" || e.name.startsWith(".")) continue;
      const sub = rel ? `${rel}/${e.name}` : e.name;
      if (yes(sub) && !no(sub) && lstatSafe(path9.join(workspace, sub, MANIFEST))) found.push(sub);
      walk(sub, depth + 1);
    }
  };
  walk("", 1);
  return ["", ...found];
}
function lstatSafe(file) {
  try {
    return lstatSync3(file).isFile();
  } catch {
    return false;
  }
}
function packageJsonWorkspaces(workspace) {
  const ws = readJson(workspace, MANIFEST)?.workspaces;
  const list = isTable2(ws) ? ws.packages : ws;
  return Array.isArray(list) ? list.filter((p) => typeof p === "string") : [];
}
function lockedByDeclaredRange(workspace, locked) {
  return (dir, name) => {
    const decl = declarations(workspace, [dir]).get(name)?.[0];
    return decl ? locked(name, decl.range) : null;
  };
}
function declarations(workspace, dirs) {
  const out = /* @__PURE__ */ new Map();
  const manifests = dirs.map((dir) => ({ dir, manifest: readJson(workspace, manifestOf(dir)) }));
  const own = new Set(manifests.map((m) => m.manifest?.name).filter((n) => typeof n === "string"));
  for (const { dir, manifest } of manifests) {
    if (!manifest) continue;
    const seen = /* @__PURE__ */ new Set();
    for (const type2 of SECTIONS) {
      const deps = manifest[type2];
      if (!isTable2(deps)) continue;
      for (const [name, range] of Object.entries(deps)) {
        if (typeof range !== "string" || seen.has(name) || own.has(name) || import_semver3.default.validRange(range) === null) continue;
        seen.add(name);
        out.set(name, [...out.get(name) ?? [], { dir, type: type2, range }]);
      }
    }
  }
  return out;
}
function bumpedRange(range, to) {
  const r = range.trim();
  if (/^v?\d/.test(r) && import_semver3.default.valid(r)) return to;
  const op = /^(~|>=|=)\s*v?\d[^\s|]*$/.exec(r)?.[1];
  return `${op ?? "^"}${to}`;
}
function writeBumpedManifests({ workspace, decls, name, to }) {
  const files = [];
  for (const d of decls) {
    const rel = manifestOf(d.dir);
    const text = readAgentText(workspace, rel, MAX_JSON_BYTES);
    const manifest = text === null ? null : readJson(workspace, rel);
    if (text === null || !manifest || !isTable2(manifest[d.type])) continue;
    manifest[d.type][name] = bumpedRange(d.range, to);
    const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? "  ";
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    const body = JSON.stringify(manifest, null, indent).replace(/\n/g, eol);
    writeTreeFile({ root: workspace, rel, data: text.endsWith("\n") ? `${body}${eol}` : body });
    files.push(rel);
  }
  return files;
}
async function outdatedFromRegistry(src) {
  const notes = [];
  const names = [...src.decls.keys()].sort();
  const published = await mapLimited(names, LOOKUP_CONCURRENCY, (n) => src.versions(n));
  const found = [];
  names.forEach((name, i) => {
    const held2 = src.decls.get(name).map((d2) => ({ d: d2, current: src.locked(d2.dir, name) })).filter((h) => h.current !== null && import_semver3.default.valid(h.current) !== null).sort((a, b) => import_semver3.default.compare(a.current, b.current));
    const versions = published[i];
    if (held2.length === 0) return notes.push(`not upgraded: ${name}: the lockfile holds no version of it`);
    if (versions === null) return notes.push(`not upgraded: ${name}: the registry does not know it`);
    const { d, current } = held2[0];
    const pre = (import_semver3.default.prerelease(current)?.length ?? 0) > 0;
    const valid = versions.filter((v) => import_semver3.default.valid(v) !== null && (pre || (import_semver3.default.prerelease(v)?.length ?? 0) === 0));
    const latest = import_semver3.default.maxSatisfying(valid, "*", { includePrerelease: pre });
    const wanted = import_semver3.default.maxSatisfying(valid, d.range, { includePrerelease: pre }) ?? current;
    if (!latest || import_semver3.default.lte(latest, current) && import_semver3.default.lte(wanted, current)) return;
    found.push({ name, current, wanted, latest, type: d.type });
  });
  return { dependencies: found, notes };
}
function parseVersions(stdout) {
  let data;
  try {
    data = JSON.parse(stdout.trim() || "null");
  } catch {
    return null;
  }
  if (isTable2(data) && data.type === "inspect") data = data.data;
  if (typeof data === "string") return [data];
  return Array.isArray(data) ? data.filter((v) => typeof v === "string") : null;
}

// src/ecosystems/npm/workspaces.ts
var isTable3 = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function npmLocked(lock, dir, name) {
  const packages = isTable3(lock?.packages) ? lock.packages : {};
  for (const key of dir ? [`${dir}/node_modules/${name}`, `node_modules/${name}`] : [`node_modules/${name}`]) {
    const entry = packages[key];
    if (!isTable3(entry)) continue;
    return typeof entry.version === "string" && entry.link !== true ? entry.version : null;
  }
  return null;
}
var tail2 = (r) => `(${r.timedOut ? "timed out" : r.exitCode ?? r.signal}): ${`${r.stderr}
${r.stdout}`.trim().split("\n").slice(-8).join(" | ").slice(0, 1500)}`;
async function workspaceOutdated({ workspace, patterns, lockfile, npm: npm2 }) {
  const lock = readJson(workspace, lockfile);
  let failure = null;
  let answered = 0;
  const report = await outdatedFromRegistry({
    decls: declarations(workspace, workspaceDirs(workspace, patterns)),
    locked: (dir, name) => npmLocked(lock, dir, name),
    versions: async (name) => {
      const r = await npm2(["view", name, "versions", "--json"]);
      const versions = r.exitCode === 0 ? parseVersions(r.stdout) : null;
      if (versions === null) failure = tail2(r);
      else answered++;
      return versions;
    }
  });
  if (answered === 0 && failure !== null) throw new Error(`npm could not read any version from the registry ${failure}`);
  return report;
}
async function workspaceBump(ws, candidate) {
  const { workspace, patterns, lockfile, npm: npm2 } = ws;
  const decls = declarations(workspace, workspaceDirs(workspace, patterns)).get(candidate.name) ?? [];
  const files = [...writeBumpedManifests({ workspace, decls, name: candidate.name, to: candidate.to }), lockfile];
  if (decls.length === 0) return { ok: false, message: `no package.json of the workspace declares ${candidate.name}`, files };
  const r = await npm2(["install", "--ignore-scripts", "--no-audit", "--no-fund"]);
  if (r.exitCode !== 0) return { ok: false, message: `npm install failed ${tail2(r)}`, files };
  const lock = readJson(workspace, lockfile);
  const stale = decls.filter((d) => npmLocked(lock, d.dir, candidate.name) !== candidate.to);
  if (stale.length > 0) {
    const where = stale.map((d) => `${d.dir || "."} at ${npmLocked(lock, d.dir, candidate.name) ?? "nothing"}`).join(", ");
    return { ok: false, message: `npm left ${candidate.name} in ${lockfile} for ${where}, not ${candidate.to}`, files };
  }
  return { ok: true, files };
}
function workspaceInstalledCopy(ws, candidate) {
  const hoisted = `node_modules/${candidate.name}`;
  const packages = readJson(ws.workspace, ws.lockfile)?.packages;
  const at2 = (key) => isTable3(packages) && isTable3(packages[key]) ? packages[key].version : void 0;
  if (at2(hoisted) === candidate.to) return hoisted;
  const decls = declarations(ws.workspace, workspaceDirs(ws.workspace, ws.patterns)).get(candidate.name) ?? [];
  const nested = decls.map((d) => `${d.dir}/${hoisted}`).find((key) => !key.startsWith("/") && at2(key) === candidate.to);
  return nested ?? hoisted;
}

// src/ecosystems/npm/manager.ts
var MANIFEST2 = "package.json";
var LOCKFILES = ["package-lock.json", "npm-shrinkwrap.json"];
var SECTIONS2 = ["dependencies", "devDependencies", "optionalDependencies"];
var MAX_JSON_BYTES2 = 32 * 1024 * 1024;
var NPM_TIMEOUT_MS = 10 * 6e4;
var CHANGELOG_FILES = ["CHANGELOG.md", "CHANGELOG", "HISTORY.md", "CHANGES.md", "RELEASES.md"];
function readJson2(workspace, rel) {
  const text = readAgentText(workspace, rel, MAX_JSON_BYTES2);
  if (text === null) return null;
  try {
    const data = JSON.parse(text);
    return typeof data === "object" && data !== null && !Array.isArray(data) ? data : null;
  } catch {
    return null;
  }
}
function section(manifest, type2) {
  const value = manifest[type2];
  return typeof value === "object" && value !== null ? value : {};
}
function declared(manifest, name) {
  for (const type2 of SECTIONS2) {
    const range = section(manifest, type2)[name];
    if (typeof range === "string") return { type: type2, range };
  }
  return null;
}
function lockedVersion(lock, name) {
  const packages = lock?.packages;
  if (typeof packages !== "object" || packages === null) return null;
  const entry = packages[`node_modules/${name}`];
  const version = typeof entry === "object" && entry !== null ? entry.version : void 0;
  return typeof version === "string" ? version : null;
}
function repositoryUrl(repository) {
  const raw = typeof repository === "string" ? repository : typeof repository === "object" && repository !== null ? repository.url : void 0;
  if (typeof raw !== "string" || raw.length > 500) return null;
  const shorthand = /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(raw);
  if (shorthand) return `https://github.com/${shorthand[1]}/${shorthand[2].replace(/\.git$/, "")}`;
  const m = /^(?:git\+)?(?:https?|git|ssh):\/\/(?:[^@/]+@)?([\w.-]+)(?::\d+)?\/(.+?)(?:\.git)?\/?$/.exec(raw) ?? /^git@([\w.-]+):(.+?)(?:\.git)?$/.exec(raw);
  if (!m) return null;
  return `https://${m[1]}/${m[2]}`;
}
function sourceLines(meta) {
  const lines = [];
  const repo = repositoryUrl(meta.repository);
  if (repo) {
    lines.push(`repository: ${repo}`);
    if (/^https:\/\/(?:github\.com|gitlab\.com)\//.test(repo)) lines.push(`release notes: ${repo}/releases`);
  }
  if (typeof meta.homepage === "string" && /^https?:\/\/\S+$/.test(meta.homepage) && meta.homepage.length <= 500 && meta.homepage !== repo) {
    lines.push(`homepage: ${meta.homepage}`);
  }
  return lines;
}
var NpmPackageManager = class {
  name = "npm";
  bumpFiles = [MANIFEST2, ...LOCKFILES];
  versions = SEMVER;
  detect(workspace) {
    return readTreeEntry(workspace, MANIFEST2, MAX_JSON_BYTES2).kind === "file" && this.declined(workspace) === null;
  }
  /**
   * Why a package.json is not npm's: its `packageManager` names another manager, or, without an
   * npm lockfile, another manager's lockfile is beside it (npm would add a package-lock.json).
   */
  declined(workspace) {
    const declaredManager2 = readJson2(workspace, MANIFEST2)?.packageManager;
    if (typeof declaredManager2 === "string") {
      return /^npm@/.test(declaredManager2.trim()) ? null : `package.json declares packageManager ${JSON.stringify(declaredManager2.slice(0, 80))}`;
    }
    if (LOCKFILES.some((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES2).kind === "file")) return null;
    const foreign = OTHER_NODE_LOCKFILES.find((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES2).kind !== "missing");
    if (foreign) return `the project has ${foreign} and no npm lockfile`;
    return readTreeEntry(workspace, ".yarnrc.yml", MAX_JSON_BYTES2).kind !== "missing" ? "the project has .yarnrc.yml (Yarn Berry) and no npm lockfile" : null;
  }
  lockfileHash(workspace) {
    for (const rel of LOCKFILES) {
      const entry = readTreeEntry(workspace, rel, MAX_JSON_BYTES2);
      if (entry.kind === "file") return `${rel}:${createHash("sha256").update(entry.data).digest("hex").slice(0, 32)}`;
    }
    return "none";
  }
  npm({ workspace, args, env, signal }) {
    return runProcess({ command: "npm", args, cwd: workspace, env, timeoutMs: NPM_TIMEOUT_MS, signal, maxOutputChars: MAX_JSON_BYTES2 });
  }
  /** The npm workspace at `workspace` (package.json with `workspaces`), null for a single package. */
  npmWorkspace(workspace, env, signal) {
    const patterns = packageJsonWorkspaces(workspace);
    if (patterns.length === 0) return null;
    const lockfile = LOCKFILES.find((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES2).kind === "file") ?? LOCKFILES[0];
    return { workspace, patterns, lockfile, npm: (args) => this.npm({ workspace, args, env, signal }) };
  }
  async outdated(workspace, env, signal) {
    const ws = this.npmWorkspace(workspace, env, signal);
    if (ws) return workspaceOutdated(ws);
    const r = await this.npm({ workspace, args: ["outdated", "--json"], env, signal });
    let report;
    try {
      report = JSON.parse(r.stdout.trim() || "{}");
    } catch {
      throw new Error(`npm outdated failed (${r.exitCode ?? r.signal}): ${r.stderr.trim().split("\n").slice(-5).join(" | ")}`);
    }
    if (r.exitCode !== 0 && r.exitCode !== 1)
      throw new Error(`npm outdated failed (${r.exitCode ?? r.signal}): ${r.stderr.trim().split("\n").slice(-5).join(" | ")}`);
    if (typeof report.error === "object" && report.error !== null) throw new Error(`npm outdated failed: ${JSON.stringify(report.error).slice(0, 500)}`);
    const manifest = readJson2(workspace, MANIFEST2) ?? {};
    const lock = readJson2(workspace, LOCKFILES[0]) ?? readJson2(workspace, LOCKFILES[1]);
    const found = [];
    for (const [name, value] of Object.entries(report)) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
      const info = value;
      const decl = declared(manifest, name);
      if (!decl || import_semver4.default.validRange(decl.range) === null) continue;
      const current = typeof info.current === "string" ? info.current : lockedVersion(lock, name);
      const { wanted, latest } = info;
      if (!current || !import_semver4.default.valid(current) || typeof wanted !== "string" || typeof latest !== "string") continue;
      if (!import_semver4.default.valid(wanted) || !import_semver4.default.valid(latest)) continue;
      found.push({ name, current, wanted, latest, type: decl.type });
    }
    return { dependencies: found, notes: [] };
  }
  async bump({ workspace, candidate, env, signal }) {
    const ws = this.npmWorkspace(workspace, env, signal);
    if (ws) return workspaceBump(ws, candidate);
    const manifest = readJson2(workspace, MANIFEST2) ?? {};
    const range = declared(manifest, candidate.name)?.range ?? "";
    const save = candidate.type === "devDependencies" ? "--save-dev" : candidate.type === "optionalDependencies" ? "--save-optional" : "--save-prod";
    const prefix = bumpedRange(range, candidate.to).slice(0, -candidate.to.length);
    const args = [
      "install",
      `${candidate.name}@${candidate.to}`,
      save,
      prefix ? `--save-prefix=${prefix}` : "--save-exact",
      "--ignore-scripts",
      "--no-audit",
      "--no-fund"
    ];
    const r = await this.npm({ workspace, args, env, signal });
    if (r.exitCode !== 0) {
      const tail3 = `${r.stderr}
${r.stdout}`.trim().split("\n").slice(-8).join(" | ").slice(0, 1500);
      return { ok: false, message: `npm install ${candidate.name}@${candidate.to} failed (${r.timedOut ? "timed out" : r.exitCode ?? r.signal}): ${tail3}` };
    }
    const after = readJson2(workspace, MANIFEST2) ?? {};
    const now = declared(after, candidate.name)?.range;
    if (!now || import_semver4.default.validRange(now) === null || !import_semver4.default.satisfies(candidate.to, now)) {
      return {
        ok: false,
        message: `npm install left ${candidate.name} at ${JSON.stringify(now ?? null)} in package.json, which does not admit ${candidate.to}`
      };
    }
    return { ok: true };
  }
  installedCopy(candidate, workspace) {
    const patterns = workspace ? packageJsonWorkspaces(workspace) : [];
    if (!workspace || patterns.length === 0) return `node_modules/${candidate.name}`;
    const lockfile = LOCKFILES.find((f) => readTreeEntry(workspace, f, MAX_JSON_BYTES2).kind === "file") ?? LOCKFILES[0];
    return workspaceInstalledCopy({ workspace, patterns, lockfile }, candidate);
  }
  async releaseNotes({ workspace, candidate, env, signal }) {
    const lines = [];
    const r = await this.npm({ workspace, args: ["view", `${candidate.name}@${candidate.to}`, "repository", "homepage", "--json"], env, signal });
    let meta = {};
    try {
      const parsed2 = JSON.parse(r.stdout.trim() || "{}");
      if (typeof parsed2 === "object" && parsed2 !== null && !Array.isArray(parsed2)) meta = parsed2;
    } catch {
    }
    lines.push(...sourceLines(meta));
    const copy = this.installedCopy(candidate, workspace);
    for (const file of CHANGELOG_FILES) {
      const rel = `${copy}/${file}`;
      if (readTreeEntry(workspace, rel, MAX_JSON_BYTES2).kind === "file") {
        lines.push(`changelog of the installed version: ${rel}`);
        break;
      }
    }
    return lines;
  }
};

// src/ecosystems/npm/index.ts
var npm = {
  id: "npm",
  registries: ["registry.npmjs.org"],
  detection: { manifests: [MANIFEST2], lockfiles: LOCKFILES, packageManager: "npm" },
  lockfiles: LOCKFILES,
  manifests: [
    {
      file: MANIFEST2,
      kind: "package-json",
      allowedKeys: [
        "dependencies",
        "devDependencies",
        "peerDependencies",
        "optionalDependencies",
        "bundleDependencies",
        "bundledDependencies",
        "peerDependenciesMeta",
        "overrides",
        "resolutions",
        "pnpm.overrides",
        "version",
        "engines",
        "packageManager"
      ]
    }
  ],
  lockEntries: (_file, text, registryHosts) => packageLockEntries(text, registryHosts),
  dependencyFolders: {
    root: ["node_modules"],
    anyDepth: ["node_modules"],
    archives: [],
    // vite bundles its config into `.vite-temp`, vitest keeps results in `.vite`, babel and others use `.cache`.
    caches: { node_modules: [".cache", ".vite", ".vite-temp", ".tmp"] }
  },
  // npm's `npm_config_*`, `NPM_CONFIG_USERCONFIG`, and the `NODE_AUTH_TOKEN` that actions/setup-node's user config refers to.
  registryEnv: (name) => /^npm_config_/i.test(name) || name === "NODE_AUTH_TOKEN",
  upgrade: new NpmPackageManager()
};

// src/ecosystems/pip/lockfile.ts
var normalizeName = (name) => name.toLowerCase().replace(/[-_.]+/g, "-");
function parseRequirement(line) {
  const text = line.replace(/\s+#.*$/, "").trim();
  const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*(.*)$/.exec(text);
  if (!m) return null;
  const rest = m[3];
  const registry3 = !rest.startsWith("@") && !/:\/\/|^file:|\.whl\b|\.tar\.gz\b|\.zip\b/i.test(rest);
  return { name: normalizeName(m[1]), registry: registry3 };
}
function requirementsEntries(text) {
  const out = [];
  const lines = text.replace(/\\\r?\n/g, " ").split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) return;
    const req = line.startsWith("-") ? null : parseRequirement(line);
    if (!req) {
      out.push({ key: `line ${i + 1}`, name: line.slice(0, 80), text: line, registry: false, why: "an option, path or URL" });
      return;
    }
    const pin = /^[^=<>!~;@\s[]+\s*(?:\[[^\]]*\])?\s*===?\s*([A-Za-z0-9!+._-]+)\s*(?:;|$|\s)/.exec(line);
    const version = pin && !pin[1].includes("*") ? { version: pin[1] } : {};
    out.push({ key: req.name, name: req.name, text: line, registry: req.registry, why: req.registry ? void 0 : "a path or URL", ...version });
  });
  return out;
}

// src/ecosystems/pip/manager.ts
import { createHash as createHash2 } from "node:crypto";

// src/ecosystems/pip/index-lookup.ts
var PIP_TIMEOUT_MS = 3 * 6e4;
var MAX_OUTPUT_CHARS = 8 * 1024 * 1024;
function runPip({ args, env, signal }) {
  return runProcess({
    command: "python3",
    args: ["-I", "-m", "pip", ...args],
    cwd: "/",
    env: { PIP_DISABLE_PIP_VERSION_CHECK: "1", PIP_NO_INPUT: "1", ...env },
    timeoutMs: PIP_TIMEOUT_MS,
    signal,
    maxOutputChars: MAX_OUTPUT_CHARS
  });
}
var pipTail = (r) => `${r.stderr}
${r.stdout}`.split("\n").map((l) => l.trim()).filter((l) => l && !/^WARNING: pip index is currently an experimental command/.test(l)).slice(-5).join(" | ").slice(0, 800);
function availableVersions(stdout) {
  const m = /^Available versions:[ \t]*(.*)$/m.exec(stdout);
  if (!m) return null;
  return m[1].split(",").map((v) => v.trim()).filter(Boolean);
}
async function indexVersions({ name, pre, env, signal }) {
  const r = await runPip({ args: ["index", "versions", ...pre ? ["--pre"] : [], name], env, signal });
  const versions = r.exitCode === 0 ? availableVersions(r.stdout) : null;
  if (versions) return { kind: "versions", versions };
  const unreachable = /Retrying|Could not fetch URL|NewConnectionError|ConnectTimeout|ReadTimeout|SSLError|ProxyError|Max retries/i.test(r.stderr);
  if (r.exitCode === 1 && /No matching distribution found/i.test(r.stderr) && !unreachable) return { kind: "unknown" };
  return { kind: "failed", message: `pip index versions ${name} failed (${r.timedOut ? "timed out" : r.exitCode ?? r.signal}): ${pipTail(r)}` };
}

// src/ecosystems/pip/pep440.ts
var import_semver6 = __toESM(require_semver(), 1);
var VERSION = /^v?(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|alpha|b|beta|c|rc|pre|preview)[-_.]?(\d*))?(?:-(\d+)|[-_.]?(post|rev|r)[-_.]?(\d*))?(?:[-_.]?(dev)[-_.]?(\d*))?(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?$/i;
var PHASES = { a: "a", alpha: "a", b: "b", beta: "b", c: "rc", rc: "rc", pre: "rc", preview: "rc" };
function parsePep440(text) {
  const m = VERSION.exec(text.trim());
  if (!m) return null;
  const num = (s) => s ? Number(s) : 0;
  return {
    epoch: num(m[1]),
    release: m[2].split(".").map(Number),
    pre: m[3] ? { phase: PHASES[m[3].toLowerCase()], n: num(m[4]) } : null,
    post: m[5] !== void 0 ? Number(m[5]) : m[6] ? num(m[7]) : null,
    dev: m[8] ? num(m[9]) : null,
    local: m[10] ?? null
  };
}
function isPrerelease(v) {
  return v.pre !== null || v.dev !== null;
}
var PHASE_ORDER = { a: 0, b: 1, rc: 2 };
function suffixKey(v) {
  const pre = v.pre ? [PHASE_ORDER[v.pre.phase], v.pre.n] : v.dev !== null && v.post === null ? [-1, 0] : [3, 0];
  return [...pre, v.post ?? -1, v.dev ?? Infinity];
}
function comparePep440(a, b) {
  const x = [a.epoch, ...a.release];
  const y = [b.epoch, ...b.release];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  const [sa, sb] = [suffixKey(a), suffixKey(b)];
  for (let i = 0; i < sa.length; i++) if (sa[i] !== sb[i]) return sa[i] < sb[i] ? -1 : 1;
  return 0;
}
function parsed(text) {
  const v = parsePep440(text);
  if (!v) throw new Error(`not a PEP 440 version: ${JSON.stringify(text)}`);
  return v;
}
function pep440Kind(from, to) {
  const [a, b] = [parsed(from), parsed(to)];
  const [major, minor, patch] = [0, 1, 2].map((i) => [a.release[i] ?? 0, b.release[i] ?? 0]);
  if (a.epoch !== b.epoch || major[0] !== major[1]) return "major";
  if (major[0] === 0 && minor[0] !== minor[1]) return "major";
  if (major[0] === 0 && minor[0] === 0 && patch[0] !== patch[1]) return "major";
  return minor[0] !== minor[1] ? "minor" : "patch";
}
function pep440AsSemver(text) {
  const v = parsePep440(text);
  if (!v) return null;
  const [major = 0, minor = 0, patch = 0] = v.release;
  const tags = [...v.pre ? [v.pre.phase, v.pre.n] : [], ...v.dev !== null ? ["dev", v.dev] : []];
  return `${major}.${minor}.${patch}${tags.length > 0 ? `-${tags.join(".")}` : ""}`;
}
var PEP440 = {
  valid: (v) => parsePep440(v) !== null,
  compare: (a, b) => comparePep440(parsed(a), parsed(b)),
  kind: pep440Kind,
  prerelease: (v) => isPrerelease(parsed(v)),
  satisfies: (v, range) => {
    const s = pep440AsSemver(v);
    return s !== null && import_semver6.default.satisfies(s, range, { includePrerelease: true });
  }
};

// src/ecosystems/pip/requirements.ts
var PIN = /^(\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]#]*\])?\s*==\s*)([A-Za-z0-9!+._-]+)(\s*(?:;[^#]*)?(?:\s#.*)?)$/;
function parsePins(text) {
  const pins = [];
  let offset = 0;
  let continued = false;
  for (const raw of text.split(/(?<=\n)/)) {
    const line = raw.replace(/\r?\n$/, "");
    const startOfLine = offset;
    offset += raw.length;
    const wasContinued = continued;
    continued = /\\$/.test(line);
    if (wasContinued || continued) continue;
    const m = PIN.exec(line);
    if (!m || /\s--/.test(m[4]) || parsePep440(m[3]) === null) continue;
    const start = startOfLine + m[1].length;
    pins.push({ name: m[2], key: normalizeName(m[2]), version: m[3], start, end: start + m[3].length });
  }
  return pins;
}
function uniquePins(pins) {
  const count = /* @__PURE__ */ new Map();
  for (const p of pins) count.set(p.key, (count.get(p.key) ?? 0) + 1);
  return {
    pins: pins.filter((p) => count.get(p.key) === 1),
    repeated: [...new Set(pins.filter((p) => (count.get(p.key) ?? 0) > 1).map((p) => p.name))]
  };
}
function rewritePin({ text, name, from, to }) {
  const matches = uniquePins(parsePins(text)).pins.filter((p) => p.key === normalizeName(name));
  if (matches.length !== 1 || matches[0].version !== from) return null;
  const { start, end } = matches[0];
  return text.slice(0, start) + to + text.slice(end);
}

// src/ecosystems/pip/manager.ts
var REQUIREMENTS = "requirements.txt";
var MAX_REQUIREMENTS_BYTES = 4 * 1024 * 1024;
var LOOKUP_CONCURRENCY2 = 4;
var JSON_TIMEOUT_MS = 15e3;
var MAX_JSON_BYTES3 = 8 * 1024 * 1024;
var DEFAULT_INDEX = "https://pypi.org/simple";
var NOTES_LABELS = /* @__PURE__ */ new Set(["changelog", "changes", "releasenotes", "history", "releases", "whatsnew", "news"]);
function readRequirements(workspace) {
  const entry = readTreeEntry(workspace, REQUIREMENTS, MAX_REQUIREMENTS_BYTES);
  return entry.kind === "file" ? { text: entry.data.toString("latin1"), executable: entry.executable } : null;
}
function jsonApiUrl(indexUrl, name, version) {
  let url;
  try {
    url = new URL(indexUrl);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || !/\/simple\/?$/.test(url.pathname)) return null;
  url.pathname = url.pathname.replace(/\/simple\/?$/, `/pypi/${encodeURIComponent(name)}/${encodeURIComponent(version)}/json`);
  url.search = "";
  url.hash = "";
  return url;
}
function releaseNoteLinks(meta) {
  const info = typeof meta === "object" && meta !== null ? meta.info : void 0;
  const urls = typeof info === "object" && info !== null ? info.project_urls : void 0;
  if (typeof urls !== "object" || urls === null) return [];
  const lines = [];
  for (const [label, url] of Object.entries(urls)) {
    if (!NOTES_LABELS.has(label.toLowerCase().replace(/[^a-z]/g, ""))) continue;
    if (typeof url !== "string" || url.length > 500 || !/^https?:\/\/\S+$/.test(url) || label.length > 60) continue;
    lines.push(`${label.replace(/[^\w ./'-]/g, "")}: ${url}`);
  }
  return lines.slice(0, 5);
}
var PipPackageManager = class {
  name = "pip";
  bumpFiles = [REQUIREMENTS];
  versions = PEP440;
  detect(workspace) {
    const file = readRequirements(workspace);
    return file !== null && parsePins(file.text).length > 0;
  }
  lockfileHash(workspace) {
    const entry = readTreeEntry(workspace, REQUIREMENTS, MAX_REQUIREMENTS_BYTES);
    return entry.kind === "file" ? `${REQUIREMENTS}:${createHash2("sha256").update(entry.data).digest("hex").slice(0, 32)}` : "none";
  }
  async outdated(workspace, env, signal) {
    const file = readRequirements(workspace);
    if (!file) throw new Error(`${REQUIREMENTS} is not a regular file`);
    const { pins, repeated } = uniquePins(parsePins(file.text));
    const notes = repeated.map((name) => `not upgraded: ${name}: pinned more than once in ${REQUIREMENTS}`);
    const lookups = await mapLimited(
      pins,
      LOOKUP_CONCURRENCY2,
      (pin) => indexVersions({ name: pin.name, pre: isPrerelease(parsePep440(pin.version)), env, signal })
    );
    const failed = lookups.filter((l) => l.kind === "failed");
    if (failed.length > 0 && failed.length === lookups.length) throw new Error(failed[0].message);
    const dependencies = [];
    pins.forEach((pin, i) => {
      const lookup = lookups[i];
      if (lookup.kind === "unknown") return void notes.push(`not upgraded: ${pin.name}: the package index does not know it`);
      if (lookup.kind === "failed") return void notes.push(`not upgraded: ${lookup.message}`);
      const current = parsePep440(pin.version);
      const newest = lookup.versions.map((text) => ({ text, version: parsePep440(text) })).filter((v) => v.version !== null).filter((v) => isPrerelease(current) || !isPrerelease(v.version)).sort((a, b) => comparePep440(b.version, a.version))[0];
      if (newest && comparePep440(newest.version, current) > 0) {
        dependencies.push({ name: pin.name, current: pin.version, wanted: newest.text, latest: newest.text, type: "dependencies" });
      }
    });
    return { dependencies, notes };
  }
  async bump({ workspace, candidate }) {
    const file = readRequirements(workspace);
    if (!file) return { ok: false, message: `${REQUIREMENTS} is not a regular file; it is not rewritten` };
    const rewritten = rewritePin({ text: file.text, name: candidate.name, from: candidate.from, to: candidate.to });
    if (rewritten === null) return { ok: false, message: `${REQUIREMENTS} holds no single pin ${candidate.name}==${candidate.from}` };
    writeTreeFile({ root: workspace, rel: REQUIREMENTS, data: Buffer.from(rewritten, "latin1"), executable: file.executable });
    return { ok: true };
  }
  installedCopy() {
    return null;
  }
  releaseNotes({ candidate, env, signal }) {
    return indexReleaseNotes({ candidate, env, signal });
  }
};
async function indexReleaseNotes({ candidate, env, signal }) {
  const url = jsonApiUrl(await pipIndexUrl(env, signal), candidate.name, candidate.to);
  if (!url) return [];
  const headers = { accept: "application/json" };
  if (url.username || url.password) {
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  try {
    const timeout = AbortSignal.timeout(JSON_TIMEOUT_MS);
    const response = await fetch(url, { headers, redirect: "follow", signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    const length = Number(response.headers.get("content-length") ?? 0);
    if (!response.ok || length > MAX_JSON_BYTES3) return [];
    const body = await response.text();
    return body.length > MAX_JSON_BYTES3 ? [] : releaseNoteLinks(JSON.parse(body));
  } catch {
    return [];
  }
}
async function pipIndexUrl(env, signal) {
  if (env.PIP_INDEX_URL) return env.PIP_INDEX_URL;
  const r = await runPip({ args: ["config", "list"], env, signal });
  const configured = [...r.stdout.matchAll(/^[^\n=]*\.index-url='([^'\n]+)'$/gm)].map((m) => m[1]);
  return configured.at(-1) ?? DEFAULT_INDEX;
}

// src/ecosystems/pip/index.ts
var pip = {
  id: "pip",
  registries: ["pypi.org", "files.pythonhosted.org"],
  detection: { manifests: [REQUIREMENTS], lockfiles: [REQUIREMENTS] },
  lockfiles: [],
  lockfilePattern: /^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$/,
  manifests: [
    {
      file: "pyproject.toml",
      kind: "pyproject",
      allowedKeys: [
        "project.dependencies",
        "project.optional-dependencies",
        "project.version",
        "project.requires-python",
        "dependency-groups",
        "build-system.requires",
        "tool.poetry.dependencies",
        "tool.poetry.dev-dependencies",
        "tool.poetry.group.*.dependencies",
        "tool.poetry.version",
        "tool.uv.dev-dependencies",
        "tool.uv.constraint-dependencies",
        "tool.uv.override-dependencies",
        "tool.uv.build-constraint-dependencies",
        "tool.pdm.dev-dependencies"
      ]
    }
  ],
  lockEntries: (_file, text) => requirementsEntries(text),
  dependencyFolders: {
    root: [".venv", "venv"],
    anyDepth: ["site-packages", "dist-packages", "__pypackages__"],
    archives: [],
    caches: {}
  },
  // `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_CONFIG_FILE`, …
  registryEnv: (name) => /^PIP_/.test(name),
  upgrade: new PipPackageManager()
};

// node_modules/js-yaml/dist/js-yaml.mjs
function getDefaultExportFromCjs(x) {
  return x && x.__esModule && Object.prototype.hasOwnProperty.call(x, "default") ? x["default"] : x;
}
var jsYaml = {};
var loader = {};
var common = {};
var hasRequiredCommon;
function requireCommon() {
  if (hasRequiredCommon) return common;
  hasRequiredCommon = 1;
  function isNothing(subject) {
    return typeof subject === "undefined" || subject === null;
  }
  function isObject(subject) {
    return typeof subject === "object" && subject !== null;
  }
  function toArray(sequence) {
    if (Array.isArray(sequence)) return sequence;
    else if (isNothing(sequence)) return [];
    return [sequence];
  }
  function extend(target, source) {
    if (source) {
      const sourceKeys = Object.keys(source);
      for (let index = 0, length = sourceKeys.length; index < length; index += 1) {
        const key = sourceKeys[index];
        target[key] = source[key];
      }
    }
    return target;
  }
  function repeat(string, count) {
    let result = "";
    for (let cycle = 0; cycle < count; cycle += 1) {
      result += string;
    }
    return result;
  }
  function isNegativeZero(number) {
    return number === 0 && Number.NEGATIVE_INFINITY === 1 / number;
  }
  common.isNothing = isNothing;
  common.isObject = isObject;
  common.toArray = toArray;
  common.repeat = repeat;
  common.isNegativeZero = isNegativeZero;
  common.extend = extend;
  return common;
}
var exception;
var hasRequiredException;
function requireException() {
  if (hasRequiredException) return exception;
  hasRequiredException = 1;
  function formatError(exception2, compact) {
    let where = "";
    const message = exception2.reason || "(unknown reason)";
    if (!exception2.mark) return message;
    if (exception2.mark.name) {
      where += 'in "' + exception2.mark.name + '" ';
    }
    where += "(" + (exception2.mark.line + 1) + ":" + (exception2.mark.column + 1) + ")";
    if (!compact && exception2.mark.snippet) {
      where += "\n\n" + exception2.mark.snippet;
    }
    return message + " " + where;
  }
  function YAMLException2(reason, mark) {
    Error.call(this);
    this.name = "YAMLException";
    this.reason = reason;
    this.mark = mark;
    this.message = formatError(this, false);
    if (Error.captureStackTrace) {
      Error.captureStackTrace(this, this.constructor);
    } else {
      this.stack = new Error().stack || "";
    }
  }
  YAMLException2.prototype = Object.create(Error.prototype);
  YAMLException2.prototype.constructor = YAMLException2;
  YAMLException2.prototype.toString = function toString(compact) {
    return this.name + ": " + formatError(this, compact);
  };
  exception = YAMLException2;
  return exception;
}
var snippet;
var hasRequiredSnippet;
function requireSnippet() {
  if (hasRequiredSnippet) return snippet;
  hasRequiredSnippet = 1;
  const common2 = requireCommon();
  function getLine(buffer, lineStart, lineEnd, position, maxLineLength) {
    let head = "";
    let tail3 = "";
    const maxHalfLength = Math.floor(maxLineLength / 2) - 1;
    if (position - lineStart > maxHalfLength) {
      head = " ... ";
      lineStart = position - maxHalfLength + head.length;
    }
    if (lineEnd - position > maxHalfLength) {
      tail3 = " ...";
      lineEnd = position + maxHalfLength - tail3.length;
    }
    return {
      str: head + buffer.slice(lineStart, lineEnd).replace(/\t/g, "\u2192") + tail3,
      pos: position - lineStart + head.length
      // relative position
    };
  }
  function padStart(string, max) {
    return common2.repeat(" ", max - string.length) + string;
  }
  function makeSnippet(mark, options) {
    options = Object.create(options || null);
    if (!mark.buffer) return null;
    if (!options.maxLength) options.maxLength = 79;
    if (typeof options.indent !== "number") options.indent = 1;
    if (typeof options.linesBefore !== "number") options.linesBefore = 3;
    if (typeof options.linesAfter !== "number") options.linesAfter = 2;
    const re = /\r?\n|\r|\0/g;
    const lineStarts = [0];
    const lineEnds = [];
    let match;
    let foundLineNo = -1;
    while (match = re.exec(mark.buffer)) {
      lineEnds.push(match.index);
      lineStarts.push(match.index + match[0].length);
      if (mark.position <= match.index && foundLineNo < 0) {
        foundLineNo = lineStarts.length - 2;
      }
    }
    if (foundLineNo < 0) foundLineNo = lineStarts.length - 1;
    let result = "";
    const lineNoLength = Math.min(mark.line + options.linesAfter, lineEnds.length).toString().length;
    const maxLineLength = options.maxLength - (options.indent + lineNoLength + 3);
    for (let i = 1; i <= options.linesBefore; i++) {
      if (foundLineNo - i < 0) break;
      const line2 = getLine(
        mark.buffer,
        lineStarts[foundLineNo - i],
        lineEnds[foundLineNo - i],
        mark.position - (lineStarts[foundLineNo] - lineStarts[foundLineNo - i]),
        maxLineLength
      );
      result = common2.repeat(" ", options.indent) + padStart((mark.line - i + 1).toString(), lineNoLength) + " | " + line2.str + "\n" + result;
    }
    const line = getLine(mark.buffer, lineStarts[foundLineNo], lineEnds[foundLineNo], mark.position, maxLineLength);
    result += common2.repeat(" ", options.indent) + padStart((mark.line + 1).toString(), lineNoLength) + " | " + line.str + "\n";
    result += common2.repeat("-", options.indent + lineNoLength + 3 + line.pos) + "^\n";
    for (let i = 1; i <= options.linesAfter; i++) {
      if (foundLineNo + i >= lineEnds.length) break;
      const line2 = getLine(
        mark.buffer,
        lineStarts[foundLineNo + i],
        lineEnds[foundLineNo + i],
        mark.position - (lineStarts[foundLineNo] - lineStarts[foundLineNo + i]),
        maxLineLength
      );
      result += common2.repeat(" ", options.indent) + padStart((mark.line + i + 1).toString(), lineNoLength) + " | " + line2.str + "\n";
    }
    return result.replace(/\n$/, "");
  }
  snippet = makeSnippet;
  return snippet;
}
var type;
var hasRequiredType;
function requireType() {
  if (hasRequiredType) return type;
  hasRequiredType = 1;
  const YAMLException2 = requireException();
  const TYPE_CONSTRUCTOR_OPTIONS = [
    "kind",
    "multi",
    "resolve",
    "construct",
    "instanceOf",
    "predicate",
    "represent",
    "representName",
    "defaultStyle",
    "styleAliases"
  ];
  const YAML_NODE_KINDS = [
    "scalar",
    "sequence",
    "mapping"
  ];
  function compileStyleAliases(map2) {
    const result = {};
    if (map2 !== null) {
      Object.keys(map2).forEach(function(style) {
        map2[style].forEach(function(alias) {
          result[String(alias)] = style;
        });
      });
    }
    return result;
  }
  function Type2(tag, options) {
    options = options || {};
    Object.keys(options).forEach(function(name) {
      if (TYPE_CONSTRUCTOR_OPTIONS.indexOf(name) === -1) {
        throw new YAMLException2('Unknown option "' + name + '" is met in definition of "' + tag + '" YAML type.');
      }
    });
    this.options = options;
    this.tag = tag;
    this.kind = options["kind"] || null;
    this.resolve = options["resolve"] || function() {
      return true;
    };
    this.construct = options["construct"] || function(data) {
      return data;
    };
    this.instanceOf = options["instanceOf"] || null;
    this.predicate = options["predicate"] || null;
    this.represent = options["represent"] || null;
    this.representName = options["representName"] || null;
    this.defaultStyle = options["defaultStyle"] || null;
    this.multi = options["multi"] || false;
    this.styleAliases = compileStyleAliases(options["styleAliases"] || null);
    if (YAML_NODE_KINDS.indexOf(this.kind) === -1) {
      throw new YAMLException2('Unknown kind "' + this.kind + '" is specified for "' + tag + '" YAML type.');
    }
  }
  type = Type2;
  return type;
}
var schema;
var hasRequiredSchema;
function requireSchema() {
  if (hasRequiredSchema) return schema;
  hasRequiredSchema = 1;
  const YAMLException2 = requireException();
  const Type2 = requireType();
  function compileList(schema2, name) {
    const result = [];
    schema2[name].forEach(function(currentType) {
      let newIndex = result.length;
      result.forEach(function(previousType, previousIndex) {
        if (previousType.tag === currentType.tag && previousType.kind === currentType.kind && previousType.multi === currentType.multi) {
          newIndex = previousIndex;
        }
      });
      result[newIndex] = currentType;
    });
    return result;
  }
  function compileMap() {
    const result = {
      scalar: {},
      sequence: {},
      mapping: {},
      fallback: {},
      multi: {
        scalar: [],
        sequence: [],
        mapping: [],
        fallback: []
      }
    };
    function collectType(type2) {
      if (type2.multi) {
        result.multi[type2.kind].push(type2);
        result.multi["fallback"].push(type2);
      } else {
        result[type2.kind][type2.tag] = result["fallback"][type2.tag] = type2;
      }
    }
    for (let index = 0, length = arguments.length; index < length; index += 1) {
      arguments[index].forEach(collectType);
    }
    return result;
  }
  function Schema2(definition) {
    return this.extend(definition);
  }
  Schema2.prototype.extend = function extend(definition) {
    let implicit = [];
    let explicit = [];
    if (definition instanceof Type2) {
      explicit.push(definition);
    } else if (Array.isArray(definition)) {
      explicit = explicit.concat(definition);
    } else if (definition && (Array.isArray(definition.implicit) || Array.isArray(definition.explicit))) {
      if (definition.implicit) implicit = implicit.concat(definition.implicit);
      if (definition.explicit) explicit = explicit.concat(definition.explicit);
    } else {
      throw new YAMLException2("Schema.extend argument should be a Type, [ Type ], or a schema definition ({ implicit: [...], explicit: [...] })");
    }
    implicit.forEach(function(type2) {
      if (!(type2 instanceof Type2)) {
        throw new YAMLException2("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
      if (type2.loadKind && type2.loadKind !== "scalar") {
        throw new YAMLException2("There is a non-scalar type in the implicit list of a schema. Implicit resolving of such types is not supported.");
      }
      if (type2.multi) {
        throw new YAMLException2("There is a multi type in the implicit list of a schema. Multi tags can only be listed as explicit.");
      }
    });
    explicit.forEach(function(type2) {
      if (!(type2 instanceof Type2)) {
        throw new YAMLException2("Specified list of YAML types (or a single Type object) contains a non-Type object.");
      }
    });
    const result = Object.create(Schema2.prototype);
    result.implicit = (this.implicit || []).concat(implicit);
    result.explicit = (this.explicit || []).concat(explicit);
    result.compiledImplicit = compileList(result, "implicit");
    result.compiledExplicit = compileList(result, "explicit");
    result.compiledTypeMap = compileMap(result.compiledImplicit, result.compiledExplicit);
    return result;
  };
  schema = Schema2;
  return schema;
}
var str;
var hasRequiredStr;
function requireStr() {
  if (hasRequiredStr) return str;
  hasRequiredStr = 1;
  const Type2 = requireType();
  str = new Type2("tag:yaml.org,2002:str", {
    kind: "scalar",
    construct: function(data) {
      return data !== null ? data : "";
    }
  });
  return str;
}
var seq;
var hasRequiredSeq;
function requireSeq() {
  if (hasRequiredSeq) return seq;
  hasRequiredSeq = 1;
  const Type2 = requireType();
  seq = new Type2("tag:yaml.org,2002:seq", {
    kind: "sequence",
    construct: function(data) {
      return data !== null ? data : [];
    }
  });
  return seq;
}
var map;
var hasRequiredMap;
function requireMap() {
  if (hasRequiredMap) return map;
  hasRequiredMap = 1;
  const Type2 = requireType();
  map = new Type2("tag:yaml.org,2002:map", {
    kind: "mapping",
    construct: function(data) {
      return data !== null ? data : {};
    }
  });
  return map;
}
var failsafe;
var hasRequiredFailsafe;
function requireFailsafe() {
  if (hasRequiredFailsafe) return failsafe;
  hasRequiredFailsafe = 1;
  const Schema2 = requireSchema();
  failsafe = new Schema2({
    explicit: [
      requireStr(),
      requireSeq(),
      requireMap()
    ]
  });
  return failsafe;
}
var _null;
var hasRequired_null;
function require_null() {
  if (hasRequired_null) return _null;
  hasRequired_null = 1;
  const Type2 = requireType();
  function resolveYamlNull(data) {
    if (data === null) return true;
    const max = data.length;
    return max === 1 && data === "~" || max === 4 && (data === "null" || data === "Null" || data === "NULL");
  }
  function constructYamlNull() {
    return null;
  }
  function isNull(object) {
    return object === null;
  }
  _null = new Type2("tag:yaml.org,2002:null", {
    kind: "scalar",
    resolve: resolveYamlNull,
    construct: constructYamlNull,
    predicate: isNull,
    represent: {
      canonical: function() {
        return "~";
      },
      lowercase: function() {
        return "null";
      },
      uppercase: function() {
        return "NULL";
      },
      camelcase: function() {
        return "Null";
      },
      empty: function() {
        return "";
      }
    },
    defaultStyle: "lowercase"
  });
  return _null;
}
var bool;
var hasRequiredBool;
function requireBool() {
  if (hasRequiredBool) return bool;
  hasRequiredBool = 1;
  const Type2 = requireType();
  function resolveYamlBoolean(data) {
    if (data === null) return false;
    const max = data.length;
    return max === 4 && (data === "true" || data === "True" || data === "TRUE") || max === 5 && (data === "false" || data === "False" || data === "FALSE");
  }
  function constructYamlBoolean(data) {
    return data === "true" || data === "True" || data === "TRUE";
  }
  function isBoolean(object) {
    return Object.prototype.toString.call(object) === "[object Boolean]";
  }
  bool = new Type2("tag:yaml.org,2002:bool", {
    kind: "scalar",
    resolve: resolveYamlBoolean,
    construct: constructYamlBoolean,
    predicate: isBoolean,
    represent: {
      lowercase: function(object) {
        return object ? "true" : "false";
      },
      uppercase: function(object) {
        return object ? "TRUE" : "FALSE";
      },
      camelcase: function(object) {
        return object ? "True" : "False";
      }
    },
    defaultStyle: "lowercase"
  });
  return bool;
}
var int;
var hasRequiredInt;
function requireInt() {
  if (hasRequiredInt) return int;
  hasRequiredInt = 1;
  const common2 = requireCommon();
  const Type2 = requireType();
  function isHexCode(c) {
    return c >= 48 && c <= 57 || c >= 65 && c <= 70 || c >= 97 && c <= 102;
  }
  function isOctCode(c) {
    return c >= 48 && c <= 55;
  }
  function isDecCode(c) {
    return c >= 48 && c <= 57;
  }
  function resolveYamlInteger(data) {
    if (data === null) return false;
    const max = data.length;
    let index = 0;
    let hasDigits = false;
    if (!max) return false;
    let ch = data[index];
    if (ch === "-" || ch === "+") {
      ch = data[++index];
    }
    if (ch === "0") {
      if (index + 1 === max) return true;
      ch = data[++index];
      if (ch === "b") {
        index++;
        for (; index < max; index++) {
          ch = data[index];
          if (ch !== "0" && ch !== "1") return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
      if (ch === "x") {
        index++;
        for (; index < max; index++) {
          if (!isHexCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
      if (ch === "o") {
        index++;
        for (; index < max; index++) {
          if (!isOctCode(data.charCodeAt(index))) return false;
          hasDigits = true;
        }
        return hasDigits && isFinite(parseYamlInteger(data));
      }
    }
    for (; index < max; index++) {
      if (!isDecCode(data.charCodeAt(index))) {
        return false;
      }
      hasDigits = true;
    }
    if (!hasDigits) return false;
    return isFinite(parseYamlInteger(data));
  }
  function parseYamlInteger(data) {
    let value = data;
    let sign = 1;
    let ch = value[0];
    if (ch === "-" || ch === "+") {
      if (ch === "-") sign = -1;
      value = value.slice(1);
      ch = value[0];
    }
    if (value === "0") return 0;
    if (ch === "0") {
      if (value[1] === "b") return sign * parseInt(value.slice(2), 2);
      if (value[1] === "x") return sign * parseInt(value.slice(2), 16);
      if (value[1] === "o") return sign * parseInt(value.slice(2), 8);
    }
    return sign * parseInt(value, 10);
  }
  function constructYamlInteger(data) {
    return parseYamlInteger(data);
  }
  function isInteger(object) {
    return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 === 0 && !common2.isNegativeZero(object));
  }
  int = new Type2("tag:yaml.org,2002:int", {
    kind: "scalar",
    resolve: resolveYamlInteger,
    construct: constructYamlInteger,
    predicate: isInteger,
    represent: {
      binary: function(obj) {
        return obj >= 0 ? "0b" + obj.toString(2) : "-0b" + obj.toString(2).slice(1);
      },
      octal: function(obj) {
        return obj >= 0 ? "0o" + obj.toString(8) : "-0o" + obj.toString(8).slice(1);
      },
      decimal: function(obj) {
        return obj.toString(10);
      },
      hexadecimal: function(obj) {
        return obj >= 0 ? "0x" + obj.toString(16).toUpperCase() : "-0x" + obj.toString(16).toUpperCase().slice(1);
      }
    },
    defaultStyle: "decimal",
    styleAliases: {
      binary: [2, "bin"],
      octal: [8, "oct"],
      decimal: [10, "dec"],
      hexadecimal: [16, "hex"]
    }
  });
  return int;
}
var float;
var hasRequiredFloat;
function requireFloat() {
  if (hasRequiredFloat) return float;
  hasRequiredFloat = 1;
  const common2 = requireCommon();
  const Type2 = requireType();
  const YAML_FLOAT_PATTERN = new RegExp(
    // 2.5e4, 2.5 and integers
    "^(?:[-+]?(?:[0-9]+)(?:\\.[0-9]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9]+(?:[eE][-+]?[0-9]+)?|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
  );
  const YAML_FLOAT_SPECIAL_PATTERN = new RegExp(
    "^(?:[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"
  );
  function resolveYamlFloat(data) {
    if (data === null) return false;
    if (!YAML_FLOAT_PATTERN.test(data)) {
      return false;
    }
    if (isFinite(parseFloat(data, 10))) {
      return true;
    }
    return YAML_FLOAT_SPECIAL_PATTERN.test(data);
  }
  function constructYamlFloat(data) {
    let value = data.toLowerCase();
    const sign = value[0] === "-" ? -1 : 1;
    if ("+-".indexOf(value[0]) >= 0) {
      value = value.slice(1);
    }
    if (value === ".inf") {
      return sign === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
    } else if (value === ".nan") {
      return NaN;
    }
    return sign * parseFloat(value, 10);
  }
  const SCIENTIFIC_WITHOUT_DOT = /^[-+]?[0-9]+e/;
  function representYamlFloat(object, style) {
    if (isNaN(object)) {
      switch (style) {
        case "lowercase":
          return ".nan";
        case "uppercase":
          return ".NAN";
        case "camelcase":
          return ".NaN";
      }
    } else if (Number.POSITIVE_INFINITY === object) {
      switch (style) {
        case "lowercase":
          return ".inf";
        case "uppercase":
          return ".INF";
        case "camelcase":
          return ".Inf";
      }
    } else if (Number.NEGATIVE_INFINITY === object) {
      switch (style) {
        case "lowercase":
          return "-.inf";
        case "uppercase":
          return "-.INF";
        case "camelcase":
          return "-.Inf";
      }
    } else if (common2.isNegativeZero(object)) {
      return "-0.0";
    }
    const res = object.toString(10);
    return SCIENTIFIC_WITHOUT_DOT.test(res) ? res.replace("e", ".e") : res;
  }
  function isFloat(object) {
    return Object.prototype.toString.call(object) === "[object Number]" && (object % 1 !== 0 || common2.isNegativeZero(object));
  }
  float = new Type2("tag:yaml.org,2002:float", {
    kind: "scalar",
    resolve: resolveYamlFloat,
    construct: constructYamlFloat,
    predicate: isFloat,
    represent: representYamlFloat,
    defaultStyle: "lowercase"
  });
  return float;
}
var json;
var hasRequiredJson;
function requireJson() {
  if (hasRequiredJson) return json;
  hasRequiredJson = 1;
  json = requireFailsafe().extend({
    implicit: [
      require_null(),
      requireBool(),
      requireInt(),
      requireFloat()
    ]
  });
  return json;
}
var core;
var hasRequiredCore;
function requireCore() {
  if (hasRequiredCore) return core;
  hasRequiredCore = 1;
  core = requireJson();
  return core;
}
var timestamp;
var hasRequiredTimestamp;
function requireTimestamp() {
  if (hasRequiredTimestamp) return timestamp;
  hasRequiredTimestamp = 1;
  const Type2 = requireType();
  const YAML_DATE_REGEXP = new RegExp(
    "^([0-9][0-9][0-9][0-9])-([0-9][0-9])-([0-9][0-9])$"
  );
  const YAML_TIMESTAMP_REGEXP = new RegExp(
    "^([0-9][0-9][0-9][0-9])-([0-9][0-9]?)-([0-9][0-9]?)(?:[Tt]|[ \\t]+)([0-9][0-9]?):([0-9][0-9]):([0-9][0-9])(?:\\.([0-9]*))?(?:[ \\t]*(Z|([-+])([0-9][0-9]?)(?::([0-9][0-9]))?))?$"
  );
  function resolveYamlTimestamp(data) {
    if (data === null) return false;
    if (YAML_DATE_REGEXP.exec(data) !== null) return true;
    if (YAML_TIMESTAMP_REGEXP.exec(data) !== null) return true;
    return false;
  }
  function constructYamlTimestamp(data) {
    let fraction = 0;
    let delta = null;
    let match = YAML_DATE_REGEXP.exec(data);
    if (match === null) match = YAML_TIMESTAMP_REGEXP.exec(data);
    if (match === null) throw new Error("Date resolve error");
    const year = +match[1];
    const month = +match[2] - 1;
    const day = +match[3];
    if (!match[4]) {
      return new Date(Date.UTC(year, month, day));
    }
    const hour = +match[4];
    const minute = +match[5];
    const second = +match[6];
    if (match[7]) {
      fraction = match[7].slice(0, 3);
      while (fraction.length < 3) {
        fraction += "0";
      }
      fraction = +fraction;
    }
    if (match[9]) {
      const tzHour = +match[10];
      const tzMinute = +(match[11] || 0);
      delta = (tzHour * 60 + tzMinute) * 6e4;
      if (match[9] === "-") delta = -delta;
    }
    const date = new Date(Date.UTC(year, month, day, hour, minute, second, fraction));
    if (delta) date.setTime(date.getTime() - delta);
    return date;
  }
  function representYamlTimestamp(object) {
    return object.toISOString();
  }
  timestamp = new Type2("tag:yaml.org,2002:timestamp", {
    kind: "scalar",
    resolve: resolveYamlTimestamp,
    construct: constructYamlTimestamp,
    instanceOf: Date,
    represent: representYamlTimestamp
  });
  return timestamp;
}
var merge;
var hasRequiredMerge;
function requireMerge() {
  if (hasRequiredMerge) return merge;
  hasRequiredMerge = 1;
  const Type2 = requireType();
  function resolveYamlMerge(data) {
    return data === "<<" || data === null;
  }
  merge = new Type2("tag:yaml.org,2002:merge", {
    kind: "scalar",
    resolve: resolveYamlMerge
  });
  return merge;
}
var binary;
var hasRequiredBinary;
function requireBinary() {
  if (hasRequiredBinary) return binary;
  hasRequiredBinary = 1;
  const Type2 = requireType();
  const BASE64_MAP = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r";
  function resolveYamlBinary(data) {
    if (data === null) return false;
    let bitlen = 0;
    const max = data.length;
    const map2 = BASE64_MAP;
    for (let idx = 0; idx < max; idx++) {
      const code = map2.indexOf(data.charAt(idx));
      if (code > 64) continue;
      if (code < 0) return false;
      bitlen += 6;
    }
    return bitlen % 8 === 0;
  }
  function constructYamlBinary(data) {
    const input = data.replace(/[\r\n=]/g, "");
    const max = input.length;
    const map2 = BASE64_MAP;
    let bits = 0;
    const result = [];
    for (let idx = 0; idx < max; idx++) {
      if (idx % 4 === 0 && idx) {
        result.push(bits >> 16 & 255);
        result.push(bits >> 8 & 255);
        result.push(bits & 255);
      }
      bits = bits << 6 | map2.indexOf(input.charAt(idx));
    }
    const tailbits = max % 4 * 6;
    if (tailbits === 0) {
      result.push(bits >> 16 & 255);
      result.push(bits >> 8 & 255);
      result.push(bits & 255);
    } else if (tailbits === 18) {
      result.push(bits >> 10 & 255);
      result.push(bits >> 2 & 255);
    } else if (tailbits === 12) {
      result.push(bits >> 4 & 255);
    }
    return new Uint8Array(result);
  }
  function representYamlBinary(object) {
    let result = "";
    let bits = 0;
    const max = object.length;
    const map2 = BASE64_MAP;
    for (let idx = 0; idx < max; idx++) {
      if (idx % 3 === 0 && idx) {
        result += map2[bits >> 18 & 63];
        result += map2[bits >> 12 & 63];
        result += map2[bits >> 6 & 63];
        result += map2[bits & 63];
      }
      bits = (bits << 8) + object[idx];
    }
    const tail3 = max % 3;
    if (tail3 === 0) {
      result += map2[bits >> 18 & 63];
      result += map2[bits >> 12 & 63];
      result += map2[bits >> 6 & 63];
      result += map2[bits & 63];
    } else if (tail3 === 2) {
      result += map2[bits >> 10 & 63];
      result += map2[bits >> 4 & 63];
      result += map2[bits << 2 & 63];
      result += map2[64];
    } else if (tail3 === 1) {
      result += map2[bits >> 2 & 63];
      result += map2[bits << 4 & 63];
      result += map2[64];
      result += map2[64];
    }
    return result;
  }
  function isBinary(obj) {
    return Object.prototype.toString.call(obj) === "[object Uint8Array]";
  }
  binary = new Type2("tag:yaml.org,2002:binary", {
    kind: "scalar",
    resolve: resolveYamlBinary,
    construct: constructYamlBinary,
    predicate: isBinary,
    represent: representYamlBinary
  });
  return binary;
}
var omap;
var hasRequiredOmap;
function requireOmap() {
  if (hasRequiredOmap) return omap;
  hasRequiredOmap = 1;
  const Type2 = requireType();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const _toString = Object.prototype.toString;
  function resolveYamlOmap(data) {
    if (data === null) return true;
    const objectKeys = {};
    const object = data;
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      let pairHasKey = false;
      if (_toString.call(pair) !== "[object Object]") return false;
      let pairKey;
      for (pairKey in pair) {
        if (_hasOwnProperty.call(pair, pairKey)) {
          if (!pairHasKey) pairHasKey = true;
          else return false;
        }
      }
      if (!pairHasKey) return false;
      if (_hasOwnProperty.call(objectKeys, pairKey)) return false;
      Object.defineProperty(objectKeys, pairKey, { value: true });
    }
    return true;
  }
  function constructYamlOmap(data) {
    return data !== null ? data : [];
  }
  omap = new Type2("tag:yaml.org,2002:omap", {
    kind: "sequence",
    resolve: resolveYamlOmap,
    construct: constructYamlOmap
  });
  return omap;
}
var pairs;
var hasRequiredPairs;
function requirePairs() {
  if (hasRequiredPairs) return pairs;
  hasRequiredPairs = 1;
  const Type2 = requireType();
  const _toString = Object.prototype.toString;
  function resolveYamlPairs(data) {
    if (data === null) return true;
    const object = data;
    const result = new Array(object.length);
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      if (_toString.call(pair) !== "[object Object]") return false;
      const keys = Object.keys(pair);
      if (keys.length !== 1) return false;
      result[index] = [keys[0], pair[keys[0]]];
    }
    return true;
  }
  function constructYamlPairs(data) {
    if (data === null) return [];
    const object = data;
    const result = new Array(object.length);
    for (let index = 0, length = object.length; index < length; index += 1) {
      const pair = object[index];
      const keys = Object.keys(pair);
      result[index] = [keys[0], pair[keys[0]]];
    }
    return result;
  }
  pairs = new Type2("tag:yaml.org,2002:pairs", {
    kind: "sequence",
    resolve: resolveYamlPairs,
    construct: constructYamlPairs
  });
  return pairs;
}
var set;
var hasRequiredSet;
function requireSet() {
  if (hasRequiredSet) return set;
  hasRequiredSet = 1;
  const Type2 = requireType();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  function resolveYamlSet(data) {
    if (data === null) return true;
    const object = data;
    for (const key in object) {
      if (_hasOwnProperty.call(object, key)) {
        if (object[key] !== null) return false;
      }
    }
    return true;
  }
  function constructYamlSet(data) {
    return data !== null ? data : {};
  }
  set = new Type2("tag:yaml.org,2002:set", {
    kind: "mapping",
    resolve: resolveYamlSet,
    construct: constructYamlSet
  });
  return set;
}
var _default;
var hasRequired_default;
function require_default() {
  if (hasRequired_default) return _default;
  hasRequired_default = 1;
  _default = requireCore().extend({
    implicit: [
      requireTimestamp(),
      requireMerge()
    ],
    explicit: [
      requireBinary(),
      requireOmap(),
      requirePairs(),
      requireSet()
    ]
  });
  return _default;
}
var hasRequiredLoader;
function requireLoader() {
  if (hasRequiredLoader) return loader;
  hasRequiredLoader = 1;
  const common2 = requireCommon();
  const YAMLException2 = requireException();
  const makeSnippet = requireSnippet();
  const DEFAULT_SCHEMA2 = require_default();
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const CONTEXT_FLOW_IN = 1;
  const CONTEXT_FLOW_OUT = 2;
  const CONTEXT_BLOCK_IN = 3;
  const CONTEXT_BLOCK_OUT = 4;
  const CHOMPING_CLIP = 1;
  const CHOMPING_STRIP = 2;
  const CHOMPING_KEEP = 3;
  const PATTERN_NON_PRINTABLE = /[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;
  const PATTERN_NON_ASCII_LINE_BREAKS = /[\x85\u2028\u2029]/;
  const PATTERN_FLOW_INDICATORS = /[,\[\]{}]/;
  const PATTERN_TAG_HANDLE = /^(?:!|!!|![0-9A-Za-z-]+!)$/;
  const PATTERN_TAG_URI = /^(?:!|[^,\[\]{}])(?:%[0-9a-f]{2}|[0-9a-z\-#;/?:@&=+$,_.!~*'()\[\]])*$/i;
  function _class(obj) {
    return Object.prototype.toString.call(obj);
  }
  function isEol(c) {
    return c === 10 || c === 13;
  }
  function isWhiteSpace(c) {
    return c === 9 || c === 32;
  }
  function isWsOrEol(c) {
    return c === 9 || c === 32 || c === 10 || c === 13;
  }
  function isFlowIndicator(c) {
    return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
  }
  function fromHexCode(c) {
    if (c >= 48 && c <= 57) {
      return c - 48;
    }
    const lc = c | 32;
    if (lc >= 97 && lc <= 102) {
      return lc - 97 + 10;
    }
    return -1;
  }
  function escapedHexLen(c) {
    if (c === 120) {
      return 2;
    }
    if (c === 117) {
      return 4;
    }
    if (c === 85) {
      return 8;
    }
    return 0;
  }
  function fromDecimalCode(c) {
    if (c >= 48 && c <= 57) {
      return c - 48;
    }
    return -1;
  }
  function simpleEscapeSequence(c) {
    switch (c) {
      case 48:
        return "\0";
      case 97:
        return "\x07";
      case 98:
        return "\b";
      case 116:
        return "	";
      case 9:
        return "	";
      case 110:
        return "\n";
      case 118:
        return "\v";
      case 102:
        return "\f";
      case 114:
        return "\r";
      case 101:
        return "\x1B";
      case 32:
        return " ";
      case 34:
        return '"';
      case 47:
        return "/";
      case 92:
        return "\\";
      case 78:
        return "\x85";
      case 95:
        return "\xA0";
      case 76:
        return "\u2028";
      case 80:
        return "\u2029";
      default:
        return "";
    }
  }
  function charFromCodepoint(c) {
    if (c <= 65535) {
      return String.fromCharCode(c);
    }
    return String.fromCharCode(
      (c - 65536 >> 10) + 55296,
      (c - 65536 & 1023) + 56320
    );
  }
  function setProperty(object, key, value) {
    if (key === "__proto__") {
      Object.defineProperty(object, key, {
        configurable: true,
        enumerable: true,
        writable: true,
        value
      });
    } else {
      object[key] = value;
    }
  }
  const simpleEscapeCheck = new Array(256);
  const simpleEscapeMap = new Array(256);
  for (let i = 0; i < 256; i++) {
    simpleEscapeCheck[i] = simpleEscapeSequence(i) ? 1 : 0;
    simpleEscapeMap[i] = simpleEscapeSequence(i);
  }
  function State(input, options) {
    this.input = input;
    this.filename = options["filename"] || null;
    this.schema = options["schema"] || DEFAULT_SCHEMA2;
    this.onWarning = options["onWarning"] || null;
    this.legacy = options["legacy"] || false;
    this.json = options["json"] || false;
    this.listener = options["listener"] || null;
    this.maxDepth = typeof options["maxDepth"] === "number" ? options["maxDepth"] : 100;
    this.maxTotalMergeKeys = typeof options["maxTotalMergeKeys"] === "number" ? options["maxTotalMergeKeys"] : 1e4;
    this.implicitTypes = this.schema.compiledImplicit;
    this.typeMap = this.schema.compiledTypeMap;
    this.length = input.length;
    this.position = 0;
    this.line = 0;
    this.lineStart = 0;
    this.lineIndent = 0;
    this.depth = 0;
    this.totalMergeKeys = 0;
    this.firstTabInLine = -1;
    this.documents = [];
    this.anchorMapTransactions = [];
  }
  function generateError(state, message) {
    const mark = {
      name: state.filename,
      buffer: state.input.slice(0, -1),
      // omit trailing \0
      position: state.position,
      line: state.line,
      column: state.position - state.lineStart
    };
    mark.snippet = makeSnippet(mark);
    return new YAMLException2(message, mark);
  }
  function throwError(state, message) {
    throw generateError(state, message);
  }
  function throwWarning(state, message) {
    if (state.onWarning) {
      state.onWarning.call(null, generateError(state, message));
    }
  }
  function storeAnchor(state, name, value) {
    const transactions = state.anchorMapTransactions;
    if (transactions.length !== 0) {
      const transaction = transactions[transactions.length - 1];
      if (!_hasOwnProperty.call(transaction, name)) {
        transaction[name] = {
          existed: _hasOwnProperty.call(state.anchorMap, name),
          value: state.anchorMap[name]
        };
      }
    }
    state.anchorMap[name] = value;
  }
  function beginAnchorTransaction(state) {
    state.anchorMapTransactions.push(/* @__PURE__ */ Object.create(null));
  }
  function commitAnchorTransaction(state) {
    const transaction = state.anchorMapTransactions.pop();
    const transactions = state.anchorMapTransactions;
    if (transactions.length === 0) return;
    const parent = transactions[transactions.length - 1];
    const names = Object.keys(transaction);
    for (let index = 0, length = names.length; index < length; index += 1) {
      const name = names[index];
      if (!_hasOwnProperty.call(parent, name)) {
        parent[name] = transaction[name];
      }
    }
  }
  function rollbackAnchorTransaction(state) {
    const transaction = state.anchorMapTransactions.pop();
    const names = Object.keys(transaction);
    for (let index = names.length - 1; index >= 0; index -= 1) {
      const entry = transaction[names[index]];
      if (entry.existed) {
        state.anchorMap[names[index]] = entry.value;
      } else {
        delete state.anchorMap[names[index]];
      }
    }
  }
  function snapshotState(state) {
    return {
      position: state.position,
      line: state.line,
      lineStart: state.lineStart,
      lineIndent: state.lineIndent,
      firstTabInLine: state.firstTabInLine,
      tag: state.tag,
      anchor: state.anchor,
      kind: state.kind,
      result: state.result
    };
  }
  function restoreState(state, snapshot) {
    state.position = snapshot.position;
    state.line = snapshot.line;
    state.lineStart = snapshot.lineStart;
    state.lineIndent = snapshot.lineIndent;
    state.firstTabInLine = snapshot.firstTabInLine;
    state.tag = snapshot.tag;
    state.anchor = snapshot.anchor;
    state.kind = snapshot.kind;
    state.result = snapshot.result;
  }
  const directiveHandlers = {
    YAML: function handleYamlDirective(state, name, args) {
      if (state.version !== null) {
        throwError(state, "duplication of %YAML directive");
      }
      if (args.length !== 1) {
        throwError(state, "YAML directive accepts exactly one argument");
      }
      const match = /^([0-9]+)\.([0-9]+)$/.exec(args[0]);
      if (match === null) {
        throwError(state, "ill-formed argument of the YAML directive");
      }
      const major = parseInt(match[1], 10);
      const minor = parseInt(match[2], 10);
      if (major !== 1) {
        throwError(state, "unacceptable YAML version of the document");
      }
      state.version = args[0];
      state.checkLineBreaks = minor < 2;
      if (minor !== 1 && minor !== 2) {
        throwWarning(state, "unsupported YAML version of the document");
      }
    },
    TAG: function handleTagDirective(state, name, args) {
      let prefix;
      if (args.length !== 2) {
        throwError(state, "TAG directive accepts exactly two arguments");
      }
      const handle = args[0];
      prefix = args[1];
      if (!PATTERN_TAG_HANDLE.test(handle)) {
        throwError(state, "ill-formed tag handle (first argument) of the TAG directive");
      }
      if (_hasOwnProperty.call(state.tagMap, handle)) {
        throwError(state, 'there is a previously declared suffix for "' + handle + '" tag handle');
      }
      if (!PATTERN_TAG_URI.test(prefix)) {
        throwError(state, "ill-formed tag prefix (second argument) of the TAG directive");
      }
      try {
        prefix = decodeURIComponent(prefix);
      } catch (err) {
        throwError(state, "tag prefix is malformed: " + prefix);
      }
      state.tagMap[handle] = prefix;
    }
  };
  function captureSegment(state, start, end, checkJson) {
    if (start < end) {
      const _result = state.input.slice(start, end);
      if (checkJson) {
        for (let _position = 0, _length = _result.length; _position < _length; _position += 1) {
          const _character = _result.charCodeAt(_position);
          if (!(_character === 9 || _character >= 32 && _character <= 1114111)) {
            throwError(state, "expected valid JSON character");
          }
        }
      } else if (PATTERN_NON_PRINTABLE.test(_result)) {
        throwError(state, "the stream contains non-printable characters");
      }
      state.result += _result;
    }
  }
  function chargeMergeWork(state) {
    state.totalMergeKeys++;
    if (state.maxTotalMergeKeys !== -1 && state.totalMergeKeys > state.maxTotalMergeKeys) {
      throwError(state, "merge keys exceeded maxTotalMergeKeys (" + state.maxTotalMergeKeys + ")");
    }
  }
  function mergeMappings(state, destination, source, overridableKeys) {
    if (!common2.isObject(source)) {
      throwError(state, "cannot merge mappings; the provided source object is unacceptable");
    }
    chargeMergeWork(state);
    const sourceKeys = Object.keys(source);
    for (let index = 0, quantity = sourceKeys.length; index < quantity; index += 1) {
      const key = sourceKeys[index];
      chargeMergeWork(state);
      if (!_hasOwnProperty.call(destination, key)) {
        setProperty(destination, key, source[key]);
        overridableKeys[key] = true;
      }
    }
  }
  function storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, startLine, startLineStart, startPos) {
    if (Array.isArray(keyNode)) {
      keyNode = Array.prototype.slice.call(keyNode);
      for (let index = 0, quantity = keyNode.length; index < quantity; index += 1) {
        if (Array.isArray(keyNode[index])) {
          throwError(state, "nested arrays are not supported inside keys");
        }
        if (typeof keyNode === "object" && _class(keyNode[index]) === "[object Object]") {
          keyNode[index] = "[object Object]";
        }
      }
    }
    if (typeof keyNode === "object" && _class(keyNode) === "[object Object]") {
      keyNode = "[object Object]";
    }
    keyNode = String(keyNode);
    if (_result === null) {
      _result = {};
    }
    if (keyTag === "tag:yaml.org,2002:merge") {
      if (Array.isArray(valueNode)) {
        if (valueNode.length > 100) {
          throwError(state, "abnormal merge sequence size");
        }
        for (let index = 0, quantity = valueNode.length; index < quantity; index += 1) {
          mergeMappings(state, _result, valueNode[index], overridableKeys);
        }
      } else {
        mergeMappings(state, _result, valueNode, overridableKeys);
      }
    } else {
      if (!state.json && !_hasOwnProperty.call(overridableKeys, keyNode) && _hasOwnProperty.call(_result, keyNode)) {
        state.line = startLine || state.line;
        state.lineStart = startLineStart || state.lineStart;
        state.position = startPos || state.position;
        throwError(state, "duplicated mapping key");
      }
      setProperty(_result, keyNode, valueNode);
      delete overridableKeys[keyNode];
    }
    return _result;
  }
  function readLineBreak(state) {
    const ch = state.input.charCodeAt(state.position);
    if (ch === 10) {
      state.position++;
    } else if (ch === 13) {
      state.position++;
      if (state.input.charCodeAt(state.position) === 10) {
        state.position++;
      }
    } else {
      throwError(state, "a line break is expected");
    }
    state.line += 1;
    state.lineStart = state.position;
    state.firstTabInLine = -1;
  }
  function skipSeparationSpace(state, allowComments, checkIndent) {
    let lineBreaks = 0;
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      while (isWhiteSpace(ch)) {
        if (ch === 9 && state.firstTabInLine === -1) {
          state.firstTabInLine = state.position;
        }
        ch = state.input.charCodeAt(++state.position);
      }
      if (allowComments && ch === 35) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (ch !== 10 && ch !== 13 && ch !== 0);
      }
      if (isEol(ch)) {
        readLineBreak(state);
        ch = state.input.charCodeAt(state.position);
        lineBreaks++;
        state.lineIndent = 0;
        while (ch === 32) {
          state.lineIndent++;
          ch = state.input.charCodeAt(++state.position);
        }
      } else {
        break;
      }
    }
    if (checkIndent !== -1 && lineBreaks !== 0 && state.lineIndent < checkIndent) {
      throwWarning(state, "deficient indentation");
    }
    return lineBreaks;
  }
  function testDocumentSeparator(state) {
    let _position = state.position;
    let ch = state.input.charCodeAt(_position);
    if ((ch === 45 || ch === 46) && ch === state.input.charCodeAt(_position + 1) && ch === state.input.charCodeAt(_position + 2)) {
      _position += 3;
      ch = state.input.charCodeAt(_position);
      if (ch === 0 || isWsOrEol(ch)) {
        return true;
      }
    }
    return false;
  }
  function writeFoldedLines(state, count) {
    if (count === 1) {
      state.result += " ";
    } else if (count > 1) {
      state.result += common2.repeat("\n", count - 1);
    }
  }
  function readPlainScalar(state, nodeIndent, withinFlowCollection) {
    let captureStart;
    let captureEnd;
    let hasPendingContent;
    let _line;
    let _lineStart;
    let _lineIndent;
    const _kind = state.kind;
    const _result = state.result;
    let ch = state.input.charCodeAt(state.position);
    if (isWsOrEol(ch) || isFlowIndicator(ch) || ch === 35 || ch === 38 || ch === 42 || ch === 33 || ch === 124 || ch === 62 || ch === 39 || ch === 34 || ch === 37 || ch === 64 || ch === 96) {
      return false;
    }
    if (ch === 63 || ch === 45) {
      const following = state.input.charCodeAt(state.position + 1);
      if (isWsOrEol(following) || withinFlowCollection && isFlowIndicator(following)) {
        return false;
      }
    }
    state.kind = "scalar";
    state.result = "";
    captureStart = captureEnd = state.position;
    hasPendingContent = false;
    while (ch !== 0) {
      if (ch === 58) {
        const following = state.input.charCodeAt(state.position + 1);
        if (isWsOrEol(following) || withinFlowCollection && isFlowIndicator(following)) {
          break;
        }
      } else if (ch === 35) {
        const preceding = state.input.charCodeAt(state.position - 1);
        if (isWsOrEol(preceding)) {
          break;
        }
      } else if (state.position === state.lineStart && testDocumentSeparator(state) || withinFlowCollection && isFlowIndicator(ch)) {
        break;
      } else if (isEol(ch)) {
        _line = state.line;
        _lineStart = state.lineStart;
        _lineIndent = state.lineIndent;
        skipSeparationSpace(state, false, -1);
        if (state.lineIndent >= nodeIndent) {
          hasPendingContent = true;
          ch = state.input.charCodeAt(state.position);
          continue;
        } else {
          state.position = captureEnd;
          state.line = _line;
          state.lineStart = _lineStart;
          state.lineIndent = _lineIndent;
          break;
        }
      }
      if (hasPendingContent) {
        captureSegment(state, captureStart, captureEnd, false);
        writeFoldedLines(state, state.line - _line);
        captureStart = captureEnd = state.position;
        hasPendingContent = false;
      }
      if (!isWhiteSpace(ch)) {
        captureEnd = state.position + 1;
      }
      ch = state.input.charCodeAt(++state.position);
    }
    captureSegment(state, captureStart, captureEnd, false);
    if (state.result) {
      return true;
    }
    state.kind = _kind;
    state.result = _result;
    return false;
  }
  function readSingleQuotedScalar(state, nodeIndent) {
    let captureStart;
    let captureEnd;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 39) {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    state.position++;
    captureStart = captureEnd = state.position;
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      if (ch === 39) {
        captureSegment(state, captureStart, state.position, true);
        ch = state.input.charCodeAt(++state.position);
        if (ch === 39) {
          captureStart = state.position;
          state.position++;
          captureEnd = state.position;
        } else {
          return true;
        }
      } else if (isEol(ch)) {
        captureSegment(state, captureStart, captureEnd, true);
        writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
        captureStart = captureEnd = state.position;
      } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
        throwError(state, "unexpected end of the document within a single quoted scalar");
      } else {
        state.position++;
        if (!isWhiteSpace(ch)) {
          captureEnd = state.position;
        }
      }
    }
    throwError(state, "unexpected end of the stream within a single quoted scalar");
  }
  function readDoubleQuotedScalar(state, nodeIndent) {
    let captureStart;
    let captureEnd;
    let tmp;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 34) {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    state.position++;
    captureStart = captureEnd = state.position;
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      if (ch === 34) {
        captureSegment(state, captureStart, state.position, true);
        state.position++;
        return true;
      } else if (ch === 92) {
        captureSegment(state, captureStart, state.position, true);
        ch = state.input.charCodeAt(++state.position);
        if (isEol(ch)) {
          skipSeparationSpace(state, false, nodeIndent);
        } else if (ch < 256 && simpleEscapeCheck[ch]) {
          state.result += simpleEscapeMap[ch];
          state.position++;
        } else if ((tmp = escapedHexLen(ch)) > 0) {
          let hexLength = tmp;
          let hexResult = 0;
          for (; hexLength > 0; hexLength--) {
            ch = state.input.charCodeAt(++state.position);
            if ((tmp = fromHexCode(ch)) >= 0) {
              hexResult = (hexResult << 4) + tmp;
            } else {
              throwError(state, "expected hexadecimal character");
            }
          }
          state.result += charFromCodepoint(hexResult);
          state.position++;
        } else {
          throwError(state, "unknown escape sequence");
        }
        captureStart = captureEnd = state.position;
      } else if (isEol(ch)) {
        captureSegment(state, captureStart, captureEnd, true);
        writeFoldedLines(state, skipSeparationSpace(state, false, nodeIndent));
        captureStart = captureEnd = state.position;
      } else if (state.position === state.lineStart && testDocumentSeparator(state)) {
        throwError(state, "unexpected end of the document within a double quoted scalar");
      } else {
        state.position++;
        if (!isWhiteSpace(ch)) {
          captureEnd = state.position;
        }
      }
    }
    throwError(state, "unexpected end of the stream within a double quoted scalar");
  }
  function readFlowCollection(state, nodeIndent) {
    let readNext = true;
    let _line;
    let _lineStart;
    let _pos;
    const _tag = state.tag;
    let _result;
    const _anchor = state.anchor;
    let terminator;
    let isPair;
    let isExplicitPair;
    let isMapping;
    const overridableKeys = /* @__PURE__ */ Object.create(null);
    let keyNode;
    let keyTag;
    let valueNode;
    let ch = state.input.charCodeAt(state.position);
    if (ch === 91) {
      terminator = 93;
      isMapping = false;
      _result = [];
    } else if (ch === 123) {
      terminator = 125;
      isMapping = true;
      _result = {};
    } else {
      return false;
    }
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    ch = state.input.charCodeAt(++state.position);
    while (ch !== 0) {
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if (ch === terminator) {
        state.position++;
        state.tag = _tag;
        state.anchor = _anchor;
        state.kind = isMapping ? "mapping" : "sequence";
        state.result = _result;
        return true;
      } else if (!readNext) {
        throwError(state, "missed comma between flow collection entries");
      } else if (ch === 44) {
        throwError(state, "expected the node content, but found ','");
      }
      keyTag = keyNode = valueNode = null;
      isPair = isExplicitPair = false;
      if (ch === 63) {
        const following = state.input.charCodeAt(state.position + 1);
        if (isWsOrEol(following)) {
          isPair = isExplicitPair = true;
          state.position++;
          skipSeparationSpace(state, true, nodeIndent);
        }
      }
      _line = state.line;
      _lineStart = state.lineStart;
      _pos = state.position;
      composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
      keyTag = state.tag;
      keyNode = state.result;
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if ((isExplicitPair || state.line === _line) && ch === 58) {
        isPair = true;
        ch = state.input.charCodeAt(++state.position);
        skipSeparationSpace(state, true, nodeIndent);
        composeNode(state, nodeIndent, CONTEXT_FLOW_IN, false, true);
        valueNode = state.result;
      }
      if (isMapping) {
        storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _line, _lineStart, _pos);
      } else if (isPair) {
        _result.push(storeMappingPair(state, null, overridableKeys, keyTag, keyNode, valueNode, _line, _lineStart, _pos));
      } else {
        _result.push(keyNode);
      }
      skipSeparationSpace(state, true, nodeIndent);
      ch = state.input.charCodeAt(state.position);
      if (ch === 44) {
        readNext = true;
        ch = state.input.charCodeAt(++state.position);
      } else {
        readNext = false;
      }
    }
    throwError(state, "unexpected end of the stream within a flow collection");
  }
  function readBlockScalar(state, nodeIndent) {
    let folding;
    let chomping = CHOMPING_CLIP;
    let didReadContent = false;
    let detectedIndent = false;
    let textIndent = nodeIndent;
    let emptyLines = 0;
    let atMoreIndented = false;
    let tmp;
    let ch = state.input.charCodeAt(state.position);
    if (ch === 124) {
      folding = false;
    } else if (ch === 62) {
      folding = true;
    } else {
      return false;
    }
    state.kind = "scalar";
    state.result = "";
    while (ch !== 0) {
      ch = state.input.charCodeAt(++state.position);
      if (ch === 43 || ch === 45) {
        if (CHOMPING_CLIP === chomping) {
          chomping = ch === 43 ? CHOMPING_KEEP : CHOMPING_STRIP;
        } else {
          throwError(state, "repeat of a chomping mode identifier");
        }
      } else if ((tmp = fromDecimalCode(ch)) >= 0) {
        if (tmp === 0) {
          throwError(state, "bad explicit indentation width of a block scalar; it cannot be less than one");
        } else if (!detectedIndent) {
          textIndent = nodeIndent + tmp - 1;
          detectedIndent = true;
        } else {
          throwError(state, "repeat of an indentation width identifier");
        }
      } else {
        break;
      }
    }
    if (isWhiteSpace(ch)) {
      do {
        ch = state.input.charCodeAt(++state.position);
      } while (isWhiteSpace(ch));
      if (ch === 35) {
        do {
          ch = state.input.charCodeAt(++state.position);
        } while (!isEol(ch) && ch !== 0);
      }
    }
    while (ch !== 0) {
      readLineBreak(state);
      state.lineIndent = 0;
      ch = state.input.charCodeAt(state.position);
      while ((!detectedIndent || state.lineIndent < textIndent) && ch === 32) {
        state.lineIndent++;
        ch = state.input.charCodeAt(++state.position);
      }
      if (!detectedIndent && state.lineIndent > textIndent) {
        textIndent = state.lineIndent;
      }
      if (isEol(ch)) {
        emptyLines++;
        continue;
      }
      if (!detectedIndent && textIndent === 0) {
        throwError(state, "missing indentation for block scalar");
      }
      if (state.lineIndent < textIndent) {
        if (chomping === CHOMPING_KEEP) {
          state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        } else if (chomping === CHOMPING_CLIP) {
          if (didReadContent) {
            state.result += "\n";
          }
        }
        break;
      }
      if (folding) {
        if (isWhiteSpace(ch)) {
          atMoreIndented = true;
          state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
        } else if (atMoreIndented) {
          atMoreIndented = false;
          state.result += common2.repeat("\n", emptyLines + 1);
        } else if (emptyLines === 0) {
          if (didReadContent) {
            state.result += " ";
          }
        } else {
          state.result += common2.repeat("\n", emptyLines);
        }
      } else {
        state.result += common2.repeat("\n", didReadContent ? 1 + emptyLines : emptyLines);
      }
      didReadContent = true;
      detectedIndent = true;
      emptyLines = 0;
      const captureStart = state.position;
      while (!isEol(ch) && ch !== 0) {
        ch = state.input.charCodeAt(++state.position);
      }
      captureSegment(state, captureStart, state.position, false);
    }
    return true;
  }
  function readBlockSequence(state, nodeIndent) {
    const _tag = state.tag;
    const _anchor = state.anchor;
    const _result = [];
    let detected = false;
    if (state.firstTabInLine !== -1) return false;
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      if (state.firstTabInLine !== -1) {
        state.position = state.firstTabInLine;
        throwError(state, "tab characters must not be used in indentation");
      }
      if (ch !== 45) {
        break;
      }
      const following = state.input.charCodeAt(state.position + 1);
      if (!isWsOrEol(following)) {
        break;
      }
      detected = true;
      state.position++;
      if (skipSeparationSpace(state, true, -1)) {
        if (state.lineIndent <= nodeIndent) {
          _result.push(null);
          ch = state.input.charCodeAt(state.position);
          continue;
        }
      }
      const _line = state.line;
      composeNode(state, nodeIndent, CONTEXT_BLOCK_IN, false, true);
      _result.push(state.result);
      skipSeparationSpace(state, true, -1);
      ch = state.input.charCodeAt(state.position);
      if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
        throwError(state, "bad indentation of a sequence entry");
      } else if (state.lineIndent < nodeIndent) {
        break;
      }
    }
    if (detected) {
      state.tag = _tag;
      state.anchor = _anchor;
      state.kind = "sequence";
      state.result = _result;
      return true;
    }
    return false;
  }
  function readBlockMapping(state, nodeIndent, flowIndent) {
    let allowCompact;
    let _keyLine;
    let _keyLineStart;
    let _keyPos;
    const _tag = state.tag;
    const _anchor = state.anchor;
    const _result = {};
    const overridableKeys = /* @__PURE__ */ Object.create(null);
    let keyTag = null;
    let keyNode = null;
    let valueNode = null;
    let atExplicitKey = false;
    let detected = false;
    if (state.firstTabInLine !== -1) return false;
    if (state.anchor !== null) {
      storeAnchor(state, state.anchor, _result);
    }
    let ch = state.input.charCodeAt(state.position);
    while (ch !== 0) {
      if (!atExplicitKey && state.firstTabInLine !== -1) {
        state.position = state.firstTabInLine;
        throwError(state, "tab characters must not be used in indentation");
      }
      const following = state.input.charCodeAt(state.position + 1);
      const _line = state.line;
      if ((ch === 63 || ch === 58) && isWsOrEol(following)) {
        if (ch === 63) {
          if (atExplicitKey) {
            storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
            keyTag = keyNode = valueNode = null;
          }
          detected = true;
          atExplicitKey = true;
          allowCompact = true;
        } else if (atExplicitKey) {
          atExplicitKey = false;
          allowCompact = true;
        } else {
          throwError(state, "incomplete explicit mapping pair; a key node is missed; or followed by a non-tabulated empty line");
        }
        state.position += 1;
        ch = following;
      } else {
        _keyLine = state.line;
        _keyLineStart = state.lineStart;
        _keyPos = state.position;
        if (!composeNode(state, flowIndent, CONTEXT_FLOW_OUT, false, true)) {
          break;
        }
        if (state.line === _line) {
          ch = state.input.charCodeAt(state.position);
          while (isWhiteSpace(ch)) {
            ch = state.input.charCodeAt(++state.position);
          }
          if (ch === 58) {
            ch = state.input.charCodeAt(++state.position);
            if (!isWsOrEol(ch)) {
              throwError(state, "a whitespace character is expected after the key-value separator within a block mapping");
            }
            if (atExplicitKey) {
              storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
              keyTag = keyNode = valueNode = null;
            }
            detected = true;
            atExplicitKey = false;
            allowCompact = false;
            keyTag = state.tag;
            keyNode = state.result;
          } else if (detected) {
            throwError(state, "can not read an implicit mapping pair; a colon is missed");
          } else {
            state.tag = _tag;
            state.anchor = _anchor;
            return true;
          }
        } else if (detected) {
          throwError(state, "can not read a block mapping entry; a multiline key may not be an implicit key");
        } else {
          state.tag = _tag;
          state.anchor = _anchor;
          return true;
        }
      }
      if (state.line === _line || state.lineIndent > nodeIndent) {
        if (atExplicitKey) {
          _keyLine = state.line;
          _keyLineStart = state.lineStart;
          _keyPos = state.position;
        }
        if (composeNode(state, nodeIndent, CONTEXT_BLOCK_OUT, true, allowCompact)) {
          if (atExplicitKey) {
            keyNode = state.result;
          } else {
            valueNode = state.result;
          }
        }
        if (!atExplicitKey) {
          storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, valueNode, _keyLine, _keyLineStart, _keyPos);
          keyTag = keyNode = valueNode = null;
        }
        skipSeparationSpace(state, true, -1);
        ch = state.input.charCodeAt(state.position);
      }
      if ((state.line === _line || state.lineIndent > nodeIndent) && ch !== 0) {
        throwError(state, "bad indentation of a mapping entry");
      } else if (state.lineIndent < nodeIndent) {
        break;
      }
    }
    if (atExplicitKey) {
      storeMappingPair(state, _result, overridableKeys, keyTag, keyNode, null, _keyLine, _keyLineStart, _keyPos);
    }
    if (detected) {
      state.tag = _tag;
      state.anchor = _anchor;
      state.kind = "mapping";
      state.result = _result;
    }
    return detected;
  }
  function readTagProperty(state) {
    let isVerbatim = false;
    let isNamed = false;
    let tagHandle;
    let tagName;
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 33) return false;
    if (state.tag !== null) {
      throwError(state, "duplication of a tag property");
    }
    ch = state.input.charCodeAt(++state.position);
    if (ch === 60) {
      isVerbatim = true;
      ch = state.input.charCodeAt(++state.position);
    } else if (ch === 33) {
      isNamed = true;
      tagHandle = "!!";
      ch = state.input.charCodeAt(++state.position);
    } else {
      tagHandle = "!";
    }
    let _position = state.position;
    if (isVerbatim) {
      do {
        ch = state.input.charCodeAt(++state.position);
      } while (ch !== 0 && ch !== 62);
      if (state.position < state.length) {
        tagName = state.input.slice(_position, state.position);
        ch = state.input.charCodeAt(++state.position);
      } else {
        throwError(state, "unexpected end of the stream within a verbatim tag");
      }
    } else {
      while (ch !== 0 && !isWsOrEol(ch)) {
        if (ch === 33) {
          if (!isNamed) {
            tagHandle = state.input.slice(_position - 1, state.position + 1);
            if (!PATTERN_TAG_HANDLE.test(tagHandle)) {
              throwError(state, "named tag handle cannot contain such characters");
            }
            isNamed = true;
            _position = state.position + 1;
          } else {
            throwError(state, "tag suffix cannot contain exclamation marks");
          }
        }
        ch = state.input.charCodeAt(++state.position);
      }
      tagName = state.input.slice(_position, state.position);
      if (PATTERN_FLOW_INDICATORS.test(tagName)) {
        throwError(state, "tag suffix cannot contain flow indicator characters");
      }
    }
    if (tagName && !PATTERN_TAG_URI.test(tagName)) {
      throwError(state, "tag name cannot contain such characters: " + tagName);
    }
    try {
      tagName = decodeURIComponent(tagName);
    } catch (err) {
      throwError(state, "tag name is malformed: " + tagName);
    }
    if (isVerbatim) {
      state.tag = tagName;
    } else if (_hasOwnProperty.call(state.tagMap, tagHandle)) {
      state.tag = state.tagMap[tagHandle] + tagName;
    } else if (tagHandle === "!") {
      state.tag = "!" + tagName;
    } else if (tagHandle === "!!") {
      state.tag = "tag:yaml.org,2002:" + tagName;
    } else {
      throwError(state, 'undeclared tag handle "' + tagHandle + '"');
    }
    return true;
  }
  function readAnchorProperty(state) {
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 38) return false;
    if (state.anchor !== null) {
      throwError(state, "duplication of an anchor property");
    }
    ch = state.input.charCodeAt(++state.position);
    const _position = state.position;
    while (ch !== 0 && !isWsOrEol(ch) && !isFlowIndicator(ch)) {
      ch = state.input.charCodeAt(++state.position);
    }
    if (state.position === _position) {
      throwError(state, "name of an anchor node must contain at least one character");
    }
    state.anchor = state.input.slice(_position, state.position);
    return true;
  }
  function readAlias(state) {
    let ch = state.input.charCodeAt(state.position);
    if (ch !== 42) return false;
    ch = state.input.charCodeAt(++state.position);
    const _position = state.position;
    while (ch !== 0 && !isWsOrEol(ch) && !isFlowIndicator(ch)) {
      ch = state.input.charCodeAt(++state.position);
    }
    if (state.position === _position) {
      throwError(state, "name of an alias node must contain at least one character");
    }
    const alias = state.input.slice(_position, state.position);
    if (!_hasOwnProperty.call(state.anchorMap, alias)) {
      throwError(state, 'unidentified alias "' + alias + '"');
    }
    state.result = state.anchorMap[alias];
    skipSeparationSpace(state, true, -1);
    return true;
  }
  function tryReadBlockMappingFromProperty(state, propertyStart, nodeIndent, flowIndent) {
    const fallbackState = snapshotState(state);
    beginAnchorTransaction(state);
    restoreState(state, propertyStart);
    state.tag = null;
    state.anchor = null;
    state.kind = null;
    state.result = null;
    if (readBlockMapping(state, nodeIndent, flowIndent) && state.kind === "mapping") {
      commitAnchorTransaction(state);
      return true;
    }
    rollbackAnchorTransaction(state);
    restoreState(state, fallbackState);
    return false;
  }
  function composeNode(state, parentIndent, nodeContext, allowToSeek, allowCompact) {
    let allowBlockScalars;
    let allowBlockCollections;
    let indentStatus = 1;
    let atNewLine = false;
    let hasContent = false;
    let propertyStart = null;
    let type2;
    let flowIndent;
    let blockIndent;
    if (state.depth >= state.maxDepth) {
      throwError(state, "nesting exceeded maxDepth (" + state.maxDepth + ")");
    }
    state.depth += 1;
    if (state.listener !== null) {
      state.listener("open", state);
    }
    state.tag = null;
    state.anchor = null;
    state.kind = null;
    state.result = null;
    const allowBlockStyles = allowBlockScalars = allowBlockCollections = CONTEXT_BLOCK_OUT === nodeContext || CONTEXT_BLOCK_IN === nodeContext;
    if (allowToSeek) {
      if (skipSeparationSpace(state, true, -1)) {
        atNewLine = true;
        if (state.lineIndent > parentIndent) {
          indentStatus = 1;
        } else if (state.lineIndent === parentIndent) {
          indentStatus = 0;
        } else if (state.lineIndent < parentIndent) {
          indentStatus = -1;
        }
      }
    }
    if (indentStatus === 1) {
      while (true) {
        const ch = state.input.charCodeAt(state.position);
        const propertyState = snapshotState(state);
        if (atNewLine && (ch === 33 && state.tag !== null || ch === 38 && state.anchor !== null)) {
          break;
        }
        if (!readTagProperty(state) && !readAnchorProperty(state)) {
          break;
        }
        if (propertyStart === null) {
          propertyStart = propertyState;
        }
        if (skipSeparationSpace(state, true, -1)) {
          atNewLine = true;
          allowBlockCollections = allowBlockStyles;
          if (state.lineIndent > parentIndent) {
            indentStatus = 1;
          } else if (state.lineIndent === parentIndent) {
            indentStatus = 0;
          } else if (state.lineIndent < parentIndent) {
            indentStatus = -1;
          }
        } else {
          allowBlockCollections = false;
        }
      }
    }
    if (allowBlockCollections) {
      allowBlockCollections = atNewLine || allowCompact;
    }
    if (indentStatus === 1 || CONTEXT_BLOCK_OUT === nodeContext) {
      if (CONTEXT_FLOW_IN === nodeContext || CONTEXT_FLOW_OUT === nodeContext) {
        flowIndent = parentIndent;
      } else {
        flowIndent = parentIndent + 1;
      }
      blockIndent = state.position - state.lineStart;
      if (indentStatus === 1) {
        if (allowBlockCollections && (readBlockSequence(state, blockIndent) || readBlockMapping(state, blockIndent, flowIndent)) || readFlowCollection(state, flowIndent)) {
          hasContent = true;
        } else {
          const ch = state.input.charCodeAt(state.position);
          if (propertyStart !== null && allowBlockStyles && !allowBlockCollections && ch !== 124 && ch !== 62 && tryReadBlockMappingFromProperty(
            state,
            propertyStart,
            propertyStart.position - propertyStart.lineStart,
            flowIndent
          )) {
            hasContent = true;
          } else if (allowBlockScalars && readBlockScalar(state, flowIndent) || readSingleQuotedScalar(state, flowIndent) || readDoubleQuotedScalar(state, flowIndent)) {
            hasContent = true;
          } else if (readAlias(state)) {
            hasContent = true;
            if (state.tag !== null || state.anchor !== null) {
              throwError(state, "alias node should not have any properties");
            }
          } else if (readPlainScalar(state, flowIndent, CONTEXT_FLOW_IN === nodeContext)) {
            hasContent = true;
            if (state.tag === null) {
              state.tag = "?";
            }
          }
          if (state.anchor !== null) {
            storeAnchor(state, state.anchor, state.result);
          }
        }
      } else if (indentStatus === 0) {
        hasContent = allowBlockCollections && readBlockSequence(state, blockIndent);
      }
    }
    if (state.tag === null) {
      if (state.anchor !== null) {
        storeAnchor(state, state.anchor, state.result);
      }
    } else if (state.tag === "?") {
      if (state.result !== null && state.kind !== "scalar") {
        throwError(state, 'unacceptable node kind for !<?> tag; it should be "scalar", not "' + state.kind + '"');
      }
      for (let typeIndex = 0, typeQuantity = state.implicitTypes.length; typeIndex < typeQuantity; typeIndex += 1) {
        type2 = state.implicitTypes[typeIndex];
        if (type2.resolve(state.result)) {
          state.result = type2.construct(state.result);
          state.tag = type2.tag;
          if (state.anchor !== null) {
            storeAnchor(state, state.anchor, state.result);
          }
          break;
        }
      }
    } else if (state.tag !== "!") {
      if (_hasOwnProperty.call(state.typeMap[state.kind || "fallback"], state.tag)) {
        type2 = state.typeMap[state.kind || "fallback"][state.tag];
      } else {
        type2 = null;
        const typeList = state.typeMap.multi[state.kind || "fallback"];
        for (let typeIndex = 0, typeQuantity = typeList.length; typeIndex < typeQuantity; typeIndex += 1) {
          if (state.tag.slice(0, typeList[typeIndex].tag.length) === typeList[typeIndex].tag) {
            type2 = typeList[typeIndex];
            break;
          }
        }
      }
      if (!type2) {
        throwError(state, "unknown tag !<" + state.tag + ">");
      }
      if (state.result !== null && type2.kind !== state.kind) {
        throwError(state, "unacceptable node kind for !<" + state.tag + '> tag; it should be "' + type2.kind + '", not "' + state.kind + '"');
      }
      if (!type2.resolve(state.result, state.tag)) {
        throwError(state, "cannot resolve a node with !<" + state.tag + "> explicit tag");
      } else {
        state.result = type2.construct(state.result, state.tag);
        if (state.anchor !== null) {
          storeAnchor(state, state.anchor, state.result);
        }
      }
    }
    if (state.listener !== null) {
      state.listener("close", state);
    }
    state.depth -= 1;
    return state.tag !== null || state.anchor !== null || hasContent;
  }
  function readDocument(state) {
    const documentStart = state.position;
    let hasDirectives = false;
    let ch;
    state.version = null;
    state.checkLineBreaks = state.legacy;
    state.tagMap = /* @__PURE__ */ Object.create(null);
    state.anchorMap = /* @__PURE__ */ Object.create(null);
    while ((ch = state.input.charCodeAt(state.position)) !== 0) {
      skipSeparationSpace(state, true, -1);
      ch = state.input.charCodeAt(state.position);
      if (state.lineIndent > 0 || ch !== 37) {
        break;
      }
      hasDirectives = true;
      ch = state.input.charCodeAt(++state.position);
      let _position = state.position;
      while (ch !== 0 && !isWsOrEol(ch)) {
        ch = state.input.charCodeAt(++state.position);
      }
      const directiveName = state.input.slice(_position, state.position);
      const directiveArgs = [];
      if (directiveName.length < 1) {
        throwError(state, "directive name must not be less than one character in length");
      }
      while (ch !== 0) {
        while (isWhiteSpace(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        if (ch === 35) {
          do {
            ch = state.input.charCodeAt(++state.position);
          } while (ch !== 0 && !isEol(ch));
          break;
        }
        if (isEol(ch)) break;
        _position = state.position;
        while (ch !== 0 && !isWsOrEol(ch)) {
          ch = state.input.charCodeAt(++state.position);
        }
        directiveArgs.push(state.input.slice(_position, state.position));
      }
      if (ch !== 0) readLineBreak(state);
      if (_hasOwnProperty.call(directiveHandlers, directiveName)) {
        directiveHandlers[directiveName](state, directiveName, directiveArgs);
      } else {
        throwWarning(state, 'unknown document directive "' + directiveName + '"');
      }
    }
    skipSeparationSpace(state, true, -1);
    if (state.lineIndent === 0 && state.input.charCodeAt(state.position) === 45 && state.input.charCodeAt(state.position + 1) === 45 && state.input.charCodeAt(state.position + 2) === 45) {
      state.position += 3;
      skipSeparationSpace(state, true, -1);
    } else if (hasDirectives) {
      throwError(state, "directives end mark is expected");
    }
    composeNode(state, state.lineIndent - 1, CONTEXT_BLOCK_OUT, false, true);
    skipSeparationSpace(state, true, -1);
    if (state.checkLineBreaks && PATTERN_NON_ASCII_LINE_BREAKS.test(state.input.slice(documentStart, state.position))) {
      throwWarning(state, "non-ASCII line breaks are interpreted as content");
    }
    state.documents.push(state.result);
    if (state.position === state.lineStart && testDocumentSeparator(state)) {
      if (state.input.charCodeAt(state.position) === 46) {
        state.position += 3;
        skipSeparationSpace(state, true, -1);
      }
      return;
    }
    if (state.position < state.length - 1) {
      throwError(state, "end of the stream or a document separator is expected");
    }
  }
  function loadDocuments(input, options) {
    input = String(input);
    options = options || {};
    if (input.length !== 0) {
      if (input.charCodeAt(input.length - 1) !== 10 && input.charCodeAt(input.length - 1) !== 13) {
        input += "\n";
      }
      if (input.charCodeAt(0) === 65279) {
        input = input.slice(1);
      }
    }
    const state = new State(input, options);
    const nullpos = input.indexOf("\0");
    if (nullpos !== -1) {
      state.position = nullpos;
      throwError(state, "null byte is not allowed in input");
    }
    state.input += "\0";
    while (state.input.charCodeAt(state.position) === 32) {
      state.lineIndent += 1;
      state.position += 1;
    }
    while (state.position < state.length - 1) {
      readDocument(state);
    }
    return state.documents;
  }
  function loadAll2(input, iterator, options) {
    if (iterator !== null && typeof iterator === "object" && typeof options === "undefined") {
      options = iterator;
      iterator = null;
    }
    const documents = loadDocuments(input, options);
    if (typeof iterator !== "function") {
      return documents;
    }
    for (let index = 0, length = documents.length; index < length; index += 1) {
      iterator(documents[index]);
    }
  }
  function load2(input, options) {
    const documents = loadDocuments(input, options);
    if (documents.length === 0) {
      return void 0;
    } else if (documents.length === 1) {
      return documents[0];
    }
    throw new YAMLException2("expected a single document in the stream, but found more");
  }
  loader.loadAll = loadAll2;
  loader.load = load2;
  return loader;
}
var dumper = {};
var hasRequiredDumper;
function requireDumper() {
  if (hasRequiredDumper) return dumper;
  hasRequiredDumper = 1;
  const common2 = requireCommon();
  const YAMLException2 = requireException();
  const DEFAULT_SCHEMA2 = require_default();
  const _toString = Object.prototype.toString;
  const _hasOwnProperty = Object.prototype.hasOwnProperty;
  const CHAR_BOM = 65279;
  const CHAR_TAB = 9;
  const CHAR_LINE_FEED = 10;
  const CHAR_CARRIAGE_RETURN = 13;
  const CHAR_SPACE = 32;
  const CHAR_EXCLAMATION = 33;
  const CHAR_DOUBLE_QUOTE = 34;
  const CHAR_SHARP = 35;
  const CHAR_PERCENT = 37;
  const CHAR_AMPERSAND = 38;
  const CHAR_SINGLE_QUOTE = 39;
  const CHAR_ASTERISK = 42;
  const CHAR_COMMA = 44;
  const CHAR_MINUS = 45;
  const CHAR_COLON = 58;
  const CHAR_EQUALS = 61;
  const CHAR_GREATER_THAN = 62;
  const CHAR_QUESTION = 63;
  const CHAR_COMMERCIAL_AT = 64;
  const CHAR_LEFT_SQUARE_BRACKET = 91;
  const CHAR_RIGHT_SQUARE_BRACKET = 93;
  const CHAR_GRAVE_ACCENT = 96;
  const CHAR_LEFT_CURLY_BRACKET = 123;
  const CHAR_VERTICAL_LINE = 124;
  const CHAR_RIGHT_CURLY_BRACKET = 125;
  const ESCAPE_SEQUENCES = {};
  ESCAPE_SEQUENCES[0] = "\\0";
  ESCAPE_SEQUENCES[7] = "\\a";
  ESCAPE_SEQUENCES[8] = "\\b";
  ESCAPE_SEQUENCES[9] = "\\t";
  ESCAPE_SEQUENCES[10] = "\\n";
  ESCAPE_SEQUENCES[11] = "\\v";
  ESCAPE_SEQUENCES[12] = "\\f";
  ESCAPE_SEQUENCES[13] = "\\r";
  ESCAPE_SEQUENCES[27] = "\\e";
  ESCAPE_SEQUENCES[34] = '\\"';
  ESCAPE_SEQUENCES[92] = "\\\\";
  ESCAPE_SEQUENCES[133] = "\\N";
  ESCAPE_SEQUENCES[160] = "\\_";
  ESCAPE_SEQUENCES[8232] = "\\L";
  ESCAPE_SEQUENCES[8233] = "\\P";
  const DEPRECATED_BOOLEANS_SYNTAX = [
    "y",
    "Y",
    "yes",
    "Yes",
    "YES",
    "on",
    "On",
    "ON",
    "n",
    "N",
    "no",
    "No",
    "NO",
    "off",
    "Off",
    "OFF"
  ];
  const DEPRECATED_BASE60_SYNTAX = /^[-+]?[0-9_]+(?::[0-9_]+)+(?:\.[0-9_]*)?$/;
  function compileStyleMap(schema2, map2) {
    if (map2 === null) return {};
    const result = {};
    const keys = Object.keys(map2);
    for (let index = 0, length = keys.length; index < length; index += 1) {
      let tag = keys[index];
      let style = String(map2[tag]);
      if (tag.slice(0, 2) === "!!") {
        tag = "tag:yaml.org,2002:" + tag.slice(2);
      }
      const type2 = schema2.compiledTypeMap["fallback"][tag];
      if (type2 && _hasOwnProperty.call(type2.styleAliases, style)) {
        style = type2.styleAliases[style];
      }
      result[tag] = style;
    }
    return result;
  }
  function encodeHex(character) {
    let handle;
    let length;
    const string = character.toString(16).toUpperCase();
    if (character <= 255) {
      handle = "x";
      length = 2;
    } else if (character <= 65535) {
      handle = "u";
      length = 4;
    } else if (character <= 4294967295) {
      handle = "U";
      length = 8;
    } else {
      throw new YAMLException2("code point within a string may not be greater than 0xFFFFFFFF");
    }
    return "\\" + handle + common2.repeat("0", length - string.length) + string;
  }
  const QUOTING_TYPE_SINGLE = 1;
  const QUOTING_TYPE_DOUBLE = 2;
  function State(options) {
    this.schema = options["schema"] || DEFAULT_SCHEMA2;
    this.indent = Math.max(1, options["indent"] || 2);
    this.noArrayIndent = options["noArrayIndent"] || false;
    this.skipInvalid = options["skipInvalid"] || false;
    this.flowLevel = common2.isNothing(options["flowLevel"]) ? -1 : options["flowLevel"];
    this.styleMap = compileStyleMap(this.schema, options["styles"] || null);
    this.sortKeys = options["sortKeys"] || false;
    this.lineWidth = options["lineWidth"] || 80;
    this.noRefs = options["noRefs"] || false;
    this.noCompatMode = options["noCompatMode"] || false;
    this.condenseFlow = options["condenseFlow"] || false;
    this.quotingType = options["quotingType"] === '"' ? QUOTING_TYPE_DOUBLE : QUOTING_TYPE_SINGLE;
    this.forceQuotes = options["forceQuotes"] || false;
    this.replacer = typeof options["replacer"] === "function" ? options["replacer"] : null;
    this.implicitTypes = this.schema.compiledImplicit;
    this.explicitTypes = this.schema.compiledExplicit;
    this.tag = null;
    this.result = "";
    this.duplicates = [];
    this.usedDuplicates = null;
  }
  function indentString(string, spaces) {
    const ind = common2.repeat(" ", spaces);
    let position = 0;
    let result = "";
    const length = string.length;
    while (position < length) {
      let line;
      const next = string.indexOf("\n", position);
      if (next === -1) {
        line = string.slice(position);
        position = length;
      } else {
        line = string.slice(position, next + 1);
        position = next + 1;
      }
      if (line.length && line !== "\n") result += ind;
      result += line;
    }
    return result;
  }
  function generateNextLine(state, level) {
    return "\n" + common2.repeat(" ", state.indent * level);
  }
  function testImplicitResolving(state, str2) {
    for (let index = 0, length = state.implicitTypes.length; index < length; index += 1) {
      const type2 = state.implicitTypes[index];
      if (type2.resolve(str2)) {
        return true;
      }
    }
    return false;
  }
  function isWhitespace(c) {
    return c === CHAR_SPACE || c === CHAR_TAB;
  }
  function isPrintable(c) {
    return c >= 32 && c <= 126 || c >= 161 && c <= 55295 && c !== 8232 && c !== 8233 || c >= 57344 && c <= 65533 && c !== CHAR_BOM || c >= 65536 && c <= 1114111;
  }
  function isNsCharOrWhitespace(c) {
    return isPrintable(c) && c !== CHAR_BOM && // - b-char
    c !== CHAR_CARRIAGE_RETURN && c !== CHAR_LINE_FEED;
  }
  function isPlainSafe(c, prev, inblock) {
    const cIsNsCharOrWhitespace = isNsCharOrWhitespace(c);
    const cIsNsChar = cIsNsCharOrWhitespace && !isWhitespace(c);
    return (
      // ns-plain-safe
      (inblock ? cIsNsCharOrWhitespace : cIsNsCharOrWhitespace && // - c-flow-indicator
      c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET) && // ns-plain-char
      c !== CHAR_SHARP && // false on '#'
      !(prev === CHAR_COLON && !cIsNsChar) || // false on ': '
      isNsCharOrWhitespace(prev) && !isWhitespace(prev) && c === CHAR_SHARP || // change to true on '[^ ]#'
      prev === CHAR_COLON && cIsNsChar
    );
  }
  function isPlainSafeFirst(c) {
    return isPrintable(c) && c !== CHAR_BOM && !isWhitespace(c) && // - s-white
    // - (c-indicator ::=
    // “-” | “?” | “:” | “,” | “[” | “]” | “{” | “}”
    c !== CHAR_MINUS && c !== CHAR_QUESTION && c !== CHAR_COLON && c !== CHAR_COMMA && c !== CHAR_LEFT_SQUARE_BRACKET && c !== CHAR_RIGHT_SQUARE_BRACKET && c !== CHAR_LEFT_CURLY_BRACKET && c !== CHAR_RIGHT_CURLY_BRACKET && // | “#” | “&” | “*” | “!” | “|” | “=” | “>” | “'” | “"”
    c !== CHAR_SHARP && c !== CHAR_AMPERSAND && c !== CHAR_ASTERISK && c !== CHAR_EXCLAMATION && c !== CHAR_VERTICAL_LINE && c !== CHAR_EQUALS && c !== CHAR_GREATER_THAN && c !== CHAR_SINGLE_QUOTE && c !== CHAR_DOUBLE_QUOTE && // | “%” | “@” | “`”)
    c !== CHAR_PERCENT && c !== CHAR_COMMERCIAL_AT && c !== CHAR_GRAVE_ACCENT;
  }
  function isPlainSafeLast(c) {
    return !isWhitespace(c) && c !== CHAR_COLON;
  }
  function codePointAt(string, pos) {
    const first = string.charCodeAt(pos);
    let second;
    if (first >= 55296 && first <= 56319 && pos + 1 < string.length) {
      second = string.charCodeAt(pos + 1);
      if (second >= 56320 && second <= 57343) {
        return (first - 55296) * 1024 + second - 56320 + 65536;
      }
    }
    return first;
  }
  function needIndentIndicator(string) {
    const leadingSpaceRe = /^\n* /;
    return leadingSpaceRe.test(string);
  }
  const STYLE_PLAIN = 1;
  const STYLE_SINGLE = 2;
  const STYLE_LITERAL = 3;
  const STYLE_FOLDED = 4;
  const STYLE_DOUBLE = 5;
  function chooseScalarStyle(string, singleLineOnly, indentPerLevel, lineWidth, testAmbiguousType, quotingType, forceQuotes, inblock) {
    let i;
    let char = 0;
    let prevChar = null;
    let hasLineBreak = false;
    let hasFoldableLine = false;
    const shouldTrackWidth = lineWidth !== -1;
    let previousLineBreak = -1;
    let plain = isPlainSafeFirst(codePointAt(string, 0)) && isPlainSafeLast(codePointAt(string, string.length - 1));
    if (singleLineOnly || forceQuotes) {
      for (i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
        char = codePointAt(string, i);
        if (!isPrintable(char)) {
          return STYLE_DOUBLE;
        }
        plain = plain && isPlainSafe(char, prevChar, inblock);
        prevChar = char;
      }
    } else {
      for (i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
        char = codePointAt(string, i);
        if (char === CHAR_LINE_FEED) {
          hasLineBreak = true;
          if (shouldTrackWidth) {
            hasFoldableLine = hasFoldableLine || // Foldable line = too long, and not more-indented.
            i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ";
            previousLineBreak = i;
          }
        } else if (!isPrintable(char)) {
          return STYLE_DOUBLE;
        }
        plain = plain && isPlainSafe(char, prevChar, inblock);
        prevChar = char;
      }
      hasFoldableLine = hasFoldableLine || shouldTrackWidth && (i - previousLineBreak - 1 > lineWidth && string[previousLineBreak + 1] !== " ");
    }
    if (!hasLineBreak && !hasFoldableLine) {
      if (plain && !forceQuotes && !testAmbiguousType(string)) {
        return STYLE_PLAIN;
      }
      return quotingType === QUOTING_TYPE_DOUBLE ? STYLE_DOUBLE : STYLE_SINGLE;
    }
    if (indentPerLevel > 9 && needIndentIndicator(string)) {
      return STYLE_DOUBLE;
    }
    if (!forceQuotes) {
      return hasFoldableLine ? STYLE_FOLDED : STYLE_LITERAL;
    }
    return quotingType === QUOTING_TYPE_DOUBLE ? STYLE_DOUBLE : STYLE_SINGLE;
  }
  function writeScalar(state, string, level, iskey, inblock) {
    state.dump = (function() {
      if (string.length === 0) {
        return state.quotingType === QUOTING_TYPE_DOUBLE ? '""' : "''";
      }
      if (!state.noCompatMode) {
        if (DEPRECATED_BOOLEANS_SYNTAX.indexOf(string) !== -1 || DEPRECATED_BASE60_SYNTAX.test(string)) {
          return state.quotingType === QUOTING_TYPE_DOUBLE ? '"' + string + '"' : "'" + string + "'";
        }
      }
      const indent = state.indent * Math.max(1, level);
      const lineWidth = state.lineWidth === -1 ? -1 : Math.max(Math.min(state.lineWidth, 40), state.lineWidth - indent);
      const singleLineOnly = iskey || // No block styles in flow mode.
      state.flowLevel > -1 && level >= state.flowLevel;
      function testAmbiguity(string2) {
        return testImplicitResolving(state, string2);
      }
      switch (chooseScalarStyle(
        string,
        singleLineOnly,
        state.indent,
        lineWidth,
        testAmbiguity,
        state.quotingType,
        state.forceQuotes && !iskey,
        inblock
      )) {
        case STYLE_PLAIN:
          return string;
        case STYLE_SINGLE:
          return "'" + string.replace(/'/g, "''") + "'";
        case STYLE_LITERAL:
          return "|" + blockHeader(string, state.indent) + dropEndingNewline(indentString(string, indent));
        case STYLE_FOLDED:
          return ">" + blockHeader(string, state.indent) + dropEndingNewline(indentString(foldString(string, lineWidth), indent));
        case STYLE_DOUBLE:
          return '"' + escapeString(string) + '"';
        default:
          throw new YAMLException2("impossible error: invalid scalar style");
      }
    })();
  }
  function blockHeader(string, indentPerLevel) {
    const indentIndicator = needIndentIndicator(string) ? String(indentPerLevel) : "";
    const clip = string[string.length - 1] === "\n";
    const keep = clip && (string[string.length - 2] === "\n" || string === "\n");
    const chomp = keep ? "+" : clip ? "" : "-";
    return indentIndicator + chomp + "\n";
  }
  function dropEndingNewline(string) {
    return string[string.length - 1] === "\n" ? string.slice(0, -1) : string;
  }
  function foldString(string, width) {
    const lineRe = /(\n+)([^\n]*)/g;
    let result = (function() {
      let nextLF = string.indexOf("\n");
      nextLF = nextLF !== -1 ? nextLF : string.length;
      lineRe.lastIndex = nextLF;
      return foldLine(string.slice(0, nextLF), width);
    })();
    let prevMoreIndented = string[0] === "\n" || string[0] === " ";
    let moreIndented;
    let match;
    while (match = lineRe.exec(string)) {
      const prefix = match[1];
      const line = match[2];
      moreIndented = line[0] === " ";
      result += prefix + (!prevMoreIndented && !moreIndented && line !== "" ? "\n" : "") + foldLine(line, width);
      prevMoreIndented = moreIndented;
    }
    return result;
  }
  function foldLine(line, width) {
    if (line === "" || line[0] === " ") return line;
    const breakRe = / [^ ]/g;
    let match;
    let start = 0;
    let end;
    let curr = 0;
    let next = 0;
    let result = "";
    while (match = breakRe.exec(line)) {
      next = match.index;
      if (next - start > width) {
        end = curr > start ? curr : next;
        result += "\n" + line.slice(start, end);
        start = end + 1;
      }
      curr = next;
    }
    result += "\n";
    if (line.length - start > width && curr > start) {
      result += line.slice(start, curr) + "\n" + line.slice(curr + 1);
    } else {
      result += line.slice(start);
    }
    return result.slice(1);
  }
  function escapeString(string) {
    let result = "";
    let char = 0;
    for (let i = 0; i < string.length; char >= 65536 ? i += 2 : i++) {
      char = codePointAt(string, i);
      const escapeSeq = ESCAPE_SEQUENCES[char];
      if (!escapeSeq && isPrintable(char)) {
        result += string[i];
        if (char >= 65536) result += string[i + 1];
      } else {
        result += escapeSeq || encodeHex(char);
      }
    }
    return result;
  }
  function writeFlowSequence(state, level, object) {
    let _result = "";
    const _tag = state.tag;
    for (let index = 0, length = object.length; index < length; index += 1) {
      let value = object[index];
      if (state.replacer) {
        value = state.replacer.call(object, String(index), value);
      }
      if (writeNode(state, level, value, false, false) || typeof value === "undefined" && writeNode(state, level, null, false, false)) {
        if (_result !== "") _result += "," + (!state.condenseFlow ? " " : "");
        _result += state.dump;
      }
    }
    state.tag = _tag;
    state.dump = "[" + _result + "]";
  }
  function writeBlockSequence(state, level, object, compact) {
    let _result = "";
    const _tag = state.tag;
    for (let index = 0, length = object.length; index < length; index += 1) {
      let value = object[index];
      if (state.replacer) {
        value = state.replacer.call(object, String(index), value);
      }
      if (writeNode(state, level + 1, value, true, true, false, true) || typeof value === "undefined" && writeNode(state, level + 1, null, true, true, false, true)) {
        if (!compact || _result !== "") {
          _result += generateNextLine(state, level);
        }
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          _result += "-";
        } else {
          _result += "- ";
        }
        _result += state.dump;
      }
    }
    state.tag = _tag;
    state.dump = _result || "[]";
  }
  function writeFlowMapping(state, level, object) {
    let _result = "";
    const _tag = state.tag;
    const objectKeyList = Object.keys(object);
    for (let index = 0, length = objectKeyList.length; index < length; index += 1) {
      let pairBuffer = "";
      if (_result !== "") pairBuffer += ", ";
      if (state.condenseFlow) pairBuffer += '"';
      const objectKey = objectKeyList[index];
      let objectValue = object[objectKey];
      if (state.replacer) {
        objectValue = state.replacer.call(object, objectKey, objectValue);
      }
      if (!writeNode(state, level, objectKey, false, false)) {
        continue;
      }
      if (state.dump.length > 1024) pairBuffer += "? ";
      pairBuffer += state.dump + (state.condenseFlow ? '"' : "") + ":" + (state.condenseFlow ? "" : " ");
      if (!writeNode(state, level, objectValue, false, false)) {
        continue;
      }
      pairBuffer += state.dump;
      _result += pairBuffer;
    }
    state.tag = _tag;
    state.dump = "{" + _result + "}";
  }
  function writeBlockMapping(state, level, object, compact) {
    let _result = "";
    const _tag = state.tag;
    const objectKeyList = Object.keys(object);
    if (state.sortKeys === true) {
      objectKeyList.sort();
    } else if (typeof state.sortKeys === "function") {
      objectKeyList.sort(state.sortKeys);
    } else if (state.sortKeys) {
      throw new YAMLException2("sortKeys must be a boolean or a function");
    }
    for (let index = 0, length = objectKeyList.length; index < length; index += 1) {
      let pairBuffer = "";
      if (!compact || _result !== "") {
        pairBuffer += generateNextLine(state, level);
      }
      const objectKey = objectKeyList[index];
      let objectValue = object[objectKey];
      if (state.replacer) {
        objectValue = state.replacer.call(object, objectKey, objectValue);
      }
      if (!writeNode(state, level + 1, objectKey, true, true, true)) {
        continue;
      }
      const explicitPair = state.tag !== null && state.tag !== "?" || state.dump && state.dump.length > 1024;
      if (explicitPair) {
        if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
          pairBuffer += "?";
        } else {
          pairBuffer += "? ";
        }
      }
      pairBuffer += state.dump;
      if (explicitPair) {
        pairBuffer += generateNextLine(state, level);
      }
      if (!writeNode(state, level + 1, objectValue, true, explicitPair)) {
        continue;
      }
      if (state.dump && CHAR_LINE_FEED === state.dump.charCodeAt(0)) {
        pairBuffer += ":";
      } else {
        pairBuffer += ": ";
      }
      pairBuffer += state.dump;
      _result += pairBuffer;
    }
    state.tag = _tag;
    state.dump = _result || "{}";
  }
  function detectType(state, object, explicit) {
    const typeList = explicit ? state.explicitTypes : state.implicitTypes;
    for (let index = 0, length = typeList.length; index < length; index += 1) {
      const type2 = typeList[index];
      if ((type2.instanceOf || type2.predicate) && (!type2.instanceOf || typeof object === "object" && object instanceof type2.instanceOf) && (!type2.predicate || type2.predicate(object))) {
        if (explicit) {
          if (type2.multi && type2.representName) {
            state.tag = type2.representName(object);
          } else {
            state.tag = type2.tag;
          }
        } else {
          state.tag = "?";
        }
        if (type2.represent) {
          const style = state.styleMap[type2.tag] || type2.defaultStyle;
          let _result;
          if (_toString.call(type2.represent) === "[object Function]") {
            _result = type2.represent(object, style);
          } else if (_hasOwnProperty.call(type2.represent, style)) {
            _result = type2.represent[style](object, style);
          } else {
            throw new YAMLException2("!<" + type2.tag + '> tag resolver accepts not "' + style + '" style');
          }
          state.dump = _result;
        }
        return true;
      }
    }
    return false;
  }
  function writeNode(state, level, object, block, compact, iskey, isblockseq) {
    state.tag = null;
    state.dump = object;
    if (!detectType(state, object, false)) {
      detectType(state, object, true);
    }
    const type2 = _toString.call(state.dump);
    const inblock = block;
    if (block) {
      block = state.flowLevel < 0 || state.flowLevel > level;
    }
    const objectOrArray = type2 === "[object Object]" || type2 === "[object Array]";
    let duplicateIndex;
    let duplicate;
    if (objectOrArray) {
      duplicateIndex = state.duplicates.indexOf(object);
      duplicate = duplicateIndex !== -1;
    }
    if (state.tag !== null && state.tag !== "?" || duplicate || state.indent !== 2 && level > 0) {
      compact = false;
    }
    if (duplicate && state.usedDuplicates[duplicateIndex]) {
      state.dump = "*ref_" + duplicateIndex;
    } else {
      if (objectOrArray && duplicate && !state.usedDuplicates[duplicateIndex]) {
        state.usedDuplicates[duplicateIndex] = true;
      }
      if (type2 === "[object Object]") {
        if (block && Object.keys(state.dump).length !== 0) {
          writeBlockMapping(state, level, state.dump, compact);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + state.dump;
          }
        } else {
          writeFlowMapping(state, level, state.dump);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + " " + state.dump;
          }
        }
      } else if (type2 === "[object Array]") {
        if (block && state.dump.length !== 0) {
          if (state.noArrayIndent && !isblockseq && level > 0) {
            writeBlockSequence(state, level - 1, state.dump, compact);
          } else {
            writeBlockSequence(state, level, state.dump, compact);
          }
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + state.dump;
          }
        } else {
          writeFlowSequence(state, level, state.dump);
          if (duplicate) {
            state.dump = "&ref_" + duplicateIndex + " " + state.dump;
          }
        }
      } else if (type2 === "[object String]") {
        if (state.tag !== "?") {
          writeScalar(state, state.dump, level, iskey, inblock);
        }
      } else if (type2 === "[object Undefined]") {
        return false;
      } else {
        if (state.skipInvalid) return false;
        throw new YAMLException2("unacceptable kind of an object to dump " + type2);
      }
      if (state.tag !== null && state.tag !== "?") {
        let tagStr = encodeURI(
          state.tag[0] === "!" ? state.tag.slice(1) : state.tag
        ).replace(/!/g, "%21");
        if (state.tag[0] === "!") {
          tagStr = "!" + tagStr;
        } else if (tagStr.slice(0, 18) === "tag:yaml.org,2002:") {
          tagStr = "!!" + tagStr.slice(18);
        } else {
          tagStr = "!<" + tagStr + ">";
        }
        state.dump = tagStr + " " + state.dump;
      }
    }
    return true;
  }
  function getDuplicateReferences(object, state) {
    const objects = [];
    const duplicatesIndexes = [];
    inspectNode(object, objects, duplicatesIndexes);
    const length = duplicatesIndexes.length;
    for (let index = 0; index < length; index += 1) {
      state.duplicates.push(objects[duplicatesIndexes[index]]);
    }
    state.usedDuplicates = new Array(length);
  }
  function inspectNode(object, objects, duplicatesIndexes) {
    if (object !== null && typeof object === "object") {
      const index = objects.indexOf(object);
      if (index !== -1) {
        if (duplicatesIndexes.indexOf(index) === -1) {
          duplicatesIndexes.push(index);
        }
      } else {
        objects.push(object);
        if (Array.isArray(object)) {
          for (let i = 0, length = object.length; i < length; i += 1) {
            inspectNode(object[i], objects, duplicatesIndexes);
          }
        } else {
          const objectKeyList = Object.keys(object);
          for (let i = 0, length = objectKeyList.length; i < length; i += 1) {
            inspectNode(object[objectKeyList[i]], objects, duplicatesIndexes);
          }
        }
      }
    }
  }
  function dump2(input, options) {
    options = options || {};
    const state = new State(options);
    if (!state.noRefs) getDuplicateReferences(input, state);
    let value = input;
    if (state.replacer) {
      value = state.replacer.call({ "": value }, "", value);
    }
    if (writeNode(state, 0, value, true, true)) return state.dump + "\n";
    return "";
  }
  dumper.dump = dump2;
  return dumper;
}
var hasRequiredJsYaml;
function requireJsYaml() {
  if (hasRequiredJsYaml) return jsYaml;
  hasRequiredJsYaml = 1;
  const loader2 = requireLoader();
  const dumper2 = requireDumper();
  function renamed(from, to) {
    return function() {
      throw new Error("Function yaml." + from + " is removed in js-yaml 4. Use yaml." + to + " instead, which is now safe by default.");
    };
  }
  jsYaml.Type = requireType();
  jsYaml.Schema = requireSchema();
  jsYaml.FAILSAFE_SCHEMA = requireFailsafe();
  jsYaml.JSON_SCHEMA = requireJson();
  jsYaml.CORE_SCHEMA = requireCore();
  jsYaml.DEFAULT_SCHEMA = require_default();
  jsYaml.load = loader2.load;
  jsYaml.loadAll = loader2.loadAll;
  jsYaml.dump = dumper2.dump;
  jsYaml.YAMLException = requireException();
  jsYaml.types = {
    binary: requireBinary(),
    float: requireFloat(),
    map: requireMap(),
    null: require_null(),
    pairs: requirePairs(),
    set: requireSet(),
    timestamp: requireTimestamp(),
    bool: requireBool(),
    int: requireInt(),
    merge: requireMerge(),
    omap: requireOmap(),
    seq: requireSeq(),
    str: requireStr()
  };
  jsYaml.safeLoad = renamed("safeLoad", "load");
  jsYaml.safeLoadAll = renamed("safeLoadAll", "loadAll");
  jsYaml.safeDump = renamed("safeDump", "dump");
  return jsYaml;
}
var jsYamlExports = requireJsYaml();
var yaml = /* @__PURE__ */ getDefaultExportFromCjs(jsYamlExports);
var {
  Type,
  Schema,
  FAILSAFE_SCHEMA,
  JSON_SCHEMA,
  CORE_SCHEMA,
  DEFAULT_SCHEMA,
  load,
  loadAll,
  dump,
  YAMLException,
  types,
  safeLoad,
  safeLoadAll,
  safeDump
} = yaml;

// src/ecosystems/pnpm/lockfile.ts
var isTable4 = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function parsePnpmLock(text) {
  try {
    const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: true });
    return isTable4(doc) ? doc : null;
  } catch {
    return null;
  }
}
var bareVersion = (v) => v.replace(/\(.*$/, "");
function pnpmLocked(doc, dir, name) {
  const importers = isTable4(doc?.importers) ? doc.importers : { ".": doc ?? {} };
  const importer = importers[dir || "."];
  if (!isTable4(importer)) return null;
  for (const section2 of ["dependencies", "devDependencies", "optionalDependencies"]) {
    const deps = importer[section2];
    const entry = isTable4(deps) ? deps[name] : void 0;
    const version = isTable4(entry) ? entry.version : entry;
    if (typeof version === "string") return bareVersion(version);
  }
  return null;
}
function keyParts(key) {
  const k = bareVersion(key.replace(/^\//, ""));
  const at2 = k.indexOf("@", 1);
  if (at2 > 0) return { name: k.slice(0, at2), version: k.slice(at2 + 1) };
  const slash = k.lastIndexOf("/");
  return slash > 0 ? { name: k.slice(0, slash), version: k.slice(slash + 1) } : { name: k, version: "" };
}
var SEMVER_LIKE = /^\d+\.\d+\.\d+(?:[-+][\w.+-]*)?$/;
function packageEntry(key, value, registryHosts) {
  const { name, version } = keyParts(key);
  const entry = isTable4(value) ? value : {};
  const resolution = isTable4(entry.resolution) ? entry.resolution : {};
  const tarball = typeof resolution.tarball === "string" ? resolution.tarball : null;
  let why;
  if (!SEMVER_LIKE.test(version)) why = `resolved as ${version.slice(0, 100)}`;
  else if (typeof resolution.type === "string") why = `a ${resolution.type} resolution`;
  else if (tarball !== null && !registryHosts.some((h) => tarball.startsWith(h))) why = `resolved from ${tarball.slice(0, 100)}, not the registry`;
  else if (typeof resolution.integrity !== "string" || !/^sha(?:1|256|384|512)-/.test(resolution.integrity)) why = "no integrity";
  return { key: `packages/${key}`, name, text: JSON.stringify(entry), registry: why === void 0, why, version };
}
var IMPORTER_SECTIONS = ["dependencies", "devDependencies", "optionalDependencies"];
function importerEntries(dir, value) {
  const importer = isTable4(value) ? value : {};
  const out = [];
  const rest = {};
  for (const [field, deps] of Object.entries(importer)) {
    if (!IMPORTER_SECTIONS.includes(field) || !isTable4(deps)) {
      rest[field] = deps;
      continue;
    }
    for (const [name, dep] of Object.entries(deps)) {
      const resolved = isTable4(dep) ? dep.version : dep;
      const version = typeof resolved === "string" ? bareVersion(resolved) : "";
      const registry3 = SEMVER_LIKE.test(version);
      const key = `importers/${dir}/${field}/${name}`;
      out.push({
        key,
        name,
        text: JSON.stringify(dep),
        registry: registry3,
        why: registry3 ? void 0 : `resolved as ${version.slice(0, 100)}`,
        ...registry3 ? { version } : {}
      });
    }
  }
  out.push({ key: `importers/${dir}`, name: `(importer ${dir})`, text: JSON.stringify(rest), registry: true, mirror: true });
  return out;
}
function pnpmLockEntries(text, registryHosts) {
  const doc = parsePnpmLock(text);
  if (!doc) return null;
  const out = [];
  for (const [top, value] of Object.entries(doc)) {
    if (top === "packages" && isTable4(value)) {
      for (const [key, entry] of Object.entries(value)) out.push(packageEntry(key, entry, registryHosts));
    } else if (top === "snapshots" && isTable4(value)) {
      for (const [key, entry] of Object.entries(value)) {
        const { name, version } = keyParts(key);
        const registry3 = SEMVER_LIKE.test(version);
        const why = registry3 ? void 0 : `resolved as ${version.slice(0, 100)}`;
        out.push({ key: `snapshots/${key}`, name, text: JSON.stringify(entry), registry: registry3, why, version });
      }
    } else if (top === "importers" && isTable4(value)) {
      for (const [dir, entry] of Object.entries(value)) out.push(...importerEntries(dir, entry));
    } else {
      out.push({ key: top, name: `(${top})`, text: JSON.stringify(value), registry: true });
    }
  }
  return out;
}

// src/ecosystems/node-lock-manager.ts
import { createHash as createHash3 } from "node:crypto";

// src/ecosystems/package-manager-tool.ts
var TOOL_TIMEOUT_MS = 10 * 6e4;
var VERSION_TIMEOUT_MS = 6e4;
var MAX_OUTPUT = 32 * 1024 * 1024;
function declaredManager(field) {
  if (typeof field !== "string") return null;
  const m = /^\s*([a-z][\w-]*)@([^+\s]+)/.exec(field);
  return m ? { name: m[1], version: m[2] } : null;
}
var COREPACK_OFFLINE = { COREPACK_ENABLE_NETWORK: "0", COREPACK_ENABLE_DOWNLOAD_PROMPT: "0", COREPACK_ENABLE_AUTO_PIN: "0" };
async function reportedVersion({ command: command2, args, env, signal }) {
  const r = await runProcess({ command: command2, args: [...args, "--version"], cwd: "/", env, timeoutMs: VERSION_TIMEOUT_MS, signal, maxOutputChars: 4096 });
  const version = r.stdout.trim().split("\n").pop()?.trim() ?? "";
  return r.exitCode === 0 && /^\d+\.\d+\.\d+\S*$/.test(version) ? version : null;
}
async function resolveTool({ name, declared: declared2, env, signal }) {
  const own = { ...COREPACK_OFFLINE, ...name === "pnpm" ? { npm_config_manage_package_manager_versions: "false" } : { YARN_IGNORE_PATH: "1" } };
  const onPath = await reportedVersion({ command: name, args: [], env: { ...env, ...own }, signal });
  if (onPath !== null && (declared2 === null || onPath === declared2)) return { name, version: onPath, command: name, prefix: [], env: own };
  if (declared2 !== null) {
    const viaCorepack = await reportedVersion({ command: "corepack", args: [`${name}@${declared2}`], env: { ...env, ...own }, signal });
    if (viaCorepack === declared2) return { name, version: declared2, command: "corepack", prefix: [`${name}@${declared2}`], env: own };
  }
  const found = onPath === null ? `no ${name} on PATH` : `the ${name} on PATH is ${onPath}`;
  const wanted = declared2 === null ? name : `${name}@${declared2}`;
  const why = declared2 === null ? `it is a ${name} project, but ${found}` : `it declares ${wanted}, but ${found}, and corepack does not have it offline`;
  throw new ConfigError(
    "task",
    "dependency-upgrade",
    `a project whose package manager can be had: ${why} (loopgate never falls back to npm; install ${wanted} on the runner, or fetch it into corepack's cache in a step before loopgate: \`corepack install\` in the project)`
  );
}
function runTool({ tool, cwd, args, env, signal }) {
  return runProcess({
    command: tool.command,
    args: [...tool.prefix, ...args],
    cwd,
    env: { ...env, ...tool.env },
    timeoutMs: TOOL_TIMEOUT_MS,
    signal,
    maxOutputChars: MAX_OUTPUT
  });
}
function failureTail(r) {
  const how = r.timedOut ? "timed out" : r.notStarted ? `not started: ${r.notStarted}` : r.exitCode ?? r.signal;
  return `(${how}): ${`${r.stderr}
${r.stdout}`.trim().split("\n").slice(-8).join(" | ").slice(0, 1500)}`;
}

// src/ecosystems/node-lock-manager.ts
var CHANGELOG_FILES2 = ["CHANGELOG.md", "CHANGELOG", "HISTORY.md", "CHANGES.md", "RELEASES.md"];
var NodeLockManager = class {
  versions = SEMVER;
  get bumpFiles() {
    return [MANIFEST, this.lockfile];
  }
  /** How a `versionsArgs` answer is read into the versions that count (null: the name is unknown). */
  async versionsReader(_tool, _job) {
    return parseVersions;
  }
  detect(workspace) {
    const manifest = readJson(workspace, MANIFEST);
    if (!manifest || this.declined(workspace) !== null) return false;
    return this.hasLockfile(workspace) || declaredManager(manifest.packageManager)?.name === this.name;
  }
  declined(workspace) {
    const manifest = readJson(workspace, MANIFEST);
    if (!manifest) return null;
    const declared2 = declaredManager(manifest.packageManager);
    if (declared2 && declared2.name !== this.name) return null;
    if (!declared2 && !this.hasLockfile(workspace)) return null;
    return this.unsupported(workspace, manifest);
  }
  hasLockfile(workspace) {
    return readTreeEntry(workspace, this.lockfile, MAX_JSON_BYTES).kind === "file";
  }
  lockfileHash(workspace) {
    const entry = readTreeEntry(workspace, this.lockfile, MAX_JSON_BYTES);
    return entry.kind === "file" ? `${this.lockfile}:${createHash3("sha256").update(entry.data).digest("hex").slice(0, 32)}` : "none";
  }
  /** The project's own manager at the version it declares; a config error when it cannot be had. */
  tool(workspace, env, signal) {
    const declared2 = declaredManager(readJson(workspace, MANIFEST)?.packageManager);
    const version = declared2?.name === this.name ? declared2.version : null;
    const key = JSON.stringify([workspace, version, env.PATH, env.COREPACK_HOME, env.HOME]);
    const cached = this.resolved.get(key);
    if (cached) return cached;
    const tool = resolveTool({ name: this.name, declared: version, env, signal });
    this.resolved.set(key, tool);
    tool.catch(() => this.resolved.delete(key));
    return tool;
  }
  resolved = /* @__PURE__ */ new Map();
  dirs(workspace) {
    return workspaceDirs(workspace, this.workspacePatterns(workspace));
  }
  async outdated(workspace, env, signal) {
    const tool = await this.tool(workspace, env, signal);
    const decls = declarations(workspace, this.dirs(workspace));
    const read = await this.versionsReader(tool, { workspace, env, signal });
    let failure = null;
    let answered = 0;
    const report = await outdatedFromRegistry({
      decls,
      locked: this.lockedReader(workspace),
      versions: async (name) => {
        const r = await runTool({ tool, cwd: workspace, args: this.versionsArgs(name), env, signal });
        const versions = r.exitCode === 0 ? read(r.stdout) : null;
        if (versions === null) failure = failureTail(r);
        else answered++;
        return versions;
      }
    });
    if (answered === 0 && failure !== null) throw new Error(`${this.name} could not read any version from the registry ${failure}`);
    return report;
  }
  async bump({ workspace, candidate, env, signal }) {
    const tool = await this.tool(workspace, env, signal);
    const decls = declarations(workspace, this.dirs(workspace)).get(candidate.name) ?? [];
    const files = [...writeBumpedManifests({ workspace, decls, name: candidate.name, to: candidate.to }), this.lockfile];
    if (decls.length === 0) return { ok: false, message: `no package.json declares ${candidate.name}`, files };
    const r = await runTool({ tool, cwd: workspace, args: this.installArgs(), env, signal });
    if (r.exitCode !== 0) return { ok: false, message: `${this.name} ${this.installArgs().join(" ")} failed ${failureTail(r)}`, files };
    const locked = this.lockedReader(workspace);
    const stale = decls.filter((d) => locked(d.dir, candidate.name) !== candidate.to);
    if (stale.length > 0) {
      const where = stale.map((d) => `${d.dir || "."} at ${locked(d.dir, candidate.name) ?? "nothing"}`).join(", ");
      return { ok: false, message: `${this.name} left ${candidate.name} in ${this.lockfile} for ${where}, not ${candidate.to}`, files };
    }
    return { ok: true, files };
  }
  async releaseNotes({ workspace, candidate, env, signal }) {
    const tool = await this.tool(workspace, env, signal);
    const r = await runTool({ tool, cwd: workspace, args: this.metadataArgs(candidate.name, candidate.to), env, signal });
    const meta = r.exitCode === 0 ? this.parseMetadata(r.stdout) : {};
    const lines = sourceLines(meta);
    const copy = this.installedCopy(candidate);
    const changelog = copy === null ? void 0 : CHANGELOG_FILES2.find((f) => readTreeEntry(workspace, `${copy}/${f}`, MAX_JSON_BYTES).kind === "file");
    if (copy !== null && changelog) lines.push(`changelog of the installed version: ${copy}/${changelog}`);
    return lines;
  }
};

// src/ecosystems/pnpm/manager.ts
var LOCKFILE = "pnpm-lock.yaml";
var WORKSPACE_FILE = "pnpm-workspace.yaml";
var PnpmPackageManager = class extends NodeLockManager {
  name = "pnpm";
  lockfile = LOCKFILE;
  workspacePatterns(workspace) {
    const text = readAgentText(workspace, WORKSPACE_FILE, MAX_JSON_BYTES);
    if (text === null) return [];
    try {
      const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
      return Array.isArray(doc?.packages) ? doc.packages.filter((p) => typeof p === "string") : [];
    } catch {
      return [];
    }
  }
  lockedReader(workspace) {
    const doc = parsePnpmLock(readAgentText(workspace, LOCKFILE, MAX_JSON_BYTES) ?? "");
    return (dir, name) => pnpmLocked(doc, dir, name);
  }
  installArgs() {
    return ["install", "--lockfile-only", "--ignore-scripts", "--ignore-pnpmfile", "--no-frozen-lockfile", "--reporter=append-only"];
  }
  versionsArgs(name) {
    return ["view", name, "versions", "--json"];
  }
  metadataArgs(name, version) {
    return ["view", `${name}@${version}`, "repository", "homepage", "--json"];
  }
  parseMetadata(stdout) {
    try {
      const data = JSON.parse(stdout.trim() || "{}");
      return typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
    } catch {
      return {};
    }
  }
  unsupported() {
    return null;
  }
  installedCopy(_candidate) {
    return null;
  }
};

// src/ecosystems/pnpm/index.ts
var pnpm = {
  id: "pnpm",
  registries: ["registry.npmjs.org"],
  detection: { manifests: [MANIFEST], lockfiles: [LOCKFILE], packageManager: "pnpm" },
  lockfiles: [LOCKFILE],
  // package.json's keys are npm's (`pnpm.overrides` among them); pnpm-workspace.yaml is the project's own.
  manifests: npm.manifests,
  lockEntries: (_file, text, registryHosts) => pnpmLockEntries(text, registryHosts),
  dependencyFolders: {
    // `.pnpm-store`: the store pnpm keeps at the root of a file system other than HOME's.
    root: ["node_modules", ".pnpm-store"],
    anyDepth: ["node_modules"],
    archives: [],
    caches: { node_modules: [".cache", ".vite", ".vite-temp"] }
  },
  // npm's configuration (pnpm reads `npm_config_*` and .npmrc), pnpm's own, and corepack's cache of pinned versions.
  registryEnv: (name) => /^(?:npm|pnpm)_config_/i.test(name) || name === "NODE_AUTH_TOKEN" || /^COREPACK_(?:HOME|NPM_REGISTRY|NPM_TOKEN)$/.test(name),
  upgrade: new PnpmPackageManager()
};

// src/ecosystems/pyproject/document.ts
import { createHash as createHash4 } from "node:crypto";

// src/ecosystems/pyproject/specifiers.ts
var REQUIREMENT = /^\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:\[[^\]]*\])?\s*([^;]*?)\s*(?:;.*)?$/s;
var CLAUSE = /^\s*(===|~=|==|!=|<=|>=|<|>)\s*([A-Za-z0-9!+._*-]+)\s*$/;
function parseRequirement2(text) {
  const m = REQUIREMENT.exec(text);
  if (!m) return null;
  const name = m[1];
  const rest = m[2].replace(/^\(\s*(.*?)\s*\)$/s, "$1");
  if (rest.startsWith("@")) return { name, key: normalizeName(name), specifier: rest, clauses: null };
  if (rest === "") return { name, key: normalizeName(name), specifier: "", clauses: [] };
  const clauses = [];
  for (const piece of rest.split(",")) {
    const c = CLAUSE.exec(piece);
    if (!c) return { name, key: normalizeName(name), specifier: rest, clauses: null };
    clauses.push({ op: c[1], version: c[2] });
  }
  return { name, key: normalizeName(name), specifier: rest, clauses };
}
var releaseOf = (text) => parsePep440(text.replace(/\.\*$/, ""))?.release ?? null;
function prefixMatches(v, prefix) {
  return prefix.every((n, i) => (v.release[i] ?? 0) === n);
}
function clauseAdmits(c, v, text) {
  if (c.op === "===") return c.version === text;
  if ((c.op === "==" || c.op === "!=") && c.version.endsWith(".*")) {
    const prefix = releaseOf(c.version);
    const match = prefix !== null && prefixMatches(v, prefix);
    return c.op === "==" ? match : !match;
  }
  const bound = parsePep440(c.version);
  if (!bound) return false;
  const d = comparePep440({ ...v, local: null }, bound);
  switch (c.op) {
    case "==":
      return d === 0;
    case "!=":
      return d !== 0;
    case "<=":
      return d <= 0;
    case ">=":
      return d >= 0;
    case "<":
      return d < 0;
    case ">":
      return d > 0;
    default:
      return d >= 0 && bound.release.length >= 2 && prefixMatches(v, bound.release.slice(0, -1));
  }
}
function admits(clauses, version) {
  const v = parsePep440(version);
  return v !== null && clauses.every((c) => clauseAdmits(c, v, version));
}
function wantsPrerelease(clauses) {
  return clauses.some((c) => {
    const v = parsePep440(c.version.replace(/\.\*$/, ""));
    return v !== null && isPrerelease(v);
  });
}
function exactPin(clauses) {
  const pins = clauses.filter((c) => c.op === "==" && !c.version.endsWith(".*"));
  return pins.length === 1 ? pins[0].version : null;
}
var releaseText = (release2, length) => Array.from({ length }, (_, i) => release2[i] ?? 0).join(".");
function nextBound(bound, to) {
  let level = bound.length - 1;
  while (level > 0 && bound[level] === 0) level--;
  const next = Array.from({ length: bound.length }, (_, i) => i < level ? to[i] ?? 0 : i === level ? (to[i] ?? 0) + 1 : 0);
  return next.join(".");
}
function widenedVersion(c, to) {
  const release2 = parsePep440(to)?.release;
  const own = releaseOf(c.version);
  if (!release2 || !own) return null;
  if (c.op === "==" && c.version.endsWith(".*")) return `${releaseText(release2, own.length)}.*`;
  if (c.op === "==") return to;
  if (c.op === "~=") return releaseText(release2, own.length);
  if (c.op === "<=") return to;
  if (c.op === "<") return nextBound(own, release2);
  return null;
}
function widenSpecifier(specifier, to) {
  const pieces = specifier.split(",");
  const out = [];
  for (const piece of pieces) {
    const c = CLAUSE.exec(piece);
    if (!c) return null;
    const clause = { op: c[1], version: c[2] };
    if (admits([clause], to)) {
      out.push(piece);
      continue;
    }
    const version = widenedVersion(clause, to);
    if (version === null) return null;
    const at2 = piece.lastIndexOf(clause.version);
    out.push(piece.slice(0, at2) + version + piece.slice(at2 + clause.version.length));
  }
  const widened = out.join(",");
  const parsed2 = widened.split(",").map((p) => CLAUSE.exec(p));
  return admits(
    parsed2.map((c) => ({ op: c[1], version: c[2] })),
    to
  ) ? widened : null;
}
function newestAdmitted(versions, clauses, pre) {
  const usable = versions.map((text) => ({ text, v: parsePep440(text) })).filter((x) => x.v !== null && (pre || !isPrerelease(x.v))).filter((x) => admits(clauses, x.text)).sort((a, b) => comparePep440(b.v, a.v));
  return usable[0]?.text ?? null;
}

// node_modules/smol-toml/dist/error.js
function getLineColFromPtr(string, ptr) {
  let lines = string.slice(0, ptr).split(/\r?\n/);
  return [lines.length, lines.pop().length + 1];
}
function makeCodeBlock(string, line, column) {
  let lines = string.split(/\r?\n/);
  let codeblock = "";
  let numberLen = (Math.log10(line + 1) | 0) + 1;
  for (let i = line - 1; i <= line + 1; i++) {
    let l = lines[i - 1];
    if (!l)
      continue;
    codeblock += i.toString().padEnd(numberLen, " ");
    codeblock += ":  ";
    codeblock += l;
    codeblock += "\n";
    if (i === line) {
      codeblock += " ".repeat(numberLen + column + 2);
      codeblock += "^\n";
    }
  }
  return codeblock;
}
var TomlError = class _TomlError extends Error {
  line;
  column;
  codeblock;
  constructor(message, options) {
    const [line, column] = getLineColFromPtr(options.toml, options.ptr);
    const codeblock = makeCodeBlock(options.toml, line, column);
    super(`Invalid TOML document: ${message}

${codeblock}`, options);
    this.line = line;
    this.column = column;
    this.codeblock = codeblock;
  }
  /** @internal */
  static x(message, ctx, ptr) {
    throw new _TomlError(message, { toml: ctx.s, ptr: ptr ?? ctx.p });
  }
};

// node_modules/smol-toml/dist/primitive.js
function parseString(ctx) {
  let startPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p++);
  let first = c;
  let isLiteral = c === 39;
  let isMultiline = c === ctx.s.charCodeAt(ctx.p) && c === ctx.s.charCodeAt(ctx.p + 1);
  if (isMultiline) {
    if ((c = ctx.s.charCodeAt(ctx.p += 2)) === 10)
      ctx.p++;
    else if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)
      ctx.p += 2;
  }
  let parsed2 = "";
  let sliceStart = ctx.p;
  let state = 0;
  for (; ctx.p < ctx.s.length; ctx.p++) {
    c = ctx.s.charCodeAt(ctx.p);
    if (isMultiline && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)) {
      state = state && 3;
    } else if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in strings", ctx);
    } else if ((!state || state === 3) && c === first && (!isMultiline || ctx.s.charCodeAt(ctx.p + 1) === first && ctx.s.charCodeAt(ctx.p + 2) === first)) {
      if (isMultiline) {
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
      }
      if (!state) {
        let s = ctx.s.slice(sliceStart, ctx.p);
        parsed2 = parsed2 ? parsed2 + s : s;
      }
      ctx.p += isMultiline ? 3 : 1;
      return parsed2;
    } else if (!state) {
      if (!isLiteral && c === 92) {
        parsed2 += ctx.s.slice(sliceStart, sliceStart = ctx.p);
        state = 1;
      }
    } else if (state === 1) {
      if (c === 120 || c === 117 || c === 85) {
        let errPtr = ctx.p++ - 1;
        let value = 0;
        let len = c === 120 ? 2 : c === 117 ? 4 : 8;
        for (let j = 0; j < len; j++, ctx.p++) {
          let hex = ctx.s.charCodeAt(ctx.p);
          let digit = (
            /* 0-9 */
            hex >= 48 && hex <= 57 ? hex - 48 : (
              /* A-F */
              hex >= 65 && hex <= 70 ? hex - 65 + 10 : (
                /* a-f */
                hex >= 97 && hex <= 102 ? hex - 97 + 10 : -1
              )
            )
          );
          if (digit < 0)
            TomlError.x("invalid non-hex character in unicode escape", ctx);
          value = value << 4 | digit;
        }
        if (value < 0 || value > 1114111 || value >= 55296 && value <= 57343) {
          TomlError.x("invalid unicode escape", ctx, errPtr);
        }
        parsed2 += String.fromCodePoint(value);
        sliceStart = ctx.p--;
        state = 0;
      } else if (isMultiline && (c === 32 || c === 9)) {
        state = 2;
      } else {
        if (c === 98)
          parsed2 += "\b";
        else if (c === 116)
          parsed2 += "	";
        else if (c === 110)
          parsed2 += "\n";
        else if (c === 102)
          parsed2 += "\f";
        else if (c === 114)
          parsed2 += "\r";
        else if (c === 101)
          parsed2 += "\x1B";
        else if (c === 34)
          parsed2 += '"';
        else if (c === 92)
          parsed2 += "\\";
        else
          TomlError.x("unrecognised escape sequence", ctx);
        sliceStart = ctx.p + 1;
        state = 0;
      }
    } else if (c !== 32 && c !== 9) {
      if (state === 2)
        TomlError.x("invalid escape: only line-ending whitespace may be escaped", ctx, sliceStart);
      state = !isLiteral && c === 92 ? 1 : 0;
      sliceStart = ctx.p;
    }
  }
  TomlError.x("unfinished string", ctx, startPtr);
}

// node_modules/smol-toml/dist/date.js
var DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})?[Tt ]?(?:(\d{2}):\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|z|[-+]\d{2}:\d{2})?$/i;
var TomlDate = class _TomlDate extends Date {
  #hasDate = false;
  #hasTime = false;
  #offset = null;
  constructor(date, fasttype, unsafeDelim) {
    let hasDate = true;
    let hasTime = true;
    let offset = "Z";
    let c;
    if (typeof date === "string") {
      if (fasttype)
        prep: {
          if (fasttype < 3) {
            if (+date.slice(11, 13) > 23) {
              date = "";
              break prep;
            }
            if (fasttype === 2) {
              offset = null;
              date += "Z";
            } else if ((c = date.charCodeAt(date.length - 1)) !== 90 && c !== 122) {
              offset = date.slice(date.length - 6);
            }
            if (unsafeDelim)
              date = date.slice(0, 10) + "T" + date.slice(11);
          } else if (fasttype === 4) {
            date = +date.slice(0, 2) > 23 ? "" : `0000-01-01T${date}Z`;
          }
          hasDate = fasttype !== 4;
          hasTime = fasttype !== 3;
        }
      else {
        let match = date.match(DATE_TIME_RE);
        if (match) {
          if (!match[1]) {
            hasDate = false;
            date = `0000-01-01T${date}`;
          }
          hasTime = !!match[2];
          hasTime && date[10] === " " && (date = date.replace(" ", "T"));
          if (match[2] && +match[2] > 23) {
            date = "";
          } else {
            offset = match[3] || null;
            if (!offset && hasTime)
              date += "Z";
          }
        } else {
          date = "";
        }
      }
    }
    super(date);
    if (!isNaN(this.getTime())) {
      this.#hasDate = hasDate;
      this.#hasTime = hasTime;
      this.#offset = offset;
    }
  }
  isDateTime() {
    return this.#hasDate && this.#hasTime;
  }
  isLocal() {
    return !this.#hasDate || !this.#hasTime || !this.#offset;
  }
  isDate() {
    return this.#hasDate && !this.#hasTime;
  }
  isTime() {
    return this.#hasTime && !this.#hasDate;
  }
  isValid() {
    return this.#hasDate || this.#hasTime;
  }
  toISOString() {
    let iso = super.toISOString();
    if (this.isDate())
      return iso.slice(0, 10);
    if (this.isTime())
      return iso.slice(11, 23);
    if (this.#offset === null)
      return iso.slice(0, -1);
    if (this.#offset === "Z" || this.#offset === "z")
      return iso;
    let offset = +this.#offset.slice(1, 3) * 60 + +this.#offset.slice(4, 6);
    offset = this.#offset[0] === "-" ? offset : -offset;
    let offsetDate = new Date(this.getTime() - offset * 6e4);
    return offsetDate.toISOString().slice(0, -1) + this.#offset;
  }
  static wrapAsOffsetDateTime(jsDate, offset = "Z") {
    let date = new _TomlDate(jsDate);
    date.#offset = offset;
    return date;
  }
  static wrapAsLocalDateTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#offset = null;
    return date;
  }
  static wrapAsLocalDate(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasTime = false;
    date.#offset = null;
    return date;
  }
  static wrapAsLocalTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasDate = false;
    date.#offset = null;
    return date;
  }
};

// node_modules/smol-toml/dist/extract.js
function isDigit(char, base = 10) {
  return base === 16 ? char > 47 && char < 58 || char > 64 && char < 71 || char > 96 && char < 103 : char > 47 && char < 48 + base;
}
function isEndOfValue(char, delim) {
  return char === 32 || char === 9 || char === 10 || char === 13 || // Structure end or next value delimiter
  delim && (char === delim || char === 44) || // Comment
  char === 35;
}
function extractValue(ctx, end) {
  let errPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p);
  if (c === 91 || c === 123) {
    ctx.d-- || TomlError.x("document contains excessively nested structures. aborting.", ctx);
    let value = c === 91 ? parseArray(ctx) : parseInlineTable(ctx);
    ctx.d++;
    return value;
  }
  if (c === 34 || c === 39) {
    return parseString(ctx);
  }
  if (c === 116) {
    if (ctx.s.charCodeAt(++ctx.p) !== 114 || ctx.s.charCodeAt(++ctx.p) !== 117 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, true;
  }
  if (c === 102) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 108 || ctx.s.charCodeAt(++ctx.p) !== 115 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, false;
  }
  if (c === 43 || c === 45) {
    return parseNumber(ctx, ctx.p, ctx.s.charCodeAt(++ctx.p), 44 - c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 4) === 45 && ctx.s.charCodeAt(ctx.p + 7) === 45) {
    return parseDate(ctx, c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 2) === 58) {
    return parseTime(ctx, c, end);
  }
  return parseNumber(ctx, ctx.p, c, 0, end);
}
function parseNumber(ctx, startPtr, startChr, sign, endChr) {
  let c = startChr;
  let state = 0;
  let hasUnderscores = false;
  if (c === 105) {
    if (ctx.s.charCodeAt(++ctx.p) !== 110 || ctx.s.charCodeAt(++ctx.p) !== 102)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, (sign || 1) / 0;
  }
  if (c === 110) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 110)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, NaN;
  }
  if (c === 48) {
    if (++ctx.p >= ctx.s.length || isEndOfValue(c = ctx.s.charCodeAt(ctx.p), endChr))
      return ctx.bi === true ? 0n : 0;
    if (!sign) {
      if (c === 120)
        return parseIntegerBaseN(ctx, startPtr, 16, endChr);
      else if (c === 98)
        return parseIntegerBaseN(ctx, startPtr, 2, endChr);
      else if (c === 111)
        return parseIntegerBaseN(ctx, startPtr, 8, endChr);
    }
    if (c === 46)
      state = 2;
    else if (c === 101 || c === 69)
      state = 4;
    else
      TomlError.x("illegal leading zero", ctx, startPtr);
  } else if (!isDigit(c))
    TomlError.x("invalid value", ctx, startPtr);
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (!state)
      state = 1;
    if (c === 95) {
      if (!(state & 1))
        TomlError.x("illegal underscore", ctx);
      state += 11;
      hasUnderscores = true;
    } else if (state === 1 && c === 46)
      state = 2;
    else if ((state === 1 || state === 3) && (c === 101 || c === 69))
      state = 4;
    else if (state === 4 && (c === 43 || c === 45)) {
      state = 6;
    } else if (!isDigit(c))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (state > 9)
      state -= 11;
    else if (!(state & 1))
      state++;
  }
  if (!state) {
    let val = (startChr - 48) * (sign || 1);
    return ctx.bi === true ? BigInt(val) : val;
  }
  if (!(state & 1))
    TomlError.x("unfinished numeric value", ctx, startPtr);
  let str2 = ctx.s.slice(startPtr, ctx.p);
  if (hasUnderscores)
    str2 = str2.replaceAll("_", "");
  return state > 1 ? parseFloat(str2) : parseInteger(ctx, str2, 10, startPtr);
}
function parseIntegerBaseN(ctx, startPtr, base, endChr) {
  let c, underscore = 1;
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (c === 95) {
      if (underscore & 1)
        TomlError.x("illegal underscore", ctx);
      underscore = 3;
    } else if (!isDigit(c, base))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (underscore & 1)
      underscore--;
  }
  if (underscore & 1)
    TomlError.x("unfinished numeric value", ctx);
  let str2 = ctx.s.slice(startPtr + 2, ctx.p);
  if (underscore)
    str2 = str2.replaceAll("_", "");
  return parseInteger(ctx, str2, base, startPtr);
}
function parseInteger(ctx, str2, base, startPtr) {
  if (ctx.bi !== true)
    int: {
      let val = parseInt(str2, base);
      if (!Number.isSafeInteger(val)) {
        if (ctx.bi)
          break int;
        TomlError.x("integer value cannot be represented losslessly", ctx, startPtr);
      }
      return val;
    }
  return base === 10 ? BigInt(str2) : BigInt((base === 2 ? "0b" : base === 8 ? "0o" : "0x") + str2);
}
function parseDate(ctx, c, endChr) {
  let startPtr = ctx.p++, unsafeSeparator;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++))) {
    return parseNumber(ctx, ctx.p = startPtr, c, 0, endChr);
  }
  ctx.p += 5;
  if (!isDigit(ctx.s.charCodeAt(ctx.p++)))
    TomlError.x("invalid date-time: date part is malformed", ctx, startPtr);
  if (ctx.p >= ctx.s.length || ((c = ctx.s.charCodeAt(ctx.p)) !== 32 || (unsafeSeparator = true, !isDigit(ctx.s.charCodeAt(ctx.p + 1)))) && c !== 84 && c !== 116) {
    let t2 = ctx.s.slice(startPtr, ctx.p);
    return readDate(ctx, t2, 3, false, startPtr);
  }
  if (ctx.s.charCodeAt(ctx.p += 3) !== 58)
    TomlError.x("invalid date-time: time part is malformed", ctx, startPtr);
  if (ctx.s.charCodeAt(ctx.p += 3) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  if (c = ctx.s.charCodeAt(ctx.p)) {
    if (c === 90 || c === 122) {
      let t2 = ctx.s.slice(startPtr, ++ctx.p);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, "[+00:00]");
    }
    if (c === 43 || c === 45) {
      let t2 = ctx.s.slice(startPtr, ctx.p += 6);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, !ctx.ld && "[" + ctx.s.slice(ctx.p - 6, ctx.p) + "]");
    }
  }
  let t = ctx.s.slice(startPtr, ctx.p);
  return readDate(ctx, t, 2, unsafeSeparator, startPtr);
}
function parseTime(ctx, c, endChr) {
  let start = ctx.p;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(++ctx.p))) {
    return parseNumber(ctx, --ctx.p, c, 0, endChr);
  }
  if (ctx.s.charCodeAt(ctx.p += 4) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  let t = ctx.s.slice(start, ctx.p);
  return readDate(ctx, t, 4, false, start);
}
function readDate(ctx, str2, type2, unsafeDelim, errPtr, temporalSuffix) {
  if (ctx.ld) {
    let date = new TomlDate(str2, type2, unsafeDelim);
    if (!date.isValid())
      TomlError.x("invalid date", ctx, errPtr);
    return date;
  }
  try {
    if (temporalSuffix)
      str2 += temporalSuffix;
    switch (type2) {
      case 1:
        return Temporal.ZonedDateTime.from(str2);
      case 2:
        return Temporal.PlainDateTime.from(str2);
      case 3:
        return Temporal.PlainDate.from(str2);
      case 4:
        return Temporal.PlainTime.from(str2);
    }
  } catch (e) {
    TomlError.x(e instanceof Error ? e.message : "" + e, ctx, errPtr);
  }
}

// node_modules/smol-toml/dist/util.js
function skipComment(ctx) {
  for (; ctx.p < ctx.s.length; ctx.p++) {
    let c = ctx.s.charCodeAt(ctx.p);
    if (c === 10)
      break;
    if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10) {
      ctx.p++;
      break;
    }
    if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in comments", ctx);
    }
  }
}
function skipVoid(ctx, banNewLines, banComments) {
  let c;
  while (ctx.p < ctx.s.length) {
    while (ctx.p < ctx.s.length && ((c = ctx.s.charCodeAt(ctx.p)) === 32 || c === 9 || !banNewLines && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)))
      ctx.p++;
    if (banComments || c !== 35)
      break;
    skipComment(ctx);
  }
}

// node_modules/smol-toml/dist/struct.js
function parseKey(ctx, end = 61) {
  let startPtr;
  let state = 0;
  let parsed2 = [];
  let sliceStart;
  let c = ctx.s.charCodeAt(startPtr = ctx.p);
  do {
    if (c === end) {
      if (!state)
        TomlError.x("unexpected end of key", ctx);
      if (state === 1)
        parsed2.push(ctx.s.slice(sliceStart, ctx.p));
      return ctx.p++, parsed2;
    } else if (c === 46) {
      if (!state)
        TomlError.x("illegal empty bare key", ctx);
      if (state === 1)
        parsed2.push(ctx.s.slice(sliceStart, ctx.p));
      state = 0;
    } else if (!state && (c === 34 || c === 39)) {
      if (c === ctx.s.charCodeAt(ctx.p + 1) && c === ctx.s.charCodeAt(ctx.p + 2))
        TomlError.x("illegal quoted key: multiline strings are not allowed", ctx);
      parsed2.push(parseString(ctx));
      state = 2;
      ctx.p--;
    } else if (c === 32 || c === 9) {
      if (state === 1) {
        parsed2.push(ctx.s.slice(sliceStart, ctx.p));
        state = 2;
      }
    } else if (state === 2 || c < 48 && c !== 45 || c > 57 && c < 65 || c > 90 && c < 97 && c !== 95 || c > 122) {
      TomlError.x("illegal character in key", ctx);
    } else if (!state) {
      state = 1;
      sliceStart = ctx.p;
    }
  } while (c = ctx.s.charCodeAt(++ctx.p));
  TomlError.x("incomplete key-value: cannot find end of key", ctx, startPtr);
}
function parseInlineTable(ctx) {
  let startPtr = ctx.p++;
  let res = /* @__PURE__ */ Object.create(null);
  let seen = /* @__PURE__ */ new Set();
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 125) {
      ctx.p++;
      return res;
    }
    let k;
    let t = res;
    let hasOwn = false;
    let errPtr = ctx.p;
    let key = parseKey(ctx);
    for (let i = 0; i < key.length; i++) {
      if (i)
        t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      k = key[i];
      if ((hasOwn = Object.hasOwn(t, k)) && (typeof t[k] !== "object" || seen.has(t[k]))) {
        TomlError.x("trying to redefine an already defined value", ctx, errPtr);
      }
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor")) {
        t = ctx.uk !== 1 && TomlError.x("document contains an unsafe property", ctx, errPtr);
        break;
      }
      if (!hasOwn && unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
      }
    }
    if (hasOwn) {
      TomlError.x("trying to redefine an already defined value", ctx, errPtr);
    }
    skipVoid(ctx, true, true);
    let value = extractValue(
      ctx,
      125
      /* } */
    );
    if (t && typeof (t[k] = value) === "object")
      seen.add(value);
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 125) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished table", ctx, startPtr);
}
function parseArray(ctx) {
  let startPtr = ctx.p++;
  let res = [];
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 93) {
      ctx.p++;
      return res;
    }
    res.push(extractValue(
      ctx,
      93
      /* ] */
    ));
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 93) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished array", ctx, startPtr);
}

// node_modules/smol-toml/dist/parse.js
function peekTable(ctx, key, table, meta, type2) {
  let t = table;
  let m = meta;
  let k;
  let hasOwn = false;
  let state;
  for (let i = 0; i < key.length; i++) {
    if (i) {
      t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      m = (state = m[k]).c;
      if (type2 === 0 && (state.t === 1 || state.t === 2)) {
        return null;
      }
      if (state.t === 2) {
        let l = t.length - 1;
        t = t[l];
        m = m[l].c;
      }
    }
    k = key[i];
    if ((hasOwn = Object.hasOwn(t, k)) && m[k]?.t === 0 && m[k]?.d) {
      return null;
    }
    if (!hasOwn) {
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor"))
        return false;
      if (unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
        Object.defineProperty(m, k, { enumerable: true, configurable: true, writable: true });
      }
      m[k] = {
        t: i < key.length - 1 && type2 === 2 ? 3 : type2,
        d: false,
        i: 0,
        c: /* @__PURE__ */ Object.create(null)
      };
    }
  }
  state = m[k];
  if (state.t !== type2 && !(type2 === 1 && state.t === 3)) {
    return null;
  }
  if (type2 === 2) {
    if (!state.d) {
      state.d = true;
      t[k] = [];
    }
    t[k].push(t = /* @__PURE__ */ Object.create(null));
    state.c[state.i++] = state = { t: 1, d: false, i: 0, c: /* @__PURE__ */ Object.create(null) };
  }
  if (state.d) {
    return null;
  }
  state.d = true;
  if (type2 === 1) {
    t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
  } else if (type2 === 0 && hasOwn) {
    return null;
  }
  return [k, t, state.c];
}
function validateTablePeek(ctx, peek, ptr) {
  if (peek === null || ctx.uk === 2)
    TomlError.x(peek === null ? "trying to redefine an already defined table or value" : "document contains an unsafe property", ctx, ptr);
}
function parse(toml, options = {}) {
  let ctx = {
    s: toml,
    p: 0,
    d: options.maxDepth ?? 1e3,
    bi: options.integersAsBigInt ?? false,
    ld: options.useLegacyDate ?? true,
    uk: options.unsafeKeyBehaviour === "throw" ? 2 : options.unsafeKeyBehaviour === "drop" ? 1 : 0
  };
  let res = /* @__PURE__ */ Object.create(null);
  let meta = /* @__PURE__ */ Object.create(null);
  let tmp;
  let skipping = false;
  let tbl = res;
  let m = meta;
  if (toml.charCodeAt(0) === 65279)
    ctx.p++;
  skipVoid(ctx);
  while (ctx.p < toml.length) {
    if (toml.charCodeAt(ctx.p) === 91) {
      let isTableArray = toml.charCodeAt(++ctx.p) === 91;
      tmp = ctx.p += +isTableArray;
      skipping = false;
      let k = parseKey(
        ctx,
        93
        /* ] */
      );
      if (isTableArray) {
        if (toml.charCodeAt(ctx.p) !== 93) {
          TomlError.x("expected end of table array declaration", ctx);
        }
        ctx.p++;
      }
      let p = peekTable(
        ctx,
        k,
        res,
        meta,
        isTableArray ? 2 : 1
        /* Type.EXPLICIT */
      );
      if (!p) {
        validateTablePeek(ctx, p, tmp);
        skipping = true;
      } else {
        m = p[2];
        tbl = p[1];
      }
    } else {
      tmp = ctx.p;
      let k = parseKey(ctx);
      let p = peekTable(
        ctx,
        k,
        tbl,
        m,
        0
        /* Type.DOTTED */
      );
      if (!p && !skipping)
        validateTablePeek(ctx, p, tmp);
      skipVoid(ctx, true, true);
      let v = extractValue(ctx, void 0);
      if (p && !skipping)
        p[1][p[0]] = v;
    }
    skipVoid(ctx, true);
    if (ctx.p < toml.length && (tmp = toml.charCodeAt(ctx.p)) !== 10 && (tmp !== 13 || toml.charCodeAt(ctx.p + 1) !== 10)) {
      TomlError.x("each key-value declaration must be followed by an end-of-line", ctx);
    }
    skipVoid(ctx);
  }
  return res;
}

// node_modules/smol-toml/dist/stringify.js
var BARE_KEY = /^[a-z0-9-_]+$/i;
var HAS_WELLFORMED = !!"".isWellFormed;
function extendedTypeOf(obj) {
  let type2 = typeof obj;
  if (type2 === "object") {
    if (Array.isArray(obj))
      return "array";
    if (typeof obj.getUTCDate === "function" && obj instanceof Date)
      return "date";
    if (globalThis.Temporal) {
      if (obj.until) {
        if (obj instanceof Temporal.ZonedDateTime)
          return "temporal/tz+uc";
        if (obj instanceof Temporal.PlainDateTime || obj instanceof Temporal.PlainDate)
          return "temporal/uc";
        if (obj instanceof Temporal.PlainTime || obj instanceof Temporal.Instant)
          return "temporal";
        if (obj instanceof Temporal.PlainYearMonth)
          return "temporal/x";
      } else if (obj.toPlainDate && obj instanceof Temporal.PlainMonthDay || obj.negated && obj instanceof Temporal.Duration) {
        return "temporal/x";
      }
    }
  }
  return type2;
}
function isArrayOfTables(obj) {
  for (let i = 0; i < obj.length; i++) {
    if (extendedTypeOf(obj[i]) !== "object")
      return false;
  }
  return obj.length != 0;
}
function formatWellFormedStringUnchecked(s) {
  return JSON.stringify(s).replaceAll("\x7F", "\\u007f");
}
function formatString(s) {
  return formatWellFormedStringUnchecked(HAS_WELLFORMED ? s.toWellFormed() : s);
}
function formatKey(s) {
  if (BARE_KEY.test(s))
    return s;
  if (HAS_WELLFORMED && !s.isWellFormed())
    throw new RangeError("key contains illegal lone surrogates");
  return formatWellFormedStringUnchecked(s);
}
function stringifyValue(val, type2, depth, numberAsFloat, strictTemporal) {
  if (depth === 0) {
    throw new Error("Could not stringify the object: maximum object depth exceeded");
  }
  switch (type2) {
    // @ts-expect-error -- intentional fallthrough case
    case "number":
      if (isNaN(val))
        return "nan";
      if (val === Infinity)
        return "inf";
      if (val === -Infinity)
        return "-inf";
      if (Number.isInteger(val) && (numberAsFloat || !Number.isSafeInteger(val)))
        return val.toFixed(1);
    case "bigint":
    case "boolean":
    case "temporal":
      return val.toString();
    case "string":
      return formatString(val);
    case "date":
      if (isNaN(val.getTime()))
        throw new TypeError("cannot serialize invalid date");
      return val.toISOString();
    case "object":
      return stringifyInlineTable(val, depth, numberAsFloat, strictTemporal);
    case "array":
      return stringifyArray(val, depth, numberAsFloat, strictTemporal);
    // @ts-expect-error -- intentional fallthrough case
    case "temporal/tz+uc":
      if (strictTemporal) {
        let tz = val.timeZoneId;
        let tzc = tz.charCodeAt(0);
        if (
          // Classic offset
          tzc !== 43 && tzc !== 45 && // Fast pre-check pass; see below for the actually accepted values
          (tzc !== 85 && tzc !== 71 && tzc !== 90 && tzc !== 69 || // UTC and its aliases; Temporal implementations don't all canonicalise unfortunately
          tz !== "UTC" && tz !== "UCT" && tz !== "Universal" && tz !== "Zulu" && // GMT is a TZ but it's for all intents and purposes equivalent to UTC. Safe to downgrade.
          !tz.startsWith("GMT") && tz !== "Greenwich" && // Etc/* are all safe to downgrade to offset (either UTC, GMT, or offset)
          !tz.startsWith("Etc/"))
        ) {
          throw new TypeError("Temporal objects with an IANA timezone are not allowed in Temporal strict mode");
        }
      }
    case "temporal/uc":
      if (strictTemporal && val.calendarId !== "iso8601")
        throw new TypeError("Temporal objects with a non-default calendar are not allowed in Temporal strict mode");
      return val.toString({
        calendarName: "never",
        timeZoneName: "never"
      });
    case "temporal/x":
      throw new TypeError("Unsupported " + val[Symbol.toStringTag]);
  }
}
function stringifyInlineTable(obj, depth, numberAsFloat, strictTemporal) {
  let keys = Object.keys(obj);
  if (keys.length === 0)
    return "{}";
  let res = "{ ";
  for (let i = 0; i < keys.length; i++) {
    let k = keys[i];
    if (i)
      res += ", ";
    res += formatKey(k) + " = " + stringifyValue(obj[k], extendedTypeOf(obj[k]), depth - 1, numberAsFloat, strictTemporal);
  }
  return res + " }";
}
function stringifyArray(array, depth, numberAsFloat, strictTemporal) {
  if (array.length === 0)
    return "[]";
  let res = "[ ";
  for (let i = 0; i < array.length; i++) {
    if (i)
      res += ", ";
    if (array[i] === null || array[i] === void 0) {
      throw new TypeError("arrays cannot contain null or undefined values");
    }
    res += stringifyValue(array[i], extendedTypeOf(array[i]), depth - 1, numberAsFloat, strictTemporal);
  }
  return res + " ]";
}
function stringifyArrayTable(array, key, depth, numberAsFloat, strictTemporal) {
  if (depth === 0) {
    throw new Error("Could not stringify the object: maximum object depth exceeded");
  }
  let res = "";
  for (let i = 0; i < array.length; i++) {
    res += `${res && "\n"}[[${key}]]
`;
    res += stringifyTable(0, array[i], key, depth, numberAsFloat, strictTemporal);
  }
  return res;
}
function stringifyTable(tableKey, obj, prefix, depth, numberAsFloat, strictTemporal) {
  if (depth === 0) {
    throw new Error("Could not stringify the object: maximum object depth exceeded");
  }
  let preamble = "";
  let tables = "";
  let keys = Object.keys(obj);
  for (let i = 0; i < keys.length; i++) {
    let k = keys[i];
    if (obj[k] !== null && obj[k] !== void 0) {
      let type2 = extendedTypeOf(obj[k]);
      if (type2 === "symbol" || type2 === "function") {
        throw new TypeError(`cannot serialize values of type '${type2}'`);
      }
      let key = formatKey(k);
      if (type2 === "array" && isArrayOfTables(obj[k])) {
        tables += (tables && "\n") + stringifyArrayTable(obj[k], prefix ? `${prefix}.${key}` : key, depth - 1, numberAsFloat, strictTemporal);
      } else if (type2 === "object") {
        let tblKey = prefix ? `${prefix}.${key}` : key;
        tables += (tables && "\n") + stringifyTable(tblKey, obj[k], tblKey, depth - 1, numberAsFloat, strictTemporal);
      } else {
        preamble += key;
        preamble += " = ";
        preamble += stringifyValue(obj[k], type2, depth, numberAsFloat, strictTemporal);
        preamble += "\n";
      }
    }
  }
  if (tableKey && (preamble || !tables))
    preamble = preamble ? `[${tableKey}]
${preamble}` : `[${tableKey}]`;
  return preamble && tables ? `${preamble}
${tables}` : preamble || tables;
}
function stringify(obj, { maxDepth = 1e3, numbersAsFloat = false, strictTemporal = false } = {}) {
  if (extendedTypeOf(obj) !== "object") {
    throw new TypeError("stringify can only be called with an object");
  }
  let str2 = stringifyTable(0, obj, "", maxDepth, numbersAsFloat, strictTemporal);
  if (str2[str2.length - 1] !== "\n")
    return str2 + "\n";
  return str2;
}

// src/ecosystems/pyproject/toml-strings.ts
var ESCAPES = { b: "\b", t: "	", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\", e: "\x1B" };
function decodeBasic(raw) {
  return raw.replace(
    /\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)/gs,
    (_, e) => /^[uUx]/.test(e) && e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : ESCAPES[e] ?? e
  );
}
function closing(text, i, quote) {
  const basic = quote.startsWith('"');
  for (let j = i; j < text.length; j++) {
    if (basic && text[j] === "\\") {
      j++;
      continue;
    }
    if (quote.length === 1 && text[j] === "\n") return -1;
    if (text.startsWith(quote, j)) {
      let k = j;
      while (quote.length === 3 && text[k + 3] === quote[0] && k - j < 2) k++;
      return k;
    }
  }
  return -1;
}
function tomlStrings(text) {
  const out = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "#") {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl;
      continue;
    }
    if (ch !== '"' && ch !== "'") continue;
    const quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
    const start = i + quote.length;
    const end = closing(text, start, quote);
    if (end < 0) return out;
    const raw = text.slice(start, end);
    out.push({ start, end, value: quote.startsWith('"') ? decodeBasic(raw) : raw });
    i = end + quote.length - 1;
  }
  return out;
}
function editStrings(text, edits) {
  let out = "";
  let last = 0;
  for (const token of tomlStrings(text)) {
    const edit = edits.find((e) => e.from === token.value);
    if (!edit) continue;
    const raw = text.slice(token.start, token.end);
    const at2 = raw.indexOf(edit.old);
    if (at2 < 0 || raw.indexOf(edit.old, at2 + 1) >= 0) return null;
    out += text.slice(last, token.start + at2) + edit.replacement;
    last = token.start + at2 + edit.old.length;
  }
  return out + text.slice(last);
}
function parseToml(text) {
  try {
    return parse(text);
  } catch {
    return null;
  }
}
function editOneString(text, edit, expected) {
  const want = JSON.stringify(expected);
  for (const token of tomlStrings(text)) {
    if (token.value !== edit.from) continue;
    const raw = text.slice(token.start, token.end);
    const at2 = raw.indexOf(edit.old);
    if (at2 < 0 || raw.indexOf(edit.old, at2 + 1) >= 0) continue;
    const out = text.slice(0, token.start + at2) + edit.replacement + text.slice(token.start + at2 + edit.old.length);
    const reparsed = parseToml(out);
    if (reparsed !== null && JSON.stringify(reparsed) === want) return out;
  }
  return null;
}

// src/ecosystems/pyproject/document.ts
var PYPROJECT = "pyproject.toml";
var MAX_PYPROJECT_BYTES = 4 * 1024 * 1024;
var isTable5 = (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
function requirementLists(doc) {
  const out = [];
  const project = isTable5(doc.project) ? doc.project : {};
  if (Array.isArray(project.dependencies)) out.push({ table: "project.dependencies", list: project.dependencies, type: "dependencies" });
  const groupsOf = (prefix, value, type2) => {
    if (!isTable5(value)) return;
    for (const [name, list] of Object.entries(value)) if (Array.isArray(list)) out.push({ table: `${prefix}.${name}`, list, type: type2 });
  };
  groupsOf("project.optional-dependencies", project["optional-dependencies"], "optionalDependencies");
  groupsOf("dependency-groups", doc["dependency-groups"], "devDependencies");
  return out;
}
function declarations2(doc) {
  return requirementLists(doc).flatMap(
    ({ table, list, type: type2 }) => list.flatMap((text) => {
      const requirement = typeof text === "string" ? parseRequirement2(text) : null;
      return requirement ? [{ table, text, requirement, type: type2 }] : [];
    })
  );
}
function readPyproject(workspace) {
  const entry = readTreeEntry(workspace, PYPROJECT, MAX_PYPROJECT_BYTES);
  if (entry.kind !== "file") return null;
  const text = entry.data.toString("utf8");
  const doc = parseToml(text);
  return doc ? { text, doc, executable: entry.executable } : null;
}
function fileHash(workspace, file) {
  const entry = readTreeEntry(workspace, file, MAX_PYPROJECT_BYTES);
  return entry.kind === "file" ? `${file}:${createHash4("sha256").update(entry.data).digest("hex").slice(0, 32)}` : "none";
}
function wideningEdits(decls, key, to) {
  const edits = [];
  for (const d of decls.filter((x) => x.requirement.key === key)) {
    const { clauses, specifier } = d.requirement;
    if (clauses === null || admits(clauses, to)) continue;
    const widened = widenSpecifier(specifier, to);
    if (widened === null) return `${d.table}: ${JSON.stringify(d.text)} cannot be widened to admit ${to}`;
    edits.push({ from: d.text, old: specifier, replacement: widened });
  }
  return edits;
}
function expectedDocument(doc, edits) {
  const copy = structuredClone(doc);
  for (const { list } of requirementLists(copy)) {
    list.forEach((item, i) => {
      const edit = edits.find((e) => e.from === item);
      if (edit) list[i] = edit.from.replace(edit.old, edit.replacement);
    });
  }
  return copy;
}
function applyEdits(text, doc, edits) {
  const out = editStrings(text, edits);
  const reparsed = out === null ? null : parseToml(out);
  if (reparsed === null || JSON.stringify(reparsed) !== JSON.stringify(expectedDocument(doc, edits))) return null;
  return out;
}

// src/ecosystems/pyproject/lock-packages.ts
var isTable6 = (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
function keyedPackages(value) {
  if (!value.every((p) => isTable6(p) && typeof p.name === "string")) return null;
  const packages = value;
  const count = /* @__PURE__ */ new Map();
  for (const p of packages) count.set(normalizeName(p.name), (count.get(normalizeName(p.name)) ?? 0) + 1);
  return packages.map((table) => {
    const name = normalizeName(table.name);
    return { key: count.get(name) === 1 ? `package/${name}` : `package/${name}@${String(table.version)}`, name: table.name, table };
  });
}
function tomlLockEntries(text, rules) {
  const doc = parseToml(text);
  if (!doc) return null;
  const out = [];
  for (const [top, value] of Object.entries(doc)) {
    if (top !== "package" || !Array.isArray(value)) {
      out.push({ key: top, name: `(${top})`, text: JSON.stringify(value), registry: true, ...rules.mirrors?.includes(top) ? { mirror: true } : {} });
      continue;
    }
    const packages = keyedPackages(value);
    if (!packages) return null;
    for (const { key, name, table } of packages) {
      if (rules.isRoot?.(table)) {
        out.push({ key: "", name, text: JSON.stringify(table), registry: true, mirror: true });
        continue;
      }
      const why = rules.notFromIndex(table);
      const version = typeof table.version === "string" ? { version: table.version } : {};
      out.push({ key, name, text: JSON.stringify(table), registry: why === void 0, why, ...version });
    }
  }
  return out;
}

// src/ecosystems/poetry/lockfile.ts
var isTable7 = (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
var HASH = /^(?:sha256|sha384|sha512):[0-9a-f]+$/;
function notFromIndex(p) {
  const source = isTable7(p.source) ? p.source : null;
  if (source && source.type !== "legacy") return `a ${String(source.type).slice(0, 20)} source`;
  if (source && (typeof source.url !== "string" || !/^https?:\/\//.test(source.url))) return "an index that is not an http(s) URL";
  const files = Array.isArray(p.files) ? p.files : [];
  if (files.length === 0 || !files.every((f) => isTable7(f) && typeof f.hash === "string" && HASH.test(f.hash))) return "no file hashes";
  return void 0;
}
function poetryLockEntries(text) {
  return tomlLockEntries(text, { notFromIndex, mirrors: ["metadata"] });
}

// src/ecosystems/pyproject/python-tool.ts
var VERSION_TIMEOUT_MS2 = 6e4;
var TOOL_TIMEOUT_MS2 = 10 * 6e4;
var MAX_OUTPUT2 = 16 * 1024 * 1024;
async function resolvePythonTool({ name, because, env, signal }) {
  const r = await runProcess({ command: name, args: ["--version"], cwd: "/", env, timeoutMs: VERSION_TIMEOUT_MS2, signal, maxOutputChars: 4096 });
  const version = /(\d+\.\d+(?:\.\d+)?\S*)\)?\s*$/.exec(r.stdout.trim())?.[1];
  if (r.exitCode === 0 && version) return version;
  const found = r.notStarted ? `no ${name} on PATH` : `\`${name} --version\` failed (${r.exitCode ?? r.signal})`;
  throw new ConfigError(
    "task",
    "dependency-upgrade",
    `a project whose package manager can be had: ${because}, but ${found} (loopgate never falls back to pip; install ${name} on the runner)`
  );
}
function runPythonTool({ name, args, cwd, env, signal }) {
  return runProcess({ command: name, args, cwd, env, timeoutMs: TOOL_TIMEOUT_MS2, signal, maxOutputChars: MAX_OUTPUT2 });
}
function toolTail(r) {
  const how = r.timedOut ? "timed out" : r.notStarted ? `not started: ${r.notStarted}` : r.exitCode ?? r.signal;
  return `(${how}): ${`${r.stderr}
${r.stdout}`.trim().split("\n").slice(-8).join(" | ").slice(0, 1500)}`;
}

// src/ecosystems/pyproject/locked-outdated.ts
var LOOKUP_CONCURRENCY3 = 4;
async function lockedOutdated(packages, env, signal) {
  const pre = (d) => {
    const v = parsePep440(d.locked ?? "");
    return v !== null && isPrerelease(v);
  };
  const lookups = await mapLimited(packages, LOOKUP_CONCURRENCY3, (d) => indexVersions({ name: d.name, pre: pre(d), env, signal }));
  const failed = lookups.flatMap((l) => l.kind === "failed" ? [l.message] : []);
  if (failed.length > 0 && failed.length === lookups.length) throw new Error(failed[0]);
  const dependencies = [];
  const notes = [];
  packages.forEach((d, i) => {
    const lookup = lookups[i];
    if (lookup.kind === "unknown") return void notes.push(`not upgraded: ${d.name}: the package index does not know it`);
    if (lookup.kind === "failed") return void notes.push(`not upgraded: ${lookup.message}`);
    const current = d.locked ?? newestAdmitted(lookup.versions, d.clauses ?? [], pre(d));
    const latest = newestAdmitted(lookup.versions, [], pre(d));
    if (current === null) return void notes.push(`not upgraded: ${d.name}: no version on the index matches ${JSON.stringify(d.written)}`);
    if (latest !== null && PEP440.compare(latest, current) > 0) dependencies.push({ name: d.name, current, wanted: current, latest, type: d.type });
  });
  return { dependencies, notes };
}

// src/ecosystems/poetry/constraints.ts
var release = (v) => parsePep440(v)?.release ?? null;
function caretUpper(r) {
  const level = r.findIndex((n) => n !== 0);
  const at2 = level < 0 ? r.length - 1 : level;
  return Array.from({ length: at2 + 1 }, (_, i) => i < at2 ? r[i] : r[i] + 1).join(".");
}
function tildeUpper(r) {
  const at2 = r.length === 1 ? 0 : 1;
  return Array.from({ length: at2 + 1 }, (_, i) => i < at2 ? r[i] : r[i] + 1).join(".");
}
function poetryClauses(constraint) {
  const text = constraint.trim();
  if (text === "" || text === "*") return [];
  if (text.includes("||")) return null;
  const out = [];
  for (const piece of text.split(/\s*,\s*|\s+(?=[<>=!~^])/)) {
    const m = /^(\^|~(?!=)|===|~=|==|!=|<=|>=|<|>)?\s*(\S+)$/.exec(piece);
    if (!m) return null;
    const [op, version] = [m[1] ?? "", m[2]];
    const r = release(version.replace(/\.\*$/, ""));
    if (!r) return null;
    if (op === "^") out.push({ op: ">=", version }, { op: "<", version: caretUpper(r) });
    else if (op === "~") out.push({ op: ">=", version }, { op: "<", version: tildeUpper(r) });
    else out.push({ op: op || "==", version });
  }
  return out;
}
function poetryAdmits(constraint, version) {
  const clauses = poetryClauses(constraint);
  return clauses !== null && admits(clauses, version);
}
function widenPoetry(constraint, to) {
  const text = constraint.trim();
  if (poetryAdmits(text, to)) return text;
  const target = release(to);
  const m = /^(\^|~(?!=))\s*(\S+)$/.exec(text);
  if (m && target) {
    const own = release(m[2]);
    if (!own) return null;
    const widened = `${m[1]}${Array.from({ length: own.length }, (_, i) => target[i] ?? 0).join(".")}`;
    return poetryAdmits(widened, to) ? widened : null;
  }
  if (/^\d[\w.!+-]*$/.test(text)) return to;
  const pep440 = text.includes(",") || /^[<>=!~]/.test(text) ? widenSpecifier(text, to) : null;
  return pep440 !== null && poetryAdmits(pep440, to) ? pep440 : null;
}

// src/ecosystems/poetry/project.ts
var isTable8 = (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
var INDEX_KEYS = /* @__PURE__ */ new Set(["version", "optional", "markers", "python", "extras", "allow-prereleases", "source", "platform"]);
function tableDeclarations(table, deps, type2) {
  if (!isTable8(deps)) return [];
  return Object.entries(deps).flatMap(([name, spec]) => {
    if (name.toLowerCase() === "python") return [];
    if (typeof spec === "string") return [{ table, name, key: normalizeName(name), constraint: spec, inTable: false, type: type2 }];
    if (!isTable8(spec) || typeof spec.version !== "string" || !Object.keys(spec).every((k) => INDEX_KEYS.has(k))) return [];
    const kind = spec.optional === true ? "optionalDependencies" : type2;
    return [{ table, name, key: normalizeName(name), constraint: spec.version, inTable: true, type: kind }];
  });
}
function at(doc, keys) {
  let v = doc;
  for (const k of keys) v = isTable8(v) ? v[k] : void 0;
  return v;
}
function poetryDeclarations(doc) {
  const out = [
    ...tableDeclarations(["tool", "poetry", "dependencies"], at(doc, ["tool", "poetry", "dependencies"]), "dependencies"),
    ...tableDeclarations(["tool", "poetry", "dev-dependencies"], at(doc, ["tool", "poetry", "dev-dependencies"]), "devDependencies")
  ];
  const groups = at(doc, ["tool", "poetry", "group"]);
  if (isTable8(groups)) {
    for (const [group, value] of Object.entries(groups)) {
      const table = ["tool", "poetry", "group", group, "dependencies"];
      out.push(...tableDeclarations(table, isTable8(value) ? value.dependencies : void 0, "devDependencies"));
    }
  }
  return out;
}
function poetrySource(doc) {
  const sources = at(doc, ["tool", "poetry", "source"]);
  if (!Array.isArray(sources)) return null;
  const usable = sources.filter((s) => isTable8(s) && typeof s.url === "string" && typeof s.name === "string");
  const chosen = usable.find((s) => s.default === true || s.priority === "default") ?? usable.find((s) => s.secondary !== true && (s.priority === void 0 || s.priority === "primary"));
  return chosen ? { name: chosen.name, url: chosen.url } : null;
}
function lockedVersions(lockText) {
  const doc = lockText === null ? null : parseToml(lockText);
  const out = /* @__PURE__ */ new Map();
  const packages = doc && Array.isArray(doc.package) ? doc.package : [];
  for (const p of packages) if (isTable8(p) && typeof p.name === "string" && typeof p.version === "string") out.set(normalizeName(p.name), p.version);
  return out;
}
function widenPoetryDeclarations({ text, doc, key, to }) {
  let out = text;
  let current = doc;
  for (const d of poetryDeclarations(doc).filter((x) => x.key === key)) {
    const widened = widenPoetry(d.constraint, to);
    if (widened === null) return { message: `${d.table.join(".")}.${d.name}: ${JSON.stringify(d.constraint)} cannot be widened to admit ${to}` };
    if (widened === d.constraint.trim()) continue;
    const expected = structuredClone(current);
    const holder = at(expected, d.table);
    if (d.inTable) holder[d.name].version = widened;
    else holder[d.name] = widened;
    const next = editOneString(out, { from: d.constraint, old: d.constraint.trim(), replacement: widened }, expected);
    if (next === null) return { message: `pyproject.toml: ${d.table.join(".")}.${d.name} cannot be rewritten in place` };
    out = next;
    current = expected;
  }
  return out;
}

// src/ecosystems/poetry/manager.ts
var LOCKFILE2 = "poetry.lock";
var MAX_LOCK_BYTES = 32 * 1024 * 1024;
var POETRY_ENV = { POETRY_NO_INTERACTION: "1", POETRY_VIRTUALENVS_CREATE: "false", PYTHON_KEYRING_BACKEND: "keyring.backends.null.Keyring" };
function sourceEnv(doc, env) {
  const source = poetrySource(doc);
  if (!source) return env;
  const url = new URL(source.url);
  const id = source.name.toUpperCase().replace(/[^A-Z0-9]/g, "_");
  const user = env[`POETRY_HTTP_BASIC_${id}_USERNAME`];
  const password = env[`POETRY_HTTP_BASIC_${id}_PASSWORD`];
  if (user) url.username = encodeURIComponent(user);
  if (password) url.password = encodeURIComponent(password);
  return { ...env, PIP_INDEX_URL: url.href, PIP_EXTRA_INDEX_URL: "" };
}
function byPackage(decls) {
  const out = /* @__PURE__ */ new Map();
  for (const d of decls) if (poetryClauses(d.constraint) !== null) out.set(d.key, [...out.get(d.key) ?? [], d]);
  return out;
}
var PoetryPackageManager = class {
  name = "poetry";
  bumpFiles = [PYPROJECT, LOCKFILE2];
  versions = PEP440;
  detect(workspace) {
    const file = readPyproject(workspace);
    if (!file) return false;
    return readTreeEntry(workspace, LOCKFILE2, MAX_LOCK_BYTES).kind === "file" || poetryDeclarations(file.doc).length > 0;
  }
  lockfileHash(workspace) {
    return fileHash(workspace, LOCKFILE2);
  }
  tool(workspace, env, signal) {
    const because = readTreeEntry(workspace, LOCKFILE2, MAX_LOCK_BYTES).kind === "file" ? "it has a poetry.lock" : "its pyproject.toml has [tool.poetry]";
    return resolvePythonTool({ name: "poetry", because: `it is a Poetry project (${because})`, env, signal });
  }
  async outdated(workspace, env, signal) {
    await this.tool(workspace, env, signal);
    const file = readPyproject(workspace);
    if (!file) throw new Error(`${PYPROJECT} is not a regular file that parses`);
    const locked = lockedVersions(readAgentText(workspace, LOCKFILE2, MAX_LOCK_BYTES));
    const packages = [...byPackage(poetryDeclarations(file.doc)).values()].map(([d]) => ({
      name: d.name,
      type: d.type,
      locked: locked.get(d.key),
      clauses: poetryClauses(d.constraint),
      written: d.constraint
    }));
    return lockedOutdated(packages, sourceEnv(file.doc, env), signal);
  }
  async bump({ workspace, candidate, env, signal }) {
    await this.tool(workspace, env, signal);
    const file = readPyproject(workspace);
    if (!file) return { ok: false, message: `${PYPROJECT} is not a regular file that parses; it is not rewritten` };
    const key = poetryDeclarations(file.doc).find((d) => d.name === candidate.name)?.key;
    if (!key) return { ok: false, message: `no Poetry dependency table declares ${candidate.name}` };
    const widened = widenPoetryDeclarations({ text: file.text, doc: file.doc, key, to: candidate.to });
    if (typeof widened !== "string") return { ok: false, message: widened.message };
    if (widened !== file.text) writeTreeFile({ root: workspace, rel: PYPROJECT, data: Buffer.from(widened, "utf8"), executable: file.executable });
    const args = widened !== file.text ? ["lock", "--no-update"] : ["update", "--lock", candidate.name];
    const r = await runPythonTool({ name: "poetry", args: [...args, "--no-interaction", "--no-ansi"], cwd: workspace, env: { ...env, ...POETRY_ENV }, signal });
    if (r.exitCode !== 0) return { ok: false, message: `poetry ${args.join(" ")} failed ${toolTail(r)}` };
    const now = lockedVersions(readAgentText(workspace, LOCKFILE2, MAX_LOCK_BYTES)).get(key);
    if (now === void 0 || PEP440.compare(now, candidate.to) !== 0) {
      return { ok: false, message: `poetry left ${candidate.name} at ${now ?? "nothing"} in ${LOCKFILE2}, not ${candidate.to}` };
    }
    return { ok: true };
  }
  installedCopy() {
    return null;
  }
  releaseNotes(job) {
    const file = readPyproject(job.workspace);
    return indexReleaseNotes({ ...job, env: file ? sourceEnv(file.doc, job.env) : job.env });
  }
};

// src/ecosystems/poetry/index.ts
var poetry = {
  id: "poetry",
  registries: ["pypi.org", "files.pythonhosted.org"],
  detection: { manifests: [PYPROJECT], lockfiles: [LOCKFILE2] },
  lockfiles: [LOCKFILE2],
  manifests: [
    {
      file: PYPROJECT,
      kind: "pyproject",
      allowedKeys: ["tool.poetry.dependencies", "tool.poetry.dev-dependencies", "tool.poetry.group.*.dependencies", "tool.poetry.version"]
    }
  ],
  lockEntries: (_file, text) => poetryLockEntries(text),
  dependencyFolders: { root: [".venv", "venv"], anyDepth: ["site-packages", "dist-packages", "__pypackages__"], archives: [], caches: {} },
  // Poetry's source credentials and certificates, and pip's configuration for a project without a source.
  registryEnv: (name) => /^POETRY_(?:HTTP_BASIC_|PYPI_TOKEN_|CERTIFICATES_|REPOSITORIES_)/.test(name) || /^PIP_/.test(name),
  upgrade: new PoetryPackageManager()
};

// src/ecosystems/pyproject/manager.ts
var LOOKUP_CONCURRENCY4 = 4;
function outdatedOf(decls, versions) {
  const first = decls[0];
  const pre = decls.some((d) => wantsPrerelease(d.requirement.clauses ?? []));
  const latest = newestAdmitted(versions, [], pre);
  if (latest === null) return null;
  if (decls.every((d) => admits(d.requirement.clauses ?? [], latest))) return null;
  const clauses = first.requirement.clauses ?? [];
  const current = exactPin(clauses) ?? newestAdmitted(versions, clauses, pre);
  if (current === null) return `${first.requirement.name}: no version on the index matches ${JSON.stringify(first.text)}`;
  if (PEP440.compare(latest, current) <= 0) return null;
  return { name: first.requirement.name, current, wanted: current, latest, type: first.type };
}
function byPackage2(decls) {
  const out = /* @__PURE__ */ new Map();
  for (const d of decls) {
    if (d.requirement.clauses === null || d.requirement.clauses.length === 0) continue;
    out.set(d.requirement.key, [...out.get(d.requirement.key) ?? [], d]);
  }
  return out;
}
var PyprojectPackageManager = class {
  name = "pip";
  bumpFiles = [PYPROJECT];
  versions = PEP440;
  detect(workspace) {
    const file = readPyproject(workspace);
    return file !== null && byPackage2(declarations2(file.doc)).size > 0;
  }
  lockfileHash(workspace) {
    return fileHash(workspace, PYPROJECT);
  }
  async outdated(workspace, env, signal) {
    const file = readPyproject(workspace);
    if (!file) throw new Error(`${PYPROJECT} is not a regular file that parses`);
    const packages = [...byPackage2(declarations2(file.doc)).values()];
    const lookups = await mapLimited(
      packages,
      LOOKUP_CONCURRENCY4,
      (decls) => indexVersions({ name: decls[0].requirement.name, pre: decls.some((d) => wantsPrerelease(d.requirement.clauses ?? [])), env, signal })
    );
    return outdatedReport(packages, lookups);
  }
  async bump({ workspace, candidate }) {
    const file = readPyproject(workspace);
    if (!file) return { ok: false, message: `${PYPROJECT} is not a regular file that parses; it is not rewritten` };
    const decls = declarations2(file.doc);
    const edits = wideningEdits(decls, decls.find((d) => d.requirement.name === candidate.name)?.requirement.key ?? "", candidate.to);
    if (typeof edits === "string") return { ok: false, message: edits };
    if (edits.length === 0) return { ok: false, message: `every requirement of ${candidate.name} in ${PYPROJECT} admits ${candidate.to} already` };
    const text = applyEdits(file.text, file.doc, edits);
    if (text === null) return { ok: false, message: `${PYPROJECT}: the requirements of ${candidate.name} cannot be rewritten in place` };
    writeTreeFile({ root: workspace, rel: PYPROJECT, data: Buffer.from(text, "utf8"), executable: file.executable });
    return { ok: true };
  }
  installedCopy() {
    return null;
  }
  releaseNotes(job) {
    return indexReleaseNotes(job);
  }
};
function outdatedReport(packages, lookups) {
  const failed = lookups.filter((l) => l.kind === "failed");
  if (failed.length > 0 && failed.length === lookups.length) throw new Error(failed[0].message);
  const dependencies = [];
  const notes = [];
  packages.forEach((decls, i) => {
    const lookup = lookups[i];
    const name = decls[0].requirement.name;
    if (lookup.kind === "unknown") return void notes.push(`not upgraded: ${name}: the package index does not know it`);
    if (lookup.kind === "failed") return void notes.push(`not upgraded: ${lookup.message}`);
    const found = outdatedOf(decls, lookup.versions);
    if (typeof found === "string") notes.push(`not upgraded: ${found}`);
    else if (found) dependencies.push(found);
  });
  return { dependencies, notes };
}

// src/ecosystems/pyproject/index.ts
var pyproject = {
  id: "pyproject",
  registries: ["pypi.org", "files.pythonhosted.org"],
  detection: { manifests: [PYPROJECT], lockfiles: [] },
  lockfiles: [],
  manifests: [{ file: PYPROJECT, kind: "pyproject", allowedKeys: ["project.dependencies", "project.optional-dependencies", "dependency-groups"] }],
  lockEntries: () => null,
  dependencyFolders: { root: [".venv", "venv"], anyDepth: ["site-packages", "dist-packages", "__pypackages__"], archives: [], caches: {} },
  // pip's own configuration: `PIP_INDEX_URL`, `PIP_EXTRA_INDEX_URL`, `PIP_CONFIG_FILE`, …
  registryEnv: (name) => /^PIP_/.test(name),
  upgrade: new PyprojectPackageManager()
};

// src/ecosystems/uv/lockfile.ts
var isTable9 = (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
var HASH2 = /^(?:sha256|sha384|sha512):[0-9a-f]+$/;
var hashed = (artifact) => isTable9(artifact) && typeof artifact.hash === "string" && HASH2.test(artifact.hash);
function notFromIndex2(p) {
  const source = isTable9(p.source) ? p.source : {};
  const kind = Object.keys(source)[0] ?? "missing";
  if (kind !== "registry") return `a ${kind.slice(0, 20)} source`;
  if (typeof source.registry !== "string" || !/^https?:\/\//.test(source.registry)) return "an index that is not an http(s) URL";
  const artifacts = [...p.sdist === void 0 ? [] : [p.sdist], ...Array.isArray(p.wheels) ? p.wheels : []];
  if (artifacts.length === 0 || !artifacts.every(hashed)) return "no file hashes";
  return void 0;
}
function isRoot(p) {
  const source = isTable9(p.source) ? p.source : {};
  return source.editable === "." || source.virtual === ".";
}
function uvLockEntries(text) {
  return tomlLockEntries(text, { notFromIndex: notFromIndex2, isRoot });
}
function uvLockedVersions(text) {
  const doc = text === null ? null : parseToml(text);
  const out = /* @__PURE__ */ new Map();
  const packages = doc && Array.isArray(doc.package) ? doc.package : [];
  for (const p of packages) {
    if (isTable9(p) && !isRoot(p) && typeof p.name === "string" && typeof p.version === "string") out.set(normalizeName(p.name), p.version);
  }
  return out;
}

// src/ecosystems/uv/manager.ts
var LOCKFILE3 = "uv.lock";
var MAX_LOCK_BYTES2 = 32 * 1024 * 1024;
var isTable10 = (v) => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);
function declaresUv(doc) {
  return isTable10(doc.tool) && isTable10(doc.tool.uv);
}
function uvIndexEnv(doc, env) {
  const uv2 = isTable10(doc.tool) && isTable10(doc.tool.uv) ? doc.tool.uv : {};
  const indexes = Array.isArray(uv2.index) ? uv2.index.filter(isTable10) : [];
  const declared2 = indexes.find((i) => i.default === true) ?? indexes.find((i) => i.explicit !== true);
  const url = typeof declared2?.url === "string" ? declared2.url : env.UV_DEFAULT_INDEX ?? env.UV_INDEX_URL;
  return url ? { ...env, PIP_INDEX_URL: url, PIP_EXTRA_INDEX_URL: "" } : env;
}
var UvPackageManager = class {
  name = "uv";
  bumpFiles = [PYPROJECT, LOCKFILE3];
  versions = PEP440;
  detect(workspace) {
    const file = readPyproject(workspace);
    if (!file) return false;
    return readTreeEntry(workspace, LOCKFILE3, MAX_LOCK_BYTES2).kind === "file" || declaresUv(file.doc);
  }
  lockfileHash(workspace) {
    return fileHash(workspace, LOCKFILE3);
  }
  tool(workspace, env, signal) {
    const because = readTreeEntry(workspace, LOCKFILE3, MAX_LOCK_BYTES2).kind === "file" ? "it has a uv.lock" : "its pyproject.toml has [tool.uv]";
    return resolvePythonTool({ name: "uv", because: `it is a uv project (${because})`, env, signal });
  }
  async outdated(workspace, env, signal) {
    await this.tool(workspace, env, signal);
    const file = readPyproject(workspace);
    if (!file) throw new Error(`${PYPROJECT} is not a regular file that parses`);
    const locked = uvLockedVersions(readAgentText(workspace, LOCKFILE3, MAX_LOCK_BYTES2));
    const byKey = /* @__PURE__ */ new Map();
    for (const d of declarations2(file.doc)) if (d.requirement.clauses !== null) byKey.set(d.requirement.key, [...byKey.get(d.requirement.key) ?? [], d]);
    const packages = [...byKey.values()].map(([d]) => ({
      name: d.requirement.name,
      type: d.type,
      locked: locked.get(d.requirement.key),
      clauses: d.requirement.clauses,
      written: d.text
    }));
    return lockedOutdated(packages, uvIndexEnv(file.doc, env), signal);
  }
  async bump({ workspace, candidate, env, signal }) {
    await this.tool(workspace, env, signal);
    const file = readPyproject(workspace);
    if (!file) return { ok: false, message: `${PYPROJECT} is not a regular file that parses; it is not rewritten` };
    const decls = declarations2(file.doc);
    const key = decls.find((d) => d.requirement.name === candidate.name)?.requirement.key;
    if (!key) return { ok: false, message: `no requirement of ${PYPROJECT} names ${candidate.name}` };
    const edits = wideningEdits(decls, key, candidate.to);
    if (typeof edits === "string") return { ok: false, message: edits };
    if (edits.length > 0) {
      const text = applyEdits(file.text, file.doc, edits);
      if (text === null) return { ok: false, message: `${PYPROJECT}: the requirements of ${candidate.name} cannot be rewritten in place` };
      writeTreeFile({ root: workspace, rel: PYPROJECT, data: Buffer.from(text, "utf8"), executable: file.executable });
    }
    const args = ["lock", "--upgrade-package", `${candidate.name}==${candidate.to}`, "--no-progress"];
    const r = await runPythonTool({ name: "uv", args, cwd: workspace, env, signal });
    if (r.exitCode !== 0) return { ok: false, message: `uv ${args.join(" ")} failed ${toolTail(r)}` };
    const now = uvLockedVersions(readAgentText(workspace, LOCKFILE3, MAX_LOCK_BYTES2)).get(key);
    if (now === void 0 || PEP440.compare(now, candidate.to) !== 0)
      return { ok: false, message: `uv left ${candidate.name} at ${now ?? "nothing"} in ${LOCKFILE3}, not ${candidate.to}` };
    return { ok: true };
  }
  installedCopy() {
    return null;
  }
  releaseNotes(job) {
    const file = readPyproject(job.workspace);
    return indexReleaseNotes({ ...job, env: file ? uvIndexEnv(file.doc, job.env) : job.env });
  }
};

// src/ecosystems/uv/index.ts
var uv = {
  id: "uv",
  registries: ["pypi.org", "files.pythonhosted.org"],
  detection: { manifests: [PYPROJECT], lockfiles: [LOCKFILE3] },
  lockfiles: [LOCKFILE3],
  manifests: [
    {
      file: PYPROJECT,
      kind: "pyproject",
      allowedKeys: ["project.dependencies", "project.optional-dependencies", "dependency-groups", "tool.uv.dev-dependencies"]
    }
  ],
  lockEntries: (_file, text) => uvLockEntries(text),
  dependencyFolders: { root: [".venv", "venv"], anyDepth: ["site-packages", "dist-packages", "__pypackages__"], archives: [], caches: {} },
  // uv's index configuration and credentials, and pip's for the version lookups of a project that names no index.
  registryEnv: (name) => /^UV_(?:DEFAULT_INDEX|INDEX|INDEX_URL|EXTRA_INDEX_URL|FIND_LINKS|INDEX_\w+_(?:USERNAME|PASSWORD)|KEYRING_PROVIDER|NATIVE_TLS)$/.test(name) || /^PIP_/.test(name),
  upgrade: new UvPackageManager()
};

// src/ecosystems/yarn/berry-lockfile.ts
var import_semver8 = __toESM(require_semver(), 1);
var isTable11 = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
function descriptorName(spec) {
  const at2 = spec.indexOf("@", 1);
  return at2 > 0 ? spec.slice(0, at2) : spec;
}
var REGISTRY_RESOLUTION = /^(@?[^@\s]+)@npm:([^\s@:/]+)$/;
var CHECKSUM = /^(?:\w+\/)?[0-9a-f]{64,}$/;
function judge(entry) {
  const resolution = typeof entry.resolution === "string" ? entry.resolution : "";
  if (/@workspace:/.test(resolution)) return { registry: true };
  const m = REGISTRY_RESOLUTION.exec(resolution);
  if (!m || import_semver8.default.valid(m[2]) === null) return { registry: false, why: resolution ? `resolved as ${resolution.slice(0, 100)}` : "no resolution" };
  if (typeof entry.checksum !== "string" || !CHECKSUM.test(entry.checksum)) return { registry: false, why: "no checksum" };
  return { registry: true };
}
function berryLockEntries(text) {
  let doc;
  try {
    doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: true });
  } catch {
    return null;
  }
  if (!isTable11(doc) || !isTable11(doc.__metadata)) return null;
  return Object.entries(doc).map(([key, value]) => {
    const text2 = JSON.stringify(value);
    if (key === "__metadata") return { key, name: "(metadata)", text: text2, registry: true };
    const entry = isTable11(value) ? value : {};
    const first = key.split(",")[0].trim();
    return { key, name: descriptorName(first), text: text2, ...judge(entry) };
  });
}
function parseBerryLock(text) {
  try {
    const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA, json: true });
    return isTable11(doc) && isTable11(doc.__metadata) ? doc : null;
  } catch {
    return null;
  }
}
function berryLocked(doc, name, range) {
  if (!doc) return null;
  const wanted = /* @__PURE__ */ new Set([`${name}@npm:${range}`, `${name}@${range}`]);
  for (const [key, value] of Object.entries(doc)) {
    if (key === "__metadata" || !isTable11(value) || typeof value.version !== "string") continue;
    if (key.split(",").some((d) => wanted.has(d.trim()))) return value.version;
  }
  return null;
}

// src/ecosystems/yarn/lockfile.ts
var unquote = (s) => s.trim().replace(/^"(.*)"$/, "$1");
var isBerryLock = (text) => /^"?__metadata"?:/m.test(text);
function parseYarnLock(text) {
  if (isBerryLock(text)) return null;
  const blocks = [];
  let current = null;
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim() || line.startsWith("#")) continue;
    if (!/^\s/.test(line)) {
      if (!line.endsWith(":")) return null;
      const header = line.slice(0, -1);
      current = { header, specs: header.split(/,\s*/).map(unquote), version: null, resolved: null, integrity: null, text: "" };
      blocks.push(current);
      continue;
    }
    if (!current) return null;
    current.text += `${line.trim()}
`;
    const field = /^ {2}(\w+) (.+)$/.exec(line);
    if (field && ["version", "resolved", "integrity"].includes(field[1])) current[field[1]] = unquote(field[2]);
  }
  return blocks;
}
function specName(spec) {
  const at2 = spec.indexOf("@", 1);
  return at2 > 0 ? spec.slice(0, at2) : spec;
}
function yarnLocked(blocks, name, range) {
  return blocks?.find((b) => b.specs.includes(`${name}@${range}`))?.version ?? null;
}
function judge2(b, registryHosts) {
  const resolved = (b.resolved ?? "").replace(/#.*$/, "");
  if (!/^https?:\/\//.test(resolved)) return resolved ? `resolved from ${resolved.slice(0, 100)}` : "no registry tarball";
  if (!registryHosts.some((h) => resolved.startsWith(h)) || !resolved.includes("/-/")) return `resolved from ${resolved.slice(0, 100)}, not the registry`;
  if (!b.integrity || !/^sha(?:1|256|384|512)-/.test(b.integrity)) return "no integrity";
  return void 0;
}
function yarnLockEntries(text, registryHosts) {
  if (isBerryLock(text)) return berryLockEntries(text)?.map(withBerryVersion) ?? null;
  const blocks = parseYarnLock(text);
  if (!blocks) return null;
  return blocks.map((b) => {
    const why = judge2(b, registryHosts);
    return {
      key: b.header,
      name: specName(b.specs[0] ?? b.header),
      text: b.text,
      registry: why === void 0,
      why,
      ...b.version ? { version: b.version } : {}
    };
  });
}
function withBerryVersion(entry) {
  if (entry.key === "__metadata") return entry;
  let fields;
  try {
    fields = JSON.parse(entry.text);
  } catch {
    return entry;
  }
  const version = typeof fields === "object" && fields !== null ? fields.version : void 0;
  const resolution = typeof fields === "object" && fields !== null ? fields.resolution : void 0;
  if (typeof resolution === "string" && resolution.includes("@workspace:")) return { ...entry, mirror: true };
  return typeof version === "string" ? { ...entry, version } : entry;
}

// src/ecosystems/yarn/berry-manager.ts
import { lstatSync as lstatSync4, mkdtempSync, readdirSync as readdirSync3 } from "node:fs";
import os3 from "node:os";
import path10 from "node:path";
var LOCKFILE4 = "yarn.lock";
var YARNRC = ".yarnrc.yml";
var BERRY_ENV = {
  YARN_ENABLE_SCRIPTS: "0",
  YARN_ENABLE_IMMUTABLE_INSTALLS: "0",
  YARN_ENABLE_GLOBAL_CACHE: "1",
  YARN_NODE_LINKER: "node-modules",
  YARN_ENABLE_TELEMETRY: "0",
  YARN_ENABLE_PROGRESS_BARS: "0",
  YARN_ENABLE_COLORS: "0"
};
var isTable12 = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
var PROJECT_CACHE_FOLDER = ".yarn/cache";
function yarnrcSetting(workspace, key) {
  const text = readAgentText(workspace, YARNRC, MAX_JSON_BYTES);
  if (text === null) return null;
  try {
    const doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
    return isTable12(doc) ? doc[key] : null;
  } catch {
    return null;
  }
}
function realFolder(workspace, rel) {
  let at2 = workspace;
  for (const part of rel.split("/")) {
    at2 = path10.join(at2, part);
    try {
      if (!lstatSync4(at2).isDirectory()) return false;
    } catch {
      return false;
    }
  }
  return true;
}
function projectCacheFolder(workspace) {
  if (yarnrcSetting(workspace, "enableGlobalCache") === "true") return null;
  const configured = yarnrcSetting(workspace, "cacheFolder");
  if (typeof configured === "string" && path10.posix.normalize(configured.replace(/\\/g, "/")).replace(/\/$/, "") !== PROJECT_CACHE_FOLDER) return null;
  const folder = PROJECT_CACHE_FOLDER;
  return realFolder(workspace, folder) && cacheArchives(workspace, folder).size > 0 ? folder : null;
}
function cacheArchives(workspace, folder) {
  try {
    return new Set(
      readdirSync3(path10.join(workspace, folder), { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".zip")).map((e) => e.name)
    );
  } catch {
    return /* @__PURE__ */ new Set();
  }
}
function berryVersions(stdout, ageGateMinutes, now = Date.now()) {
  let data;
  try {
    data = JSON.parse(stdout.trim().split("\n").pop() ?? "");
  } catch {
    return null;
  }
  if (!isTable12(data) || !Array.isArray(data.versions)) return parseVersions(stdout);
  const times = isTable12(data.time) ? data.time : {};
  const versions = data.versions.filter((v) => typeof v === "string");
  if (ageGateMinutes <= 0) return versions;
  return versions.filter((v) => {
    const at2 = typeof times[v] === "string" ? Date.parse(times[v]) : NaN;
    return Number.isFinite(at2) && (now - at2) / 6e4 >= ageGateMinutes;
  });
}
var YarnBerryManager = class extends NodeLockManager {
  name = "yarn";
  lockfile = LOCKFILE4;
  workspacePatterns(workspace) {
    return packageJsonWorkspaces(workspace);
  }
  async tool(workspace, env, signal) {
    const tool = await super.tool(workspace, env, signal);
    this.stateDir ??= mkdtempSync(path10.join(os3.tmpdir(), "loopgate-yarn-state-"));
    const cache = projectCacheFolder(workspace);
    const ownCache = cache ? { YARN_ENABLE_GLOBAL_CACHE: "0", YARN_CACHE_FOLDER: path10.join(workspace, cache) } : {};
    return { ...tool, env: { ...tool.env, ...BERRY_ENV, ...ownCache, YARN_INSTALL_STATE_PATH: path10.join(this.stateDir, "install-state.gz") } };
  }
  /** The bump, and in a project that commits its cache, the archives the install added and removed there. */
  async bump(job) {
    const cache = projectCacheFolder(job.workspace);
    if (!cache) return super.bump(job);
    const before = cacheArchives(job.workspace, cache);
    const result = await super.bump(job);
    const after = cacheArchives(job.workspace, cache);
    const archives = [...[...after].filter((f) => !before.has(f)), ...[...before].filter((f) => !after.has(f))].sort();
    return { ...result, files: [...result.files ?? this.bumpFiles, ...archives.map((f) => `${cache}/${f}`)] };
  }
  stateDir;
  lockedReader(workspace) {
    const doc = parseBerryLock(readAgentText(workspace, LOCKFILE4, MAX_JSON_BYTES) ?? "");
    return lockedByDeclaredRange(workspace, (name, range) => berryLocked(doc, name, range));
  }
  installArgs() {
    return ["install", "--mode=skip-build"];
  }
  versionsArgs(name) {
    return ["npm", "info", name, "--fields", "versions,time", "--json"];
  }
  /** Yarn's `npmMinimalAgeGate` (minutes; Yarn 4.10 and later) holds back what was published less than that long ago. */
  async versionsReader(tool, job) {
    const r = await runTool({ tool, cwd: job.workspace, args: ["config", "get", "npmMinimalAgeGate", "--json"], env: job.env, signal: job.signal });
    const minutes = r.exitCode === 0 ? Number(r.stdout.trim()) : 0;
    const gate = Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
    return (stdout) => berryVersions(stdout, gate);
  }
  metadataArgs(name, version) {
    return ["npm", "info", `${name}@${version}`, "--fields", "repository,homepage", "--json"];
  }
  parseMetadata(stdout) {
    try {
      const data = JSON.parse(stdout.trim().split("\n").pop() || "{}");
      return isTable12(data) ? data : {};
    } catch {
      return {};
    }
  }
  /** Plug'n'Play keeps the install in `.pnp.cjs` and `.yarn/`, folders the gate does not model: only `nodeLinker: node-modules`. */
  unsupported(workspace) {
    const linker = yarnrcSetting(workspace, "nodeLinker");
    if (linker === "node-modules") return null;
    const set2 = typeof linker === "string" ? `sets nodeLinker: ${linker.slice(0, 40)}` : "sets no nodeLinker (Plug'n'Play, Yarn Berry's default)";
    return `the Yarn Berry project's ${YARNRC} ${set2}: loopgate upgrades Yarn Berry projects with nodeLinker: node-modules only; set \`nodeLinker: node-modules\` in ${YARNRC}`;
  }
  installedCopy(candidate) {
    return `node_modules/${candidate.name}`;
  }
};

// src/ecosystems/yarn/manager.ts
var LOCKFILE5 = "yarn.lock";
var YarnClassicManager = class extends NodeLockManager {
  name = "yarn";
  lockfile = LOCKFILE5;
  workspacePatterns(workspace) {
    return packageJsonWorkspaces(workspace);
  }
  lockedReader(workspace) {
    const blocks = parseYarnLock(readAgentText(workspace, LOCKFILE5, MAX_JSON_BYTES) ?? "");
    return lockedByDeclaredRange(workspace, (name, range) => yarnLocked(blocks, name, range));
  }
  installArgs() {
    return ["install", "--ignore-scripts", "--non-interactive", "--no-progress"];
  }
  versionsArgs(name) {
    return ["info", name, "versions", "--json", "--non-interactive"];
  }
  metadataArgs(name, version) {
    return ["info", `${name}@${version}`, "--json", "--non-interactive"];
  }
  parseMetadata(stdout) {
    try {
      const data = JSON.parse(stdout.trim() || "{}").data;
      return typeof data === "object" && data !== null && !Array.isArray(data) ? data : {};
    } catch {
      return {};
    }
  }
  /** A Berry lockfile under a Yarn classic declaration: neither tool can take it as it is. */
  unsupported(workspace, manifest) {
    const declared2 = declaredManager(manifest.packageManager);
    if (declared2?.name === "yarn" && isBerryLock(readAgentText(workspace, LOCKFILE5, MAX_JSON_BYTES) ?? "")) {
      return `package.json declares packageManager yarn@${declared2.version.slice(0, 40)} (Yarn classic), but yarn.lock is a Yarn Berry lockfile (it has __metadata)`;
    }
    return null;
  }
  installedCopy(candidate) {
    return `node_modules/${candidate.name}`;
  }
};

// src/ecosystems/yarn/yarn-manager.ts
function isBerryProject(workspace) {
  const declared2 = declaredManager(readJson(workspace, MANIFEST)?.packageManager);
  if (declared2?.name === "yarn") return !/^[01]\./.test(declared2.version);
  return isBerryLock(readAgentText(workspace, LOCKFILE5, MAX_JSON_BYTES) ?? "");
}
var YarnPackageManager = class {
  name = "yarn";
  versions = SEMVER;
  classic = new YarnClassicManager();
  berry = new YarnBerryManager();
  get bumpFiles() {
    return this.classic.bumpFiles;
  }
  of(workspace) {
    return isBerryProject(workspace) ? this.berry : this.classic;
  }
  detect(workspace) {
    return this.of(workspace).detect(workspace);
  }
  declined(workspace) {
    return this.of(workspace).declined?.(workspace) ?? null;
  }
  lockfileHash(workspace) {
    return this.of(workspace).lockfileHash(workspace);
  }
  outdated(workspace, env, signal) {
    return this.of(workspace).outdated(workspace, env, signal);
  }
  bump(job) {
    return this.of(job.workspace).bump(job);
  }
  installedCopy(candidate) {
    return this.classic.installedCopy(candidate);
  }
  releaseNotes(job) {
    return this.of(job.workspace).releaseNotes(job);
  }
};

// src/ecosystems/yarn/index.ts
var yarn = {
  id: "yarn",
  registries: ["registry.yarnpkg.com", "registry.npmjs.org", "repo.yarnpkg.com"],
  detection: { manifests: [MANIFEST], lockfiles: [LOCKFILE5], packageManager: "yarn" },
  lockfiles: [LOCKFILE5],
  manifests: npm.manifests,
  lockEntries: (_file, text, registryHosts) => yarnLockEntries(text, registryHosts),
  dependencyFolders: {
    root: ["node_modules"],
    anyDepth: ["node_modules"],
    archives: [PROJECT_CACHE_FOLDER],
    caches: { node_modules: [".cache", ".vite", ".vite-temp"] }
  },
  // npm's configuration (Yarn classic reads `npm_config_*` and .npmrc), Yarn's own (`YARN_REGISTRY`, Berry's `YARN_NPM_*`, …), and corepack's cache of pinned versions.
  registryEnv: (name) => /^(?:npm|yarn)_config_/i.test(name) || /^YARN_/.test(name) || name === "NODE_AUTH_TOKEN" || /^COREPACK_(?:HOME|NPM_REGISTRY|NPM_TOKEN)$/.test(name),
  upgrade: new YarnPackageManager()
};

// src/ecosystems/registry.ts
var ECOSYSTEMS = [pnpm, yarn, npm, poetry, uv, pip, pyproject];
var basename = (file) => file.slice(file.lastIndexOf("/") + 1);
var LOCKFILE_NAMES = [...ECOSYSTEMS.flatMap((e) => e.lockfiles), ...Object.values(UNMANAGED_LOCKFILES).flat()];
var LOCKFILE_NAME_SET = new Set(LOCKFILE_NAMES);
var LOCKFILE_PATTERNS = ECOSYSTEMS.flatMap((e) => e.lockfilePattern ? [e.lockfilePattern] : []);
function isLockfile(file) {
  const base = basename(file);
  return LOCKFILE_NAME_SET.has(base) || LOCKFILE_PATTERNS.some((p) => p.test(base));
}
function lockfileOwner(file) {
  const base = basename(file);
  return ECOSYSTEMS.find((e) => e.lockfiles.includes(base) || e.lockfilePattern?.test(base) === true);
}
function lockEntries(file, text, registryHosts) {
  return lockfileOwner(file)?.lockEntries(file, text, registryHosts) ?? null;
}
var MANIFESTS = ECOSYSTEMS.flatMap((e) => e.manifests);
var MANIFEST_KINDS = new Map(MANIFESTS.toReversed().map((m) => [m.file, m.kind]));
function manifestKind(file) {
  return MANIFEST_KINDS.get(basename(file)) ?? null;
}
function manifestAllowedKeys(kind) {
  return [...new Set(MANIFESTS.filter((m) => m.kind === kind).flatMap((m) => m.allowedKeys))];
}
var ROOT_DEPENDENCY_DIRS = [...new Set(ECOSYSTEMS.flatMap((e) => e.dependencyFolders.root))];
var DEPENDENCY_FOLDER_NAMES = [
  ...new Set(ECOSYSTEMS.flatMap((e) => [...e.dependencyFolders.root, ...e.dependencyFolders.anyDepth]))
];
var DEPENDENCY_CACHE_DIRS = Object.fromEntries(
  ECOSYSTEMS.flatMap((e) => Object.entries(e.dependencyFolders.caches).map(([dir, caches]) => [dir, [...caches]]))
);
var ARCHIVE_FOLDERS = [...new Set(ECOSYSTEMS.flatMap((e) => e.dependencyFolders.archives))];
var ROOT_DIRS = new Set(ROOT_DEPENDENCY_DIRS);
var ANY_DEPTH_DIRS = new Set(ECOSYSTEMS.flatMap((e) => e.dependencyFolders.anyDepth));
var ARCHIVE_PATHS = ARCHIVE_FOLDERS.reduce((byFirst, a) => {
  const first = a.split("/")[0];
  return byFirst.set(first, [...byFirst.get(first) ?? [], a]);
}, /* @__PURE__ */ new Map());
function inDependencyFolder(file) {
  let start = 0;
  for (let end = file.indexOf("/"); end >= 0; start = end + 1, end = file.indexOf("/", start)) {
    const folder = file.slice(start, end);
    if (start === 0 && ROOT_DIRS.has(folder) || ANY_DEPTH_DIRS.has(folder)) return true;
    if (ARCHIVE_PATHS.get(folder)?.some((a) => file.startsWith(`${a}/`, start))) return true;
  }
  return false;
}
function inRootDependencyFolder(file) {
  const slash = file.indexOf("/");
  return slash > 0 && ROOT_DEPENDENCY_DIRS.includes(file.slice(0, slash));
}
function isRegistryEnv(name) {
  return ECOSYSTEMS.some((e) => e.registryEnv(name));
}
var UPGRADE_MANAGERS = ECOSYSTEMS.map((e) => e.upgrade);

// src/upgrade/prepare.ts
import { createHash as createHash5 } from "node:crypto";

// src/gate/protection/protected-paths.ts
var import_picomatch3 = __toESM(require_picomatch2(), 1);

// src/gate/dependencies/manifest-keys.ts
var MANIFEST_ALLOWED_KEYS = {
  "package-json": manifestAllowedKeys("package-json"),
  pyproject: manifestAllowedKeys("pyproject")
};
var ALLOWED_PATHS = {
  "package-json": MANIFEST_ALLOWED_KEYS["package-json"].map((k) => k.split(".")),
  pyproject: MANIFEST_ALLOWED_KEYS.pyproject.map((k) => k.split("."))
};
function isTable13(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date);
}
function hasDuplicateJsonKey(text) {
  const stack = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1));
        if (top.keys.has(key)) return true;
        top.keys.add(key);
        top.expectKey = false;
      }
      i = j;
    } else if (c === "{") stack.push({ keys: /* @__PURE__ */ new Set(), expectKey: true });
    else if (c === "[") stack.push({ keys: null, expectKey: false });
    else if (c === "}" || c === "]") stack.pop();
    else if (c === ",") {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
    }
  }
  return false;
}
function parseManifest(kind, text) {
  try {
    if (kind === "pyproject") return parse(text);
    const data = JSON.parse(text);
    return isTable13(data) && !hasDuplicateJsonKey(text) ? data : null;
  } catch {
    return null;
  }
}
function withoutAllowed(value, paths) {
  if (!isTable13(value) || paths.length === 0) return value;
  const out = [];
  for (const key of Object.keys(value)) {
    const here = paths.filter((p) => p[0] === key || p[0] === "*");
    if (here.some((p) => p.length === 1)) continue;
    out.push([
      key,
      withoutAllowed(
        value[key],
        here.map((p) => p.slice(1))
      )
    ]);
  }
  return Object.fromEntries(out);
}
function canonical(value, sortKeys) {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, sortKeys)).join(",")}]`;
  if (value instanceof Date) return `date:${JSON.stringify(value.toISOString())}`;
  if (typeof value === "bigint") return `int:${value}`;
  if (typeof value === "number" && !Number.isFinite(value)) return `float:${value}`;
  if (isTable13(value)) {
    const keys = Object.keys(value);
    if (sortKeys) keys.sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k], sortKeys)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "undefined";
}
var INVALID = "invalid";
function protectedPart(kind, text) {
  const doc = text === null ? {} : parseManifest(kind, text);
  if (doc === null) return `${INVALID}:${text}`;
  return canonical(withoutAllowed(doc, ALLOWED_PATHS[kind]), kind === "pyproject");
}
function manifestChange(kind, baseProjection, text) {
  const now = protectedPart(kind, text);
  if (now === baseProjection) return null;
  return now.startsWith(`${INVALID}:`) ? "does not parse" : "test-relevant keys changed";
}
function mergeAllowed(base, current, paths) {
  const out = [];
  const take = (key, fromBase, fromCurrent) => {
    const here = paths.filter((p) => p[0] === key || p[0] === "*");
    if (here.some((p) => p.length === 1)) {
      if (fromCurrent) out.push([key, current[key]]);
    } else if (here.length && (isTable13(base[key]) || !fromBase) && isTable13(current[key])) {
      const merged = mergeAllowed(
        fromBase ? base[key] : {},
        current[key],
        here.map((p) => p.slice(1))
      );
      if (fromBase || Object.keys(merged).length) out.push([key, merged]);
    } else if (fromBase) out.push([key, base[key]]);
  };
  for (const key of Object.keys(base)) take(key, true, Object.hasOwn(current, key));
  for (const key of Object.keys(current)) if (!Object.hasOwn(base, key)) take(key, false, true);
  return Object.fromEntries(out);
}
function restoreManifest(kind, current, base) {
  const before = base === null ? {} : parseManifest(kind, base);
  const now = parseManifest(kind, current);
  if (before === null || now === null) return base;
  if (base !== null && protectedPart(kind, current) === protectedPart(kind, base)) return current;
  const merged = mergeAllowed(before, now, ALLOWED_PATHS[kind]);
  const sortKeys = kind === "pyproject";
  if (base !== null && canonical(merged, sortKeys) === canonical(before, sortKeys)) return base;
  let text;
  if (kind === "pyproject") {
    try {
      text = stringify(merged);
    } catch {
      return base;
    }
  } else {
    const indent = /^\{\r?\n([ \t]+)"/.exec(current)?.[1] ?? "  ";
    text = `${JSON.stringify(merged, null, indent)}
`;
  }
  return protectedPart(kind, text) === protectedPart(kind, base) ? text : base;
}

// src/gate/protection/protected-paths.ts
var NEVER = new RegExp(`(?:^|/)(?:${[".git", ...ROOT_DEPENDENCY_DIRS].map((d) => d.replace(/[.]/g, "\\.")).join("|")})(?:/|$)`);
var UNMATCHABLE = /[\u0000-\u001f\u007f-\u009f\ufffd]/;
var MANIFEST_PATTERN = /(?:^|\/)(?:package\.json|pyproject\.toml)$/;
var ANY_DIR = /^\*\*\/([\w.-]+)\/\*\*$/;
var ANY_DEPTH = /^\*\*\/([^/]+)$/;
function union(res) {
  return res.length ? new RegExp(res.map((r) => r.source).join("|")) : null;
}
function compile(patterns) {
  const dirs = [];
  const names = [];
  const whole = [];
  for (const p of patterns) {
    const dir = ANY_DIR.exec(p);
    const name = ANY_DEPTH.exec(p);
    if (dir) dirs.push(dir[1].replace(/\./g, "\\."));
    else if (name) names.push(import_picomatch3.default.makeRe(name[1], { dot: true }));
    else whole.push(import_picomatch3.default.makeRe(p, { dot: true }));
  }
  const dirRe = dirs.length ? new RegExp(`(?:^|/)(?:${dirs.join("|")})(?:/|$)`) : null;
  const nameRe = union(names);
  const wholeRe = union(whole);
  return (p) => Boolean(dirRe?.test(p) || nameRe?.test(p.slice(p.lastIndexOf("/") + 1)) || wholeRe?.test(p));
}
var ProtectedPaths = class {
  constructor(patterns) {
    this.patterns = patterns;
    const inc = patterns.filter((p) => !p.startsWith("!"));
    this.files = compile(inc.filter((p) => !MANIFEST_PATTERN.test(p)));
    this.manifests = compile(inc.filter((p) => MANIFEST_PATTERN.test(p)));
    this.exclude = compile(patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1)));
  }
  patterns;
  files;
  manifests;
  exclude;
  /** Each path asked about, with its answer: the base's tree and the work tree share most paths. */
  known = /* @__PURE__ */ new Map();
  /** How a path is protected: whole file, by manifest keys, or not at all. */
  kind(file) {
    let kind = this.known.get(file);
    if (kind === void 0) {
      kind = this.match(file);
      this.known.set(file, kind);
    }
    return kind;
  }
  match(file) {
    if (UNMATCHABLE.test(file)) return "file";
    if (NEVER.test(file) || this.exclude(file)) return null;
    if (this.files(file)) return "file";
    const manifest = manifestKind(file);
    if (manifest && (this.manifests(file) || this.manifests(file.slice(file.lastIndexOf("/") + 1)))) return manifest;
    return null;
  }
  matches(file) {
    return this.kind(file) !== null;
  }
};

// src/git/pre-run-files.ts
import { existsSync as existsSync3, lstatSync as lstatSync5, readFileSync as readFileSync4, rmSync as rmSync2, writeFileSync as writeFileSync4 } from "node:fs";
import path11 from "node:path";
var RECORD = "pre-run-files.json";
var HASH_LIMIT = 64 * 1024 * 1024;
async function recordFile(repo) {
  return repo.held ? path11.join(path11.dirname(repo.held.gitDir), RECORD) : path11.join(await repo.gitDir(), RECORD);
}
async function recordPreRunFiles(repo) {
  const dir = repo.dir;
  const [untracked, ignored] = await Promise.all([
    repo.lsFiles(["--others", "--exclude-standard"]),
    repo.lsFiles(["--others", "--ignored", "--exclude-standard", "--directory"])
  ]);
  const alwaysOut = [];
  const toHash = [];
  for (const rel of [...untracked, ...ignored]) {
    if (rel.endsWith("/")) {
      alwaysOut.push(rel);
      continue;
    }
    let st;
    try {
      st = lstatSync5(path11.join(dir, rel));
    } catch {
      continue;
    }
    if (!st.isFile() && !st.isSymbolicLink()) continue;
    if (st.isFile() && st.size > HASH_LIMIT) alwaysOut.push(rel);
    else toHash.push(rel);
  }
  const files = {};
  if (toHash.length) {
    const scratch = path11.join(await repo.gitDir(), `loopgate-pre-run-index-${process.pid}`);
    try {
      await repo.run(["update-index", "--add", "--info-only", "-z", "--stdin"], {
        env: repo.env({ GIT_INDEX_FILE: scratch }),
        config: ["core.splitIndex=false"],
        input: `${toHash.join("\0")}\0`
      });
      for (const line of await repo.lsFiles(["-s"], { indexFile: scratch })) {
        const tab = line.indexOf("	");
        const [mode, blob] = line.slice(0, tab).split(" ");
        files[line.slice(tab + 1)] = `${mode} ${blob}`;
      }
    } finally {
      rmSync2(scratch, { force: true });
    }
  }
  const record = { files, alwaysOut };
  writeFileSync4(await recordFile(repo), JSON.stringify(record), { mode: 384 });
  return record;
}
async function readPreRunFiles(repo) {
  const file = await recordFile(repo);
  if (!existsSync3(file)) return null;
  try {
    const data = JSON.parse(readFileSync4(file, "utf8"));
    return data && typeof data.files === "object" && Array.isArray(data.alwaysOut) ? data : null;
  } catch {
    return null;
  }
}
function isAlwaysOut(file, record) {
  return record.alwaysOut.some((entry) => entry.endsWith("/") ? file.startsWith(entry) : file === entry);
}
function mayBePreRunAddition(file, record) {
  return file.startsWith('"') || Object.hasOwn(record.files, file) || isAlwaysOut(file, record);
}
function unchangedPreRunAdditions(raw, record) {
  const out = [];
  const parts = raw.split("\0");
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const meta = parts[i];
    const file = parts[i + 1];
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])\d*$/.exec(meta);
    if (!m || m[5] !== "A") continue;
    if (isAlwaysOut(file, record) || record.files[file] === `${m[2]} ${m[4]}`) out.push(file);
  }
  return out;
}

// src/git/status.ts
function nestedRepositories(changed) {
  return changed.filter((p) => p.endsWith("/"));
}

// src/git/publishable-tree.ts
var WORKFLOWS = ".github/workflows";
function pathspecExcludes(paths) {
  return paths.map((p) => `:(exclude,literal)${p}`);
}
function touchesWorkflows(file) {
  return file === ".github" || file === WORKFLOWS || file.startsWith(`${WORKFLOWS}/`);
}
async function stage(source, paths) {
  if (paths.length === 0) return [];
  const nested = nestedRepositories(paths);
  const named = paths.filter((p) => !nested.includes(p));
  const repo = await source.repo();
  const everything = [".", ...pathspecExcludes(nested)];
  if (named.some((p) => p.includes("\uFFFD"))) {
    await repo.addAll(everything);
    return nested;
  }
  if (named.length === 0) return nested;
  const staged = await repo.updateIndex(["--add", "--remove"], named);
  if (staged.exitCode !== 0) await repo.addAll(everything);
  return nested;
}
async function readStaged(source) {
  const repo = await source.repo();
  const [staged, tree, parent] = await Promise.all([repo.run(["diff", "--cached", "--numstat", "--no-renames"]), repo.writeTree(), source.head()]);
  return { numstat: staged.stdout, tree, parent };
}
function numstatFiles(numstat) {
  return numstat.split("\n").filter(Boolean).map((line) => line.split("	").slice(2).join("	"));
}
async function loopgateAndPreRunFiles(source, staged, only) {
  const own = [source.progressFile, only ? void 0 : source.featuresFile].filter((f) => !!f && staged.includes(f));
  const preRun = await source.preRun();
  if (!preRun || !staged.some((f) => mayBePreRunAddition(f, preRun))) return own;
  const raw = await (await source.repo()).run(["diff", "--cached", "--raw", "-z", "--no-abbrev", "--no-renames", "--diff-filter=A"]);
  return [...own, ...unchangedPreRunAdditions(raw.stdout, preRun).filter((f) => !own.includes(f))];
}
async function workflowChanges(source, candidates) {
  if (!candidates.some((p) => p === ".github" || p.startsWith(".github/"))) return [];
  const names = (await (await source.repo()).diffNames({}, [":(literal).github"])).filter(touchesWorkflows);
  if (names.length === 0) return [];
  return names.includes(".github") ? [".github"] : [WORKFLOWS];
}
async function resetToHead(source, paths) {
  await (await source.repo()).resetPaths(paths);
}
function describe(reverted, nested, workflows) {
  const notes = [];
  if (reverted.length)
    notes.push(`protected paths put back to the base before the commit: ${reverted.map((t) => `${t.path} (${t.change})`).join(", ")}`.slice(0, 2e3));
  if (nested.length) notes.push(`nested repositories are not committed: ${nested.slice(0, 10).join(", ")}`);
  if (workflows.length) notes.push(`workflow files are never committed by loopgate: the changes under ${workflows[0]} stay in the workspace only`);
  return notes;
}
async function publishableTree(source, rules, request = {}) {
  const changed = request.only ? [request.only] : request.changed ?? await (await source.repo()).statusPorcelain();
  const reverted = rules.revertProtected(source.dir, changed);
  const candidates = [.../* @__PURE__ */ new Set([...changed, ...reverted.map((t) => t.path)])];
  const nested = await stage(source, candidates);
  let index = await readStaged(source);
  const own = await loopgateAndPreRunFiles(source, numstatFiles(index.numstat), request.only);
  const workflows = await workflowChanges(source, candidates);
  if (own.length || workflows.length) {
    await resetToHead(source, [...own, ...workflows]);
    index = await readStaged(source);
  }
  return { ...index, reverted, notes: describe(reverted, nested, workflows) };
}
var OWN_CHANGE = { revertProtected: () => [] };
function ownCommitSource(repo, progressFile) {
  return { dir: repo.dir, repo: async () => repo, head: () => repo.head(), progressFile, preRun: async () => null };
}
async function commitPublishable(source, rules, request) {
  const tree = await publishableTree(source, rules, request);
  if (!tree.numstat.trim()) return { commit: null, tree };
  const repo = await source.repo();
  const commit = await repo.commitTree(tree.tree, [tree.parent], request.message);
  await repo.updateRef("HEAD", commit, { expect: tree.parent, message: `commit: ${request.message.split("\n")[0]}` });
  return { commit, tree };
}

// src/upgrade/ignore.ts
var import_semver10 = __toESM(require_semver(), 1);
function splitEntry(entry) {
  const at2 = entry.indexOf("@", 1);
  if (at2 === -1) return { name: entry };
  return { name: entry.slice(0, at2), range: entry.slice(at2 + 1) };
}
var NAME = /^(?:@[a-z0-9*~._-]+\/)?[a-z0-9*~._-]+$/i;
function nameMatcher(name) {
  const escaped = name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`, "i");
}
function parseIgnoreRule(entry) {
  const { name, range } = splitEntry(entry.trim());
  if (!NAME.test(name)) return `${JSON.stringify(name)} is not a package name`;
  if (range !== void 0) {
    if (range.trim() === "" || import_semver10.default.validRange(range) === null) return `${JSON.stringify(range)} is not a version or range`;
  }
  return { entry, name: nameMatcher(name), range: range?.trim() };
}
function ignoredBy({ rules, name, version, versions = SEMVER }) {
  return rules.find((r) => r.name.test(name) && (r.range === void 0 || versions.satisfies(version, r.range)));
}

// src/upgrade/select.ts
function upgradeCandidates(outdated, opts) {
  const versions = opts.versions ?? SEMVER;
  const candidates = [];
  const skipped = [];
  const sorted = [...outdated].sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const dep of sorted) {
    const pre = versions.prerelease(dep.current);
    const targets = [dep.latest, dep.wanted].filter(
      (v, i, all) => all.indexOf(v) === i && versions.compare(v, dep.current) > 0 && (pre || !versions.prerelease(v))
    );
    for (const to of targets) {
      const kind = versions.kind(dep.current, to);
      if (kind === "major" && !opts.allowMajor) {
        skipped.push(`${dep.name} ${dep.current} \u2192 ${to}: a major upgrade, held (allow-major is false)`);
        continue;
      }
      const rule = ignoredBy({ rules: opts.ignore, name: dep.name, version: to, versions });
      if (rule) {
        skipped.push(`${dep.name} ${dep.current} \u2192 ${to}: ignored (${rule.entry})`);
        continue;
      }
      candidates.push({ name: dep.name, from: dep.current, to, kind, type: dep.type });
    }
  }
  return { candidates, skipped };
}
function blockingAttempt({ attempts, candidate, base, versions = SEMVER }) {
  return attempts.find(
    (a) => a.package === candidate.name && a.lockfileHash === base.lockfileHash && a.testsHash === base.testsHash && (a.outcome === "verified" ? versions.valid(a.target) && versions.compare(candidate.to, a.target) <= 0 : a.target === candidate.to)
  );
}
function describeAttempt(a) {
  const how = a.outcome === "verified" ? "verified" : a.outcome === "bump-failed" ? "the bump itself failed" : `failed${a.fingerprint ? ` (fingerprint ${a.fingerprint})` : ""}`;
  return `${a.package} ${a.from} \u2192 ${a.target} ${how} in run ${a.runId} on the same lockfile and tests`;
}

// src/upgrade/prepare.ts
var MAX_BUMPS_PER_RUN = 5;
function bumpMessage(c) {
  return `chore(deps): bump ${c.name} from ${c.from} to ${c.to}`;
}
function upgradeBranch(loopId, c) {
  const slug = `${c.name.replace(/^@/, "")}-${c.to}`.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/\.{2,}/g, ".").replace(/^[-.]+|[-.]+$/g, "").replace(/\.lock$/, "-lock");
  return `loopgate/${loopId}-bump-${slug}`;
}
async function protectedTestsHash(repository, patterns) {
  const paths = new ProtectedPaths(patterns);
  const hash = createHash5("sha256");
  for (const entry of (await repository.lsTreeRecords("HEAD", { recursive: true })).sort()) {
    const tab = entry.indexOf("	");
    if (paths.kind(entry.slice(tab + 1)) === "file") hash.update(`${entry}
`);
  }
  return hash.digest("hex").slice(0, 32);
}
async function bumpPathspecs(repository, files) {
  const tracked = (await repository.lsTree("HEAD", { paths: [...files] })).map((e) => e.path);
  const changed = await repository.statusPaths(files.map((f) => `:(literal)${f}`));
  return [.../* @__PURE__ */ new Set([...tracked, ...changed])].filter((f) => files.includes(f)).map((f) => `:(literal)${f}`);
}
async function undoBump(repository, files) {
  const specs = await bumpPathspecs(repository, files);
  if (specs.length === 0) return;
  await repository.revertToHead(specs);
}
async function commitBump({ repository, files, candidate, author = LOCAL_AUTHOR }) {
  const specs = await bumpPathspecs(repository, files);
  if (specs.length === 0) return null;
  const changed = await repository.statusPaths(specs, { renames: false });
  if (changed.length === 0) return null;
  const source = ownCommitSource(repository.withAuthor(author));
  const { commit, tree } = await commitPublishable(source, OWN_CHANGE, { changed, message: bumpMessage(candidate) });
  if (!commit) return null;
  const staged = tree.numstat.split("\n").filter(Boolean).map((line) => line.split("	").slice(2).join("	"));
  return { commit, files: staged };
}
function detectManager(settings) {
  const manager = UPGRADE_MANAGERS.find((m) => m.detect(settings.workspace));
  if (manager) return manager;
  const declined = UPGRADE_MANAGERS.map((m) => m.declined?.(settings.workspace) ?? null).find((why) => why !== null);
  if (declined) {
    throw new ConfigError("task", settings.task ?? "", `a project whose package manager loopgate can upgrade with (${declined}; it never falls back to npm)`);
  }
  throw new ConfigError(
    "task",
    settings.task ?? "",
    `a workspace holding a project loopgate can upgrade (${[...new Set(UPGRADE_MANAGERS.map((m) => m.name))].join(", ")}: no package.json that npm, pnpm or Yarn manages, no poetry.lock or uv.lock, nor a requirements.txt with an exact pin or a pyproject.toml with a versioned requirement, found)`
  );
}
function refusedBump(search, c) {
  const now = search.opts.now ?? (() => /* @__PURE__ */ new Date());
  return {
    package: c.name,
    from: c.from,
    target: c.to,
    baseCommit: search.baseCommit,
    ...search.evidence,
    outcome: "bump-failed",
    fingerprint: null,
    runId: search.opts.runId,
    at: now().toISOString()
  };
}
async function bumpFirst(search, candidates) {
  const { settings, opts, manager, notes } = search;
  const workspace = settings.workspace;
  let bumps = 0;
  for (const candidate of candidates) {
    const blocker = blockingAttempt({ attempts: opts.attempts, candidate, base: search.evidence, versions: manager.versions });
    if (blocker) {
      notes.push(`not upgraded: ${candidate.name} ${candidate.from} \u2192 ${candidate.to}: ${describeAttempt(blocker)}`);
      continue;
    }
    if (bumps++ >= MAX_BUMPS_PER_RUN) break;
    const bumped = await manager.bump({ workspace, candidate, env: opts.env, signal: opts.signal });
    const files = bumped.files ?? manager.bumpFiles;
    const committed = bumped.ok ? await commitBump({ repository: opts.repository, files, candidate, author: settings.commitAuthor }) : null;
    if (!committed) {
      const why = bumped.ok ? `${manager.name} changed none of ${files.join(", ")}` : bumped.message;
      notes.push(`not upgraded: ${candidate.name} ${candidate.from} \u2192 ${candidate.to}: ${why}`);
      search.attempts.push(refusedBump(search, candidate));
      await undoBump(opts.repository, files);
      continue;
    }
    notes.push(`${bumpMessage(candidate)} (${candidate.kind}): committed by loopgate as ${committed.commit.slice(0, 12)} before any agent call`);
    const releaseNotes = await manager.releaseNotes({ workspace, candidate, env: opts.env, signal: opts.signal }).catch(() => []);
    return {
      kind: "ready",
      manager,
      candidate: { ...candidate, installedCopy: manager.installedCopy(candidate, workspace) },
      baseCommit: search.baseCommit,
      bumpCommit: committed.commit,
      bumpFiles: committed.files,
      evidence: search.evidence,
      releaseNotes,
      notes,
      attempts: search.attempts
    };
  }
  return null;
}
async function prepareUpgrade(settings, opts) {
  const workspace = settings.workspace;
  const manager = detectManager(settings);
  const ignore = settings.ignore.map(parseIgnoreRule).filter((r) => typeof r !== "string");
  const baseCommit = await opts.repository.head();
  const evidence = {
    lockfileHash: manager.lockfileHash(workspace),
    testsHash: await protectedTestsHash(opts.repository, settings.protectedPaths)
  };
  const lookup = await lookUpOutdated(manager, { workspace, opts });
  if ("stop" in lookup) return lookup.stop;
  const { dependencies: outdated, notes: lookupNotes } = lookup;
  const { candidates, skipped } = upgradeCandidates(outdated, { ignore, allowMajor: settings.allowMajor, versions: manager.versions });
  const search = { settings, opts, manager, baseCommit, evidence, notes: [...lookupNotes, ...skipped.map((s) => `not upgraded: ${s}`)], attempts: [] };
  const ready = await bumpFirst(search, candidates);
  if (ready) return ready;
  const what = outdated.length === 0 ? "no dependency is outdated" : "no outdated dependency is left to try";
  return { kind: "stop", stopReason: "nothing-to-do", notes: [`dependency-upgrade: ${what}; nothing was spent.`, ...search.notes], attempts: search.attempts };
}
async function lookUpOutdated(manager, { workspace, opts }) {
  try {
    return await manager.outdated(workspace, opts.env, opts.signal);
  } catch (err) {
    if (opts.signal?.aborted || err instanceof ConfigError) throw err;
    const said = (err instanceof Error ? err.message : String(err)).trim();
    const note = `dependency-upgrade: ${manager.name} could not list the outdated dependencies: ${said}. Check that the registry is reachable from the runner and that its address and credentials reach the package manager (its configuration file, or the variables named in agent-env); nothing was spent.`;
    return { stop: { kind: "stop", stopReason: "config-error", notes: [note], attempts: [...opts.attempts] } };
  }
}
var NOT_JUDGED = /* @__PURE__ */ new Set(["cancelled", "period-ceiling", "review-capacity", "state-corrupt", "config-error", "gate-broken"]);
function judgesTheUpgrade(stopReason, end = { calls: 0, lastGateFailed: false }) {
  if (stopReason === "cancelled") return end.calls > 0 && end.lastGateFailed;
  return !NOT_JUDGED.has(stopReason);
}
function settleUpgrade({ ready, end, runId, now = /* @__PURE__ */ new Date() }) {
  const { stopReason, lastVerdict } = end;
  if (!judgesTheUpgrade(stopReason, { calls: end.calls, lastGateFailed: lastVerdict?.passed === false })) return ready.attempts;
  const c = ready.candidate;
  return [
    ...ready.attempts,
    {
      package: c.name,
      from: c.from,
      target: c.to,
      baseCommit: ready.baseCommit,
      ...ready.evidence,
      outcome: stopReason === "verified" ? "verified" : "failed",
      fingerprint: lastVerdict && !lastVerdict.passed ? lastVerdict.fingerprint : null,
      runId,
      at: now.toISOString()
    }
  ];
}

// src/upgrade/outcome.ts
function verifiedByTheBump(opts) {
  const { ready, head, verdict } = opts;
  const at2 = opts.clock.now();
  opts.progress.ensure();
  opts.progress.appendStop("verified");
  opts.log.write({
    type: "upgrade",
    package: ready.candidate.name,
    from: ready.candidate.from,
    to: ready.candidate.to,
    bumpCommit: ready.bumpCommit,
    gate: { passed: verdict.passed, reason: verdict.reason, testsRun: verdict.testsRun ?? null },
    decision: verdict.flaky?.length ? `the bump alone passes the gate once its flaky tests ran again (${verdict.flaky.join(", ")}): no agent call` : "the bump alone passes the gate: no agent call"
  });
  opts.log.write({ type: "stop", stopReason: "verified", iterations: 0, spentUsd: 0, verifiedCommit: head, headCommit: head, claimedDone: 0, gateAgreed: 0 });
  return {
    stopReason: "verified",
    iterations: [],
    spentUsd: 0,
    startCommit: ready.baseCommit,
    headCommit: head,
    verifiedCommit: head,
    lastVerdict: verdict,
    lastEvidence: [],
    claimedDone: 0,
    gateAgreed: 0,
    startedAt: at2,
    endedAt: at2
  };
}
async function upgradePublishInfo({ ready, repository, loopId, head, exclude, flaky = [] }) {
  const pathspecs = [".", ...exclude.map((f) => `:(exclude,literal)${f}`)];
  const changed = await repository.diffNumstat(ready.bumpCommit, head, pathspecs);
  const c = ready.candidate;
  return {
    name: c.name,
    from: c.from,
    to: c.to,
    kind: c.kind,
    bumpCommit: ready.bumpCommit,
    bumpFiles: ready.bumpFiles,
    branch: upgradeBranch(loopId, c),
    changedAfterBump: changed,
    flakyOnBump: [...flaky]
  };
}

// src/bot-pr/bot-settings.ts
var FIX_DEPENDENCY_PR_PROMPT = "Make the protected gate pass on the dependency bot's pull request, keeping its bump.";
function forBotPullRequests(settings) {
  if (settings.task !== "fix-dependency-pr") return settings;
  const known = new Set(settings.allowUsers.map((u) => u.toLowerCase()));
  return {
    ...settings,
    onSuccess: settings.onSuccess === "none" ? "none" : "push",
    onEscalate: settings.onEscalate === "none" ? "none" : "comment",
    allowUsers: [...settings.allowUsers, ...settings.dependencyBots.filter((b) => !known.has(b.toLowerCase()))]
  };
}
function isDependencyBot(login, bots) {
  return bots.some((b) => b.toLowerCase() === login.toLowerCase());
}

// src/upgrade/task-prompt.ts
var MAX_FAILURES = 20;
function gateSection(gateCommand, verdict) {
  const lines = [`The protected gate (\`${gateCommand}\`) on the bumped tree: ${verdict.passed ? "passed" : `failed (${verdict.reason})`}.`];
  for (const f of verdict.failures.slice(0, MAX_FAILURES)) lines.push(`- failing: ${f.id}${f.message ? ` \u2014 ${f.message}` : ""}`);
  for (const id of verdict.flaky ?? [])
    lines.push(`- flaky, not your task: ${id} (failed on the bumped tree, then passed when the gate ran again on the same commit)`);
  if (verdict.failures.length > MAX_FAILURES) lines.push(`- \u2026 and ${verdict.failures.length - MAX_FAILURES} more failing tests`);
  if (!verdict.passed && verdict.outputTail.trim()) {
    lines.push("Gate output (end):", "```", verdict.outputTail.trim().split("\n").slice(-40).join("\n").slice(-4e3), "```");
  }
  return lines;
}
var packagesFolder = (copy) => {
  const at2 = copy.lastIndexOf("node_modules/");
  return at2 === -1 ? copy.split("/")[0] : copy.slice(0, at2 + "node_modules".length);
};
function upgradeTask(opts) {
  const { candidate: c } = opts;
  const installed = c.installedCopy ?? null;
  return [
    `Dependency upgrade: ${c.name} from ${c.from} to ${c.to} (a ${c.kind} upgrade, in ${c.type}).`,
    "",
    `loopgate has already bumped ${c.name} to ${c.to} in ${opts.bumpFiles.join(" and ")} (commit ${opts.bumpCommit.slice(0, 12)})` + (installed ? ` and installed it in ${packagesFolder(installed)}. ` : ". ") + `Your task: make the project work with ${c.name} ${c.to} so that the protected gate passes. Change the code that uses ${c.name}; do not move ${c.name} back or to another version, do not pin, override or patch it, and do not edit the tests.`,
    "",
    ...gateSection(opts.gateCommand, opts.verdict),
    "",
    opts.releaseNotes.length > 0 ? `Where the changes of ${c.name} ${c.to} are described:` : `The registry names no changelog or release notes for ${c.name} ${c.to}${installed ? `; read the installed package in ${installed}` : ""}.`,
    ...opts.releaseNotes.map((l) => `- ${l}`)
  ].join("\n");
}

// src/tasks/dependency-upgrade/index.ts
function bumpReference(ready) {
  const c = ready.candidate;
  return {
    commit: ready.bumpCommit,
    pinned: [c.name],
    bump: { before: ready.baseCommit, package: c.name, label: `loopgate's own bump to ${c.to} in this run` }
  };
}
var dependencyUpgrade = {
  name: "dependency-upgrade",
  prompt: "Upgrade the next outdated dependency and make the protected gate pass with it.",
  // The baseline decides whether to call the agent at all; it runs on the bump.
  baseline: { alongside: false, onBump: true, fromResumedBase: false },
  bumpCommit: ({ upgrade }) => upgrade?.bumpCommit,
  dependencyReference: ({ upgrade }, resumedBase) => upgrade ? bumpReference(upgrade) : { commit: resumedBase },
  passingBump: ({ upgrade }, { head, verdict, records }) => upgrade && verdict.passed ? verifiedByTheBump({ ready: upgrade, head, verdict, log: records.log, progress: records.progress, clock: records.clock }) : void 0,
  loopTask: ({ upgrade }, settings, verdict) => upgrade && verdict ? upgradeTask({
    candidate: upgrade.candidate,
    bumpCommit: upgrade.bumpCommit,
    bumpFiles: upgrade.bumpFiles,
    gateCommand: settings.gateCommand,
    verdict,
    releaseNotes: upgrade.releaseNotes
  }) : settings.prompt
};

// src/bot-pr/bot-outcome.ts
function gatePassesOnTheBump({ bump, head, verdict, records }) {
  const at2 = records.clock.now();
  records.progress.ensure();
  records.progress.appendStop("nothing-to-do");
  records.log.write({
    type: "stop",
    stopReason: "nothing-to-do",
    message: `the protected gate passes on the bot's head ${bump.headCommit.slice(0, 12)}: the failed check is not the gate's; no agent call`,
    iterations: 0,
    spentUsd: 0,
    headCommit: head
  });
  return {
    stopReason: "nothing-to-do",
    iterations: [],
    spentUsd: 0,
    startCommit: head,
    headCommit: head,
    verifiedCommit: null,
    lastVerdict: verdict,
    lastEvidence: [],
    claimedDone: 0,
    gateAgreed: 0,
    startedAt: at2,
    endedAt: at2
  };
}

// src/tasks/fix-dependency-pr/index.ts
function botBumpReference(bot) {
  const names = bot.packages.map((p) => p.name);
  return {
    commit: bot.headCommit,
    pinned: names,
    bump: { before: bot.baseCommit, ...names.length === 1 ? { package: names[0] } : {}, label: "the bot's bump in this pull request" }
  };
}
var fixDependencyPr = {
  name: "fix-dependency-pr",
  prompt: FIX_DEPENDENCY_PR_PROMPT,
  // The baseline decides whether to call the agent at all.
  baseline: { alongside: false, onBump: false, fromResumedBase: true },
  bumpCommit: ({ botBump }) => botBump?.headCommit,
  dependencyReference: ({ botBump }, resumedBase) => botBump ? botBumpReference(botBump) : { commit: resumedBase },
  passingBump: ({ botBump }, passed) => botBump && passed.verdict.passed ? gatePassesOnTheBump({ bump: botBump, ...passed }) : void 0,
  loopTask: (_work, settings) => settings.prompt
};

// src/tasks/prompt/index.ts
var prompt = {
  name: "prompt",
  // A resumed run's HEAD is the unfinished work: its baseline runs on the base that work started from.
  baseline: { alongside: true, onBump: false, fromResumedBase: true },
  bumpCommit: () => void 0,
  dependencyReference: (_work, resumedBase) => ({ commit: resumedBase }),
  loopTask: (_work, settings) => settings.prompt
};

// src/tasks/task-registry.ts
var TASK_SPECS = [prompt, dependencyUpgrade, fixDependencyPr];
var registry2 = new Map(TASK_SPECS.map((spec) => [spec.name, spec]));
function taskSpec(name) {
  const spec = registry2.get(name ?? "prompt");
  if (!spec) throw new Error(`unknown task ${JSON.stringify(name)} (known: ${[...registry2.keys()].join(", ")})`);
  return spec;
}

// src/isolation/allowed-hosts.ts
var NAME2 = /^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$/;
var IPV6 = /^\[[0-9a-f:.]+\](?::\d{1,5})?$/;
function badHostEntry(entry) {
  const e = entry.toLowerCase();
  if (NAME2.test(e) || IPV6.test(e)) {
    const port = /:(\d+)$/.exec(e.replace(/^\[[^\]]*\]/, ""));
    if (port && (Number(port[1]) < 1 || Number(port[1]) > 65535)) return "a port from 1 to 65535";
    return null;
  }
  return "an exact host name, `*.suffix`, an IP address, each optionally with `:port`, or `*` alone";
}
function hostRules(entries) {
  if (entries.length === 1 && entries[0] === "*") return { any: true, patterns: [] };
  return { any: false, patterns: [...new Set(entries.map((e) => e.toLowerCase()))] };
}
function splitPort(pattern) {
  const m = /^(\[[^\]]*\]|[^:]+)(?::(\d+))?$/.exec(pattern);
  return m ? { host: m[1].replace(/^\[|\]$/g, ""), port: m[2] ? Number(m[2]) : null } : { host: pattern, port: null };
}
function hostAllowed(rules, host, port) {
  if (rules.any) return true;
  const name = host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return rules.patterns.some((pattern) => {
    const p = splitPort(pattern);
    if (p.port !== null && p.port !== port) return false;
    return p.host.startsWith("*.") ? name.endsWith(p.host.slice(1)) && name.length > p.host.length - 1 : name === p.host;
  });
}
var LOOPBACK = /* @__PURE__ */ new Set(["127.0.0.1", "localhost", "::1"]);
function loopbackPorts(rules) {
  return rules.patterns.flatMap((pattern) => {
    const p = splitPort(pattern);
    return p.port !== null && LOOPBACK.has(p.host) ? [p.port] : [];
  });
}
function proxiedLoopback(rules) {
  return [...LOOPBACK].filter((name) => rules.patterns.some((pattern) => pattern === name));
}

// src/fs/remove-in-background.ts
import { spawn as spawn3 } from "node:child_process";
import { renameSync, rmSync as rmSync3 } from "node:fs";
function removeInBackground(paths) {
  if (paths.length) spawn3("rm", ["-rf", "--", ...paths], { detached: true, stdio: "ignore" }).unref();
}
function discardInBackground(dirs) {
  const aside = [];
  for (const dir of dirs) {
    const moved = `${dir}.removed-${process.pid}-${Date.now()}`;
    try {
      renameSync(dir, moved);
      aside.push(moved);
    } catch (err) {
      if (err.code !== "ENOENT") rmSync3(dir, { recursive: true, force: true });
    }
  }
  removeInBackground(aside);
}

// src/gate/toolchain/workspace-paths.ts
import { lstatSync as lstatSync6, readdirSync as readdirSync4, readFileSync as readFileSync5, readlinkSync, realpathSync, symlinkSync, unlinkSync as unlinkSync2, writeFileSync as writeFileSync5 } from "node:fs";
import path12 from "node:path";
var TEXT_FILE_LIMIT = 1024 * 1024;
function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
function workspaceSpellings(workspace) {
  const given = path12.resolve(workspace);
  let real = given;
  try {
    real = realpathSync(given);
  } catch {
  }
  return [.../* @__PURE__ */ new Set([given, real])].sort((a, b) => b.length - a.length);
}
function workspacePattern(workspace) {
  const alternatives = workspaceSpellings(workspace).map(escapeRegExp).join("|");
  return new RegExp(`(?:${alternatives})(?=$|[/\\s'"\\]\\[,;:)}])`, "gm");
}
function venvPathFiles(root) {
  const out = [];
  const list = (rel) => {
    try {
      return readdirSync4(path12.join(root, rel));
    } catch {
      return [];
    }
  };
  out.push("pyvenv.cfg");
  for (const name of list("bin")) out.push(`bin/${name}`);
  for (const lib of ["lib", "lib64", "Lib"]) {
    for (const py of list(lib)) {
      const site = `${lib}/${py}/site-packages`;
      for (const name of list(site)) {
        if (/\.(pth|egg-link|py)$/.test(name) || name.startsWith("__editable__")) out.push(`${site}/${name}`);
        if (name.endsWith(".dist-info")) out.push(`${site}/${name}/direct_url.json`);
      }
    }
    if (lib === "Lib") {
      for (const name of list(`${lib}/site-packages`)) if (/\.(pth|egg-link|py)$/.test(name)) out.push(`${lib}/site-packages/${name}`);
    }
  }
  return out;
}
function symlinksUnder(root) {
  const out = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync4(path12.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isSymbolicLink()) out.push(child);
      else if (e.isDirectory()) walk(child);
    }
  };
  walk("");
  return out;
}
function redirectWorkspacePaths(r) {
  const pattern = workspacePattern(r.workspace);
  const spellings = workspaceSpellings(r.workspace);
  const rewritten = [];
  for (const rel of symlinksUnder(r.copy)) {
    const link = path12.join(r.copy, rel);
    const target = readlinkSync(link);
    if (!path12.isAbsolute(target)) continue;
    const inside = spellings.find((ws) => target === ws || target.startsWith(`${ws}/`));
    if (inside === void 0) continue;
    unlinkSync2(link);
    symlinkSync(path12.join(r.checkout, path12.relative(inside, target)), link);
    rewritten.push(`${r.name}/${rel}`);
  }
  if (!r.virtualenv) return rewritten;
  for (const rel of venvPathFiles(r.copy)) {
    const file = path12.join(r.copy, rel);
    let st;
    try {
      st = lstatSync6(file);
    } catch {
      continue;
    }
    if (!st.isFile() || st.size > TEXT_FILE_LIMIT) continue;
    const data = readFileSync5(file);
    if (data.includes(0)) continue;
    const text = data.toString("utf8");
    pattern.lastIndex = 0;
    if (!pattern.test(text)) continue;
    pattern.lastIndex = 0;
    writeFileSync5(
      file,
      text.replace(pattern, () => r.checkout)
    );
    rewritten.push(`${r.name}/${rel}`);
  }
  return rewritten;
}
function isVirtualenv(dir) {
  try {
    return lstatSync6(path12.join(dir, "pyvenv.cfg")).isFile();
  } catch {
    return false;
  }
}
function outsideVenvsNamingWorkspace(pathVar, workspace) {
  const pattern = workspacePattern(workspace);
  const spellings = workspaceSpellings(workspace);
  const found = [];
  for (const bin of new Set((pathVar ?? "").split(":").filter((d) => path12.isAbsolute(d)))) {
    const venv = path12.dirname(bin);
    if (spellings.some((ws) => venv === ws || venv.startsWith(`${ws}/`)) || !isVirtualenv(venv)) continue;
    for (const rel of venvPathFiles(venv)) {
      if (rel.startsWith("bin/") || rel === "pyvenv.cfg") continue;
      const file = path12.join(venv, rel);
      try {
        const st = lstatSync6(file);
        if (!st.isFile() || st.size > TEXT_FILE_LIMIT) continue;
        pattern.lastIndex = 0;
        if (pattern.test(readFileSync5(file, "utf8"))) found.push(file);
      } catch {
        continue;
      }
    }
  }
  return found;
}

// src/gate/checkout/workspace-installs.ts
import { lstatSync as lstatSync7, readFileSync as readFileSync6 } from "node:fs";
import path13 from "node:path";
var isFolder = (dir) => lstatSync7(dir, { throwIfNoEntry: false })?.isDirectory() === true;
function entryPaths(manifest) {
  if (!manifest || typeof manifest !== "object") return [];
  const m = manifest;
  const found = [];
  const walk = (value) => {
    if (typeof value === "string") found.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  for (const field of ["main", "module", "types", "typings", "exports", "bin"]) walk(m[field]);
  return found;
}
function entryFolder(entry) {
  const parts = path13.posix.normalize(entry.replace(/^\.\//, "")).split("/");
  if (parts.length < 2 || parts[0] === ".." || parts[0] === "" || parts[0] === "." || parts[0] === "node_modules") return null;
  return parts[0];
}
async function workspaceInstalls(top, repository) {
  const manifests = await repository.lsFiles(["--", ":(glob)**/package.json"]);
  const found = /* @__PURE__ */ new Set();
  for (const manifest of manifests) {
    const dir = path13.posix.dirname(manifest);
    if (dir === "." || dir.split("/").includes("node_modules")) continue;
    let parsed2;
    try {
      parsed2 = JSON.parse(readFileSync6(path13.join(top, manifest), "utf8"));
    } catch {
      continue;
    }
    const candidates = [
      "node_modules",
      ...entryPaths(parsed2).map(entryFolder).filter((f) => f !== null)
    ];
    for (const folder of candidates) {
      const rel = `${dir}/${folder}`;
      if (!found.has(rel) && isFolder(path13.join(top, rel))) found.add(rel);
    }
  }
  if (found.size === 0) return [];
  const tracked = await repository.lsFiles(["--", ...[...found].map((rel) => `:(literal)${rel}`)]);
  const isTracked = (rel) => tracked.some((file) => file === rel || file.startsWith(`${rel}/`));
  return [...found].filter((rel) => !isTracked(rel)).sort();
}

// src/gate/reports/failure-frames.ts
var FRAMES = [/^\s*at (?:.*? \()?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?(?: \{)?\s*$/, /^\s*❯\s+(\S+?):(\d+)(?::\d+)?\s*$/, /^(\S+\.py):(\d+): /];
var NOT_THE_PROJECT = /^(?:node:|internal\/|<anonymous>|native$)|[\\/]node_modules[\\/]|^evalmachine|[\\/]site-packages[\\/]|[\\/]_pytest[\\/]/;
var TEST_FILE = /(?:^|[\\/])(?:tests?|__tests__|spec|specs)[\\/]|[._-](?:test|spec)\.[cm]?[jt]sx?$|(?:^|[\\/])test_[^\\/]*\.py$|_test\.py$/;
function frameOf(line) {
  for (const pattern of FRAMES) {
    const m = pattern.exec(line);
    if (m) return { file: m[1].replace(/^file:\/\//, ""), line: m[2] };
  }
  return null;
}
function failureLocations(lines) {
  let first = null;
  let inTest = null;
  for (const raw of lines.slice(0, 400)) {
    const frame = frameOf(raw);
    if (!frame || NOT_THE_PROJECT.test(frame.file)) continue;
    const at2 = `at ${frame.file}:${frame.line}`;
    first ??= at2;
    if (TEST_FILE.test(frame.file)) {
      inTest = at2;
      break;
    }
  }
  return [...new Set([first, inTest].filter((l) => l !== null))];
}

// src/gate/reports/failure-text.ts
var MESSAGE_MAX_LINES = 40;
var MESSAGE_MAX_CHARS = 4096;
var ANSI = /(?:\u001b|#x1B)\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g;
function stripAnsi(text) {
  return text.replace(ANSI, "");
}
var LOCATION_LINE = [
  /^\s*at .*(?::\d+:\d+\)?|\(<anonymous>\)|\(native\)|\(index \d+\))(?: \{)?\s*$/,
  // JS stack frame
  /^\s*❯\s+\S+:\d+(?::\d+)?\s*$/,
  // vitest frame
  /^\s*(?:>\s*)?\d+\s*\|.*$/,
  // code frame line (jest, vitest)
  /^\s*\|\s*\^+\s*$/
  // code frame caret
];
function isLocation(line) {
  return LOCATION_LINE.some((p) => p.test(line));
}
function boundMessage(text) {
  let lines = text.split("\n");
  let cut = false;
  if (lines.length > MESSAGE_MAX_LINES) {
    lines = lines.slice(0, MESSAGE_MAX_LINES);
    cut = true;
  }
  let out = lines.join("\n");
  if (out.length > MESSAGE_MAX_CHARS) {
    out = out.slice(0, MESSAGE_MAX_CHARS);
    cut = true;
  }
  return cut ? `${out}
\u2026` : out;
}
function failureText(raw) {
  let lines = stripAnsi(raw.slice(0, 64 * 1024)).replace(/\r\n?/g, "\n").split("\n").slice(0, 400);
  const locations = failureLocations(lines);
  const pytest = lines.filter((l) => /^E(?:\s|$)/.test(l));
  if (pytest.length > 0) lines = pytest.map((l) => l.replace(/^E ?/, ""));
  lines = lines.filter((l) => !isLocation(l)).map((l) => l.trimEnd());
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const common2 = lines.filter((l) => l !== "").reduce((min, l) => Math.min(min, /^ */.exec(l)[0].length), Infinity);
  const kept = [];
  for (const line of lines) {
    if (line === "" && kept[kept.length - 1] === "") continue;
    kept.push(Number.isFinite(common2) ? line.slice(common2) : line);
  }
  const message = boundMessage(kept.join("\n"));
  return locations.length > 0 ? [...message ? [message] : [], ...locations].join("\n") : message;
}
function withoutDuration(text) {
  const t = text.trimEnd();
  const tail3 = t.slice(-40);
  const m = /\s\(?\d+(?:\.\d+)?\s?m?s\)?$/.exec(tail3);
  return m ? t.slice(0, t.length - tail3.length + m.index).trimEnd() : t;
}
function firstLineOf(text) {
  return text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
}

// src/gate/reports/test-runner.ts
function indentOf(line) {
  return /^\s*/.exec(line)[0].length;
}

// src/gate/reports/rerun-filter.ts
import { existsSync as existsSync4 } from "node:fs";
import path14 from "node:path";

// src/gate/reports/command-words.ts
var UNSAFE = /[;&|<>()`$\\\n#]/;
var ENV_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;
var baseName = (word) => word.slice(word.lastIndexOf("/") + 1);
function quoted(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
function simpleWords(command2) {
  if (UNSAFE.test(command2)) return null;
  const words = command2.trim().split(/\s+/).filter(Boolean);
  if (words.some((w) => /["']/.test(w) && !/^(["'])[^"']*\1$/.test(w))) return null;
  return words.length ? words : null;
}
function commandSegments(command2) {
  return command2.split(/&&|\|\||[;|\n&]/).map(
    (segment) => segment.replace(/[()`]/g, " ").trim().split(/\s+/).map((w) => w.replace(/^["']|["']$/g, "")).filter(Boolean)
  ).filter((words) => words.length > 0);
}
function withoutPrefix(words) {
  let i = 0;
  while (i < words.length && (ENV_ASSIGNMENT.test(words[i]) || /^(?:env|exec|time|command)$/.test(words[i]))) i++;
  return { at: i, words: words.slice(i) };
}

// src/gate/reports/rerun-filter.ts
function literal(text) {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}
function idParts(id) {
  return id.split(" \u203A ");
}
function anyOf(names) {
  return `^(?:${[...new Set(names)].map(literal).join("|")})$`;
}
function pytestNodeId(id, checkout) {
  const parts = idParts(id);
  if (parts.length !== 2) return null;
  const [classname, name] = parts;
  const dotted = classname.split(".");
  for (let i = 1; i <= dotted.length; i++) {
    const file = `${dotted.slice(0, i).join("/")}.py`;
    if (!existsSync4(path14.join(checkout, file))) continue;
    return [file, ...dotted.slice(i), name].join("::");
  }
  return null;
}

// src/gate/reports/runners/jest.ts
var FILE = /^\s?(?:PASS|FAIL)\s+(\S+)/;
var BULLET = /^(\s*)● (\S.*)$/;
var END = /^(?:Test Suites:|Summary of all failing tests)/;
function jestCounts(text) {
  const jest = /^Tests:[ \t]+(.*?)\b(\d+) total/m.exec(text);
  if (!jest) return null;
  const skipped = Number(/(\d+) skipped/.exec(jest[1])?.[1] ?? 0) + Number(/(\d+) todo/.exec(jest[1])?.[1] ?? 0);
  return { tests: Number(jest[2]), skipped };
}
function byFileAndName(ids, fileFilter) {
  const parts = ids.map(idParts);
  if (parts.some((p) => p.length < 2)) return null;
  const files = [...new Set(parts.map((p) => p[0]))];
  return ["-t", quoted(anyOf(parts.map((p) => p.slice(1).join(" ")))), ...files.map((f) => quoted(fileFilter(f)))];
}
var jestRunner = {
  id: "jest",
  configFiles: ["**/jest.config*", "**/jest.setup*", "**/jest-setup.*", "**/setupTests.*"],
  recognises: (text) => /^Test Suites:[ \t]+\d+/m.test(text) || /^[ \t]*● \S/m.test(text) && /^(?:PASS|FAIL)[ \t]+\S/m.test(text),
  counts: jestCounts,
  only: (ids) => byFileAndName(ids, (file) => `${literal(file)}$`),
  failures(lines, failures) {
    let file = "";
    for (let i = 0; i < lines.length; i++) {
      const f = FILE.exec(lines[i]);
      if (f) {
        file = f[1];
        continue;
      }
      const b = BULLET.exec(lines[i]);
      const title = b?.[2].trimEnd();
      if (!b || !title || title === "Console") continue;
      const block = [];
      let j = i + 1;
      for (; j < lines.length; j++) {
        const l = lines[j];
        if (FILE.test(l) || END.test(l) || BULLET.test(l) && indentOf(l) <= b[1].length) break;
        block.push(l);
      }
      const id = title === "Test suite failed to run" ? file || title : file ? `${file} \u203A ${title}` : title;
      failures.add(id, failureText(block.join("\n")));
      i = j - 1;
    }
  }
};

// src/gate/reports/runners/mocha.ts
var HEADER = /^ {2}(\d+)\) (.*)$/;
function mochaCounts(text) {
  const mocha = /^[ \t]*(\d+) passing/m.exec(text);
  if (!mocha) return null;
  const failing = Number(/^[ \t]*(\d+) failing/m.exec(text)?.[1] ?? 0);
  const pending = Number(/^[ \t]*(\d+) pending/m.exec(text)?.[1] ?? 0);
  return { tests: Number(mocha[1]) + failing + pending, skipped: pending };
}
var mochaRunner = {
  id: "mocha",
  configFiles: ["**/.mocharc*"],
  recognises: (text) => /^[ \t]*\d+ passing \(\d/m.test(text) || /^[ \t]*\d+ failing[ \t]*$/m.test(text),
  counts: mochaCounts,
  // `--grep` matches the full title (suites and test, joined by spaces); the xunit report files a
  // test outside any suite under the root suite, `Mocha Tests`.
  only: (ids) => {
    const titles = ids.map(idParts).flatMap((p) => p[0] === "Mocha Tests" && p.length > 1 ? [p.join(" "), p.slice(1).join(" ")] : [p.join(" ")]);
    return ["--grep", quoted(anyOf(titles))];
  },
  failures(lines, failures) {
    const start = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l));
    if (start < 0) return;
    for (let i = start + 1; i < lines.length; i++) {
      const h = HEADER.exec(lines[i]);
      if (!h) continue;
      const title = [h[2].trim()];
      let j = i + 1;
      while (!title[title.length - 1].endsWith(":") && j < lines.length && lines[j].trim() !== "" && j - i < 20) title.push(lines[j++].trim());
      title[title.length - 1] = title[title.length - 1].replace(/:$/, "");
      const block = [];
      for (; j < lines.length && !HEADER.test(lines[j]); j++) block.push(lines[j]);
      failures.add(title.join(" \u203A "), failureText(block.map((l) => l.replace(/^ {6}/, "")).join("\n")));
      i = j - 1;
    }
  }
};

// src/gate/reports/report-model.ts
var MAX_FAILURES2 = 500;
function relativeTo(root, failures) {
  if (!root || root === "/") return failures;
  const strip = (text) => text.split(`file://${root}/`).join("").split(`${root}/`).join("");
  return failures.map((f) => ({ id: strip(f.id), message: strip(f.message) }));
}
var FailureList = class {
  items = [];
  seen = /* @__PURE__ */ new Set();
  add(id, message) {
    const key = `${id}	${message}`;
    if (this.items.length >= MAX_FAILURES2 || this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push({ id, message });
  }
};

// src/gate/reports/formats/tap.ts
var TEST_POINT = /^(\s*)(not ok|ok)\b/i;
var SUBTEST = /^(\s*)#\s*Subtest:\s*(.*)$/;
var SUMMARY_COMMENT = /^\s*#\s*(?:tests|suites|pass|fail|cancelled|skipped|skip|todo|duration_ms)\b/;
function testPoint(line) {
  const m = TEST_POINT.exec(line);
  if (!m) return null;
  const rest = line.slice(m[0].length);
  const hash = rest.indexOf("#");
  let head = (hash < 0 ? rest : rest.slice(0, hash)).trim();
  const number = /^\d+/.exec(head)?.[0];
  if (number) head = head.slice(number.length).trim();
  if (head.startsWith("-")) head = head.slice(1).trim();
  const directive = hash < 0 ? void 0 : /^\s*(SKIP|TODO)/i.exec(rest.slice(hash + 1))?.[1].toUpperCase();
  return { indent: m[1].length, ok: m[2].toLowerCase() === "ok", number, name: head, directive };
}
function unquote2(value) {
  const v = value.trim();
  if (v.length >= 2 && v[0] === "'" && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  if (v.length >= 2 && v[0] === '"' && v.endsWith('"')) {
    try {
      return JSON.parse(v);
    } catch {
      return v.slice(1, -1);
    }
  }
  return v;
}
function yamlFields(lines) {
  const fields = /* @__PURE__ */ new Map();
  const keyLines = lines.filter((l) => l.trim() !== "");
  if (keyLines.length === 0) return fields;
  const base = indentOf(keyLines[0]);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (indentOf(line) !== base) continue;
    const m = /^\s*([A-Za-z_][\w-]*):\s*(.*)$/.exec(line);
    if (!m) continue;
    const inline = m[2].trim();
    if (inline && !/^[|>][-+]?$/.test(inline)) {
      fields.set(m[1], unquote2(inline));
      continue;
    }
    const body = [];
    for (let j = i + 1; j < lines.length && (lines[j].trim() === "" || indentOf(lines[j]) > base); j++) body.push(lines[j]);
    const inner = body.filter((l) => l.trim() !== "").reduce((min, l) => Math.min(min, indentOf(l)), Infinity);
    const cut = Number.isFinite(inner) ? inner : 0;
    fields.set(
      m[1],
      body.map((l) => l.slice(cut)).join("\n").replace(/\s+$/, "")
    );
  }
  return fields;
}
function diagnostics(block) {
  const start = block.findIndex((l) => l.trim() !== "");
  if (start >= 0 && block[start].trim() === "---") {
    const end = block.findIndex((l, i) => i > start && indentOf(l) <= indentOf(block[start]) && l.trim() === "...");
    const fields = yamlFields(block.slice(start + 1, end < 0 ? block.length : end));
    const parts = [fields.get("error") ?? fields.get("message") ?? ""];
    for (const key of ["expected", "actual", "wanted", "found"]) {
      const v = fields.get(key);
      if (v !== void 0) parts.push(v.includes("\n") ? `${key}:
${v.replace(/^/gm, "  ")}` : `${key}: ${v}`);
    }
    const frames = (fields.get("stack") ?? "").split("\n").filter((l) => l.trim() !== "").map((l) => `at ${l.trim()}`);
    return { message: failureText([...parts.filter((p) => p !== ""), ...frames].join("\n")), failureType: fields.get("failureType") ?? "" };
  }
  const plain = block.filter((l) => !SUBTEST.test(l) && !SUMMARY_COMMENT.test(l)).map((l) => l.replace(/^(\s*)#\s?/, "$1"));
  return { message: failureText(plain.join("\n")), failureType: "" };
}
function parseTap(text) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  let tests = 0;
  let skipped = 0;
  const failures = new FailureList();
  const passedIds = [];
  const failedIds = [];
  const skippedIds = [];
  let sawPlanOrTest = false;
  let open = [];
  let lastPointIndent = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*1\.\.\d+/.test(line)) sawPlanOrTest = true;
    const sub = SUBTEST.exec(line);
    if (sub) {
      open = open.filter((o) => o.indent < sub[1].length);
      open.push({ indent: sub[1].length, name: sub[2].trim() });
      continue;
    }
    const point = testPoint(line);
    if (!point) continue;
    sawPlanOrTest = true;
    const indent = point.indent;
    const isParent = lastPointIndent > indent;
    lastPointIndent = indent;
    const parents = open.filter((o) => o.indent < indent).map((o) => o.name);
    open = open.filter((o) => o.indent < indent);
    const name = point.name || `test ${point.number ?? tests + 1}`;
    const id = [...parents, name].join(" \u203A ");
    const block = [];
    for (let j = i + 1; j < lines.length; j++) {
      const next = lines[j];
      if (next.trim() !== "" && (indentOf(next) < indent || indentOf(next) === indent && !/^\s*#(?!\s*Subtest:)/.test(next))) break;
      if (TEST_POINT.test(next) || SUBTEST.test(next)) break;
      block.push(next);
    }
    const directive = point.directive;
    const failedPoint = !point.ok && directive !== "TODO";
    if (isParent) {
      if (!failedPoint) continue;
      const d = diagnostics(block);
      if (d.failureType !== "subtestsFailed" && !/^\d+ subtests? failed$/.test(d.message)) failures.add(id, d.message);
      continue;
    }
    tests++;
    if (directive === "SKIP") {
      skipped++;
      skippedIds.push(id);
    } else if (!failedPoint) passedIds.push(id);
    else {
      failures.add(id, diagnostics(block).message);
      failedIds.push(id);
    }
  }
  if (!sawPlanOrTest) throw new Error("not a TAP report (no plan and no test lines)");
  return { format: "tap", tests, failed: failures.items.length, skipped, failures: failures.items, passedIds, failedIds, skippedIds };
}
function tapIn(text) {
  const version = /^TAP version \d+[ \t]*$/m.exec(text);
  const planned = /^1\.\.\d+[ \t]*$/m.test(text) && /^(?:not )?ok \d+\b/m.test(text);
  if (!version && !planned) return null;
  try {
    return parseTap(version ? text.slice(version.index) : text);
  } catch {
    return null;
  }
}
function tapSummaryCounts(text) {
  const tapTests = /^(?:#|ℹ) tests (\d+)/m.exec(text);
  if (!tapTests) return null;
  return { tests: Number(tapTests[1]), skipped: Number(/^(?:#|ℹ) skip(?:ped)? (\d+)/m.exec(text)?.[1] ?? 0) };
}
var tapFormat = {
  id: "tap",
  isFile: () => true,
  parse: (text) => parseTap(text),
  inConsole: (text) => tapIn(text)
};

// src/gate/reports/runners/node-test.ts
var SUITE = /^(\s*)▶ (\S.*)$/;
var MARKED = /^(\s*)✖ (\S.*)$/;
function failedTest(line) {
  const m = MARKED.exec(line);
  if (!m) return null;
  const hash = m[2].indexOf(" # ");
  const text = (hash < 0 ? m[2] : m[2].slice(0, hash)).trimEnd();
  const name = withoutDuration(text);
  return name === text ? null : { indent: m[1].length, name };
}
var FRAME_WITH_PROPS = /^\s*at .* \{\s*$/;
function withoutErrorProps(block) {
  const start = block.findLastIndex((l) => FRAME_WITH_PROPS.test(l));
  if (start < 0) return block;
  const indent = indentOf(block[start]);
  const props = [];
  let end = start + 1;
  for (; end < block.length && !/^\s*\}\s*$/.test(block[end]); end++) {
    if (/^\s*(?:actual|expected):/.test(block[end]) && indentOf(block[end]) < indent + 4) props.push(block[end].replace(/,\s*$/, ""));
  }
  return [...block.slice(0, start), ...props, ...block.slice(end + 1)];
}
var nodeTestRunner = {
  id: "node:test",
  configFiles: [],
  recognises: (text) => /^ℹ tests \d+/m.test(text) || /^✖ failing tests:/m.test(text),
  counts: tapSummaryCounts,
  // Node 20 matches a pattern against each test's own name, later versions against the names of
  // its suites and its own joined by spaces: the test's name at the end matches both.
  only: (ids) => [quoted(`--test-name-pattern=(?:^| )(?:${[...new Set(ids.map((id) => literal(idParts(id).at(-1))))].join("|")})$`)],
  failures(lines, failures) {
    const recap = lines.findIndex((l) => /^✖ failing tests:/.test(l));
    const end = recap < 0 ? lines.length : recap;
    let open = [];
    for (let i = 0; i < end; i++) {
      const s = SUITE.exec(lines[i]);
      if (s) {
        open = open.filter((o) => o.indent < s[1].length);
        open.push({ indent: s[1].length, name: s[2].trimEnd() });
        continue;
      }
      const f = failedTest(lines[i]);
      if (!f) continue;
      const indent = f.indent;
      const closesSuite = open.some((o) => o.indent === indent && o.name === f.name);
      const parents = open.filter((o) => o.indent < indent).map((o) => o.name);
      open = open.filter((o) => o.indent < indent);
      const block = [];
      let j = i + 1;
      for (; j < end && (lines[j].trim() === "" || indentOf(lines[j]) > indent); j++) block.push(lines[j]);
      const message = failureText(withoutErrorProps(block).join("\n"));
      if (!closesSuite || message && !/subtests? failed/.test(message)) failures.add([...parents, f.name].join(" \u203A "), message);
      i = j - 1;
    }
  }
};

// src/gate/reports/runners/pytest.ts
var REGION = /^=+ (FAILURES|ERRORS|.*) =+$/;
var SECTION = /^_{3,} (.+?) _{3,}$/;
var SUMMARY = /^(FAILED|ERROR) (\S+)(?: - (.*))?$/;
var OUTCOME = "(?:passed|failed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)";
var QUIET_SUMMARY = new RegExp(`^(?:\\d+ ${OUTCOME}(?:, \\d+ ${OUTCOME})*|no tests ran) in \\d[\\d.]*s\\b`);
function pytestSummaryLine(text) {
  let found = null;
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd();
    const framed = line.startsWith("=") && line.endsWith("=");
    const inner = framed ? line.replace(/^=+/, "").replace(/=+$/, "").trim() : line;
    if (framed ? / in \d[\d.]*s\b/.test(inner) && /\b(?:passed|failed|errors?|skipped|no tests ran)\b/.test(inner) : QUIET_SUMMARY.test(inner)) found = inner;
  }
  return found;
}
function pytestCounts(text) {
  const summary = pytestSummaryLine(text);
  if (summary === null) return null;
  const interrupted = /^!+ Interrupted: \d+ errors? during collection !+$/m.test(text);
  let tests = 0;
  let skipped = 0;
  for (const m of summary.replace(/ in \d[\d.]*s\b.*$/, "").matchAll(/(\d+) (passed|failed|skipped|xfailed|xpassed|errors?)\b/g)) {
    if (interrupted && /^error/.test(m[2])) continue;
    tests += Number(m[1]);
    if (m[2] === "skipped" || m[2] === "xfailed") skipped += Number(m[1]);
  }
  return { tests, skipped };
}
function sectionKey(nodeId) {
  const parts = nodeId.split("::");
  return parts.length > 1 ? parts.slice(1).join(".") : nodeId;
}
var pytestRunner = {
  id: "pytest",
  configFiles: ["**/pytest.ini", "**/.pytest.ini", "**/pytest.toml", "**/.pytest.toml", "**/tox.ini", "**/setup.cfg", "**/conftest.py"],
  recognises: (text) => /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info) =+$/m.test(text) || pytestSummaryLine(text) !== null,
  counts: pytestCounts,
  only(ids, checkout) {
    const nodeIds = ids.map((id) => pytestNodeId(id, checkout));
    return nodeIds.every((n) => n !== null) ? nodeIds.map((n) => quoted(n)) : null;
  },
  failures(lines, failures) {
    const sections = /* @__PURE__ */ new Map();
    let region = "";
    for (let i = 0; i < lines.length; i++) {
      const r = REGION.exec(lines[i]);
      if (r) {
        region = r[1];
        continue;
      }
      const s = region === "FAILURES" || region === "ERRORS" ? SECTION.exec(lines[i]) : null;
      if (!s) continue;
      const block = [];
      let j = i + 1;
      for (; j < lines.length && !SECTION.test(lines[j]) && !REGION.test(lines[j]) && !/^-{3,} .* -{3,}$/.test(lines[j]); j++) block.push(lines[j]);
      const title = s[1].replace(/^ERROR (?:at (?:setup|teardown) of |collecting )/, "");
      if (!sections.has(title)) sections.set(title, failureText(block.join("\n")));
      i = j - 1;
    }
    const summary = lines.map((l) => SUMMARY.exec(l)).filter((m) => m !== null);
    if (summary.length === 0) {
      for (const [title, message] of sections) failures.add(title, message);
      return;
    }
    for (const m of summary) {
      const message = sections.get(sectionKey(m[2])) ?? sections.get(m[2]) ?? failureText(m[3] ?? "");
      failures.add(m[2], message);
    }
  }
};

// src/gate/reports/runners/unittest.ts
var HEADER2 = /^(FAIL|ERROR): (\S+) \(([^)\s]+)\)/;
var RULE = /^(?:={20,}|-{20,})$/;
function unittestCounts(text) {
  const ran = /^Ran (\d+) tests? in \d/m.exec(text);
  if (!ran) return null;
  const status = /^(?:OK|FAILED)(?: \((.*)\))?\s*$/m.exec(text.slice(ran.index));
  const skipped = Number(/skipped=(\d+)/.exec(status?.[1] ?? "")?.[1] ?? 0) + Number(/expected failures=(\d+)/.exec(status?.[1] ?? "")?.[1] ?? 0);
  return { tests: Number(ran[1]), skipped };
}
function unittestId(name, where) {
  const cls = where.endsWith(`.${name}`) ? where.slice(0, -name.length - 1) : where;
  return `${cls} \u203A ${name}`;
}
var unittestRunner = {
  id: "unittest",
  configFiles: [],
  recognises: (text) => /^Ran \d+ tests? in \d/m.test(text) || /^(?:FAIL|ERROR): \S+ \([^)\s]+\)/m.test(text),
  counts: unittestCounts,
  failures(lines, failures) {
    for (let i = 0; i < lines.length; i++) {
      const h = HEADER2.exec(lines[i]);
      if (!h) continue;
      let j = i + 1;
      if (j < lines.length && /^-{20,}$/.test(lines[j])) j++;
      const block = [];
      for (; j < lines.length && !RULE.test(lines[j]) && !HEADER2.test(lines[j]); j++) block.push(lines[j]);
      failures.add(unittestId(h[2], h[3]), failureText(block.join("\n")));
      i = j - 1;
    }
  }
};

// src/gate/reports/runners/vitest.ts
var SECTION2 = /^\s*⎯{3,}\s*(Failed Tests|Failed Suites|Unhandled Errors?)\b/;
var SEPARATOR = /^\s*⎯{3,}/;
var FAIL = /^\s*FAIL\s+(\S.*)$/;
var CROSS = /^\s*[×✗]\s+(\S.*)$/;
function vitestCounts(text) {
  const vitest = /^[ \t]*Tests[ \t]+(.*?)\((\d+)\)/m.exec(text);
  if (!vitest) return null;
  return { tests: Number(vitest[2]), skipped: Number(/(\d+) skipped/.exec(vitest[1])?.[1] ?? 0) };
}
var vitestRunner = {
  id: "vitest",
  configFiles: ["**/vitest.config*", "**/vitest.workspace*", "**/vitest.setup*", "**/vite.config*"],
  recognises: (text) => /^[ \t]*(?:RUN|DEV)[ \t]+v\d+\.\d+\.\d+/m.test(text) || /⎯ Failed (?:Tests|Suites) \d+ ⎯/.test(text) || /^[ \t]*Test Files[ \t]+\d+ (?:passed|failed)/m.test(text),
  counts: vitestCounts,
  // vitest's file filters are parts of the path, not patterns.
  only: (ids) => byFileAndName(ids, (file) => file),
  failures(lines, failures) {
    let section2 = null;
    let found = false;
    for (let i = 0; i < lines.length; i++) {
      const header = SECTION2.exec(lines[i]);
      if (header) {
        section2 = header[1];
        if (/^Unhandled/.test(section2)) {
          const block2 = untilSeparator(lines, i + 1);
          failures.add("unhandled error", failureText(block2.join("\n")));
          found = true;
        }
        continue;
      }
      if (!section2 || /^Unhandled/.test(section2)) continue;
      const ids = [];
      let j = i;
      for (let m = FAIL.exec(lines[j] ?? ""); m && j < lines.length; m = FAIL.exec(lines[++j] ?? "")) ids.push(withoutFileTag(m[1].trimEnd()));
      if (ids.length === 0) continue;
      const block = untilSeparator(lines, j);
      const message = failureText(block.join("\n"));
      for (const id of ids) failures.add(id, message);
      found = true;
      i = j + block.length - 1;
    }
    if (found) return;
    for (const line of lines) {
      const m = CROSS.exec(line);
      if (m) failures.add(withoutDuration(m[1]), "");
    }
  }
};
function withoutFileTag(id) {
  const open = id.lastIndexOf(" [");
  return id.endsWith("]") && open > 0 ? id.slice(0, open).trimEnd() : id;
}
function untilSeparator(lines, from) {
  const block = [];
  for (let j = from; j < lines.length && !SEPARATOR.test(lines[j]) && !FAIL.test(lines[j]); j++) block.push(lines[j]);
  return block;
}

// src/gate/reports/runner-registry.ts
var TEST_RUNNERS = [jestRunner, vitestRunner, pytestRunner, nodeTestRunner, mochaRunner, unittestRunner];

// src/gate/dependencies/lockfile-entries.ts
function changedLockEntries(before, after) {
  const old = new Map(before.map((e) => [e.key, e.text]));
  const keys = new Set(after.map((e) => e.key));
  return {
    changed: after.filter((e) => old.get(e.key) !== e.text),
    removed: before.filter((e) => !keys.has(e.key)).map((e) => normalizeName(e.name))
  };
}

// src/gate/dependencies/dependency-path-kind.ts
function dependencyPathKind(file) {
  if (inDependencyFolder(file)) return "folder";
  if (isLockfile(file)) return "lockfile";
  return manifestKind(file);
}

// src/gate/protection/gate-command-files.ts
var TASK_FILES = {
  make: ["**/Makefile", "**/makefile", "**/GNUmakefile", "**/*.mk"],
  just: ["**/justfile", "**/Justfile", "**/JUSTFILE", "**/.justfile"],
  task: ["**/Taskfile.yml", "**/Taskfile.yaml", "**/taskfile.yml", "**/taskfile.yaml", "**/Taskfile.dist.yml", "**/Taskfile.dist.yaml"],
  tox: ["**/tox.ini"],
  nox: ["**/noxfile.py"],
  rake: ["**/Rakefile", "**/rakelib/**"],
  invoke: ["**/tasks.py"],
  nx: ["**/nx.json", "**/project.json"],
  turbo: ["**/turbo.json"],
  deno: ["**/deno.json", "**/deno.jsonc"]
};
var ALIASES = { gmake: "make", inv: "invoke", "go-task": "task" };
var WRAPPERS = /* @__PURE__ */ new Set(["env", "sudo", "time", "exec", "command", "nice", "nohup", "xvfb-run", "npx", "bunx", "pnpx", "timeout"]);
var RUNNERS = /* @__PURE__ */ new Set(["uv", "poetry", "pipenv", "pdm", "hatch", "rye", "pixi", "pnpm", "yarn", "npm", "bun"]);
var INTERPRETER = /^(?:ba|da|z|k)?sh$|^node(?:js)?$|^python(?:\d(?:\.\d+)?)?$|^pypy\d?$|^ruby$|^perl$|^tsx$|^ts-node$|^bun$|^deno$/;
var PRELOAD_OPTIONS = /* @__PURE__ */ new Set(["-r", "--require", "--import", "--loader", "--experimental-loader", "--env-file", "--rcfile"]);
var CONFIG_OPTIONS = /* @__PURE__ */ new Set([
  "--config",
  "--config-file",
  "--configfile",
  "--setup-file",
  "--setupFiles",
  "-f",
  "--file",
  "--makefile",
  "--justfile",
  "--taskfile"
]);
var SCRIPT_FILE = /\.(?:sh|bash|zsh|py|js|mjs|cjs|ts|mts|cts|rb|pl|ps1|mk|cfg|ini|toml|json|jsonc|ya?ml)$/i;
var PACKAGE_MANAGERS = /* @__PURE__ */ new Set(["npm", "pnpm", "yarn", "bun"]);
var NPM_TEST_ALIASES = /* @__PURE__ */ new Set(["test", "t", "tst", "it", "cit", "install-test", "clean-install-test", "install-ci-test"]);
function normalise(rel) {
  const parts = [];
  for (const part of rel.split("/")) {
    if (!part || part === ".") continue;
    if (part === "..") {
      if (parts.pop() === void 0) return null;
      continue;
    }
    parts.push(part);
  }
  return parts.join("/") || null;
}
function fileOf(value, cwd) {
  if (!value || value.startsWith("-") || value.startsWith("/") || value.startsWith("~") || value.endsWith("/")) return null;
  if (/[$`=]|:\/\/|\.\.\./.test(value)) return null;
  return normalise(`${cwd}${value}`);
}
function simpleCommands(line) {
  const out = [];
  let cwd = "";
  for (const part of line.split(/&&|\|\||[;&|()\n]/)) {
    const words = part.replace(/["']/g, " ").split(/\s+/).filter((w) => w && !/^\d*[<>]/.test(w));
    if (words[0] === "cd" || words[0] === "pushd") {
      const dir = words[1] && !words[1].startsWith("/") && !words[1].includes("$") ? normalise(`${cwd}${words[1]}`) : null;
      cwd = dir ? `${dir}/` : "";
      continue;
    }
    if (words.length) out.push({ words, cwd });
  }
  return out;
}
function scanCommand(words, cwd, found) {
  let i = 0;
  while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]) || WRAPPERS.has(words[i]) || i > 0 && /^-|^\d+[smhd]?$/.test(words[i]))) i++;
  const program = words[i];
  if (!program) return;
  const name = program.slice(program.lastIndexOf("/") + 1);
  const args = words.slice(i + 1);
  if (RUNNERS.has(name) && (args[0] === "run" || args[0] === "exec") && !(PACKAGE_MANAGERS.has(name) && args[0] === "run")) {
    return scanCommand(args.slice(1), cwd, found);
  }
  if (PACKAGE_MANAGERS.has(name)) {
    const sub = args.find((a) => !a.startsWith("-"));
    if (sub === void 0) return;
    const after = args.slice(args.indexOf(sub) + 1).find((a) => !a.startsWith("-"));
    const target = ["run", "run-script", "rum", "urn"].includes(sub) ? after : name === "npm" ? void 0 : sub;
    if (NPM_TEST_ALIASES.has(sub)) found.scripts.add("test");
    else if (target) {
      found.scripts.add(target);
      const file = target.includes("/") || SCRIPT_FILE.test(target) ? fileOf(target, cwd) : null;
      if (file) found.patterns.add(file);
    }
    return;
  }
  if (program.includes("/") || SCRIPT_FILE.test(program)) {
    const file = fileOf(program, cwd);
    if (file) found.patterns.add(file);
  }
  const tool = ALIASES[name] ?? name;
  for (const p of TASK_FILES[tool] ?? []) found.patterns.add(p);
  const interpreter = INTERPRETER.test(name);
  for (let k = 0; k < args.length; k++) {
    const arg = args[k];
    const [option, inline] = arg.startsWith("--") && arg.includes("=") ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)] : [arg, void 0];
    if (PRELOAD_OPTIONS.has(option) || CONFIG_OPTIONS.has(option) || option === "-c" && !interpreter) {
      const file2 = fileOf(inline ?? args[++k] ?? "", cwd);
      if (file2) found.patterns.add(file2);
      continue;
    }
    if (!interpreter || arg.startsWith("-")) continue;
    if (args[k - 1] === "-m") return scanCommand(args.slice(k), cwd, found);
    if (args[k - 1] === "-c" && /sh$/.test(name)) return scanCommand(args.slice(k), cwd, found);
    if (args[k - 1] === "-c" || args[k - 1] === "-e" || args[k - 1] === "--eval") return;
    if (name === "deno" && (arg === "run" || arg === "test" || arg === "task")) continue;
    const file = fileOf(arg, cwd);
    if (file) found.patterns.add(file);
    return;
  }
}
function literal2(file) {
  return file.replace(/[*?[\]{}()!+@\\]/g, (c) => `\\${c}`);
}
function scan(lines) {
  const found = { patterns: /* @__PURE__ */ new Set(), scripts: /* @__PURE__ */ new Set() };
  for (const line of lines) if (line) for (const { words, cwd } of simpleCommands(line)) scanCommand(words, cwd, found);
  for (const p of found.patterns) if (!p.startsWith("**/") && dependencyPathKind(p) !== null) found.patterns.delete(p);
  return found;
}
function gateCommandPatterns(commands) {
  return [...scan(commands).patterns].map((p) => p.startsWith("**/") ? p : literal2(p));
}
function packageScriptPatterns(commands, packageJson) {
  let scripts = {};
  try {
    const data = JSON.parse(packageJson ?? "{}");
    if (data && typeof data.scripts === "object" && data.scripts) scripts = data.scripts;
  } catch {
    return [];
  }
  const patterns = /* @__PURE__ */ new Set();
  const seen = /* @__PURE__ */ new Set();
  let pending = [...scan(commands).scripts];
  while (pending.length) {
    const bodies = [];
    for (const name of pending.flatMap((n) => [`pre${n}`, n, `post${n}`])) {
      if (seen.has(name) || !Object.hasOwn(scripts, name) || typeof scripts[name] !== "string") continue;
      seen.add(name);
      bodies.push(scripts[name]);
    }
    const found = scan(bodies);
    for (const p of found.patterns) patterns.add(p.startsWith("**/") ? p : literal2(p));
    pending = [...found.scripts].filter((s) => !seen.has(s));
  }
  return [...patterns];
}

export {
  LOCAL_AUTHOR,
  GITHUB_ACTIONS_AUTHOR,
  noreplyAuthor,
  parseCommitAuthor,
  GitError,
  CHECKOUT_WORKERS,
  gitEnv,
  commandLine,
  runGit,
  ConfigError,
  VariableConfigError,
  registerHeld,
  unregisterHeld,
  GitRepository,
  recordPreRunFiles,
  readPreRunFiles,
  touchesWorkflows,
  publishableTree,
  OWN_CHANGE,
  ownCommitSource,
  commitPublishable,
  stripAnsi,
  failureText,
  withoutDuration,
  firstLineOf,
  indentOf,
  baseName,
  quoted,
  simpleWords,
  commandSegments,
  withoutPrefix,
  relativeTo,
  FailureList,
  tapFormat,
  TEST_RUNNERS,
  require_picomatch2 as require_picomatch,
  npmRegistryHosts,
  readTreeEntry,
  readAgentText,
  readAgentFile,
  removeTreeEntry,
  writeTreeFile,
  findProcesses,
  runProcess,
  normalizeName,
  parseRequirement,
  parse,
  parseToml,
  ECOSYSTEMS,
  LOCKFILE_NAMES,
  isLockfile,
  lockEntries,
  manifestKind,
  ROOT_DEPENDENCY_DIRS,
  DEPENDENCY_FOLDER_NAMES,
  DEPENDENCY_CACHE_DIRS,
  inRootDependencyFolder,
  isRegistryEnv,
  changedLockEntries,
  parseManifest,
  protectedPart,
  manifestChange,
  restoreManifest,
  dependencyPathKind,
  gateCommandPatterns,
  packageScriptPatterns,
  PRICE_TABLE_VERSION,
  WEB_SEARCH_USD,
  DEFAULT_PRICES,
  chargeRate,
  tierFactor,
  oneHourRate,
  costOf,
  parsePriceTable,
  modelFromArgs,
  agentNames,
  agentSpec,
  agentSpecs,
  modelCredentialVariables,
  providerSpec,
  credentialInputs,
  refusedArg,
  parseIgnoreRule,
  ProtectedPaths,
  prepareUpgrade,
  judgesTheUpgrade,
  settleUpgrade,
  upgradePublishInfo,
  forBotPullRequests,
  isDependencyBot,
  taskSpec,
  badHostEntry,
  hostRules,
  hostAllowed,
  loopbackPorts,
  proxiedLoopback,
  STOP_REASONS,
  isStopReason,
  knownStopReason,
  stopReasonEntry,
  needsEscalation,
  outcomeFor,
  exitCodeFor,
  usd,
  workBranchName,
  wipBranchName,
  ownedPath,
  prepareRunDir,
  defaultTempDir,
  defaultRunId,
  runFiles,
  stoppedReport,
  removeInBackground,
  discardInBackground,
  redirectWorkspacePaths,
  isVirtualenv,
  outsideVenvsNamingWorkspace,
  workspaceInstalls
};
