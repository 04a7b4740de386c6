/** loopgate's version; package.json says the same (a test checks) and a release tag is `v` + this. */
export const VERSION = '0.1.0'
