/** The options `loopgate run` cannot start without, as the usage line spells them; empty when all are there. */
export function missingOptions(flags: Map<string, string>): string[] {
  const given = (name: string): boolean => (flags.get(name) ?? '').trim() !== ''
  const missing: string[] = []
  if (!given('gate-command')) missing.push('--gate-command <cmd>')
  if (!given('prompt') && !given('prompt-file') && !given('task')) missing.push('--prompt <text> (or --prompt-file <file>, or --task <task>)')
  if (flags.get('agent') === 'command' && !given('agent-command')) missing.push('--agent-command <cmd> (for --agent command)')
  return missing
}
