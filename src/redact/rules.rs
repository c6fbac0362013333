//! The data of redaction: which words name a secret, which places hold one, which files are
//! what they seem. The token formats are in [`crate::redact::tokens`].
//!
//! Kept apart from the engine so adding a word or a place is one line. A rule replaces its
//! `secret` group, or the whole match when it has none. Each pattern names its needles, literals
//! one of which every match holds (ASCII case aside): a text without any of them never runs, nor
//! even compiles, the rule.

/// One pattern of a rule table.
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The name in the marker (`[REDACTED:<kind>]`) and the counts.
    pub kind: &'static str,
    pub pattern: &'static str,
    /// Literals one of which every match holds, ASCII case aside (empty: every text is tried).
    pub needles: &'static [&'static str],
    /// A format distinctive enough to be looked for in minified and vendored files too.
    pub distinctive: bool,
    /// What the value must also be, beyond the pattern's shape.
    pub check: Check,
}

/// A rule's test of its value, beyond the pattern's shape and the placeholder test all share.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The shape is enough.
    Shape,
    /// The value must look random (see `entropy`): formats with a short or common prefix, and
    /// shapes found by their place (`Bearer …`).
    Random,
    /// A PEM block must hold key material: a line of base64 that is not a documented blank
    /// (`XXXX…`). A parser's `"-----BEGIN PRIVATE KEY-----"` constant holds none.
    KeyBlock,
}

/// A secret known by its place (a flag, a parameter, a statement, a header, a URL's
/// `user:pw@`) rather than by a prefix of its own: never looked for in minified or vendored code,
/// where such shapes are code.
pub(super) const fn placed(
    kind: &'static str,
    needles: &'static [&'static str],
    pattern: &'static str,
) -> Rule {
    Rule {
        kind,
        pattern,
        needles,
        distinctive: false,
        check: Check::Shape,
    }
}

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
    // sssd's `ldap_default_authtok`: the bind password.
    "authtok",
];

/// Words that make a key's name public whatever its last word (`public_key`, `publishableKey`,
/// `pubkey`).
pub const PUBLIC_WORDS: &[&str] = &["public", "publishable", "pub", "pubkey"];

/// Whole names of public values (words joined by `_`): the Push API's `applicationServerKey` is
/// the server's VAPID public key.
pub const PUBLIC_NAMES: &[&str] = &["application_server_key"];

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

