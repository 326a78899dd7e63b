"""SEC rules: catalog text that attacks the agent reading it, or leaks a secret.

A client pastes every tool's name, description and schema into the model's
context, so a catalog is a prompt written by the server. These rules look for
the published tool-poisoning patterns (instructions aimed at the model, hidden
characters, shadowing of other tools, requests for secrets) and for
credentials left in the catalog itself.
"""

from catalint.rules.security import (  # each registers its rule, in code order
    cross_tool,  # noqa: F401
    exfiltration,  # noqa: F401
    hidden,  # noqa: F401
    instructions,  # noqa: F401
    secrets,  # noqa: F401
)
