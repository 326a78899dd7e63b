"""Built-in rules; importing this package registers them."""

from catalint.rules import desc  # noqa: F401
