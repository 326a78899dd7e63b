"""SEC-005: credentials written into the catalog."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Iterator
from typing import Any, NamedTuple

from catalint.model import Tool
from catalint.registry import Hit, rule
from catalint.rules.security.strings import Words, _everything, texts
from catalint.text import LazyRegex


class SecretShape(NamedTuple):
    kind: str
    pattern: LazyRegex
    mixed: bool  # real keys of this kind mix letters and digits
    hints: tuple[str, ...]  # literal text every match holds, for the pre-check (_SECRET_HINT)


def _shape(kind: str, hints: str, pattern: str, mixed: bool = True) -> SecretShape:
    return SecretShape(kind, LazyRegex(pattern), mixed, tuple(hints.split("|")))


SECRET_SHAPES = (
    _shape("an OpenAI or Anthropic API key", "sk-", r"\bsk-(?:proj-|svcacct-|admin-|ant-\w+\d\d-|or-v1-)?[\w-]{20,}"),
    _shape("a Stripe secret key", "sk_|rk_", r"\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}"),
    _shape(
        "a GitHub token", "ghp_|gho_|ghu_|ghs_|ghr_|github_pat_", r"\bgh[pousr]_[A-Za-z0-9]{36,}\b|\bgithub_pat_\w{50,}"
    ),
    _shape("a GitLab token", "glpat-", r"\bglpat-[\w-]{20,}"),
    _shape(
        "a Slack token", "xox|xapp-", r"\bxox[abposr]-\d{6,}-[A-Za-z0-9-]{8,}|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]{20,}"
    ),
    _shape(
        "a Slack webhook URL",
        "hooks.slack.com",
        r"hooks\.slack\.com/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/[A-Za-z0-9]{20,}",
    ),
    _shape(
        "an AWS access key ID",
        "AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA",
        r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16}\b",
    ),
    _shape("a Google API key", "AIza", r"\bAIza[\w-]{35}(?![\w-])"),
    _shape("a Hugging Face token", "hf_", r"\bhf_[A-Za-z]{30,}\b", mixed=False),
    _shape("an npm token", "npm_", r"\bnpm_[A-Za-z0-9]{36}\b"),
    _shape("a Supabase access token", "sbp_", r"\bsbp_[a-f0-9]{40}\b"),
    _shape("a SendGrid API key", "SG.", r"\bSG\.[\w-]{22}\.[\w-]{43}\b"),
    _shape("a JSON Web Token", "eyJ", r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}", mixed=False),
    _shape("a Notion integration token", "ntn_", r"\bntn_[A-Za-z0-9]{40,}\b"),
    _shape("a Linear API key", "lin_api_", r"\blin_api_[A-Za-z0-9]{40}\b"),
    _shape("a Groq API key", "gsk_", r"\bgsk_[A-Za-z0-9]{48,}\b"),
    _shape("a DigitalOcean token", "_v1_", r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    _shape("a PyPI token", "pypi-AgE", r"\bpypi-AgE[\w-]{50,}"),
    _shape("a Shopify access token", "shpat_|shpca_|shppa_|shpss_", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    _shape("a Stripe webhook secret", "whsec_", r"\bwhsec_[A-Za-z0-9+/]{32,}"),
    _shape(
        "a Discord webhook URL", "discord", r"discord(?:app)?\.com/api/webhooks/\d{17,20}/[\w-]{60,68}\b", mixed=False
    ),
    _shape("a Telegram bot token", ":AA", r"(?<![\w:])\d{8,10}:AA[\w-]{33}(?![\w-])"),
    _shape(
        "a database URL with its password",
        "postgres://|postgresql://|mysql://|mariadb://|mongodb|redis://|rediss://|amqp://|amqps://|mssql://"
        "|sqlserver://|postgres+|postgresql+|mysql+|mariadb+|mssql+",
        r"\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver)(?:\+\w+)?://"
        r"[^\s:/@'\"`]*:[^\s@/'\"`]{8,}@[\w.-]+",
        mixed=False,
    ),
    _shape("an Azure storage account key", "AccountKey=", r"\bAccountKey=[A-Za-z0-9+/]{86}==", mixed=False),
    _shape(
        "an AWS secret access key",
        "aws_secret|AWS_SECRET|awsSecret|AwsSecret|aws_Secret|SecretAccessKey|secret_access_key|secret access key"
        "|Secret Access Key",
        r"(?i:\b(?:aws[_ ]?)?secret[_ ]?access[_ ]?key)['\"]?\s*[=:]\s*['\"]?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+])",
    ),
    # the body's line breaks may be written as the two characters \n (a key inside a JSON string default)
    _shape(
        "a PEM private key",
        "PRIVATE KEY",
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n)*"
        r"(?:[A-Za-z-]+: [^\n\\]*(?:\n|\\n)(?:\s|\\n)*){0,4}"  # an encrypted key's Proc-Type and DEK-Info lines
        r"[\w+/=\s\\]{40,}",
        False,
    ),
)
# Cheap pre-check: a string without any of the shapes' hints holds none of them. With tells: the texts it
# reads (every string of a tool, joined) are folded for it alone.
_SECRET_HINT = Words("|".join(dict.fromkeys(h for shape in SECRET_SHAPES for h in shape.hints)), tells=True)
# Passwords in database URLs that documentation and local set-ups use: not a leak. Only those of 8 or more
# characters: the URL's shape asks for 8 (root, admin, secret, guest and the like never reach this list).
_DEFAULT_PASSWORDS = frozenset("password passw0rd postgres changeme".split())
# A password that names itself, as documentation writes one: mypassword, mysecretpassword (the Postgres
# image's example), root_password, supersecret; not a passphrase that holds such a word
# (Compass_Horse_Battery_Staple, TrespassingKangaroo).
_SAYS_PASSWORD = re.compile(
    r"(?:(?:my|your|the|db|pg|root|admin|test|example|sample|super|default|postgres|mysql|app|user|dev|local)"
    r"[_-]?)?(?:secret[_-]?)?(?:password|passwd|pass|pwd|secret)",
    re.IGNORECASE,
)
# Placeholders and documentation keys: "sk-...", "xoxb-your-token", AKIAIOSFODNN7EXAMPLE, sk-xxxxxxxx.
_PLACEHOLDER = LazyRegex(
    r"x{4,}|\*{3,}|\.{3}|…|0{6,}|1234567|abcdefg|your|example|dummy|placeholder|redacted|sample|fake|changeme"
    r"|insert|replace|<|>",
    re.IGNORECASE,
)


# Keys and tokens printed in public documentation as samples: Stripe's API reference test keys, and the
# Azurite storage emulator's fixed account key (it only opens the local emulator).
_PUBLIC_SAMPLES = frozenset(
    {
        "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
        "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
        "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    }
)


# In a URL's password: ${VAR}, {{var}}, %(name)s, %VAR%, %s; not percent-encoding (%21), which real ones use.
_TEMPLATE = re.compile(r"[${}\[\]]|%(?![0-9A-Fa-f]{2})|%[0-9A-Fa-f]{2}\w*%")


def _real_looking(token: str, shape: SecretShape) -> bool:
    """Whether a match looks like a real credential rather than a placeholder or a format hint."""
    if token in _PUBLIC_SAMPLES:
        return False
    if shape.kind == "a PEM private key":
        return len(set(token.split("-----")[-1])) >= 12
    if shape.kind == "a database URL with its password":
        user, password = token.split("://", 1)[1].rsplit("@", 1)[0].split(":", 1)
        return not (
            password.lower() in _DEFAULT_PASSWORDS
            or _SAYS_PASSWORD.fullmatch(password) is not None
            or password == user
            or _PLACEHOLDER.search(password)
            or _TEMPLATE.search(password) is not None  # a template or an environment reference
            or len(set(password)) < 6
        )
    if _PLACEHOLDER.search(token):
        return False
    if shape.kind == "a JSON Web Token":
        return _jwt_header(token)
    body = token[4:]  # past the prefix (sk-, ghp_, AKIA, AIza...), near enough
    if len(set(body)) < 10:
        return False
    return not shape.mixed or (any(c.isdigit() for c in body) and any(c.isalpha() for c in body))


def _jwt_header(token: str) -> bool:
    """A JWT's first segment decodes to a JSON object naming its algorithm, and its claims are not the
    sample that JWT documentation prints (subject 1234567890, John Doe)."""
    head, claims = [*token.split("."), ""][:2]
    decoded = _b64_json(head)
    if not isinstance(decoded, dict) or "alg" not in decoded:
        return False
    sample = _b64_json(claims)
    return not (isinstance(sample, dict) and sample.get("sub") == "1234567890" and sample.get("name") == "John Doe")


def _b64_json(segment: str) -> Any:
    try:
        return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        return None


def secrets_in(text: str) -> list[tuple[str, str]]:
    """(kind, token) for each credential-shaped token in text."""
    if not _SECRET_HINT.search(text):
        return []
    found: list[tuple[str, str]] = []
    for shape in SECRET_SHAPES:
        found.extend((shape.kind, m.group(0)) for m in shape.pattern.finditer(text) if _real_looking(m.group(0), shape))
    return found


def redact(token: str) -> str:
    """Enough of a token to find it, not enough to use it."""
    first_line = token.strip().splitlines()[0]
    if first_line.startswith("-----BEGIN"):
        return first_line + "…"
    keep = min(len(token) // 3, 10)
    return f"{token[:keep]}… ({len(token)} characters)"


@rule(
    "SEC-005",
    "secret-in-catalog",
    "critical",
    "brittle",
    "An API key, token or private key is written into the catalog",
)
def secret_in_catalog(tool: Tool) -> Iterator[Hit]:
    """
    **What it catches.** A string anywhere in a tool (a default, an example, an
    enum value, a `const`, a description) that contains a credential shape:
    OpenAI and Anthropic keys (`sk-…`), Stripe secret keys (`sk_live_…`), GitHub
    tokens (`ghp_…`, `github_pat_…`), GitLab (`glpat-…`), Slack tokens
    (`xoxb-…`, `xoxp-…`) and webhook URLs, AWS access key IDs (`AKIA…`), Google
    API keys (`AIza…`), Hugging Face, npm, Supabase and SendGrid tokens, Notion
    (`ntn_…`), Linear (`lin_api_…`), Groq (`gsk_…`), DigitalOcean (`dop_v1_…`),
    PyPI (`pypi-AgE…`) and Shopify (`shpat_…`) tokens, Stripe webhook secrets
    (`whsec_…`), Discord webhook URLs and Telegram bot tokens, JSON Web
    Tokens (`eyJ….eyJ….…` whose header decodes), PEM private keys with a body
    (encrypted ones with `Proc-Type`/`DEK-Info` lines too),
    database URLs with a password (`postgres://app:s3cr3tPa55@db.internal/app`,
    `postgresql+asyncpg://…`, a percent-encoded password;
    not a documented default such as `postgres:postgres@`, a template `${PASSWORD}`,
    `%(password)s` or `%DB_PASSWORD%`, a placeholder, or a password of letters
    only that names itself, such as `mypassword` or the Postgres image's example
    `mysecretpassword`), Azure storage account keys
    (`AccountKey=…==`) and AWS secret access keys written after their name
    (`aws_secret_access_key = …`, `SecretAccessKey=…`).
    The message shows only the start of the token.

    Placeholders and format hints stay quiet: `sk-...`, `xoxb-your-bot-token`,
    "a token starting with ghp_", `sk-xxxxxxxxxxxx`, AWS's documentation key
    `AKIAIOSFODNN7EXAMPLE`, Stripe's reference sample key, the Azurite emulator's fixed key, the sample token JWT
    documentation prints (subject 1234567890, John Doe), a bare `-----BEGIN
    PRIVATE KEY-----` header, and tokens with too few distinct characters or
    (where real ones always mix them) no digits or no letters.

    **Why.** A catalog is sent to every client that connects, ends up in model
    context and logs, and is often committed or published; a key in it is a
    leaked key. OWASP LLM02:2025 (sensitive information disclosure) and the
    OWASP Secrets Management Cheat Sheet both say credentials never belong in
    shipped artefacts, and the MCP specification's security best practices keep
    tokens out of anything passed to the model.

    **Bad.** `"api_key": {"type": "string", "default": "sk-proj-3Fq9…"}`

    **Good.** `"api_key": {"type": "string", "description": "Your OpenAI API key
    (starts with sk-); leave empty to use OPENAI_API_KEY from the server's
    environment."}`

    **Fix.** Delete the value, rotate the credential (it has been published), and
    have the server read secrets from its environment or a secret store.
    """
    if not _SECRET_HINT.search(_everything(tool)):
        return
    for t in texts(tool):
        if t.is_key:
            continue
        found = secrets_in(t.text)
        if found:
            kind, token = found[0]
            more = f" and {len(found) - 1} more" if len(found) > 1 else ""
            yield Hit(
                t.pointer,
                f"{t.label} contains what looks like {kind}: {redact(token)}{more}",
                "delete it, rotate the credential, and read secrets from the server's environment",
            )
