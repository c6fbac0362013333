//! The data of redaction: which token formats are secrets, and which words name one.
//!
//! Kept apart from the engine so adding a format is one line. The formats are the ones gitleaks
//! and detect-secrets know (their documented prefixes, alphabets and lengths), written here as our
//! own patterns. A rule replaces its `secret` group, or the whole match when it has none. Each
//! pattern starts at a distinctive literal where it can, so the regex engine skips most text fast.

/// `(kind, pattern)`, most specific first: a secret is counted once, under its best name.
pub const TOKENS: &[(&str, &str)] = &[
    // Key files: a PEM block, also inside a diff or a JSON string; unterminated runs to the end.
    (
        "private-key",
        r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)",
    ),
    (
        "age-secret-key",
        r"\bAGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}\b",
    ),
    // Credentials inside URLs: scheme://user:password@host.
    (
        "url-credential",
        r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'\x22]+:(?P<secret>[^\s@/'\x22]{3,})@",
    ),
    (
        "jwt",
        r"\beyJ[A-Za-z0-9_-]{7,}\.eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{10,}",
    ),
    // AI providers.
    (
        "anthropic-key",
        r"\bsk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}|\bsk-ant-[A-Za-z0-9_-]{20,}",
    ),
    (
        "openai-key",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
    ),
    ("huggingface-token", r"\b(?:hf|api_org)_[A-Za-z]{34}\b"),
    ("perplexity-key", r"\bpplx-[A-Za-z0-9]{48}\b"),
    // Code hosts and package registries.
    (
        "github-token",
        r"\bgh[pousr]_[A-Za-z0-9]{36,}|\bgithub_pat_[A-Za-z0-9_]{22,}",
    ),
    (
        "gitlab-token",
        r"\bgl(?:pat|dt|ft|rt|soat|ffct|imt|agent|oas|ptt|cbt)-[0-9A-Za-z_.-]{20,}|\bGR1348941[0-9A-Za-z_-]{20}",
    ),
    ("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("pypi-token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    ("rubygems-token", r"\brubygems_[a-f0-9]{48}\b"),
    ("artifactory-key", r"\bAKCp[A-Za-z0-9]{69}\b"),
    ("clojars-token", r"\bCLOJARS_[a-z0-9]{60}\b"),
    // Clouds.
    (
        "aws-access-key",
        r"\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b",
    ),
    (
        "aws-secret-key",
        r#"(?i)(?:aws_?secret_?(?:access_?)?key|secret_?access_?key)["']?\s*(?:=|:|:=|=>)\s*["']?(?P<secret>[A-Za-z0-9/+=]{40})\b"#,
    ),
    (
        "azure-storage-key",
        r"(?i)\bAccountKey=(?P<secret>[A-Za-z0-9+/]{40,}={0,2})",
    ),
    (
        "azure-sas-token",
        r"[?&]sig=(?P<secret>[A-Za-z0-9%+/]{30,}={0,2})",
    ),
    (
        "azure-client-secret",
        r"(?:^|[\s'\x22`=:(,>])(?P<secret>[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34})\b",
    ),
    ("google-api-key", r"\bAIza[A-Za-z0-9_-]{35}\b"),
    ("digitalocean-token", r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    ("alibaba-access-key", r"\bLTAI[A-Za-z0-9]{20}\b"),
    ("databricks-token", r"\bdapi[a-f0-9]{32}(?:-\d)?\b"),
    ("heroku-key", r"\bHRKU-AA[0-9A-Za-z_-]{58}\b"),
    ("vault-token", r"\bhv[sb]\.[A-Za-z0-9_-]{90,}"),
    (
        "doppler-token",
        r"\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b",
    ),
    ("pulumi-token", r"\bpul-[a-f0-9]{40}\b"),
    (
        "planetscale-token",
        r"\bpscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}",
    ),
    (
        "dynatrace-token",
        r"\bdt0c01\.[A-Z0-9]{24}\.[A-Za-z0-9]{64}\b",
    ),
    (
        "grafana-token",
        r"\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,}={0,2}",
    ),
    ("new-relic-key", r"\bNR(?:AK|II|JS)-[A-Za-z0-9]{19,27}\b"),
    ("sentry-token", r"\bsntry[us]_[A-Za-z0-9+/=_]{40,}"),
    ("linear-key", r"\blin_api_[A-Za-z0-9]{40}\b"),
    ("postman-key", r"\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b"),
    (
        "1password-key",
        r"\bA3-[A-Z0-9]{6}-[A-Z0-9-]{11,12}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
    ),
    // Payments and messaging.
    (
        "stripe-key",
        r"\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|\bwhsec_[A-Za-z0-9]{32,}",
    ),
    ("square-token", r"\bsq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}"),
    ("shopify-token", r"\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b"),
    ("twilio-key", r"\b(?:SK|AC)[0-9a-f]{32}\b"),
    (
        "sendgrid-key",
        r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}",
    ),
    (
        "sendinblue-key",
        r"\bxkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}\b",
    ),
    ("mailchimp-key", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    ("mailgun-key", r"\bkey-[0-9a-f]{32}\b"),
    (
        "slack-token",
        r"\bxox[abposre]-[0-9A-Za-z-]{10,}|\bxapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+",
    ),
    (
        "slack-webhook",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_+-]{16,}",
    ),
    (
        "teams-webhook",
        r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[A-Za-z0-9@/_-]{40,}",
    ),
    (
        "discord-webhook",
        r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{40,}",
    ),
    ("telegram-bot-token", r"\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b"),
    (
        "discord-bot-token",
        r"\b[MN][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b",
    ),
    // Headers and tool configurations.
    (
        "bearer-token",
        r"\b[Bb]earer\s+(?P<secret>[A-Za-z0-9._~+/=-]{16,})",
    ),
    (
        "basic-auth",
        // base64 of user:password has a digit, `+`, `/` or padding; a word ("basic
        // authentication") has none.
        r"\b[Bb]asic\s+(?P<secret>[A-Za-z0-9+/]{4,}[0-9+/=][A-Za-z0-9+/]{4,}={0,2})(?:[\s'\x22`;,]|$)",
    ),
    (
        "npm-auth",
        r"(?m)(?:_authToken|_auth|_password)\s*=\s*(?P<secret>[^\s$'\x22][^\s'\x22]{5,})",
    ),
    (
        "docker-auth",
        r#""(?:auth|identitytoken|registrytoken)"\s*:\s*"(?P<secret>[A-Za-z0-9+/_.-]{12,}={0,2})""#,
    ),
    (
        "kube-client-key",
        r"\b(?:client-key-data|client-key|private-key-data)\s*:\s*['\x22]?(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    (
        "nuget-password",
        r#"(?i)<add\s+key="(?:ClearText)?Password"\s+value="(?P<secret>[^"]{4,})""#,
    ),
    (
        "netrc-password",
        r"\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?P<secret>\S+)",
    ),
    (
        "gitlab-session",
        r"\b_gitlab_session=(?P<secret>[0-9a-z]{32})\b",
    ),
];