/// Secrets known by their place rather than their shape: a command's password flag, a connection
/// string's `password=`, a `.pgpass` line, a SQL statement. Each has a `secret` group; the value
/// must also read as a literal secret (not a variable, placeholder or word), unlike the tokens.
pub const CONTEXTS: &[Rule] = &[
    // `docker login -p x`, `mysql -pSecret`, `mysqldump -p'x'`, `curl -u user:pw`, `openssl … pass:x`.
    placed(
        "cli-password",
        &["docker"],
        r"(?-u:\b)docker[ \t]+login(?-u:\b)[^\n]*?[ \t](?:-p|--password)(?:=|[ \t]+)['\x22]?(?P<secret>[^\s'\x22]+)",
    ),
    placed(
        "cli-password",
        &["mysql", "mariadb"],
        r"(?-u:\b)(?:mysql|mysqldump|mysqladmin|mariadb)(?-u:\b)[^\n]*?[ \t]-p['\x22]?(?P<secret>[^\s'\x22]+)",
    ),
    placed(
        "cli-password",
        &["curl", "wget", "http"],
        r"(?-u:\b)(?:curl|wget|http)(?-u:\b)(?:[^\n]|\\\n)*?[ \t](?:-u|--user|-U|--proxy-user)(?:=|[ \t]+)['\x22]?[^\s:'\x22]+:(?P<secret>[^\s'\x22]+)",
    ),
    placed(
        "cli-password",
        &["pass:"],
        r"[ \t]-\w+[ \t]+['\x22]?pass:(?P<secret>[^\s'\x22\\]+)",
    ),
    // Any `--password x`, `--db-password=x`, keytool's `-storepass x`, `-deststorepass x`, and
    // the token flags of deploy tools (`--token=x`, `--api-key x`, `--authkey=x`).
    placed(
        "cli-password",
        &[
            "password",
            "passwd",
            "passphrase",
            "storepass",
            "keypass",
            "token",
            "api-key",
            "apikey",
            "auth-key",
            "authkey",
        ],
        r"(?:^|[ \t])--?(?:[a-z]+-)*(?:password|passwd|passphrase|storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass|token|api-key|apikey|auth-key|authkey|auth-token|access-token)(?:=|[ \t]+)['\x22]?(?P<secret>[^\s'\x22\\]+)",
    ),
    // Oracle's `user/password@//host`: sqlplus and friends, JDBC thin URLs, `connect`.
    placed(
        "cli-password",
        &["sqlplus", "sqlldr", "rman", "expdp", "impdp"],
        r"(?-u:\b)(?:sqlplus|sqlldr|rman|expdp|impdp)(?-u:\b)[^\n]*?[ \t]['\x22]?[A-Za-z0-9_$#.]+/(?P<secret>[^\s@/'\x22]+)@",
    ),
    placed(
        "connection-password",
        &["jdbc:oracle:", "connect"],
        r"(?i)(?-u:\b)(?:jdbc:oracle:[a-z]+:|connect[ \t]+)[A-Za-z0-9_$#.]+/(?P<secret>[^\s@/'\x22]+)@",
    ),
    // JDBC/ODBC/ADO parameters: `?user=x&password=y`, `;Password=y;`, `;PWD=y`.
    placed(
        "connection-password",
        &["pass", "pwd"],
        r"(?i)[?&;][ \t]*(?:password|passwd|pwd)[ \t]*=[ \t]*(?P<secret>[^&;'\x22\s]+)",
    ),
    // `.pgpass`: host:port:database:user:password, `\:` escaping a colon. Only where the file
    // or its name says so.
    placed(
        "pgpass",
        &["pgpass"],
        r"(?m)^[+\- ]?[A-Za-z0-9_.*\[\]-]+:(?:[0-9]{1,5}|\*):[^:\s]+:[^:\s]+:(?P<secret>(?:[^:\s\\]|\\.)+)[ \t]*$",
    ),
    // SQL: `CREATE USER … WITH PASSWORD '…'`, `IDENTIFIED BY '…'`, `ENCRYPTED PASSWORD '…'`.
    placed(
        "sql-password",
        &["password", "identified"],
        r"(?i)(?-u:\b)(?:password|identified[ \t]+by)[ \t]*(?:=[ \t]*)?'(?P<secret>[^'\n]{4,})'",
    ),
    // PowerShell: `ConvertTo-SecureString "…" -AsPlainText`.
    placed(
        "powershell-password",
        &["convertto-securestring"],
        r#"(?i)(?-u:\b)ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?["'](?P<secret>[^"'\n]+)["'][^\n]*-AsPlainText"#,
    ),
];

/// The value a prose rule states: whole within backticks, `**bold**` or quotes, else one word
/// that ends before a backslash (an escape, in a string of code) (a value's groups are all named
/// `secret…`; the one that took part is replaced).
macro_rules! prose_value {
    () => {
        r"(?:`(?P<secret>[^`\n]+)`|\*\*(?P<secret2>[^*\n]+)\*\*|\x22(?P<secret3>[^\x22\n]+)\x22|'(?P<secret4>[^'\n]+)'|(?P<secret5>[^\s'\x22`()*<>\[\]{}\\]*[^\s'\x22`().,;:!?*<>\[\]{}\\]))"
    };
}

