//! The data of redaction: which token formats are secrets, and which words name one.
//!
//! Kept apart from the engine so adding a format is one line. The formats are the ones gitleaks
//! and detect-secrets know (their documented prefixes, alphabets and lengths), written here as our
//! own patterns. A rule replaces its `secret` group, or the whole match when it has none. Each
//! pattern starts at a distinctive literal where it can, so the regex engine skips most text fast.

/// A token with a distinctive prefix (`ghp_`, `rk_live_`, `AKIA`): it starts at a word boundary or
/// right after `_`, and ends before anything that is not a letter or digit, so one glued into a
/// name (`stripe_rk_live_…_charges.yml`, `x_ghp_…_y.json`) is found too. The boundary characters
/// stay outside the `secret` group, so they are kept.
macro_rules! prefixed {
    ($body:literal) => {
        concat!(r"(?:\b|_)(?P<secret>", $body, r")(?:[^A-Za-z0-9]|$)")
    };
}

/// `(kind, pattern)`, most specific first: a secret is counted once, under its best name.
pub const TOKENS: &[(&str, &str)] = &[
    // Key files: a PEM block, also inside a diff or a JSON string; unterminated runs to the end.
    (
        "private-key",
        r"(?s)-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)",
    ),
    (
        "age-secret-key",
        prefixed!(r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}"),
    ),
    // Credentials inside URLs: scheme://user:password@host.
    (
        "url-credential",
        r"\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@'\x22]*:(?P<secret>[^\s@/'\x22]{3,})@",
    ),
    (
        "jwt",
        r"\beyJ[A-Za-z0-9_-]{7,}\.eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{10,}",
    ),
    // AI providers.
    (
        "anthropic-key",
        prefixed!(r"sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}|sk-ant-[A-Za-z0-9_-]{20,}"),
    ),
    (
        "openai-key",
        r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}",
    ),
    (
        "huggingface-token",
        prefixed!(r"(?:hf|api_org)_[A-Za-z]{34}"),
    ),
    ("perplexity-key", prefixed!(r"pplx-[A-Za-z0-9]{48}")),
    // Code hosts and package registries.
    (
        "github-token",
        prefixed!(r"gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}"),
    ),
    (
        "gitlab-token",
        prefixed!(
            r"gl(?:pat|dt|ft|rt|soat|ffct|imt|agent|oas|ptt|cbt)-[0-9A-Za-z_.-]{20,}|GR1348941[0-9A-Za-z_-]{20}"
        ),
    ),
    ("npm-token", prefixed!(r"npm_[A-Za-z0-9]{36}")),
    (
        "pypi-token",
        prefixed!(r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    ),
    ("rubygems-token", prefixed!(r"rubygems_[a-f0-9]{48}")),
    ("artifactory-key", prefixed!(r"AKCp[A-Za-z0-9]{69}")),
    ("clojars-token", prefixed!(r"CLOJARS_[a-z0-9]{60}")),
    // Clouds.
    (
        "aws-access-key",
        prefixed!(r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}"),
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
    (
        "azure-sas-key",
        r"(?i)\bSharedAccessKey=(?P<secret>[A-Za-z0-9+/]{20,}={0,2})",
    ),
    ("google-api-key", prefixed!(r"AIza[A-Za-z0-9_-]{35}")),
    ("digitalocean-token", prefixed!(r"do[opr]_v1_[a-f0-9]{64}")),
    ("alibaba-access-key", prefixed!(r"LTAI[A-Za-z0-9]{20}")),
    ("databricks-token", prefixed!(r"dapi[a-f0-9]{32}(?:-\d)?")),
    ("heroku-key", prefixed!(r"HRKU-AA[0-9A-Za-z_-]{58}")),
    ("vault-token", prefixed!(r"hv[sb]\.[A-Za-z0-9_-]{90,}")),
    (
        "doppler-token",
        r"\bdp\.(?:pt|st|ct|sa|scim|audit)\.[A-Za-z0-9]{40,44}\b",
    ),
    ("pulumi-token", prefixed!(r"pul-[a-f0-9]{40}")),
    (
        "planetscale-token",
        prefixed!(r"pscale_(?:tkn|oauth|pw)_[A-Za-z0-9_=.-]{32,64}"),
    ),
    (
        "dynatrace-token",
        r"\bdt0c01\.[A-Z0-9]{24}\.[A-Za-z0-9]{64}\b",
    ),
    (
        "grafana-token",
        prefixed!(r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/]{32,}={0,2}"),
    ),
    ("new-relic-key", r"\bNR(?:AK|II|JS)-[A-Za-z0-9]{19,27}\b"),
    ("sentry-token", prefixed!(r"sntry[us]_[A-Za-z0-9+/=_]{40,}")),
    ("linear-key", prefixed!(r"lin_api_[A-Za-z0-9]{40}")),
    ("postman-key", prefixed!(r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}")),
    (
        "1password-key",
        r"\bA3-[A-Z0-9]{6}-[A-Z0-9-]{11,12}-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b",
    ),
    // Atlassian API tokens: `ATATT3`, base64url, then `=` and an 8-hex checksum (about 190 in all).
    (
        "atlassian-token",
        prefixed!(r"ATATT3[A-Za-z0-9_=-]{100,}=[0-9A-Fa-f]{8}|ATATT3[A-Za-z0-9_=-]{150,}"),
    ),
    // Payments and messaging.
    (
        "stripe-key",
        prefixed!(r"(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9]{32,}"),
    ),
    (
        "square-token",
        prefixed!(r"sq0(?:atp|csp)-[0-9A-Za-z_-]{22,43}"),
    ),
    (
        "shopify-token",
        prefixed!(r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}"),
    ),
    ("twilio-key", r"\b(?:SK|AC)[0-9a-f]{32}\b"),
    (
        "sendgrid-key",
        r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{30,50}",
    ),
    (
        "sendinblue-key",
        prefixed!(r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}"),
    ),
    ("mailchimp-key", r"\b[0-9a-f]{32}-us\d{1,2}\b"),
    ("mailgun-key", r"\bkey-[0-9a-f]{32}\b"),
    (
        "slack-token",
        prefixed!(r"xox[abposre]-[0-9A-Za-z-]{10,}|xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+"),
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
    // Okta's own scheme: `Authorization: SSWS <token>`.
    (
        "okta-token",
        r"\bSSWS\s+(?P<secret>[A-Za-z0-9._~+/=-]{16,})",
    ),
    (
        "basic-auth",
        // base64 of user:password has a digit, `+`, `/` or padding; a word ("basic
        // authentication") has none.
        r"\b[Bb]asic\s+(?P<secret>[A-Za-z0-9+/]{4,}[0-9+/=][A-Za-z0-9+/]{4,}={0,2})(?:[\s'\x22`;,]|$)",
    ),
    (
        "npm-auth",
        // Only as a whole key at a line's start or after a registry's `:` (`//host/:_auth=`), never a
        // name ending in `_auth` in code (`basic_auth = HTTPBasicAuth(…)`); `_auth` and
        // `_password` hold base64.
        r"(?m)(?:^[+\- ]?[ \t]*|:)_authToken\s*=\s*(?P<secret>[A-Za-z0-9._~+/=-]{6,})",
    ),
    (
        "npm-auth",
        r"(?m)(?:^[+\- ]?[ \t]*|:)_(?:auth|password)\s*=\s*['\x22]?(?P<secret>[A-Za-z0-9+/]{6,}={0,2})(?:[\s'\x22]|$)",
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
        r"\bmachine\s+\S+\s+login\s+\S+\s+password\s+(?P<secret>[^\s'\x22\\]+)",
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

/// Literals a rule's text (or file name) must contain for the rule to run, for rules whose pattern
/// does not start with one: the regex engine then has no fast substring search and would scan
/// every byte. `(kind, literals)`: any one of them opens the gate.
pub const GATES: &[(&str, &[&str])] = &[
    ("azure-client-secret", &["Q~"]),
    ("npm-auth", &["_auth", "_password"]),
    ("pgpass", &["pgpass"]),
];

/// Secrets known by their place rather than their shape: a command's password flag, a connection
/// string's `password=`, a `.pgpass` line. `(kind, pattern)` with a `secret` group; the value must
/// also read as a literal secret (not a variable, placeholder or word), unlike [`TOKENS`].
pub const CONTEXTS: &[(&str, &str)] = &[
    // `docker login -p x`, `mysql -pSecret`, `curl -u user:pw`, `openssl … pass:x`.
    (
        "cli-password",
        r"\bdocker\s+login\b[^\n]*?\s(?:-p|--password)(?:=|\s+)['\x22]?(?P<secret>[^\s'\x22]+)",
    ),
    (
        "cli-password",
        r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n]*?\s-p(?P<secret>[^\s'\x22]+)",
    ),
    (
        "cli-password",
        r"\b(?:curl|wget|http)\b(?:[^\n]|\\\n)*?\s(?:-u|--user|-U|--proxy-user)(?:=|\s+)['\x22]?[^\s:'\x22]+:(?P<secret>[^\s'\x22]+)",
    ),
    (
        "cli-password",
        r"\s-\w+\s+['\x22]?pass:(?P<secret>[^\s'\x22]+)",
    ),
    // Any `--password x`, `--db-password=x`, keytool's `-storepass x`, `-deststorepass x`.
    (
        "cli-password",
        r"(?:^|\s)--?(?:[a-z]+-)*(?:password|passwd|passphrase|storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass)(?:=|[ \t]+)['\x22]?(?P<secret>[^\s'\x22\\]+)",
    ),
    // Oracle's `user/password@//host`: sqlplus and friends, JDBC thin URLs, `connect`.
    (
        "cli-password",
        r"\b(?:sqlplus|sqlldr|rman|expdp|impdp)\b[^\n]*?\s['\x22]?[A-Za-z0-9_$#.]+/(?P<secret>[^\s@/'\x22]+)@",
    ),
    (
        "connection-password",
        r"(?i)\b(?:jdbc:oracle:[a-z]+:|connect\s+)[A-Za-z0-9_$#.]+/(?P<secret>[^\s@/'\x22]+)@",
    ),
    // JDBC/ODBC/ADO parameters: `?user=x&password=y`, `;Password=y;`, `;PWD=y`.
    (
        "connection-password",
        r"(?i)[?&;][ \t]*(?:password|passwd|pwd)[ \t]*=[ \t]*(?P<secret>[^&;'\x22\s]+)",
    ),
    // `.pgpass`: host:port:database:user:password, `\:` escaping a colon.
    (
        "pgpass",
        r"(?m)^[+\- ]?[A-Za-z0-9_.*\[\]-]+:(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:(?P<secret>(?:[^:\s\\]|\\.)+)[ \t]*$",
    ),
];

/// Passwords in prose (commit messages, answers, documents): `the password is X`, `password
/// (X)`, `pw: X`. Only for text that is not code or configuration, and only literal-looking X.
pub const PROSE: &[(&str, &str)] = &[(
    "password",
    r"(?i)\b(?:password|passwd|passphrase|pwd|pw)(?:\s+(?:is|was)(?:\s+now)?:?\s+|[ \t]*[:=][ \t]*|\s*\(\s*)['\x22`]?(?P<secret>[^\s'\x22`()]*[^\s'\x22`().,;:!?])",
)];

/// A name and its literal value by position rather than by `=`: `define('DB_PASSWORD', 'x')`,
/// `os.environ.get("SECRET_KEY", "x")`, `ENV.fetch("DB_PASSWORD", "x")`, `ENV.fetch('K') { 'x' }`,
/// `process.env.API_TOKEN || "x"`, `?? "x"`. Groups `key` and `val` (quoted); the name is judged
/// as in an assignment.
pub const NAMED_FORMS: &[&str] = &[
    r#"(?i)\(\s*['"](?P<key>[A-Za-z0-9_.-]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_.-]*)['"]\s*,\s*(?P<val>"[^"\n]*"|'[^'\n]*')"#,
    r#"(?i)\(\s*['"](?P<key>[A-Za-z0-9_.-]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_.-]*)['"]\s*\)\s*\{\s*(?P<val>"[^"\n]*"|'[^'\n]*')\s*\}"#,
    r#"(?i)(?P<key>[A-Za-z0-9_]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_]*)['"]?\]?[ \t]*(?:\|\||\?\?)\s*(?P<val>"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)"#,
];

/// Whole names that are secrets though their last word is not (`secret_key_base`, Rails).
pub const SECRET_NAMES: &[&str] = &["secret_key_base"];

/// Last words of a `.env` name whose value is a setting, not a secret (`NODE_ENV`,
/// `OPENAI_MODEL`, `MAILGUN_DOMAIN`): kept readable unless the value looks random.
pub const SETTING_WORDS: &[&str] = &[
    "env",
    "environment",
    "mode",
    "model",
    "domain",
    "host",
    "hostname",
    "port",
    "region",
    "zone",
    "level",
    "name",
    "user",
    "username",
    "email",
    "url",
    "uri",
    "endpoint",
    "path",
    "dir",
    "file",
    "version",
    "timezone",
    "tz",
    "locale",
    "lang",
    "driver",
    "engine",
    "channel",
    "bucket",
    "queue",
    "topic",
    "project",
    "id",
    "timeout",
    "size",
    "limit",
    "debug",
];
