// The layer order of src/: a folder (or a file at src/'s root, by its name) imports only from its own
// layer or from layers below it. The first row is the top.
export const LAYERS = [
  { name: 'entry points', folders: ['index', 'main', 'post', 'cli'] },
  { name: 'session', folders: ['session'] },
  { name: 'run', folders: ['run', 'inputs', 'tasks'] },
  { name: 'services', folders: ['upgrade', 'bot-pr', 'publish', 'gate', 'agents', 'meter', 'state', 'preflight'] },
  { name: 'domain', folders: ['loop', 'ecosystems', 'github', 'git', 'isolation', 'records', 'report'] },
  { name: 'leaves', folders: ['process', 'fs', 'settings', 'errors', 'contract', 'format', 'version', 'agent-result'] }
]

/** Folders that import only from the leaves (the loop is the pure core). */
export const LEAVES_ONLY = ['loop']

/** The only folder whose files may run the git binary. */
export const GIT_FOLDER = 'git'

/** Files of git/ that build and run git command lines: outside git/, git runs through GitRepository or GateRepository. */
export const GIT_INTERNALS = ['git/command-line.ts', 'git/custody-registry.ts', 'git/git.ts']

/**
 * Known exceptions, printed on every run so they stay visible until they are gone. A rule broken
 * anywhere else fails the check.
 */
export const ALLOWED = {
  // Folders outside git/ whose files may still run the git binary.
  gitSpawn: [],
  // Folders whose file names may repeat names elsewhere.
  sameNames: [],
  // Folders of one sub-folder per registry entry, each of the same shape: a file there is named by
  // its entry and its name (ecosystems/npm/index.ts is "npm/index.ts", agents/claude/adapter.ts "claude/adapter.ts").
  pluginFolders: ['ecosystems/', 'agents/', 'tasks/'],
  // "from -> to" folder pairs still importing upward.
  upward: [],
  // Folder pairs (sorted, "a <-> b") importing each other inside one layer.
  folderCycles: []
}