/// Passwords in prose (commit messages, answers, documents), never across a line break:
/// `the password for the staging db is X`, `shared secret is now X`, `with password **X**`,
/// `password (X)`, `pw: X`, `passphrase X`, and a login pair `` `admin` / `X` ``. Only for text
/// that is not code or configuration, and only literal-looking X.
pub const PROSE: &[Rule] = &[
    // Stated: `the password (for the staging db) is X`, `password: X`, `password (X)`.
    placed(
        "password",
        &["pass", "pw", "secret"],
        concat!(
            r"(?i)(?-u:\b)(?:password|passwd|passphrase|pwd|pw|shared[ \t]+secret)(?:[ \t]+(?:for|of|to|on)[ \t]+[^\n.;:!?`'\x22*]{1,40}?)?(?:[ \t]+(?:is|was)(?:[ \t]+now)?:?[ \t]+|[ \t]*[:=][ \t]*|[ \t]*\([ \t]*)",
            prose_value!()
        ),
    ),
    // Given: `with password **X**`, `passphrase X`.
    placed(
        "password",
        &["pass", "pw"],
        concat!(
            r"(?i)(?-u:\b)(?:password|passwd|passphrase|pwd|pw)[ \t]+",
            prose_value!()
        ),
    ),
    // A login pair: `` `admin` / `X` ``.
    placed(
        "password",
        &["login", "credential"],
        r"(?i)(?-u:\b)(?:login|credentials?)(?-u:\b)[^\n`]{0,40}`[A-Za-z0-9._@][^`\s]*`[ \t]*[/:][ \t]*`(?P<secret>[^`\s]+)`",
    ),
];

/// Calls that take a credential as a positional argument (`algoliasearch(appId, key)`,
/// `DefaultProfile.getProfile(region, id, secret)`, `cohere.ClientV2(key)`): a random-looking
/// string argument of one is a secret. Matched against the callee's trailing name segments; a
/// last segment ending in `Client` (`SearchClient`, `AcsClient`, `DatadogClient`) is one too.
pub const CREDENTIAL_CALLS: &[&str] = &[
    "Client",
    "ClientV2",
    "SearchClient.create",
    "algoliasearch",
    "searchClient",
    "Auth",
    "getProfile",
    "Pinecone",
    "Api",
    "OpenAI",
    "Anthropic",
    "Groq",
    "Mistral",
    "Cohere",
    "Replicate",
    "Credentials",
    "BasicAWSCredentials",
    "StaticCredentialsProvider",
    "NewStaticCredentials",
];

/// Markers of an access key's public half: a call that passes one passes its secret half beside
/// it (`Client("AC…", "<auth token>")`, `oss2.Auth("LTAI…", "<secret>")`,
/// `Credentials("AKIA…", "<secret>")`). `(kind of the id, kind of its secret)`.
pub const PAIRED_IDS: &[(&str, &str)] = &[
    ("twilio-key", "twilio-auth-token"),
    ("alibaba-access-key", "alibaba-secret-key"),
    ("aws-access-key", "aws-secret-key"),
];

/// A name and its literal value by position rather than by `=`: `define('DB_PASSWORD', 'x')`,
/// `os.environ.get("SECRET_KEY", "x")`, `ENV.fetch("DB_PASSWORD", "x")`, `ENV.fetch('K') { 'x' }`,
/// `"KEY": {"value": "x"}`, `process.env.API_TOKEN || "x"`, `?? "x"`. Groups `key` and `val`
/// (quoted); the name is judged as in an assignment. `(needles, pattern)`: a form runs only on a
/// text holding one of its needles (empty: every text).
pub const NAMED_FORMS: &[(&[&str], &str)] = &[
    (
        &["("],
        r#"(?i)\(\s*['"](?P<key>[A-Za-z0-9_.-]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_.-]*)['"]\s*,\s*(?P<val>"[^"\n]*"|'[^'\n]*')"#,
    ),
    (
        &["{"],
        r#"(?i)\(\s*['"](?P<key>[A-Za-z0-9_.-]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_.-]*)['"]\s*\)\s*\{\s*(?P<val>"[^"\n]*"|'[^'\n]*')\s*\}"#,
    ),
    // app.json, ARM template parameters.
    (
        &["\"value\""],
        r#"(?i)"(?P<key>[A-Za-z0-9_.-]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_.-]*)"[ \t]*:[ \t]*\{[ \t]*"value"[ \t]*:[ \t]*(?P<val>"[^"\n]*")"#,
    ),
    (
        &["||", "??"],
        r#"(?i)(?P<key>[A-Za-z0-9_]*(?:pass|pwd|secret|token|key|auth|credential|salt)[A-Za-z0-9_]*)['"]?\]?[ \t]*(?:\|\||\?\?)\s*(?P<val>"[^"\n]*"|'[^'\n]*'|`[^`\n]*`)"#,
    ),
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