/// Words that, as the last word of a key, name a secret: its literal value is redacted.
pub const SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "pwd",
    "pass",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "authtoken",
    "credential",
    "credentials",
    "privatekey",
    "secretkey",
    "accesskey",
    "signingkey",
    "encryptionkey",
    "masterkey",
];

/// The word before `key` that makes it a secret (`api_key`, `private-key`, `secretKey`).
pub const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "signing",
    "encryption",
    "master",
    "client",
    "auth",
    "license",
    "account",
    "app",
    "service",
    "subscription",
    "storage",
];

/// Last words that name something only loosely secret (`key`, `auth`, `sid`): the value must
/// also look random (see `entropy`) to be redacted.
pub const WEAK_WORDS: &[&str] = &["key", "auth", "sid", "dsn", "salt", "seed", "cookie", "sig"];

/// Values that stand for a secret without being one: documentation and templates.
pub const PLACEHOLDERS: &[&str] = &[
    "none",
    "null",
    "nil",
    "true",
    "false",
    "undefined",
    "xxx",
    "changeme",
    "change-me",
    "example",
    "password",
    "passwd",
    "secret",
    "token",
    "redacted",
    "required",
    "optional",
    "string",
    "str",
    "bytes",
    "number",
    "boolean",
    "placeholder",
    "todo",
    "dummy",
    "default",
    "empty",
];
