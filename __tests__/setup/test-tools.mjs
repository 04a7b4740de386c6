// The tools some tests need beyond what `npm ci` installs, each with a probe and the command that
// brings it. The jest global setup probes them once per run (the workers inherit the answers through
// LOOPGATE_TEST_TOOLS); __tests__/helpers/needs-tools.ts skips what cannot run without them.
import { spawnSync } from 'node:child_process'
import { accessSync, constants, mkdirSync, readFileSync, rmdirSync } from 'node:fs'
import path from 'node:path'

/** The Python the tests build venvs and run pytest with; the gate's users must be able to run it. */
export const TEST_PYTHON_ENV = 'LOOPGATE_TEST_PYTHON'
export const DEFAULT_TEST_PYTHON = '/usr/bin/python3'
export const TOOLS_ENV = 'LOOPGATE_TEST_TOOLS'

export function testPython(env = process.env) {
  return env[TEST_PYTHON_ENV] || DEFAULT_TEST_PYTHON
}

const runs = (command, args, env = process.env) => spawnSync(command, args, { stdio: 'ignore', env, timeout: 60_000 }).status === 0
const onPath = (command) => runs('/bin/sh', ['-c', 'command -v "$0"', command])

/** Whether this process can make a cgroup v2 of its own, as loopgate does for each agent call. */
function cgroupWritable() {
  let mount = null
  let own = null
  try {
    mount = readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .find((line) => line.includes(' - cgroup2 '))
      ?.split(' ')[4]
    own = readFileSync('/proc/self/cgroup', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('0::'))
      ?.slice(3)
  } catch {
    return false
  }
  if (!mount || own === undefined) return false
  const dir = path.join(mount, own, `loopgate-test-probe-${process.pid}`)
  try {
    mkdirSync(dir)
  } catch {
    return false
  }
  try {
    accessSync(path.join(dir, 'cgroup.procs'), constants.W_OK)
    return true
  } catch {
    return false
  } finally {
    rmdirSync(dir)
  }
}

/** Each tool: what it is (for the skip line), the command that installs it, and its probe. */
export function toolTable(env = process.env) {
  const python = testPython(env)
  return {
    python3: { what: `Python 3 (${python})`, install: 'apt-get install python3', probe: () => runs(python, ['--version']) },
    pytest: { what: `pytest for ${python}`, install: 'apt-get install python3-pytest', probe: () => runs(python, ['-m', 'pytest', '--version']) },
    venv: { what: `venv with ensurepip for ${python}`, install: 'apt-get install python3-venv', probe: () => runs(python, ['-c', 'import ensurepip, venv']) },
    pip: { what: 'pip for the python3 on PATH', install: 'apt-get install python3-pip', probe: () => runs('python3', ['-I', '-m', 'pip', '--version']) },
    django: { what: `Django for ${python}`, install: 'apt-get install python3-django', probe: () => runs(python, ['-c', 'import django']) },
    poetry: { what: 'Poetry on PATH', install: 'apt-get install python3-poetry', probe: () => runs('poetry', ['--version']) },
    setfacl: { what: 'setfacl', install: 'apt-get install acl', probe: () => onPath('setfacl') },
    sudo: { what: 'sudo', install: 'apt-get install sudo', probe: () => onPath('sudo') },
    setsid: { what: 'setsid', install: 'apt-get install util-linux', probe: () => onPath('setsid') },
    'second-user': {
      what: 'root with useradd, to create the test users',
      install: 'run the tests as root; apt-get install passwd',
      probe: () => process.getuid?.() === 0 && onPath('useradd')
    },
    cgroup2: {
      what: 'a writable cgroup v2',
      install: 'run the tests as root where cgroup v2 is mounted writable (a container: --cgroupns=private, /sys/fs/cgroup read-write)',
      probe: cgroupWritable
    }
  }
}

/** Probes every tool: { name: true | false }. */
export function probeTools(env = process.env) {
  return Object.fromEntries(Object.entries(toolTable(env)).map(([name, tool]) => [name, tool.probe()]))
}
