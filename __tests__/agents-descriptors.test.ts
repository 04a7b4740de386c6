import { readdirSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { AGENTS, credentialInputs, modelCredentialVariables, type AgentSpec, type MeterRouteId } from '../src/agents/agent-registry.js'
import { createAdapter, credentialsFor } from '../src/agents/adapter.js'
import { runHelp } from '../src/cli/help.js'
import { INPUT_SPECS } from '../src/contract.js'
import { withoutCredentials } from '../src/meter/metered-adapter.js'
import { meterRouteFor } from '../src/meter/upstream-for.js'

const FOLDER = path.join(process.cwd(), 'src', 'agents')

/** The runner's environment each metered route needs besides the provider's credential inputs. */
const ROUTE_ENV: Record<MeterRouteId, NodeJS.ProcessEnv> = {
  anthropic: {},
  openai: {},
  azure: { AZURE_OPENAI_BASE_URL: 'http://127.0.0.1:9/openai/v1' },
  bedrock: { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret', AWS_REGION: 'us-east-1' },
  vertex: { GOOGLE_OAUTH_ACCESS_TOKEN: 'ya29.token', CLOUD_ML_REGION: 'us-east5' }
}

const input = (name: string) => INPUT_SPECS.find((spec) => spec.name === name)
const listed = (words: string[]): string => `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`

describe('the agent descriptors', () => {
  const folders = readdirSync(FOLDER, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()

  it('registers every folder of src/agents, once, under the folder name', () => {
    expect(AGENTS.map((a) => a.name).sort()).toEqual(folders)
    expect(new Set(AGENTS.map((a) => a.name)).size).toBe(AGENTS.length)
  })

  test.each(folders.map((f) => [f]))('%s/index.ts loads and exports the registered descriptor', async (name) => {
    const mod = (await import(pathToFileURL(path.join(FOLDER, name, 'index.ts')).href)) as Record<string, unknown>
    expect(Object.values(mod)).toContain(AGENTS.find((a) => a.name === name))
  })

  it("the `agent` input's description names every agent in its descriptor's words", () => {
    expect(input('agent')?.description).toBe(`The agent: ${listed(AGENTS.map((a) => `'${a.name}' (${a.summary})`))}.`)
    const help = runHelp('/state')
    expect(help).toMatch(new RegExp(`^  --agent <name> +${listed(AGENTS.map((a) => a.name))} `, 'm'))
  })

  describe.each(AGENTS.map((a) => [a.name, a] as const))('%s', (name, spec: AgentSpec) => {
    it('its adapter comes from its folder and carries its name', () => {
      const adapter = createAdapter({ agent: name, agentArgs: [], agentCommand: 'true' })
      expect(adapter.name).toBe(name)
    })

    it('each of its credential inputs is an action input with its own --help words', () => {
      const help = runHelp('/state')
      for (const name of credentialInputs(spec)) {
        expect([name, input(name) !== undefined]).toEqual([name, true])
        const [placeholder, text] = spec.inputHelp?.[name] ?? []
        expect(help).toContain(`--${name} ${placeholder}`)
        expect(help).toContain(text)
      }
    })

    it("each of its providers is accepted by the `provider` input's words and listed in --help", () => {
      const providers = (spec.providers ?? []).map((p) => p.name)
      for (const provider of providers) expect(input('provider')?.description).toContain(`'${provider}'`)
      if (providers.length > 0) expect(runHelp('/state')).toContain(`${providers.join(', ')} (${name})`)
    })

    it('every variable a credential reaches its CLI under is a model credential, kept from metered calls', () => {
      const variables = [...(spec.apiKey ? [spec.apiKey.env] : []), ...(spec.providers ?? []).flatMap((p) => p.credentials.map((c) => c.env))]
      for (const variable of variables) expect(spec.modelCredentials).toContain(variable)
      const env = Object.fromEntries([...(spec.modelCredentials ?? []), 'PATH'].map((v) => [v, 'x']))
      expect(withoutCredentials(env)).toEqual({ PATH: 'x' })
      expect(modelCredentialVariables()).toEqual(expect.arrayContaining([...(spec.modelCredentials ?? [])]))
    })

    it("each provider's metered route is the one the metering proxy takes for it", () => {
      for (const provider of spec.providers ?? []) {
        const agentCredentials = Object.fromEntries(provider.credentials.map((c) => [c.input, `${c.input}-value`]))
        const settings = { agent: name, agentArgs: [], provider: provider.name, agentCredentials }
        const route = meterRouteFor(settings, provider.meterRoute ? ROUTE_ENV[provider.meterRoute] : {})
        expect([provider.name, route?.upstream.api]).toEqual([provider.name, provider.meterRoute])
        // The proxy holds the credential the agent would have had.
        const given = credentialsFor(settings).map((c) => c.value)
        if (given.length > 0) expect(given.some((value) => route?.upstream.auth?.value.includes(value))).toBe(true)
      }
    })
  })
})
