"""catalint: lint MCP tools/list catalogs for agent-facing quality."""

__version__ = "0.1.0"
