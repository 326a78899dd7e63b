"""SCH rules: whether a tool's input schema (and output schema) can be trusted by an agent and a client."""

from catalint.rules.schema import (  # noqa: F401  (registers the rules)
    bounds,
    leaks,
    names,
    objects,
    untyped,
    unused,
    validity,
    values,
)
from catalint.rules.schema.common import PROPERTY_NAME, input_schema_of, nodes
from catalint.rules.schema.names import KEYWORDS

__all__ = ["KEYWORDS", "PROPERTY_NAME", "input_schema_of", "nodes"]
