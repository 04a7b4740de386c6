import { test } from 'node:test'
import assert from 'node:assert/strict'
import { slugify } from '../src/slugify.mjs'

test('lower-cases words', () => {
  assert.equal(slugify('Hello'), 'hello')
})

test('joins words with dashes', () => {
  assert.equal(slugify('Hello World'), 'hello-world')
})

test('drops punctuation', () => {
  assert.equal(slugify('Hello, World!'), 'hello-world')
})
