"""CMP rules: what a client refuses when it turns MCP tools into its own tool definitions.

One family per client, each turned on by a target (catalint.profiles), all off
by default: CMP-OAI OpenAI function calling, CMP-OAS OpenAI strict mode (on top
of CMP-OAI), CMP-ANT the Anthropic Messages API, CMP-GEM Gemini with the schema
sent as `parameters`. Facts were checked on 2026-11-22; each rule's Why names
its source. Critical means the client refuses the request (usually the whole
request, so every tool of every server is lost); warning marks a limit that is
documented but not, or not everywhere, enforced.
"""

from catalint.rules.compat import anthropic, gemini, openai, openai_strict  # noqa: F401  (registers the rules)
