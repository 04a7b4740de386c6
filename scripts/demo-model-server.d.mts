export interface DemoModelServer {
  url: string
  requests: Array<{ method?: string; url?: string }>
  close(): Promise<void>
}
export function startDemoModelServer(opts?: { port?: number }): Promise<DemoModelServer>
export function nextTurn(body: unknown): { tool?: string; input?: Record<string, unknown>; text?: string }
