#!/usr/bin/env node
// The demo's scripted agent (`agent: command`): a stand-in for a model that gets it wrong once,
// reads loopgate's evidence, then fixes the bug. It reports a made-up cost per call.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs'

const prompt = readFileSync(process.env.LOOPGATE_PROMPT_FILE, 'utf8')
const file = 'src/slugify.mjs'
let source = readFileSync(file, 'utf8')

if (!prompt.includes('Evidence from the last iteration')) {
  // First attempt: only half the job (spaces, not punctuation).
  source = source.replace('return title.toLowerCase()', "return title.toLowerCase().replace(/ +/g, '-')")
  appendFileSync('.loopgate/progress.md', 'agent: replaced spaces with dashes\n')
  console.log('I replaced spaces with dashes. Done!')
} else {
  source = source.replace(/return title[^\n]*/, "return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')")
  appendFileSync('.loopgate/progress.md', 'agent: the gate said punctuation fails; now strip every non-alphanumeric run\n')
  console.log('Fixed punctuation too.')
}
writeFileSync(file, source)
writeFileSync(process.env.LOOPGATE_COST_FILE, JSON.stringify({ cost_usd: 0.03 }))
