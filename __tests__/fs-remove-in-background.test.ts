import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { discardInBackground } from '../src/fs/remove-in-background.js'
import { tempDir } from './helpers/repo.js'

async function until(done: () => boolean, ms = 20_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (done()) return true
  return done()
}

test('a discarded tree frees its name at once and is deleted by a process of its own', async () => {
  const parent = tempDir()
  const dir = path.join(parent, 'work')
  for (let i = 0; i < 200; i++) {
    mkdirSync(path.join(dir, `d${i % 10}`), { recursive: true })
    writeFileSync(path.join(dir, `d${i % 10}`, `f${i}`), `${i}\n`)
  }
  discardInBackground([dir])
  expect(existsSync(dir)).toBe(false)
  // The same name can be used again at once.
  mkdirSync(dir)
  expect(await until(() => readdirSync(parent).every((name) => name === 'work'))).toBe(true)
  expect(readdirSync(dir)).toEqual([])
})

test('a tree that is not there is nothing to do', () => {
  const parent = tempDir()
  expect(() => discardInBackground([path.join(parent, 'missing')])).not.toThrow()
  expect(readdirSync(parent)).toEqual([])
})
