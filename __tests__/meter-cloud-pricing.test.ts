import { DEFAULT_PRICES, priceFor } from '../src/agents/pricing.js'

test("the cloud's model names are priced as the model they name, not at the dearest rate", () => {
  const sonnet = DEFAULT_PRICES['claude-sonnet-4-5']
  for (const name of [
    'claude-sonnet-4-5-20250929',
    'claude-sonnet-4-5@20250929',
    'anthropic.claude-sonnet-4-5-20250929-v1:0',
    'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    'global.anthropic.claude-sonnet-4-5-v1'
  ])
    expect([name, priceFor(name, DEFAULT_PRICES)]).toEqual([name, sonnet])
  expect(priceFor('gpt-5-2025-08-07', DEFAULT_PRICES)).toEqual(DEFAULT_PRICES['gpt-5'])
  expect(priceFor('claude-sonnet-4-5-extra', DEFAULT_PRICES)).toBeUndefined()
})
