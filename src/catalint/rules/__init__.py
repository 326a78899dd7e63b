"""Built-in rules; importing this package registers them."""

from catalint.rules import (
    catalog,  # noqa: F401
    compat,  # noqa: F401
    desc,  # noqa: F401
    schema,  # noqa: F401
    security,  # noqa: F401
    tokens,  # noqa: F401
)
