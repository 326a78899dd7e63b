"""TOK rules: what a catalog costs an agent's context on every model call.

Both are off by default (counting loads the cl100k_base encoding, about half a
second); turn them on with `extend-select = ["TOK"]`.
"""

from __future__ import annotations

from collections.abc import Iterator

from catalint.model import Tool
from catalint.registry import CatalogHit, Hit, option, rule
from catalint.sourcemap import join_pointer


@rule(
    "TOK-001",
    "tool-over-token-budget",
    "warning",
    "verbose",
    "A tool's surface (name, description, inputSchema) is over the per-tool token budget",
    default=False,
)
def tool_over_token_budget(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A tool whose name, description and compact `inputSchema`
    JSON together come to more cl100k_base tokens than `tool-token-budget` (700
    unless set). Off by default: select it with `extend-select = ["TOK"]`.

    **Why.** Every advertised tool is sent with every model call, used or not,
    and long catalogs crowd out the conversation and blur selection (Hasan et al.,
    arXiv:2602.14878, found that rewriting descriptions lengthened agent runs). The
    default is set from the 1,339 tools of the 129 public catalogs catalint is
    tested on: median 113 tokens, 90th percentile 432, 95th 657, largest 1,899. At
    700 a tool costs more than 19 in 20 of those tools; such a tool usually
    carries a manual in its description or a schema that could be split.

    **Bad.** A search tool with a 2,000-character description that repeats its
    parameter docs, and 25 optional filters.

    **Good.** A two-sentence description; details in the parameter descriptions;
    rarely used filters moved to a second tool.

    **Fix.** Cut repetition between the description and the schema, move long
    reference text out of the description, or split the tool.
    """
    from catalint.tokens import count

    budget = option("tool_token_budget", 700)
    tokens = count(tool)
    if tokens.total > budget:
        yield Hit(
            join_pointer(tool.pointer, "description") if tokens.description >= tokens.input_schema else tool.pointer,
            f"tool surface is {tokens.total} tokens (name {tokens.name}, description {tokens.description}, "
            f"inputSchema {tokens.input_schema}), over the budget of {budget}",
        )


@rule(
    "TOK-002",
    "catalog-over-token-budget",
    "warning",
    "verbose",
    "The catalog's total tool surface is over the catalog token budget",
    scope="catalog",
    default=False,
)
def catalog_over_token_budget(tools: list[Tool]) -> Iterator[CatalogHit]:
    """
    **What it catches.** A catalog whose tools together come to more
    cl100k_base tokens than `catalog-token-budget`. Silent until that budget is
    set (a run that selects TOK-002 or TOK by name without one says so in a
    notice), and off by default: select it with `extend-select = ["TOK"]`.
    Reported once, on the most expensive tool.

    **Why.** A client sends the whole catalog with every call, so its size is a
    fixed tax on each one: 20,000 tokens is a sixth of a 128k context window
    before the user has said anything. Hasan et al. (arXiv:2602.14878) found that
    fuller descriptions raised task success but lengthened agent runs; the budget
    is where a server settles that trade, and what it can afford depends on the
    clients and models it targets, so the budget is the author's to set.

    **Bad.** `catalog-token-budget = 8000` and a server whose 60 tools come to
    22,000 tokens.

    **Good.** The same server split into focused toolsets, or with its longest
    descriptions trimmed under the budget.

    **Fix.** Trim or split the largest tools first (`catalint lint --scores`
    lists each tool's tokens), or raise the budget deliberately.
    """
    from catalint.tokens import count

    budget = option("catalog_token_budget")
    if budget is None or not tools:
        return
    totals = [(count(t).total, t) for t in tools]
    total = sum(n for n, _ in totals)
    if total > budget:
        largest, tool = max(totals, key=lambda pair: pair[0])
        yield CatalogHit(
            tool,
            Hit(
                tool.pointer,
                f"the catalog's {len(tools)} tools come to {total} tokens, over the catalog budget of {budget} "
                f"(the largest, this one, is {largest})",
            ),
        )
