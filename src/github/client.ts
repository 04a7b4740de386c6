import { getOctokit } from '@actions/github'
import { retry } from '@octokit/plugin-retry'
import { throttling } from '@octokit/plugin-throttling'

export type GitHubClient = ReturnType<typeof getOctokit>

/** Retries of rate-limited requests before giving up. */
const RATE_LIMIT_RETRIES = 2

/**
 * Octokit with retries for 5xx (plugin-retry: backoff 1 s, 4 s, 9 s) and for primary and
 * secondary rate limits (plugin-throttling), against GITHUB_API_URL.
 */
export function createClient(token: string, env: NodeJS.ProcessEnv, warn: (message: string) => void): GitHubClient {
  return getOctokit(
    token,
    {
      baseUrl: (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, ''),
      retry: { retries: 3 },
      throttle: {
        // The throttling plugin calls these with its own positional arguments.
        // eslint-disable-next-line max-params
        onRateLimit: (retryAfter: number, options: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
          warn(`GitHub rate limit on ${options.method} ${options.url}; retrying after ${retryAfter}s`)
          return retryCount < RATE_LIMIT_RETRIES
        },
        // eslint-disable-next-line max-params
        onSecondaryRateLimit: (retryAfter: number, options: { method: string; url: string }, _octokit: unknown, retryCount: number) => {
          warn(`GitHub secondary rate limit on ${options.method} ${options.url}; retrying after ${retryAfter}s`)
          return retryCount < RATE_LIMIT_RETRIES
        }
      }
    },
    retry,
    throttling
  )
}
